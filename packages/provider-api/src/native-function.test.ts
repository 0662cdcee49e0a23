import { boolType, dynamicType, listVal, nullVal, numberVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { isFunctionCaller } from "./function-caller.js";
import { createNativeProvider, type NativeProviderImpl } from "./native-provider.js";
import type { NativeFunctions } from "./native-function.js";
import { createSchemaEntry, type FunctionSignature } from "./schema.js";

const upper: FunctionSignature = { parameters: [{ name: "s", type: stringType }], returnType: stringType, summary: "upper-cases a string" };
const concat: FunctionSignature = {
  parameters: [],
  variadicParameter: { name: "parts", type: stringType, allowNullValue: true },
  returnType: stringType,
};
const echo: FunctionSignature = { parameters: [{ name: "v", type: dynamicType, allowUnknownValues: true }], returnType: dynamicType };
const bad: FunctionSignature = { parameters: [], returnType: stringType };

function provider(functions: NativeFunctions, signatures: ReadonlyMap<string, FunctionSignature>): ReturnType<typeof createNativeProvider> {
  const never = (): never => {
    throw new Error("not called in this test");
  };
  const impl: NativeProviderImpl = {
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), functions: signatures }),
    configure: never,
    planResourceChange: never,
    applyResourceChange: never,
    readResource: never,
    readDataSource: never,
    importResourceState: never,
    upgradeResourceState: never,
    functions,
  };
  return createNativeProvider(impl);
}

describe("createNativeProvider's functions", () => {
  const calls: Value[][] = [];
  const p = provider(
    {
      upper: ([s]) => {
        calls.push([s!]);
        const text = s!.asString();
        return text === "" ? { error: "the string is empty", argument: 0 } : { result: stringVal(text.toUpperCase()) };
      },
      concat: async (parts) => {
        await new Promise((r) => setImmediate(r));
        return { result: stringVal(parts.map((x) => (x.isNull() ? "" : x.asString())).join("")) };
      },
      echo: ([v]) => ({ result: v! }),
      bad: () => ({ result: numberVal(1) }),
    },
    new Map([
      ["upper", upper],
      ["concat", concat],
      ["echo", echo],
      ["bad", bad],
    ]),
  );

  test("a native provider is a FunctionCaller; calls need no configure", async () => {
    expect(isFunctionCaller(p)).toBe(true);
    expect((await p.callFunction("upper", [stringVal("abc")])).asString()).toBe("ABC");
    expect((await p.callFunction("concat", [stringVal("a"), nullVal(stringType), stringVal("c")])).asString()).toBe("ac");
    expect((await p.callFunction("concat", [])).asString()).toBe("");
    const obj = objectVal({ a: listVal([numberVal(1)]), b: unknownVal(boolType) });
    expect(await p.callFunction("echo", [obj])).toBe(obj);
    expect((await p.getSchema()).functions?.get("upper")).toBe(upper);
  });

  test("the function's error carries the argument index", async () => {
    await expect(p.callFunction("upper", [stringVal("")])).rejects.toMatchObject({
      code: "function_error",
      detail: { functionName: "upper", text: "the string is empty", argument: 0 },
      message: '[function_error] function "upper": invalid value for "s" parameter (argument 0): the string is empty',
    });
  });

  test("arguments are checked before the implementation runs; unknowns skip it", async () => {
    calls.length = 0;
    await expect(p.callFunction("upper", [nullVal(stringType)])).rejects.toMatchObject({ detail: { argument: 0, text: "argument must not be null" } });
    await expect(p.callFunction("upper", [numberVal(1)])).rejects.toMatchObject({ code: "function_error", detail: { argument: 0 } });
    await expect(p.callFunction("upper", [])).rejects.toMatchObject({ code: "function_error" });
    const r = await p.callFunction("upper", [unknownVal(stringType)]);
    expect(r.isKnown()).toBe(false);
    expect(r.type).toBe(stringType);
    expect(calls).toHaveLength(0);
  });

  test("unknown names, bad results, out-of-range argument indexes", async () => {
    await expect(p.callFunction("lower", [])).rejects.toMatchObject({ code: "unknown_type", detail: { kind: "function", typeName: "lower" } });
    await expect(p.callFunction("bad", [])).rejects.toMatchObject({ code: "invalid_response", message: expect.stringContaining("does not fit its return type") });
    const q = provider({ f: () => ({ error: "x", argument: 3 }) }, new Map([["f", upper]]));
    await expect(q.callFunction("f", [stringVal("a")])).rejects.toMatchObject({ code: "invalid_response", message: expect.stringContaining("argument 3") });
  });

  test("a throwing implementation is invalid_response; an aborted signal cancels", async () => {
    const q = provider(
      {
        f: () => {
          throw new Error("kaboom");
        },
      },
      new Map([["f", bad]]),
    );
    await expect(q.callFunction("f", [])).rejects.toMatchObject({ code: "invalid_response", message: expect.stringContaining("kaboom") });
    await expect(q.callFunction("f", [], { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "canceled" });
  });

  test("implementations and declarations must match", async () => {
    await expect(provider({ f: () => ({ result: stringVal("") }) }, new Map()).getSchema()).rejects.toMatchObject({
      code: "schema",
      message: '[schema] the provider implements function "f" but its schema does not declare it',
    });
    await expect(provider({}, new Map([["f", bad]])).callFunction("f", [])).rejects.toMatchObject({ code: "schema" });
  });

  test("a provider without functions answers unknown_type", async () => {
    const q = provider({}, new Map());
    await expect(q.callFunction("f", [listVal([stringVal("x")])])).rejects.toMatchObject({ code: "unknown_type" });
  });
});
