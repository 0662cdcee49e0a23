import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { dynamicType, listType, numberType, objectType, stringType, typeEquals, typeToJson } from "@magma/cty";
import { isProviderError, type FunctionSignature } from "@magma/provider-api";
import * as v5 from "./gen/tfplugin5/tfplugin5_pb.js";
import * as v6 from "./gen/tfplugin6/tfplugin6_pb.js";
import { functionFromProto } from "./function.js";
import type { ProtoFunction } from "./proto-shapes.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The message as a provider sends it: encoded with the version's own Function message, then decoded. */
function wire(version: 5 | 6, init: Record<string, unknown>): ProtoFunction {
  if (version === 5) return fromBinary(v5.FunctionSchema, toBinary(v5.FunctionSchema, create(v5.FunctionSchema, init)));
  return fromBinary(v6.FunctionSchema, toBinary(v6.FunctionSchema, create(v6.FunctionSchema, init)));
}

/** A plain view of a signature (types as type JSON) for toEqual. */
function plain(f: FunctionSignature): unknown {
  const p = (x: FunctionSignature["parameters"][number]): unknown => ({ ...x, type: typeToJson(x.type) });
  return {
    ...f,
    parameters: f.parameters.map(p),
    returnType: typeToJson(f.returnType),
    ...(f.variadicParameter === undefined ? {} : { variadicParameter: p(f.variadicParameter) }),
  };
}

function schemaErrorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isProviderError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected a throw");
}

describe("functionFromProto", () => {
  test.each([5, 6] as const)("protocol %i: every field of Function and Function.Parameter", (version) => {
    const f = functionFromProto(
      wire(version, {
        parameters: [
          { name: "list", type: enc('["list","number"]'), description: "The numbers.", descriptionKind: 1, allowNullValue: true },
          { name: "any", type: enc('"dynamic"'), allowUnknownValues: true },
        ],
        variadicParameter: { name: "rest", type: enc('"string"'), description: "More.", allowNullValue: true, allowUnknownValues: true },
        return: { type: enc('["object",{"b":"string","a":"number"}]') },
        summary: "sum Function",
        description: "Adds *numbers*.",
        descriptionKind: 1,
        deprecationMessage: "use add",
      }),
      "sum",
    );
    expect(plain(f)).toEqual({
      parameters: [
        { name: "list", type: '["list","number"]', description: "The numbers.", descriptionKind: "markdown", allowNullValue: true },
        { name: "any", type: '"dynamic"', allowUnknownValues: true },
      ],
      variadicParameter: { name: "rest", type: '"string"', description: "More.", descriptionKind: "plain", allowNullValue: true, allowUnknownValues: true },
      returnType: '["object",{"a":"number","b":"string"}]',
      summary: "sum Function",
      description: "Adds *numbers*.",
      descriptionKind: "markdown",
      deprecationMessage: "use add",
    });
    expect(typeEquals(f.parameters[0]!.type, listType(numberType))).toBe(true);
    expect(typeEquals(f.parameters[1]!.type, dynamicType)).toBe(true);
    expect(typeEquals(f.returnType, objectType({ a: numberType, b: stringType }))).toBe(true);
  });

  test("empty strings and false flags are left out; no parameters is an empty list; markdown without a description is kept", () => {
    const f = functionFromProto(wire(5, { return: { type: enc('"string"') }, descriptionKind: 1, parameters: [{ type: enc('"bool"') }] }), "now");
    expect(plain(f)).toEqual({ parameters: [{ name: "", type: '"bool"' }], returnType: '"string"', descriptionKind: "markdown" });
    const g = functionFromProto(wire(6, { return: { type: enc('"number"') } }), "pi");
    expect(plain(g)).toEqual({ parameters: [], returnType: '"number"' });
    expect(Object.keys(g)).toEqual(["parameters", "returnType"]);
  });

  test("a missing or empty return type is a schema error naming the function", () => {
    expect(schemaErrorOf(() => functionFromProto(wire(5, {}), "f"))).toEqual({ code: "schema", message: '[schema] function "f" has no return type' });
    expect(schemaErrorOf(() => functionFromProto(wire(6, { return: { type: new Uint8Array() } }), "g")).message).toBe('[schema] function "g" has no return type');
  });

  test("a parameter without a type, or a type that is not cty type JSON, is a schema error naming the function and parameter", () => {
    const noType = wire(5, { return: { type: enc('"string"') }, parameters: [{ name: "a", type: enc('"string"') }, { name: "b" }] });
    expect(schemaErrorOf(() => functionFromProto(noType, "f")).message).toBe('[schema] function "f": parameter 1 ("b") has no type');
    const badType = wire(5, { return: { type: enc('"string"') }, parameters: [{ type: enc('"strin"') }] });
    const e = schemaErrorOf(() => functionFromProto(badType, "f"));
    expect(e.code).toBe("schema");
    expect(e.message).toMatch(/^\[schema\] function "f": parameter 0: type "\\"strin\\"" is not cty type JSON/);
    const badVariadic = wire(6, { return: { type: enc('"string"') }, variadicParameter: { name: "rest", type: enc("[") } });
    expect(schemaErrorOf(() => functionFromProto(badVariadic, "f")).message).toMatch(/^\[schema\] function "f": variadic parameter \("rest"\): type "\[" is not cty type JSON/);
    const badReturn = wire(6, { return: { type: enc('["list"]') } });
    expect(schemaErrorOf(() => functionFromProto(badReturn, "f")).message).toMatch(/^\[schema\] function "f": return type "\[\\"list\\"\]" is not cty type JSON/);
  });
});
