// Expected values from terraform 1.11.4 (see testdata/corpus/collection.json).
import { boolVal, listVal, mapVal, numberVal, objectVal, setVal, stringType, stringVal, tupleType, tupleVal, typeToJson, unknownVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;
const n = numberVal;
const strs = (v: { elements(): readonly { asString(): string }[] }) => v.elements().map((e) => e.asString());

describe("collection functions", () => {
  it("concatenates tuples into a tuple and lists into a list", () => {
    const t = call("concat", tupleVal([n(1)]), tupleVal([s("a")]), tupleVal([boolVal(true)]));
    expect(typeToJson(t.type)).toBe('["tuple",["number","string","bool"]]');
    const l = call("concat", listVal([s("a")]), listVal([s("b")]));
    expect(typeToJson(l.type)).toBe('["list","string"]');
  });

  it("merges maps and objects into the type terraform gives", () => {
    const r = call("merge", objectVal({ a: s("b") }), objectVal({ a: tupleVal([n(1), n(2)]), c: s("z") }), objectVal({ d: n(3) }));
    expect(typeToJson(r.type)).toBe('["object",{"a":["tuple",["number","number"]],"c":"string","d":"number"}]');
    expect(callError("merge", objectVal({ a: n(1) }), s("b"))).toMatchObject({ message: 'arguments must be maps or objects, got "string"' });
  });

  it("flattens nested sequences and sets", () => {
    const r = call("flatten", tupleVal([n(1), tupleVal([n(2), tupleVal([n(3), tupleVal([n(4)])])]), setVal([n(5)])]));
    expect(r.elements().map((e) => e.asNumber().toString())).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("flattens a list holding unknowns other than nested sequences to a known tuple (terraform 1.11.4: flatten([{ a = unknown }])[0] is the object)", () => {
    const r = call("flatten", tupleVal([objectVal({ a: unknownVal(stringType), b: s("x") }), tupleVal([n(1)])]));
    expect(r.isKnown()).toBe(true);
    expect(r.length()).toBe(2);
    expect(r.elements()[0]!.getAttr("b").asString()).toBe("x");
    expect(r.elements()[0]!.getAttr("a").isKnown()).toBe(false);
    // an unknown nested sequence leaves the length unknown, so the result is unknown
    expect(call("flatten", tupleVal([s("x"), unknownVal(tupleType([stringType]))])).isKnown()).toBe(false);
  });

  it("computes set products, unions and differences", () => {
    const p = call("setproduct", listVal([s("development"), s("staging")]), listVal([s("app1"), s("app2")]));
    expect(p.elements().map((e) => strs(e))).toEqual([
      ["development", "app1"],
      ["development", "app2"],
      ["staging", "app1"],
      ["staging", "app2"],
    ]);
    expect(strs(call("setunion", setVal([s("a"), s("b")]), setVal([s("b"), s("c")])))).toEqual(["a", "b", "c"]);
    expect(strs(call("setsubtract", setVal([s("a"), s("b"), s("c")]), setVal([s("a"), s("c")])))).toEqual(["b"]);
  });

  it("handles unknowns as go-cty does (terraform 1.11.4's plan: length(sort([\"b\", timestamp()])) is 2)", () => {
    const sorted = call("sort", listVal([s("b"), unknownVal(stringType)]));
    expect(sorted.isKnown()).toBe(false);
    expect(sorted.refinements).toMatchObject({ notNull: true, lengthLowerBound: 2, lengthUpperBound: 2 });
    expect(call("length", sorted).asNumber().toString()).toBe("2");
    // lookup of a known key in an object with unknown attributes is known.
    expect(call("lookup", objectVal({ rule: s("mysql"), sg: unknownVal(stringType) }), s("rule"), s("_")).asString()).toBe("mysql");
  });

  it("looks things up, with go-cty's errors", () => {
    expect(call("lookup", objectVal({ a: s("ay") }), s("c"), s("what?")).asString()).toBe("what?");
    expect(callError("lookup", objectVal({ a: s("ay") }), s("c"))).toEqual({ name: "FunctionArgError", message: 'the given object has no attribute "c"', argIndex: 0 });
    expect(call("index", listVal([s("a"), s("b")]), s("b")).asNumber().toString()).toBe("1");
    expect(callError("element", listVal([s("a")]), n(-1))).toMatchObject({ message: "cannot use element function with a negative index" });
    expect(call("element", listVal([s("a"), s("b"), s("c")]), n(3)).asString()).toBe("a");
  });

  it("slices, sorts, transposes and zips", () => {
    expect(strs(call("slice", listVal([s("a"), s("b"), s("c"), s("d")]), n(1), n(3)))).toEqual(["b", "c"]);
    expect(strs(call("sort", listVal(["e", "d", "a", "x", "B", "10", "9"].map(s))))).toEqual(["10", "9", "B", "a", "d", "e", "x"]);
    const t = call("transpose", mapVal({ a: listVal([s("1"), s("2")]), b: listVal([s("2"), s("3")]) }));
    expect([...t.entries()].map(([k, v]) => [k, strs(v)])).toEqual([
      ["1", ["a"]],
      ["2", ["a", "b"]],
      ["3", ["b"]],
    ]);
    expect(typeToJson(call("zipmap", listVal([s("a"), s("b")]), tupleVal([n(1), s("x")])).type)).toBe('["object",{"a":"number","b":"string"}]');
  });

  it("measures strings in grapheme clusters and keeps unknown lengths unknown", () => {
    expect(call("length", s("noël 👍🏽")).asNumber().toString()).toBe("6");
    expect(call("length", unknownVal(listType())).isKnown()).toBe(false);
  });
});

function listType() {
  return { kind: "list", element: stringType } as const;
}
