import { stringType, type Value } from "@magma/cty";
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
