// Expected values from terraform 1.11.4 (see testdata/corpus/conversion.json).
import { dynamicType, nullVal, numberVal, objectVal, stringVal, tupleVal, typeToJson, unknownVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;
const n = numberVal;

describe("conversion and sensitivity functions", () => {
  it("converts as go-cty's convert does, unifying element types", () => {
    expect(typeToJson(call("tolist", tupleVal([s("a"), s("b"), n(3)])).type)).toBe('["list","string"]');
    expect(typeToJson(call("tomap", objectVal({ a: s("x"), b: n(2) })).type)).toBe('["map","string"]');
    expect(call("tonumber", s("1.5e3")).asNumber().toString()).toBe("1500");
    expect(call("tostring", nullVal(dynamicType)).isNull()).toBe(true);
  });

  it("explains failed conversions", () => {
    expect(callError("tobool", s("yes"))).toEqual({ name: "FunctionArgError", message: 'cannot convert "yes" to bool; only the strings "true" or "false" are allowed', argIndex: 0 });
    expect(callError("tonumber", s("x").mark("sensitive"))).toMatchObject({ message: "cannot convert this sensitive string to number" });
    expect(callError("tolist", s("a"))).toMatchObject({ message: "cannot convert string to list of any single type" });
  });

  it("marks and unmarks sensitive values", () => {
    const v = call("sensitive", s("x"));
    expect(v.isMarked("sensitive")).toBe(true);
    expect(call("nonsensitive", v).isMarked("sensitive")).toBe(false);
    expect(call("issensitive", v).asBool()).toBe(true);
    expect(call("issensitive", s("x")).asBool()).toBe(false);
    expect(call("upper", v).isMarked("sensitive")).toBe(true);
    expect(call("issensitive", unknownVal({ kind: "string" })).isKnown()).toBe(false);
  });

  it("replaces ephemeral parts by nulls, deeply", () => {
    const v = call("ephemeralasnull", objectVal({ a: s("x").mark("ephemeral"), b: tupleVal([s("y").mark("sensitive")]) }));
    expect(v.getAttr("a").isNull()).toBe(true);
    expect(v.getAttr("b").elements()[0]!.isMarked("sensitive")).toBe(true);
    expect(call("ephemeralasnull", s("plain")).asString()).toBe("plain");
  });
});
