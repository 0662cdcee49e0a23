import { dynamicType, listType, listVal, nullVal, numberType, numberVal, objectVal, stringType, stringVal, toJson, toMsgpack, typeToJson } from "@magma/cty";
import type { FunctionSignature } from "@magma/provider-api";
import { functionArgumentsToProto, functionResultFromProto } from "./function-call.js";
import { functionFromProto, functionToProto } from "./function.js";

const EMPTY = new Uint8Array(0);
const sig: FunctionSignature = {
  parameters: [{ name: "x", type: stringType }],
  variadicParameter: { name: "rest", type: dynamicType },
  returnType: dynamicType,
};

describe("CallFunction values", () => {
  test("arguments are msgpack of their parameter's type; extra ones of the variadic parameter's (dynamic: with the type)", () => {
    const args = [stringVal("a"), numberVal(2), listVal([stringVal("b")])];
    const dvs = functionArgumentsToProto("f", sig, args);
    expect(dvs.map((d) => [...d.msgpack])).toEqual([
      [...toMsgpack(args[0]!, stringType)],
      [...toMsgpack(args[1]!, dynamicType)],
      [...toMsgpack(args[2]!, dynamicType)],
    ]);
    expect(dvs.every((d) => d.json.length === 0)).toBe(true);
  });

  test("a dynamic result decodes from msgpack or JSON with its own type; a missing one is null", () => {
    const v = objectVal({ a: listVal([numberVal(1)]) });
    const fromMp = functionResultFromProto("f", sig, { result: { msgpack: toMsgpack(v, dynamicType), json: EMPTY } }, 1);
    expect(typeToJson(fromMp.type)).toBe(typeToJson(v.type));
    expect(toJson(fromMp, fromMp.type)).toBe('{"a":[1]}');
    const json = new TextEncoder().encode(toJson(v, dynamicType));
    const fromJs = functionResultFromProto("f", sig, { result: { msgpack: EMPTY, json } }, 1);
    expect(toJson(fromJs, fromJs.type)).toBe('{"a":[1]}');
    expect(functionResultFromProto("f", sig, {}, 1).isNull()).toBe(true);
  });

  test("a FunctionError becomes function_error, with the argument index and its parameter's name", () => {
    const at = (functionArgument: bigint | undefined, argCount = 3): unknown => {
      try {
        functionResultFromProto("f", sig, { error: { text: "bad", functionArgument } }, argCount);
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(at(undefined)).toMatchObject({ code: "function_error", detail: { functionName: "f", text: "bad" }, message: '[function_error] call to function "f" failed: bad' });
    expect(at(2n)).toMatchObject({ detail: { argument: 2 }, message: '[function_error] function "f": invalid value for "rest" parameter (argument 2): bad' });
    expect(at(7n)).toMatchObject({ detail: { argument: 7 }, message: '[function_error] function "f": invalid value for the parameter (argument 7): bad' });
    expect(at(-1n)).toMatchObject({ code: "invalid_response" });
  });

  test("a result that does not decode with the return type is invalid_response", () => {
    const s: FunctionSignature = { parameters: [], returnType: numberType };
    expect(() => functionResultFromProto("g", s, { result: { msgpack: toMsgpack(stringVal("x"), stringType), json: EMPTY } }, 0)).toThrow(/\[invalid_response\] the result of function "g" does not decode/);
  });

  test("functionToProto is the inverse of functionFromProto", () => {
    const full: FunctionSignature = {
      parameters: [{ name: "a", type: listType(stringType), allowNullValue: true, description: "the list", descriptionKind: "markdown" }],
      variadicParameter: { name: "b", type: dynamicType, allowUnknownValues: true },
      returnType: stringType,
      summary: "sum",
      description: "desc",
      descriptionKind: "plain",
      deprecationMessage: "use c",
    };
    expect(functionFromProto(functionToProto(full), "f")).toEqual(full);
    const bare: FunctionSignature = { parameters: [], returnType: nullVal(stringType).type };
    expect(functionFromProto(functionToProto(bare), "g")).toEqual(bare);
  });
});
