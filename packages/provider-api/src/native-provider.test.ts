import { CtyNumber, nullVal, numberType, numberVal, objectType, objectVal, stringType, unknownVal, type Value } from "@magma/cty";
import { createNativeProvider, type NativeProviderImpl, type NativeSchema } from "./native-provider.js";
import { createSchemaEntry, type FunctionSignature, type ProviderSchema } from "./schema.js";

function implWith(schema: NativeSchema): NativeProviderImpl {
  const never = (): never => {
    throw new Error("not called in this test");
  };
  return {
    getSchema: () => schema,
    configure: () => undefined,
    planResourceChange: never,
    applyResourceChange: never,
    readResource: never,
    readDataSource: never,
    importResourceState: never,
    upgradeResourceState: never,
  };
}

describe("createNativeProvider's schema", () => {
  test("declared functions and ephemeral resource types need implementations", async () => {
    const fn: FunctionSignature = { parameters: [{ name: "s", type: stringType }], returnType: stringType };
    const full: ProviderSchema = {
      provider: createSchemaEntry({}),
      resources: new Map(),
      dataSources: new Map(),
      ephemeralResources: new Map([["x_secret", createSchemaEntry({ attributes: { v: { type: stringType, computed: true } } })]]),
      functions: new Map([["upper", fn]]),
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: true, moveResourceState: false, generateResourceConfig: false },
      warnings: [],
    };
    // Declared functions without implementations: the schema is refused.
    await expect(createNativeProvider({ ...implWith(full), ephemeralResources: { x_secret: { open: () => ({}) } } }).getSchema()).rejects.toMatchObject({
      code: "schema",
      message: '[schema] the schema declares function "upper" but the provider has no implementation of it',
    });
    const upper = { upper: ([s]: readonly Value[]) => ({ result: s! }) };
    await expect(createNativeProvider({ ...implWith(full), functions: upper }).getSchema()).rejects.toMatchObject({
      code: "schema",
      message: '[schema] the schema declares ephemeral resource type "x_secret" but the provider has no implementation of it',
    });
    await expect(
      createNativeProvider({ ...implWith(full), functions: upper, ephemeralResources: { x_secret: { open: () => ({}) }, x_other: { open: () => ({}) } } }).getSchema(),
    ).rejects.toMatchObject({ code: "schema", message: '[schema] the provider implements ephemeral resource type "x_other" but its schema does not declare it' });
    const schema = await createNativeProvider({ ...implWith(full), functions: upper, ephemeralResources: { x_secret: { open: () => ({}) } } }).getSchema();
    expect([...(schema.ephemeralResources?.keys() ?? [])]).toEqual(["x_secret"]);
    expect(schema.functions?.get("upper")).toBe(fn);
    expect(Object.keys(schema).sort()).toEqual(["dataSources", "ephemeralResources", "functions", "provider", "resources", "serverCapabilities", "warnings"]);
    expect(schema.serverCapabilities.getProviderSchemaOptional).toBe(true);
  });

  test("an empty ephemeralResources map is left out", async () => {
    const base = { provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), ephemeralResources: new Map() };
    const schema = await createNativeProvider(implWith(base)).getSchema();
    expect(schema.ephemeralResources).toBeUndefined();
  });
});

describe("createNativeProvider's values", () => {
  // What a plugin provider would see and return through go-cty's msgpack: -0 as 0, a whole
  // float64-precision number beyond int64 as the number its text denotes.
  test("the provider sees and returns values as the plugin protocol carries them", async () => {
    const seen: Value[] = [];
    const schema: NativeSchema = {
      provider: createSchemaEntry({}),
      resources: new Map([["x_n", createSchemaEntry({ attributes: { n: { type: numberType, optional: true }, m: { type: numberType, computed: true } } })]]),
      dataSources: new Map(),
    };
    const pow = numberVal(CtyNumber.fromFloat64(2 ** 64));
    const p = createNativeProvider({
      ...implWith(schema),
      planResourceChange: (_t, _prior, proposed, config) => {
        seen.push(config);
        return { plannedState: objectVal({ n: proposed.getAttr("n"), m: pow }) };
      },
      applyResourceChange: (_t, _prior, planned) => {
        seen.push(planned);
        return { newState: objectVal({ n: planned.getAttr("n"), m: pow }) };
      },
    });
    await p.configure(objectVal({}), "1.11.4");
    const type = objectType({ n: numberType, m: numberType });
    const config = objectVal({ n: numberVal(CtyNumber.negativeZero), m: nullVal(numberType) });
    const planned = await p.planResourceChange("x_n", nullVal(type), objectVal({ n: numberVal(CtyNumber.negativeZero), m: unknownVal(numberType) }), config);
    expect(seen[0]!.getAttr("n").asNumber().isNegativeZero()).toBe(false);
    const m = planned.plannedState.getAttr("m").asNumber();
    expect([m.toString(), m.isFloat64Precision()]).toEqual(["18446744073709550000", false]);
    // The provider's new state is compared with the plan as a plugin's would be: the same number.
    const applied = await p.applyResourceChange("x_n", nullVal(type), planned.plannedState, config);
    expect(seen[1]!.getAttr("m").asNumber().toString()).toBe("18446744073709550000");
    expect(applied.newState.getAttr("m").asNumber().isFloat64Precision()).toBe(false);
  });
});
