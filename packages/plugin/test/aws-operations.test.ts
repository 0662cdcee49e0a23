/**
 * Plans and errors against the real AWS provider, configured offline (no AWS call is ever
 * made: plans, validation and the offline flags need no network). One provider process for
 * the whole file.
 */
import { Path, listVal, nullVal, objectVal, stringVal, type Value } from "@magma/cty";
import {
  configValue,
  isProviderError,
  proposedNewState,
  type AnyProviderError,
  type PlannedChange,
  type SchemaEntry,
} from "@magma/provider-api";
import { dialConfiguredProvider, type LiveProvider } from "../src/dial-provider.js";
import { WireProviderConn } from "../src/internal/wire-provider-conn.js";
import type { ProviderConn } from "../src/provider-conn.js";
import { replaceUnknowns } from "./support/known-state.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;

async function rejection(p: Promise<unknown>): Promise<AnyProviderError> {
  const e: unknown = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isProviderError(e)) throw new Error(`expected a ProviderError, got ${String(e)}`);
  return e;
}

d("the real AWS provider, configured offline: plans and error paths", () => {
  let live: LiveProvider;

  beforeAll(async () => {
    live = await dialConfiguredProvider({ binary: AWS_BINARY, config: AWS_OFFLINE_CONFIG });
  }, 120_000);

  afterAll(async () => {
    await live?.close();
  });

  function resource(typeName: string): SchemaEntry {
    const e = live.schema.resources.get(typeName);
    if (e === undefined) throw new Error(`no ${typeName}`);
    return e;
  }

  async function planCreate(
    typeName: string,
    plain: Record<string, unknown>,
  ): Promise<{ change: PlannedChange; config: Value }> {
    const { block, type } = resource(typeName);
    const config = configValue(block, plain as Parameters<typeof configValue>[1]);
    const prior = nullVal(type);
    const change = await live.provider.planResourceChange(
      typeName,
      prior,
      proposedNewState(block, prior, config),
      config,
    );
    return { change, config };
  }

  function expectUnknown(v: Value, ...names: string[]): void {
    for (const n of names) expect({ [n]: v.getAttr(n).isKnown() }).toEqual({ [n]: false });
  }

  test("configured over protocol 5", () => {
    expect(live.protocolVersion).toBe(5);
    expect(live.provider).toBeInstanceOf(WireProviderConn);
    expect((live.provider as ProviderConn).configured).toBe(true);
  });

  describe("create plans with unknowns", () => {
    test("aws_ssm_parameter: config values known, arn/version unknown, private state, legacy type system", async () => {
      const { change } = await planCreate("aws_ssm_parameter", {
        name: "/magma/test",
        type: "String",
        value: "v1",
      });
      const s = change.plannedState;
      expect(s.isNull()).toBe(false);
      expect(s.getAttr("name").asString()).toBe("/magma/test");
      expect(s.getAttr("type").asString()).toBe("String");
      expect(s.getAttr("value").asString()).toBe("v1");
      expectUnknown(s, "arn", "id", "version");
      expect(change.plannedPrivate.length).toBeGreaterThan(0);
      expect(change.legacyTypeSystem).toBe(true);
      // SDKv2 returns ForceNew paths even on a create (protocol C2); Terraform ignores them
      // there. They are decoded as paths into the schema.
      expect(change.requiresReplace.map((p) => p.toString())).toContain("name");
      for (const p of change.requiresReplace) expect(() => s.getPath(p)).not.toThrow();
    });

    test("aws_vpc: cidr_block known, arn/id/default_route_table_id unknown", async () => {
      const { change } = await planCreate("aws_vpc", { cidr_block: "10.0.0.0/16" });
      const s = change.plannedState;
      expect(s.getAttr("cidr_block").asString()).toBe("10.0.0.0/16");
      expectUnknown(s, "arn", "id", "default_route_table_id", "main_route_table_id", "owner_id");
      expect(s.getAttr("instance_tenancy").asString()).toBe("default"); // a schema default
      expect(change.plannedPrivate.length).toBeGreaterThan(0);
      expect(change.legacyTypeSystem).toBe(true);
    });

    test('aws_eip with domain = "vpc": domain known, allocation_id/public_ip/id unknown', async () => {
      const { change } = await planCreate("aws_eip", { domain: "vpc" });
      const s = change.plannedState;
      expect(s.getAttr("domain").asString()).toBe("vpc");
      expectUnknown(s, "allocation_id", "public_ip", "id", "arn");
      expect(change.plannedPrivate.length).toBeGreaterThan(0);
      expect(change.legacyTypeSystem).toBe(true);
    });
  });

  describe("requires_replace on updates of aws_ssm_parameter", () => {
    let prior: Value;

    beforeAll(async () => {
      // A realistic stored state: the create plan with what apply computes filled in.
      const { change } = await planCreate("aws_ssm_parameter", {
        name: "/magma/test",
        type: "String",
        value: "v1",
      });
      prior = replaceUnknowns(change.plannedState);
      expect(prior.isWhollyKnown()).toBe(true);
      expect(prior.getAttr("arn").asString()).toBe("known:arn");
    });

    async function planUpdate(plain: Record<string, unknown>): Promise<PlannedChange> {
      const { block } = resource("aws_ssm_parameter");
      const config = configValue(block, plain as Parameters<typeof configValue>[1]);
      return live.provider.planResourceChange(
        "aws_ssm_parameter",
        prior,
        proposedNewState(block, prior, config),
        config,
      );
    }

    test("the same configuration plans no change", async () => {
      const change = await planUpdate({ name: "/magma/test", type: "String", value: "v1" });
      expect(change.requiresReplace).toEqual([]);
      expect(change.plannedState.getAttr("name").asString()).toBe("/magma/test");
      expect(change.plannedState.getAttr("arn").asString()).toBe("known:arn");
    });

    test("a new name requires replacement at path name", async () => {
      const change = await planUpdate({ name: "/magma/other", type: "String", value: "v1" });
      expect(change.requiresReplace.map((p) => p.toString())).toContain("name");
      expect(change.requiresReplace.some((p) => p.equals(Path.root.attr("name")))).toBe(true);
      expect(change.plannedState.getAttr("name").asString()).toBe("/magma/other");
    });

    test("a new value is an in-place update (name not in requires_replace)", async () => {
      const change = await planUpdate({ name: "/magma/test", type: "String", value: "v2" });
      expect(change.requiresReplace.map((p) => p.toString())).not.toContain("name");
      expect(change.plannedState.getAttr("value").asString()).toBe("v2");
      expect(change.plannedState.getAttr("name").asString()).toBe("/magma/test");
      // SDKv2 marks version unknown when the value changes.
      expect(change.plannedState.getAttr("version").isKnown()).toBe(false);
    });
  });

  describe("error paths", () => {
    test("an unknown resource type or data source rejects with unknown_type", async () => {
      const { type } = resource("aws_vpc");
      const v = nullVal(type);
      const e = await rejection(live.provider.planResourceChange("aws_no_such_thing", v, v, v));
      expect(e.code).toBe("unknown_type");
      if (e.code === "unknown_type")
        expect(e.detail).toEqual({
          code: "unknown_type",
          kind: "resource",
          typeName: "aws_no_such_thing",
        });
      const e2 = await rejection(live.provider.readDataSource("aws_no_such_data", v));
      expect(e2.code).toBe("unknown_type");
      if (e2.code === "unknown_type") expect(e2.detail.kind).toBe("data_source");
      const e3 = await rejection(live.provider.upgradeResourceState("aws_no_such_thing", 0, "{}"));
      expect(e3.code).toBe("unknown_type");
      const e4 = await rejection(live.provider.importResourceState("aws_no_such_thing", "x"));
      expect(e4.code).toBe("unknown_type");
    });

    test("state from a newer schema version than the provider's is refused, as Terraform refuses it", async () => {
      const { version } = live.schema.resources.get("aws_security_group_rule")!;
      const e = await rejection(live.provider.upgradeResourceState("aws_security_group_rule", version + 1, "{}"));
      expect(e.code).toBe("schema");
      expect(e.message).toContain(`schema version ${version + 1}`);
    });

    test('aws_vpc with cidr_block "not-a-cidr": ValidateResourceConfig rejects with an error diagnostic at cidr_block', async () => {
      const e = await rejection(planCreate("aws_vpc", { cidr_block: "not-a-cidr" }));
      expect(e.code).toBe("diagnostics");
      if (e.code !== "diagnostics") return;
      const errors = e.detail.diagnostics.filter((x) => x.severity === "error");
      expect(errors.length).toBeGreaterThan(0);
      const atCidr = errors.find((x) => x.attribute?.toString() === "cidr_block");
      expect(atCidr).toBeDefined();
      expect(`${atCidr!.summary} ${atCidr!.detail ?? ""}`).toMatch(/CIDR/i);
    });

    test("a value that does not conform to the schema type rejects with schema naming the path, before any RPC", async () => {
      const { block, type } = resource("aws_vpc");
      const good = configValue(block, { cidr_block: "10.0.0.0/16" });
      const attrs: Record<string, Value> = {
        ...good.attributes(),
        cidr_block: listVal([stringVal("10.0.0.0/16")]),
      };
      const bad = objectVal(attrs);
      const e = await rejection(
        live.provider.planResourceChange("aws_vpc", nullVal(type), bad, bad),
      );
      expect(e.code).toBe("schema");
      if (e.code === "schema") expect(e.detail.path?.toString()).toBe("cidr_block");
      expect(e.message).toMatch(/proposed new state/);
      // An object missing attributes is not the schema's type either.
      const missing = objectVal({ cidr_block: stringVal("10.0.0.0/16") });
      const e2 = await rejection(live.provider.readResource("aws_vpc", missing));
      expect(e2.code).toBe("schema");
      expect((live.provider as ProviderConn).inflight).toBe(0);
    });
  });
});
