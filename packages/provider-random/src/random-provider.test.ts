import {
  Path,
  mapVal,
  nullVal,
  stringVal,
  unknownVal,
  mapType,
  stringType,
  type Value,
} from "@magma/cty";
import { configValue, isProviderError, proposedNewState } from "@magma/provider-api";
import { configuredProvider, create, named, plan } from "../test/provider-harness.js";
import { RandomResourceType, createRandomProvider, randomSchemaVersion } from "./index.js";

/** A minimal valid configuration of each resource type. */
const MINIMAL: Record<RandomResourceType, Record<string, unknown>> = {
  random_id: { byte_length: 4 },
  random_integer: { min: 1, max: 100 },
  random_password: { length: 12 },
  random_pet: {},
  random_shuffle: { input: ["a", "b", "c"] },
  random_string: { length: 12 },
  random_uuid: {},
};

/** The computed attributes of each type (unknown on create, known after apply). */
const COMPUTED: Record<RandomResourceType, string[]> = {
  random_id: ["b64_std", "b64_url", "dec", "hex", "id"],
  random_integer: ["id", "result"],
  random_password: ["bcrypt_hash", "id", "result"],
  random_pet: ["id"],
  random_shuffle: ["id", "result"],
  random_string: ["id", "result"],
  random_uuid: ["id", "result"],
};

const TYPES = Object.values(RandomResourceType);

describe("schema", () => {
  test("has the seven resource types at hashicorp/random's schema versions, no data sources, an empty provider block", async () => {
    const schema = await createRandomProvider().getSchema(); // allowed before configure
    expect([...schema.resources.keys()].sort()).toEqual([...TYPES].sort());
    for (const t of TYPES) expect(schema.resources.get(t)!.version).toBe(randomSchemaVersion[t]);
    expect(randomSchemaVersion).toEqual({
      random_id: 0,
      random_integer: 0,
      random_password: 3,
      random_pet: 0,
      random_shuffle: 0,
      random_string: 2,
      random_uuid: 0,
    });
    expect(schema.dataSources.size).toBe(0);
    expect(schema.provider.block.attributes).toEqual({});
  });

  test("attribute kinds follow hashicorp/random", async () => {
    const schema = await createRandomProvider().getSchema();
    const attrs = (t: string) => schema.resources.get(t)!.block.attributes!;
    const pw = attrs("random_password");
    expect(pw["result"]).toMatchObject({ computed: true, sensitive: true });
    expect(pw["bcrypt_hash"]).toMatchObject({ computed: true, sensitive: true });
    expect(pw["length"]).toMatchObject({ required: true });
    expect(pw["number"]).toMatchObject({ optional: true, computed: true, deprecated: true });
    expect(pw["override_special"]).toEqual(expect.objectContaining({ optional: true }));
    expect(pw["override_special"]!.computed).toBeUndefined();
    const st = attrs("random_string");
    expect(st["result"]!.sensitive).toBe(false);
    expect(st["bcrypt_hash"]).toBeUndefined();
    expect(Object.keys(attrs("random_id")).sort()).toEqual([
      "b64_std",
      "b64_url",
      "byte_length",
      "dec",
      "hex",
      "id",
      "keepers",
      "prefix",
    ]);
    expect(Object.keys(attrs("random_integer")).sort()).toEqual([
      "id",
      "keepers",
      "max",
      "min",
      "result",
      "seed",
    ]);
    expect(Object.keys(attrs("random_shuffle")).sort()).toEqual([
      "id",
      "input",
      "keepers",
      "result",
      "result_count",
      "seed",
    ]);
    expect(Object.keys(attrs("random_uuid")).sort()).toEqual(["id", "keepers", "result"]);
    for (const t of TYPES)
      expect(attrs(t)["keepers"]).toMatchObject({ type: mapType(stringType), optional: true });
  });
});

describe("the contract", () => {
  test("every operation but getSchema rejects with not_configured before configure", async () => {
    const provider = createRandomProvider();
    const schema = await provider.getSchema();
    const e = schema.resources.get("random_uuid")!;
    const v = nullVal(e.type);
    const calls: [string, () => Promise<unknown>][] = [
      ["planResourceChange", () => provider.planResourceChange("random_uuid", v, v, v)],
      ["applyResourceChange", () => provider.applyResourceChange("random_uuid", v, v, v)],
      ["readResource", () => provider.readResource("random_uuid", v)],
      ["readDataSource", () => provider.readDataSource("random_uuid", v)],
      ["importResourceState", () => provider.importResourceState("random_uuid", "x")],
      ["upgradeResourceState", () => provider.upgradeResourceState("random_uuid", 0, "{}")],
    ];
    for (const [op, call] of calls) {
      await expect(call()).rejects.toMatchObject({
        code: "not_configured",
        message: expect.stringContaining(op),
      });
    }
  });

  test("unknown type names reject with unknown_type", async () => {
    const { provider, entry } = await configuredProvider();
    const v = nullVal(entry("random_uuid").type);
    await expect(provider.planResourceChange("random_bytes", v, v, v)).rejects.toMatchObject({
      code: "unknown_type",
    });
    await expect(provider.importResourceState("random_bytes", "x")).rejects.toMatchObject({
      code: "unknown_type",
    });
    await expect(provider.readDataSource("random_id", v)).rejects.toMatchObject({
      code: "unknown_type",
    });
  });

  test("a value of the wrong type rejects with schema", async () => {
    const { provider, entry } = await configuredProvider();
    const wrong = nullVal(entry("random_id").type);
    await expect(
      provider.planResourceChange("random_uuid", wrong, wrong, wrong),
    ).rejects.toMatchObject({ code: "schema" });
  });
});

describe.each(TYPES)("%s through the full contract", (t) => {
  test("create: computed values are unknown in the plan, known after apply; read returns the state; destroy stores nothing", async () => {
    const { provider, entry } = await configuredProvider();
    const e = named(entry(t), t);
    const { plan: p, state } = await create(provider, e, MINIMAL[t]);
    expect(p.requiresReplace).toEqual([]);
    for (const a of COMPUTED[t]) {
      expect(p.plannedState.getAttr(a).isKnown()).toBe(false);
      expect(state.getAttr(a).isKnown() && !state.getAttr(a).isNull()).toBe(true);
    }
    expect(state.isWhollyKnown()).toBe(true);
    const read = await provider.readResource(t, state);
    expect(!read.gone && read.newState.rawEquals(state)).toBe(true);
    // Destroy: a null proposal plans null, and the apply returns null.
    const none = nullVal(e.type);
    const destroyPlan = await provider.planResourceChange(t, state, none, none);
    expect(destroyPlan.plannedState.isNull()).toBe(true);
    const destroyed = await provider.applyResourceChange(t, state, none, none);
    expect(destroyed.newState.isNull()).toBe(true);
  });

  test("plan with no change: planned equals prior, nothing to replace", async () => {
    const { provider, entry } = await configuredProvider();
    const e = named(entry(t), t);
    const { state } = await create(provider, e, { ...MINIMAL[t], keepers: { k: "v" } });
    const { plan: p } = await plan(provider, e, state, { ...MINIMAL[t], keepers: { k: "v" } });
    expect(p.plannedState.rawEquals(state)).toBe(true);
    expect(p.requiresReplace).toEqual([]);
  });

  test("a keepers change requires replacement; adding a key with a null value does not", async () => {
    const { provider, entry } = await configuredProvider();
    const e = named(entry(t), t);
    const { state } = await create(provider, e, { ...MINIMAL[t], keepers: { k: "v" } });
    const changed = await plan(provider, e, state, { ...MINIMAL[t], keepers: { k: "w" } });
    expect(changed.plan.requiresReplace.map(String)).toEqual(["keepers"]);
    // UseStateForUnknown keeps the prior computed values in the replace plan itself.
    for (const a of COMPUTED[t])
      expect(changed.plan.plannedState.getAttr(a).rawEquals(state.getAttr(a))).toBe(true);
    const removed = await plan(provider, e, state, { ...MINIMAL[t] });
    expect(removed.plan.requiresReplace.map(String)).toEqual(["keepers"]);
    const nullKey = await plan(provider, e, state, {
      ...MINIMAL[t],
      keepers: new Map<string, Value>([
        ["k", stringVal("v")],
        ["extra", nullVal(stringType)],
      ]),
    });
    expect(nullKey.plan.requiresReplace).toEqual([]);
  });

  test("keepers from null to a map of only null values does not require replacement; to a real value does", async () => {
    const { provider, entry } = await configuredProvider();
    const e = named(entry(t), t);
    const { state } = await create(provider, e, MINIMAL[t]);
    const onlyNull = await plan(provider, e, state, {
      ...MINIMAL[t],
      keepers: mapVal({ a: nullVal(stringType) }),
    });
    expect(onlyNull.plan.requiresReplace).toEqual([]);
    const real = await plan(provider, e, state, { ...MINIMAL[t], keepers: { a: "1" } });
    expect(real.plan.requiresReplace.map(String)).toEqual(["keepers"]);
  });

  test("an unknown keepers value in config: computed values stay known from the prior, replace follows hashicorp's rule", async () => {
    const { provider, entry } = await configuredProvider();
    const e = named(entry(t), t);
    const { state } = await create(provider, e, { ...MINIMAL[t], keepers: { k: "v" } });
    const config = configValue(e.block, {
      ...MINIMAL[t],
      keepers: unknownVal(mapType(stringType)),
    });
    const p = await provider.planResourceChange(
      t,
      state,
      proposedNewState(e.block, state, config),
      config,
    );
    expect(p.requiresReplace.map(String)).toEqual(["keepers"]); // the prior key is not in the (unknown) config
    expect(p.plannedState.getAttr("keepers").isKnown()).toBe(false);
    for (const a of COMPUTED[t])
      expect(p.plannedState.getAttr(a).rawEquals(state.getAttr(a))).toBe(true);
  });
});

test("the requiresReplace paths are attribute paths", async () => {
  const { provider, entry } = await configuredProvider();
  const e = named(entry("random_integer"), "random_integer");
  const { state } = await create(provider, e, { min: 1, max: 10, seed: "a" });
  const { plan: p } = await plan(provider, e, state, { min: 2, max: 11, seed: "b" });
  expect(p.requiresReplace).toEqual([
    Path.root.attr("max"),
    Path.root.attr("min"),
    Path.root.attr("seed"),
  ]);
});

test("isProviderError on a diagnostics rejection carries the attribute path", async () => {
  const { provider, entry } = await configuredProvider();
  const e = named(entry("random_string"), "random_string");
  try {
    await plan(provider, e, nullVal(e.type), { length: 0 });
    throw new Error("expected a rejection");
  } catch (err) {
    expect(isProviderError(err)).toBe(true);
    if (!isProviderError(err) || err.detail.code !== "diagnostics") throw err;
    expect(err.detail.diagnostics[0]!.attribute).toEqual(Path.root.attr("length"));
  }
});
