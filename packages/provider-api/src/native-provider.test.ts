import { stringType } from "@magma/cty";
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
  test("never carries ephemeral resources, which the contract cannot open; functions need implementations", async () => {
    const fn: FunctionSignature = { parameters: [{ name: "s", type: stringType }], returnType: stringType };
    // A full ProviderSchema (as another Provider's getSchema returns it) passed off as native.
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
    await expect(createNativeProvider(implWith(full)).getSchema()).rejects.toMatchObject({
      code: "schema",
      message: '[schema] the schema declares function "upper" but the provider has no implementation of it',
    });
    const schema = await createNativeProvider({ ...implWith(full), functions: { upper: ([s]) => ({ result: s! }) } }).getSchema();
    expect(schema.ephemeralResources).toBeUndefined();
    expect(schema.functions?.get("upper")).toBe(fn);
    expect(Object.keys(schema).sort()).toEqual(["dataSources", "functions", "provider", "resources", "serverCapabilities", "warnings"]);
    expect(schema.serverCapabilities.getProviderSchemaOptional).toBe(true);
  });

  test("NativeSchema has no place for ephemeral resources (type-level)", () => {
    const base = { provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map() };
    const a: NativeSchema = { ...base, functions: new Map<string, FunctionSignature>() };
    // @ts-expect-error ephemeral resources are not part of a native schema
    const b: NativeSchema = { ...base, ephemeralResources: new Map() };
    expect([a, b]).toHaveLength(2);
  });
});
