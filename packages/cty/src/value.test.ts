import { CtyNumber } from "./number.js";
import { Path } from "./path.js";
import { isPathError, type PathError } from "./path-error.js";
import {
  boolType,
  dynamicType,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  type Type,
} from "./type.js";
import { boolVal, dynamicVal, emptyObjectVal, listVal, listValEmpty, mapVal, mapValEmpty, nullVal, numberVal, objectVal, setVal, setValEmpty, stringVal, tupleVal, unknownVal } from "./construction.js";
import { Mark, markWithPaths } from "./marks.js";
import type { Value } from "./value.js";

function thrown(f: () => unknown): PathError {
  try {
    f();
  } catch (e) {
    if (isPathError(e)) return e;
    throw new Error(`expected a PathError, got ${String(e)}`);
  }
  throw new Error("expected a PathError, nothing was thrown");
}

const types: [string, Type][] = [
  ["string", stringType],
  ["number", numberType],
  ["bool", boolType],
  ["dynamic", dynamicType],
  ["list(string)", listType(stringType)],
  ["set(number)", setType(numberType)],
  ["map(bool)", mapType(boolType)],
  ["object", objectType({ a: stringType, b: listType(numberType) })],
  ["tuple", tupleType([stringType, boolType])],
];

describe("null and unknown of every type", () => {
  test.each(types)("%s", (_name, t) => {
    const n = nullVal(t);
    expect(n.isNull()).toBe(true);
    expect(n.isKnown()).toBe(true);
    expect(n.isWhollyKnown()).toBe(true);
    expect(n.type).toBe(t);
    const u = unknownVal(t);
    expect(u.isNull()).toBe(false);
    expect(u.isKnown()).toBe(false);
    expect(u.isWhollyKnown()).toBe(false);
    expect(u.refinements).toEqual({});
    expect(u.rawEquals(unknownVal(t))).toBe(true);
    expect(n.rawEquals(u)).toBe(false);
    expect(n.equals(nullVal(t)).asBool()).toBe(true);
    expect(u.equals(n).isKnown()).toBe(false);
  });
});

describe("refinements", () => {
  test("not-null unknown is unequal to null", () => {
    const u = unknownVal(stringType, { notNull: true });
    expect(u.equals(nullVal(stringType)).asBool()).toBe(false);
  });
  test("prefix is truncated to 256 UTF-8 bytes at a character boundary", () => {
    const u = unknownVal(stringType, { stringPrefix: "é".repeat(200) });
    expect(new TextEncoder().encode(u.refinements.stringPrefix).length).toBe(256);
    const v = unknownVal(stringType, { stringPrefix: "a" + "é".repeat(200) });
    expect(new TextEncoder().encode(v.refinements.stringPrefix).length).toBe(255);
  });
  test.each<[string, Type, object]>([
    ["prefix on number", numberType, { stringPrefix: "x" }],
    ["bounds on string", stringType, { numberLowerBound: { value: CtyNumber.zero, inclusive: true } }],
    ["length on object", objectType({}), { lengthLowerBound: 1 }],
    ["anything on dynamic", dynamicType, { notNull: true }],
    ["lower above upper", numberType, { numberLowerBound: { value: CtyNumber.parse("2"), inclusive: true }, numberUpperBound: { value: CtyNumber.parse("1"), inclusive: true } }],
    ["length lower above upper", listType(stringType), { lengthLowerBound: 3, lengthUpperBound: 2 }],
    ["negative length", setType(stringType), { lengthLowerBound: -1 }],
  ])("rejects %s", (_n, t, r) => {
    expect(thrown(() => unknownVal(t, r)).code).toBe("invalid_value");
  });
  test("zero lower length bound and empty prefix are no refinement", () => {
    expect(unknownVal(listType(stringType), { lengthLowerBound: 0 }).rawEquals(unknownVal(listType(stringType)))).toBe(true);
    expect(unknownVal(stringType, { stringPrefix: "" }).rawEquals(unknownVal(stringType))).toBe(true);
  });
});

describe("collections", () => {
  test("list element types must agree; dynamic unknowns fit anywhere", () => {
    expect(thrown(() => listVal([stringVal("a"), numberVal(1)])).path.toString()).toBe("[1]");
    expect(listVal([dynamicVal, stringVal("a")]).type).toEqual(listType(stringType));
    expect(thrown(() => listVal([])).code).toBe("type_mismatch");
  });
  test("sets de-duplicate by cty equality and order as go-cty", () => {
    const s = setVal([stringVal("z"), stringVal("a"), stringVal("m"), stringVal("a")]);
    expect(s.elements().map((e) => e.asString())).toEqual(["a", "m", "z"]);
    const n = setVal([numberVal(10), numberVal(-1), numberVal("2.5"), numberVal("10.0")]);
    expect(n.elements().map((e) => e.asNumber().toString())).toEqual(["-1", "2.5", "10"]);
    const b = setVal([boolVal(true), boolVal(false)]);
    expect(b.elements().map((e) => e.asBool())).toEqual([false, true]);
    const u = setVal([unknownVal(stringType), stringVal("b"), unknownVal(stringType), nullVal(stringType)]);
    expect(u.length()).toBe(4); // unknowns never merge
    expect(u.elements()[0]!.asString()).toBe("b");
    // go-cty's order (golden vectors "set of string with null and unknown"): known, unknown, null.
    expect(u.elements()[1]!.isKnown()).toBe(false);
    expect(u.elements()[2]!.isKnown()).toBe(false);
    expect(u.elements()[3]!.isNull()).toBe(true);
    const o = setVal([objectVal({ a: stringVal("x") }), objectVal({ a: stringVal("x") })]);
    expect(o.length()).toBe(1);
  });
  test("sets order strings by UTF-8 bytes", () => {
    const s = setVal([stringVal("\u{1F600}"), stringVal("\uFFFD"), stringVal("a")]);
    expect(s.elements().map((e) => e.asString())).toEqual(["a", "\uFFFD", "\u{1F600}"]);
  });
  test("marks on set elements move onto the set", () => {
    const s = setVal([stringVal("a").mark(Mark.Sensitive)]);
    expect(s.isMarked(Mark.Sensitive)).toBe(true);
    expect(s.elements()[0]!.isMarked()).toBe(false);
  });
  test("maps sort keys and reject mixed types", () => {
    const m = mapVal({ b: stringVal("1"), a: stringVal("2") });
    expect([...m.entries().keys()]).toEqual(["a", "b"]);
    expect(m.index("a").asString()).toBe("2");
    expect(thrown(() => m.index("c")).code).toBe("type_mismatch");
    expect(thrown(() => mapVal({ a: stringVal("x"), b: boolVal(true) })).code).toBe("type_mismatch");
    expect(mapValEmpty(stringType).length()).toBe(0);
  });
  test("empty collections are distinct from null", () => {
    expect(listValEmpty(stringType).rawEquals(nullVal(listType(stringType)))).toBe(false);
    expect(setValEmpty(stringType).equals(nullVal(setType(stringType))).asBool()).toBe(false);
  });
});

describe("objects and navigation", () => {
  const v = objectVal({
    name: stringVal("web"),
    rules: listVal([objectVal({ port: numberVal(80) }), objectVal({ port: numberVal(443) })]),
    tags: mapVal({ Name: stringVal("x") }),
  });
  test("type derives from contents", () => {
    expect(v.type).toEqual(
      objectType({ name: stringType, rules: listType(objectType({ port: numberType })), tags: mapType(stringType) }),
    );
  });
  test("getPath", () => {
    expect(v.getPath(Path.root.attr("rules").index(1).attr("port")).asNumber().toString()).toBe("443");
    expect(v.getPath(Path.root.attr("tags").key("Name")).asString()).toBe("x");
    const e = thrown(() => v.getPath(Path.root.attr("rules").index(5).attr("port")));
    expect(e.path.toString()).toBe("rules");
    expect(e.message).toMatch(/^\.rules: index 5 is out of range/);
  });
  test("unknown object gives unknown attributes; null object errors", () => {
    const t = objectType({ a: stringType });
    expect(unknownVal(t).getAttr("a").rawEquals(unknownVal(stringType))).toBe(true);
    expect(thrown(() => nullVal(t).getAttr("a")).code).toBe("null_value");
    expect(thrown(() => emptyObjectVal.getAttr("a")).code).toBe("type_mismatch");
  });
  test("marks propagate on access and through equality", () => {
    const s = v.mark(Mark.Sensitive);
    expect(s.getAttr("name").isMarked(Mark.Sensitive)).toBe(true);
    expect(s.equals(v).isMarked(Mark.Sensitive)).toBe(true);
    expect(s.rawEquals(v)).toBe(false);
    expect(s.unmark().rawEquals(v)).toBe(true);
  });
  test("unmarkDeep reports paths", () => {
    const m = objectVal({
      a: stringVal("x").mark(Mark.Sensitive),
      l: listVal([numberVal(1), numberVal(2).mark("other")]),
    });
    const { value, paths } = m.unmarkDeep();
    expect(value.containsMarked()).toBe(false);
    expect(paths.map((p) => [p.path.toString(), [...p.marks]])).toEqual([
      ["a", ["sensitive"]],
      ["l[1]", ["other"]],
    ]);
  });
});

describe("equality", () => {
  const cases: [string, Value, Value, boolean | undefined][] = [
    ["equal strings", stringVal("a"), stringVal("a"), true],
    ["NFC-normalised strings", stringVal("e\u0301"), stringVal("\u00e9"), true],
    ["different numbers", numberVal(1), numberVal(2), false],
    ["exact numbers", numberVal("9007199254740993"), numberVal("9007199254740992"), false],
    ["different types", stringVal("1"), numberVal(1), false],
    ["unknown inside list", listVal([unknownVal(stringType)]), listVal([stringVal("a")]), undefined],
    ["known difference beats unknown", tupleVal([unknownVal(stringType), numberVal(1)]), tupleVal([stringVal("a"), numberVal(2)]), false],
    ["sets with same elements", setVal([stringVal("a"), stringVal("b")]), setVal([stringVal("b"), stringVal("a")]), true],
    ["objects", objectVal({ a: numberVal(1) }), objectVal({ a: numberVal("1.0") }), true],
  ];
  test.each(cases)("%s", (_n, a, b, want) => {
    const r = a.equals(b);
    if (want === undefined) expect(r.isKnown()).toBe(false);
    else expect(r.asBool()).toBe(want);
  });
});

describe("accessors reject misuse with typed errors", () => {
  test.each<[string, () => unknown, string]>([
    ["asString on number", () => numberVal(1).asString(), "type_mismatch"],
    ["asString on null", () => nullVal(stringType).asString(), "null_value"],
    ["asNumber on unknown", () => unknownVal(numberType).asNumber(), "unknown_value"],
    ["elements of map", () => mapValEmpty(stringType).elements(), "type_mismatch"],
    ["length of unknown", () => unknownVal(listType(stringType)).length(), "type_mismatch"],
    ["stringVal of a number", () => stringVal(1 as unknown as string), "type_mismatch"],
    ["numberVal NaN", () => numberVal(NaN), "invalid_value"],
  ])("%s", (_n, f, code) => {
    expect(thrown(f).code).toBe(code);
  });
});

test("toString renders values readably", () => {
  expect(
    objectVal({ a: stringVal("x"), b: unknownVal(stringType, { notNull: true, stringPrefix: "p-" }) }).toString(),
  ).toBe('{a = "x", b = unknown(string; not null, prefix "p-")}');
  expect(setVal([numberVal(2), numberVal(1)]).mark(Mark.Sensitive).toString()).toBe("sensitive(toset([1, 2]))");
});

describe("markWithPaths", () => {
  test("restores what unmarkDeep took off, skipping paths that are gone", () => {
    const v = objectVal({
      a: stringVal("x").mark(Mark.Sensitive),
      l: listVal([numberVal(1), numberVal(2).mark("other")]),
      m: mapVal({ k: stringVal("s").mark(Mark.Sensitive) }),
      t: tupleVal([boolVal(true).mark(Mark.Sensitive)]),
    }).mark("outer");
    const { value, paths } = v.unmarkDeep();
    expect(markWithPaths(value, paths).rawEquals(v)).toBe(true);
    const gone = markWithPaths(emptyObjectVal, [{ path: Path.root.attr("nope").index(3), marks: new Set(["x"]) }]);
    expect(gone.rawEquals(emptyObjectVal)).toBe(true);
  });
  test("a path into a set marks the set", () => {
    const s = objectVal({ s: setVal([stringVal("a")]) });
    const marked = markWithPaths(s, [{ path: Path.root.attr("s").index(0), marks: new Set([Mark.Sensitive]) }]);
    expect(marked.getAttr("s").isMarked(Mark.Sensitive)).toBe(true);
  });
});
