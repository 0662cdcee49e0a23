import { dynamicType, listType, listVal, nullVal, numberType, numberVal, objectType, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { checkFunctionCall, functionParameter, functionSignature, isFunctionCaller } from "./function-caller.js";
import { isProviderError } from "./provider-error.js";
import { createSchemaEntry, noServerCapabilities, type FunctionSignature, type ProviderSchema } from "./schema.js";

/** join(sep, ...parts): one positional string and a variadic list of strings, nulls allowed in the parts. */
const join: FunctionSignature = {
  parameters: [{ name: "sep", type: stringType }],
  variadicParameter: { name: "parts", type: listType(stringType), allowNullValue: true },
  returnType: stringType,
};
/** pick(obj, key): unknowns allowed in obj. */
const pick: FunctionSignature = {
  parameters: [
    { name: "obj", type: dynamicType, allowUnknownValues: true },
    { name: "key", type: stringType },
  ],
  returnType: dynamicType,
};

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}

describe("checkFunctionCall", () => {
  test("well-formed calls go ahead", () => {
    expect(checkFunctionCall("join", join, [stringVal(",")])).toBeUndefined();
    expect(checkFunctionCall("join", join, [stringVal(","), listVal([stringVal("a")]), nullVal(listType(stringType))])).toBeUndefined();
    expect(checkFunctionCall("pick", pick, [objectVal({ a: numberVal(1) }), stringVal("a")])).toBeUndefined();
  });

  test("arity: too few, or too many without a variadic parameter, name no argument", () => {
    expect(errorOf(() => checkFunctionCall("join", join, []))).toMatchObject({
      code: "function_error",
      detail: { code: "function_error", functionName: "join", text: "not enough arguments: the function takes at least 1, got 0" },
    });
    const e = errorOf(() => checkFunctionCall("pick", pick, [stringVal("x"), stringVal("y"), stringVal("z")]));
    expect(isProviderError(e) && e.code === "function_error" && e.detail.argument).toBeUndefined();
    expect((e as Error).message).toBe('[function_error] call to function "pick" failed: too many arguments: the function takes 2, got 3');
  });

  test("a null where the parameter does not allow it fails at that argument, with go-cty's text", () => {
    expect(errorOf(() => checkFunctionCall("pick", pick, [stringVal("x"), nullVal(stringType)]))).toMatchObject({
      detail: { code: "function_error", functionName: "pick", text: "argument must not be null", argument: 1 },
      message: '[function_error] function "pick": invalid value for "key" parameter (argument 1): argument must not be null',
    });
    // The dynamic parameter does not allow null either.
    expect(errorOf(() => checkFunctionCall("pick", pick, [nullVal(dynamicType), stringVal("k")]))).toMatchObject({ detail: { argument: 0 } });
  });

  test("an argument of the wrong type fails at that argument (variadic ones counted from 0 over all)", () => {
    expect(errorOf(() => checkFunctionCall("join", join, [stringVal(","), listVal([stringVal("a")]), listVal([numberVal(1)])]))).toMatchObject({
      detail: { code: "function_error", argument: 2, text: "expected string, got number at [0]" },
    });
    expect(errorOf(() => checkFunctionCall("join", join, [numberVal(1)]))).toMatchObject({ detail: { argument: 0 } });
  });

  test("an argument not wholly known where unknowns are not allowed: no call, an unknown of the return type", () => {
    const r = checkFunctionCall("join", join, [stringVal(","), listVal([unknownVal(stringType)])]);
    expect(r?.isKnown()).toBe(false);
    expect(r?.type).toBe(stringType);
    // Allowed for obj: the call goes ahead; not for key.
    expect(checkFunctionCall("pick", pick, [objectVal({ a: unknownVal(numberType) }), stringVal("a")])).toBeUndefined();
    expect(checkFunctionCall("pick", pick, [objectVal({ a: numberVal(1) }), unknownVal(stringType)])?.type).toBe(dynamicType);
    // A null check comes first: a null and an unknown fail on the null.
    expect(errorOf(() => checkFunctionCall("pick", pick, [unknownVal(objectType({})), nullVal(stringType)]))).toMatchObject({ detail: { argument: 1 } });
  });
});

describe("signature look-ups and the capability guard", () => {
  const schema: ProviderSchema = {
    provider: createSchemaEntry({}),
    resources: new Map(),
    dataSources: new Map(),
    functions: new Map([["join", join]]),
    serverCapabilities: noServerCapabilities,
    warnings: [],
  };

  test("functionSignature finds a declared function, else unknown_type of kind function", () => {
    expect(functionSignature(schema, "join")).toBe(join);
    expect(errorOf(() => functionSignature(schema, "split"))).toMatchObject({ code: "unknown_type", detail: { kind: "function", typeName: "split" } });
    expect(errorOf(() => functionSignature({ ...schema, functions: undefined as never }, "join"))).toMatchObject({ code: "unknown_type" });
  });

  test("functionParameter binds extra arguments to the variadic parameter", () => {
    expect(functionParameter(join, 0)?.name).toBe("sep");
    expect(functionParameter(join, 5)?.name).toBe("parts");
    expect(functionParameter(pick, 2)).toBeUndefined();
  });

  test("isFunctionCaller checks the shape", () => {
    expect(isFunctionCaller({ callFunction: () => Promise.resolve(stringVal("")) })).toBe(true);
    expect(isFunctionCaller({ callFunction: 1 })).toBe(false);
    expect(isFunctionCaller(null)).toBe(false);
    expect(isFunctionCaller("x")).toBe(false);
  });
});
