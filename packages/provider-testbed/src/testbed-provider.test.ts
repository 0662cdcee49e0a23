import { Path, nullVal, stringVal, type Value } from "@magma/cty";
import { configValue, isProviderError, proposedNewState, type PlainConfig, type Provider, type FunctionCaller } from "@magma/provider-api";
import { THING_SCHEMA_VERSION, createTestbedProvider, stableHash } from "./index.js";

async function configured(prefix?: string): Promise<Provider & FunctionCaller> {
  const p = createTestbedProvider();
  const schema = await p.getSchema();
  await p.configure(configValue(schema.provider.block, prefix === undefined ? {} : { prefix }), "1.11.4");
  return p;
}

async function entry(p: Provider, type: string) {
  const e = (await p.getSchema()).resources.get(type);
  if (e === undefined) throw new Error(`no ${type}`);
  return e;
}

/** Plans as terraform would (config from plain data, ProposedNew), then applies. */
async function planApply(p: Provider, type: string, prior: Value, plain: PlainConfig) {
  const e = await entry(p, type);
  const config = configValue(e.block, plain);
  const plan = await p.planResourceChange(type, prior, proposedNewState(e.block, prior, config), config);
  const applied = await p.applyResourceChange(type, prior, plan.plannedState, config, { plannedPrivate: plan.plannedPrivate });
  return { plan, state: applied.newState, private: applied.private };
}

const THING = { name: "alpha", props: { color: "red" }, endpoints: [{ host: "h1" }], rule: [{ port: 22 }], policy: { effect: "allow" } };

describe("testbed_thing", () => {
  test("a create plans the provider's defaults and a fingerprint, leaves the id unknown, and applies deterministically", async () => {
    const p = await configured();
    const { plan, state } = await planApply(p, "testbed_thing", nullVal((await entry(p, "testbed_thing")).type), THING);
    const planned = plan.plannedState;
    expect(planned.getAttr("id").isKnown()).toBe(false);
    expect(planned.getAttr("fingerprint").asString()).toMatch(/^fp-[0-9a-f]{16}$/);
    expect(planned.getAttr("size").asNumber().toString()).toBe("1");
    expect(planned.getAttr("props").getAttr("weight").asNumber().toString()).toBe("10");
    expect(planned.getPath(Path.root.attr("endpoints").index(0).attr("url")).asString()).toBe("https://h1:443");
    expect(planned.getPath(Path.root.attr("rule").index(0).attr("proto")).asString()).toBe("tcp");
    expect(state.getAttr("id").asString()).toBe(`tb-${stableHash("|testbed_thing|alpha.id")}`);
    // Another provider process computes the same values.
    const again = await planApply(await configured(), "testbed_thing", nullVal(state.type), THING);
    expect(again.state.rawEquals(state)).toBe(true);
  });

  test("the prefix changes every id; the same configuration re-planned is no change", async () => {
    const p = await configured("p1-");
    const { state, private: priv } = await planApply(p, "testbed_thing", nullVal((await entry(p, "testbed_thing")).type), THING);
    const other = await planApply(await configured(), "testbed_thing", nullVal(state.type), THING);
    expect(state.getAttr("fingerprint").rawEquals(other.state.getAttr("fingerprint"))).toBe(false);
    const replan = await planApply(p, "testbed_thing", state, THING);
    expect(replan.plan.plannedState.rawEquals(state)).toBe(true);
    expect(replan.plan.requiresReplace).toEqual([]);
    expect(priv.length).toBeGreaterThan(0);
  });

  test("name and policy.effect force replacement (the id becomes unknown); description does not", async () => {
    const p = await configured();
    const { state } = await planApply(p, "testbed_thing", nullVal((await entry(p, "testbed_thing")).type), THING);
    const e = await entry(p, "testbed_thing");
    const planOf = async (plain: PlainConfig) => {
      const config = configValue(e.block, plain);
      return p.planResourceChange("testbed_thing", state, proposedNewState(e.block, state, config), config);
    };
    const renamed = await planOf({ ...THING, name: "beta" });
    expect(renamed.requiresReplace.map((x) => x.toString())).toEqual([Path.root.attr("name").toString()]);
    expect(renamed.plannedState.getAttr("id").isKnown()).toBe(false);
    const effect = await planOf({ ...THING, policy: { effect: "deny" } });
    expect(effect.requiresReplace.map((x) => x.toString())).toEqual([Path.root.attr("policy").attr("effect").toString()]);
    const described = await planOf({ ...THING, description: "d" });
    expect(described.requiresReplace).toEqual([]);
    expect(described.plannedState.getAttr("id").rawEquals(state.getAttr("id"))).toBe(true);
    expect(described.plannedState.getAttr("fingerprint").rawEquals(state.getAttr("fingerprint"))).toBe(false);
  });

  test("a negative size is an error diagnostic at size", async () => {
    const p = await configured();
    const e = await entry(p, "testbed_thing");
    const config = configValue(e.block, { name: "x", size: -1 });
    const err = await p.planResourceChange("testbed_thing", nullVal(e.type), proposedNewState(e.block, nullVal(e.type), config), config).catch((x: unknown) => x);
    expect(isProviderError(err) && err.code === "diagnostics").toBe(true);
    expect(String((err as Error).message)).toContain("size must not be negative");
  });

  test("reads: vanish reports the object gone; missing private state is an error", async () => {
    const p = await configured();
    const t = nullVal((await entry(p, "testbed_thing")).type);
    const kept = await planApply(p, "testbed_thing", t, THING);
    const read = await p.readResource("testbed_thing", kept.state, { private: kept.private });
    expect(read.gone).toBe(false);
    const gone = await planApply(p, "testbed_thing", t, { ...THING, vanish: true });
    expect((await p.readResource("testbed_thing", gone.state, { private: gone.private })).gone).toBe(true);
    await expect(p.readResource("testbed_thing", kept.state, {})).rejects.toThrow("Missing private state");
  });

  test("import by name, and an upgrade of schema version 0 (title) to 1 (name)", async () => {
    const p = await configured();
    const imported = await p.importResourceState("testbed_thing", "alpha");
    expect(imported!.resources[0]!.state.getAttr("name").asString()).toBe("alpha");
    expect(imported!.resources[0]!.state.getAttr("id").asString()).toMatch(/^tb-/);
    expect(imported!.resources[0]!.private.length).toBeGreaterThan(0);
    expect(THING_SCHEMA_VERSION).toBe(1);
    const up = await p.upgradeResourceState("testbed_thing", 0, JSON.stringify({ id: "x", title: "old", size: 3 }));
    expect(up.upgradedState.getAttr("name").asString()).toBe("old");
    expect(up.upgradedState.getAttr("size").asNumber().toString()).toBe("3");
    await expect(p.upgradeResourceState("testbed_thing", 7, "{}")).rejects.toThrow("newer than the provider");
  });
});

describe("testbed_value and testbed_legacy", () => {
  test("output is known at plan, token only after apply; the write-only value is never planned or stored", async () => {
    const p = await configured();
    const t = nullVal((await entry(p, "testbed_value")).type);
    const { plan, state } = await planApply(p, "testbed_value", t, { input: "a", secret_wo: "shh" });
    expect(plan.plannedState.getAttr("output").isKnown()).toBe(true);
    expect(plan.plannedState.getAttr("token").isKnown()).toBe(false);
    expect(plan.plannedState.getAttr("secret_wo").isNull()).toBe(true);
    expect(state.getAttr("secret_wo").isNull()).toBe(true);
    expect(state.getAttr("keep").asString()).toBe("kept");
    const same = await planApply(p, "testbed_value", state, { input: "a" });
    expect(same.plan.plannedState.getAttr("token").rawEquals(state.getAttr("token"))).toBe(true);
    const changed = await planApply(p, "testbed_value", state, { input: "b" });
    expect(changed.plan.plannedState.getAttr("token").isKnown()).toBe(false);
  });

  test("legacy: the label is stored lower-cased and a case-only change plans as the stored value", async () => {
    const p = await configured();
    const t = nullVal((await entry(p, "testbed_legacy")).type);
    const { plan, state } = await planApply(p, "testbed_legacy", t, { label: "Hello" });
    expect(plan.legacyTypeSystem).toBe(true);
    expect(state.getAttr("label").asString()).toBe("hello");
    const again = await planApply(p, "testbed_legacy", state, { label: "HELLO" });
    expect(again.plan.plannedState.getAttr("label").asString()).toBe("hello");
  });
});

describe("data source and functions", () => {
  test("testbed_lookup is a pure function of key and width; a bad width is an error", async () => {
    const p = await configured();
    const ds = (await p.getSchema()).dataSources.get("testbed_lookup")!;
    const r1 = await p.readDataSource("testbed_lookup", configValue(ds.block, { key: "k", width: 3 }));
    const r2 = await p.readDataSource("testbed_lookup", configValue(ds.block, { key: "k", width: 3 }));
    expect(r1.state.rawEquals(r2.state)).toBe(true);
    expect(r1.state.getAttr("items").length()).toBe(3);
    await expect(p.readDataSource("testbed_lookup", configValue(ds.block, { key: "k", width: 1.5 }))).rejects.toThrow("Invalid width");
  });

  test("digest and join_sorted", async () => {
    const p = createTestbedProvider();
    await p.getSchema();
    expect((await p.callFunction("digest", [stringVal("x")])).asString()).toBe(`d-${stableHash("x").slice(0, 8)}`);
    const { listVal } = await import("@magma/cty");
    expect((await p.callFunction("join_sorted", [listVal([stringVal("b"), stringVal("a")]), stringVal("0")])).asString()).toBe("0,a,b");
  });
});
