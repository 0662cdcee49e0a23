import { Path, nullVal, objectVal, stringVal, unknownVal, stringType, type Value } from "@magma/cty";
import { configValue } from "../config-value.js";
import { errorDiag, warningDiag } from "../diagnostic.js";
import { createNativeProvider, type NativeProviderImpl } from "../native-provider.js";
import { proposedNewState } from "../proposed-new-state.js";
import { isProviderError, type ProviderErrorCode } from "../provider-error.js";
import { createSchemaEntry } from "../schema.js";
import { createMemoryProvider, memoryItemBlock, memoryLookupBlock, memoryProviderBlock } from "./index.js";

async function codeOf(p: Promise<unknown>): Promise<ProviderErrorCode | "ok"> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (isProviderError(e)) return e.code;
    throw e;
  }
}

async function configured() {
  const p = createMemoryProvider();
  const schema = await p.getSchema();
  await p.configure(configValue(memoryProviderBlock, { id_prefix: "m-" }), "1.11.4");
  const t = schema.resources.get("memory_item")!.type;
  return { p, schema, t };
}

/** plan + apply the way an engine does it. */
async function applyConfig(p: Awaited<ReturnType<typeof configured>>["p"], prior: Value, plain: Record<string, unknown>) {
  const config = configValue(memoryItemBlock, plain);
  const plan = await p.planResourceChange("memory_item", prior, proposedNewState(memoryItemBlock, prior, config), config);
  const applied = await p.applyResourceChange("memory_item", prior, plan.plannedState, config, { plannedPrivate: plan.plannedPrivate });
  return { plan, applied };
}

describe("ordering: configure precedes every call but getSchema", () => {
  test.each([
    ["planResourceChange", (p: ReturnType<typeof createMemoryProvider>, n: Value) => p.planResourceChange("memory_item", n, n, n)],
    ["applyResourceChange", (p: ReturnType<typeof createMemoryProvider>, n: Value) => p.applyResourceChange("memory_item", n, n, n)],
    ["readResource", (p: ReturnType<typeof createMemoryProvider>, n: Value) => p.readResource("memory_item", n)],
    ["readDataSource", (p: ReturnType<typeof createMemoryProvider>, n: Value) => p.readDataSource("memory_lookup", n)],
    ["importResourceState", (p: ReturnType<typeof createMemoryProvider>) => p.importResourceState("memory_item", "x")],
    ["upgradeResourceState", (p: ReturnType<typeof createMemoryProvider>) => p.upgradeResourceState("memory_item", 0, "{}")],
  ])("%s before configure rejects with not_configured naming it", async (op, call) => {
    const p = createMemoryProvider();
    const t = (await p.getSchema()).resources.get("memory_item")!.type;
    try {
      await call(p, nullVal(t));
      throw new Error("expected not_configured");
    } catch (e) {
      if (!isProviderError(e) || e.code !== "not_configured") throw e;
      expect(e.detail.operation).toBe(op);
      expect(e.message).toContain(op);
    }
    expect(p.calls.get(op)).toBeUndefined();
  });

  test("a failed configure leaves the provider unconfigured", async () => {
    const p = createMemoryProvider();
    const bad = objectVal({ id_prefix: unknownVal(stringType) });
    expect(await codeOf(p.configure(bad, "1.11.4"))).toBe("diagnostics");
    expect(await codeOf(p.importResourceState("memory_item", "x"))).toBe("not_configured");
  });
});

describe("memory provider lifecycle", () => {
  test("create, read, update in place, replace, import, data source, destroy", async () => {
    const { p, t } = await configured();
    const { plan, applied } = await applyConfig(p, nullVal(t), { name: "alpha", tags: { env: "test" }, rule: [{ port: 80 }] });
    expect(plan.plannedState.getAttr("id").isKnown()).toBe(false);
    expect(plan.plannedState.getAttr("size").toString()).toBe("5");
    expect(applied.newState.toString()).toBe('{id = "m-1", name = "alpha", rule = [{port = 80, protocol = "tcp"}], size = 5, tags = tomap({"env" = "test"}), value = null}');
    expect([...applied.private].length).toBeGreaterThan(0);

    const read = await p.readResource("memory_item", applied.newState, { private: applied.private });
    expect(!read.gone && read.newState.rawEquals(applied.newState)).toBe(true);

    const upd = await applyConfig(p, applied.newState, { name: "alpha", value: "v2", tags: { env: "test" }, rule: [{ port: 80 }] });
    expect(upd.plan.requiresReplace).toEqual([]);
    expect(upd.applied.newState.getAttr("id").rawEquals(stringVal("m-1"))).toBe(true);

    const config = configValue(memoryItemBlock, { name: "beta" });
    const replan = await p.planResourceChange("memory_item", upd.applied.newState, proposedNewState(memoryItemBlock, upd.applied.newState, config), config);
    expect(replan.requiresReplace.map(String)).toEqual(["name"]);

    const imported = await p.importResourceState("memory_item", "m-1");
    expect(imported!.resources[0]!.state.rawEquals(upd.applied.newState)).toBe(true);
    expect(await p.importResourceState("memory_item", "nope")).toBeNull();

    const ds = await p.readDataSource("memory_lookup", configValue(memoryLookupBlock, { name: "alpha" }));
    expect(ds.state.getAttr("value").rawEquals(stringVal("v2"))).toBe(true);
    expect(await codeOf(p.readDataSource("memory_lookup", configValue(memoryLookupBlock, { name: "zzz" })))).toBe("diagnostics");

    const destroyPlan = await p.planResourceChange("memory_item", upd.applied.newState, nullVal(t), nullVal(t));
    expect(destroyPlan.plannedState.isNull()).toBe(true);
    const gone = await p.applyResourceChange("memory_item", upd.applied.newState, nullVal(t), nullVal(t));
    expect(gone.newState.isNull()).toBe(true);
    expect(await p.readResource("memory_item", upd.applied.newState)).toEqual({ gone: true, warnings: [] });
  });

  test("apply failures: fail → diagnostics, fail-after-create → partially_applied, warn → warning kept", async () => {
    const { p, t } = await configured();
    expect(await codeOf(applyConfig(p, nullVal(t), { name: "a", value: "fail" }))).toBe("diagnostics");
    expect(p.items.size).toBe(0);
    try {
      await applyConfig(p, nullVal(t), { name: "b", value: "fail-after-create" });
      throw new Error("expected partially_applied");
    } catch (e) {
      if (!isProviderError(e) || e.code !== "partially_applied") throw e;
      expect(e.detail.newState.getAttr("name").rawEquals(stringVal("b"))).toBe(true);
      expect(e.detail.private.length).toBeGreaterThan(0);
    }
    expect(p.items.size).toBe(1);
    const { applied } = await applyConfig(p, nullVal(t), { name: "c", value: "warn" });
    expect(applied.warnings.map((w) => w.summary)).toEqual(["memory_item was asked to warn"]);
  });

  test("drift and deletion outside: the store is the truth", async () => {
    const { p, t } = await configured();
    const { applied } = await applyConfig(p, nullVal(t), { name: "a" });
    const id = applied.newState.getAttr("id").asString();
    p.items.set(id, objectVal({ ...applied.newState.attributes(), value: stringVal("drifted") }));
    const drifted = await p.readResource("memory_item", applied.newState);
    expect(!drifted.gone && drifted.newState.getAttr("value").rawEquals(stringVal("drifted"))).toBe(true);
    p.items.delete(id);
    expect(await p.readResource("memory_item", applied.newState)).toEqual({ gone: true, warnings: [] });
  });

  test("upgrade from version 0 renames data to value; a newer stored version is a schema error", async () => {
    const { p } = await configured();
    const r = await p.upgradeResourceState("memory_item", 0, '{"id":"m-9","name":"old","data":"payload","tags":{"a":"b"}}');
    expect(r.upgradedState.toString()).toBe('{id = "m-9", name = "old", rule = [], size = null, tags = tomap({"a" = "b"}), value = "payload"}');
    const same = await p.upgradeResourceState("memory_item", 1, '{"id":"m-9","name":"x","value":"v"}');
    expect(same.upgradedState.getAttr("value").rawEquals(stringVal("v"))).toBe(true);
    expect(await codeOf(p.upgradeResourceState("memory_item", 2, "{}"))).toBe("schema");
    expect(await codeOf(p.upgradeResourceState("memory_item", 1, "not json"))).toBe("diagnostics");
  });

  test("unknown type names reject with unknown_type; values that do not fit reject with schema", async () => {
    const { p, t } = await configured();
    expect(await codeOf(p.readResource("memory_thing", nullVal(t)))).toBe("unknown_type");
    expect(await codeOf(p.readDataSource("memory_item", nullVal(t)))).toBe("unknown_type");
    expect(await codeOf(p.planResourceChange("memory_item", stringVal("x"), nullVal(t), nullVal(t)))).toBe("schema");
  });
});

describe("createNativeProvider", () => {
  const entry = createSchemaEntry({ attributes: { id: { type: stringType, computed: true }, v: { type: stringType, optional: true } } });
  const t = entry.type;
  const base = (over: Partial<NativeProviderImpl>): NativeProviderImpl => ({
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map([["x_r", entry]]), dataSources: new Map() }),
    configure: () => ({ diagnostics: [warningDiag("configure warning")] }),
    planResourceChange: (_n, _p, proposed) => ({ plannedState: proposed }),
    applyResourceChange: (_n, _p, planned) => ({ newState: planned }),
    readResource: (_n, s) => ({ newState: s }),
    readDataSource: () => ({ diagnostics: [errorDiag("no data sources")] }),
    importResourceState: () => ({}),
    upgradeResourceState: () => ({ upgradedState: objectVal({ id: unknownVal(stringType), v: nullVal(stringType) }) }),
    ...over,
  });
  const state = objectVal({ id: stringVal("1"), v: stringVal("x") });
  const ready = async (impl: NativeProviderImpl) => {
    const p = createNativeProvider(impl);
    const c = await p.configure(objectVal({}), "1.11.4");
    expect(c.warnings.map((w) => w.summary)).toEqual(["configure warning"]);
    return p;
  };

  test("error diagnostics reject with diagnostics carrying warnings too; warnings alone come back on the result", async () => {
    const p = await ready(
      base({
        planResourceChange: () => ({ diagnostics: [errorDiag("bad", undefined, Path.root.attr("v")), warningDiag("w")] }),
        readResource: (_n, s) => ({ newState: s, diagnostics: [warningDiag("read warning")] }),
      }),
    );
    try {
      await p.planResourceChange("x_r", state, state, state);
      throw new Error("expected diagnostics");
    } catch (e) {
      if (!isProviderError(e) || e.code !== "diagnostics") throw e;
      expect(e.detail.diagnostics.map((d) => d.severity)).toEqual(["error", "warning"]);
    }
    expect((await p.readResource("x_r", state)).warnings.map((w) => w.summary)).toEqual(["read warning"]);
  });

  test("a read that finds the object gone resolves to gone, with its warnings; a deferred read with no state is not gone", async () => {
    const p = await ready(base({ readResource: () => ({ newState: null, diagnostics: [warningDiag("object vanished", "deleted outside", Path.root.attr("v"))] }) }));
    const r = await p.readResource("x_r", state);
    expect(r).toEqual({ gone: true, warnings: [warningDiag("object vanished", "deleted outside", Path.root.attr("v"))] });
    const q = await ready(base({ readResource: () => ({ newState: null, deferred: { reason: "absent_prereq" } }) }));
    expect(await q.readResource("x_r", state, { deferralAllowed: true })).toMatchObject({ gone: false, deferred: { reason: "absent_prereq" } });
  });

  test("a plan that ignores the config, or an apply that leaves unknowns or changes a planned value, is invalid_response at the path", async () => {
    const config = objectVal({ id: nullVal(stringType), v: stringVal("asked") });
    const planned = objectVal({ id: unknownVal(stringType), v: stringVal("asked") });
    const ignoring = await ready(base({ planResourceChange: (_n, _p, proposed) => ({ plannedState: objectVal({ ...proposed.attributes(), v: stringVal("not-what-you-asked") }) }) }));
    const e = await ignoring.planResourceChange("x_r", nullVal(t), config, config).catch((x: unknown) => x);
    expect(isProviderError(e) && e.code).toBe("invalid_response");
    if (isProviderError(e) && e.code === "invalid_response") {
      expect(e.detail.path?.toString()).toBe("v");
      expect(e.message).toContain('planned value cty.StringVal("not-what-you-asked") does not match config value cty.StringVal("asked")');
    }
    // the same plan from a legacy-type-system provider is tolerated, as Terraform does
    const legacy = await ready(base({ planResourceChange: (_n, _p, proposed) => ({ plannedState: objectVal({ ...proposed.attributes(), v: stringVal("x") }), legacyTypeSystem: true }) }));
    expect((await legacy.planResourceChange("x_r", nullVal(t), config, config)).plannedState.getAttr("v").asString()).toBe("x");

    const unknownAfter = await ready(base({ applyResourceChange: (_n, _p, p) => ({ newState: p }) }));
    const u = await unknownAfter.applyResourceChange("x_r", nullVal(t), planned, config).catch((x: unknown) => x);
    expect(isProviderError(u) && u.code === "invalid_response" && u.message).toContain("Provider returned invalid result object after apply");
    const changed = await ready(base({ applyResourceChange: () => ({ newState: objectVal({ id: stringVal("1"), v: stringVal("other") }) }) }));
    const c = await changed.applyResourceChange("x_r", nullVal(t), planned, config).catch((x: unknown) => x);
    expect(isProviderError(c) && c.code === "invalid_response" && c.detail.path?.toString()).toBe("v");
    expect(isProviderError(c) && c.message).toContain('.v: was cty.StringVal("asked"), but now cty.StringVal("other")');
  });

  test("outputs that do not fit, missing states and unallowed deferrals are invalid_response", async () => {
    const p = await ready(
      base({
        planResourceChange: () => ({ plannedState: stringVal("not an object") }),
        readResource: (_n, s) => ({ newState: s, deferred: { reason: "absent_prereq" } }),
        upgradeResourceState: () => ({ upgradedState: objectVal({ id: unknownVal(stringType), v: nullVal(stringType) }) }),
      }),
    );
    expect(await codeOf(p.planResourceChange("x_r", state, state, state))).toBe("invalid_response");
    expect(await codeOf(p.readResource("x_r", state))).toBe("invalid_response");
    expect(await p.readResource("x_r", state, { deferralAllowed: true })).toMatchObject({ gone: false, deferred: { reason: "absent_prereq" } });
    expect(await codeOf(p.upgradeResourceState("x_r", 0, "{}"))).toBe("invalid_response");
  });

  test("thrown errors: ProviderError passes, errno becomes transport, others invalid_response", async () => {
    const p = await ready(
      base({
        readResource: () => {
          throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
        },
        applyResourceChange: () => {
          throw new TypeError("bug");
        },
      }),
    );
    expect(await codeOf(p.readResource("x_r", state))).toBe("transport");
    expect(await codeOf(p.applyResourceChange("x_r", state, state, state))).toBe("invalid_response");
  });

  test("an aborted signal rejects with canceled, a timeout reason with deadline_exceeded", async () => {
    let release!: () => void;
    const p = await ready(base({ readResource: (_n, s) => new Promise((resolve) => (release = () => resolve({ newState: s }))) }));
    const ac = new AbortController();
    const pending = p.readResource("x_r", state, { signal: ac.signal });
    ac.abort();
    expect(await codeOf(pending)).toBe("canceled");
    release();
    const timeout = new AbortController();
    timeout.abort(Object.assign(new Error("t"), { name: "TimeoutError" }));
    expect(await codeOf(p.readResource("x_r", state, { signal: timeout.signal }))).toBe("deadline_exceeded");
    expect(await codeOf(p.getSchema({ signal: timeout.signal }))).toBe("deadline_exceeded");
  });

  test("import with nothing found is null; apply without state on create is no_new_state", async () => {
    const p = await ready(base({ applyResourceChange: () => ({}) }));
    expect(await p.importResourceState("x_r", "1")).toBeNull();
    expect(await codeOf(p.applyResourceChange("x_r", nullVal(t), state, state))).toBe("no_new_state");
    expect((await p.applyResourceChange("x_r", state, nullVal(t), nullVal(t))).newState.isNull()).toBe(true);
  });
});
