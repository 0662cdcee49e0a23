import { CtyNumber } from "../number.js";
import { isPathError, type PathError } from "../path-error.js";
import { Path } from "../path.js";
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
} from "../type.js";
import { boolVal, listVal, mapVal, nullVal, numberVal, objectVal, setVal, stringVal, tupleVal, unknownVal } from "../construction.js";
import { Mark } from "../marks.js";
import { canConvert, convert, fromPlain, toPlain, unify, unifyUnsafe } from "./index.js";

function thrown(f: () => unknown): PathError {
  try {
    f();
  } catch (e) {
    if (isPathError(e)) return e;
    throw e;
  }
  throw new Error("expected a PathError");
}

describe("convert", () => {
  test("a value of the type is returned as is", () => {
    const v = stringVal("x");
    expect(convert(v, stringType)).toBe(v);
  });
  test("unknowns and nulls keep their state and take the type", () => {
    const u = convert(unknownVal(stringType, { notNull: true, stringPrefix: "ab" }), numberType);
    expect(u.isKnown()).toBe(false);
    expect(u.type).toBe(numberType);
    expect(u.refinements).toEqual({ notNull: true });
    const s = convert(unknownVal(stringType, { stringPrefix: "ab" }), stringType);
    expect(s.refinements.stringPrefix).toBe("ab");
    const n = convert(nullVal(tupleType([stringType])), listType(numberType));
    expect(n.isNull()).toBe(true);
    expect(n.type).toEqual(listType(numberType));
    const d = convert(unknownVal(dynamicType), listType(stringType));
    expect(d.isKnown()).toBe(false);
    expect(d.type).toEqual(listType(stringType));
  });
  test("unknowns inside collections are converted in place", () => {
    const v = convert(listVal([stringVal("1"), unknownVal(stringType)]), listType(numberType));
    expect(v.type).toEqual(listType(numberType));
    expect(v.elements()[0]!.asNumber().toString()).toBe("1");
    expect(v.elements()[1]!.isKnown()).toBe(false);
    expect(v.elements()[1]!.type).toBe(numberType);
  });
  test("a set with several unknowns becomes an unknown list (its length is unknown)", () => {
    const s = setVal([unknownVal(stringType), unknownVal(stringType), stringVal("a")]);
    const v = convert(s, listType(stringType));
    expect(v.isKnown()).toBe(false);
    expect(v.type).toEqual(listType(stringType));
  });
  test("marks are kept on the values that carried them", () => {
    const v = convert(
      objectVal({ a: stringVal("1").mark(Mark.Sensitive), b: stringVal("2") }).mark("outer"),
      objectType({ a: numberType, b: numberType }),
    );
    expect(v.isMarked("outer")).toBe(true);
    expect(v.unmark().attributes().a!.isMarked(Mark.Sensitive)).toBe(true);
    expect(v.unmark().attributes().a!.unmark().asNumber().toString()).toBe("1");
    expect(v.unmark().attributes().b!.isMarked()).toBe(false);
  });
  test("exact numbers to string", () => {
    expect(convert(numberVal(2n ** 64n), stringType).asString()).toBe("18446744073709551616");
    expect(
      convert(stringVal("9007199254740993"), numberType)
        .asNumber()
        .equals(CtyNumber.parse("9007199254740993")),
    ).toBe(true);
  });
  test("anything converts to dynamic unchanged", () => {
    const v = mapVal({ a: boolVal(true) });
    expect(convert(v, dynamicType)).toBe(v);
  });
  test("failures name the path", () => {
    const t = objectType({ m: mapType(setType(numberType)) });
    const e = thrown(() => convert(objectVal({ m: mapVal({ k: listVal([stringVal("x")]) }) }), t));
    expect(e.code).toBe("type_mismatch");
    expect(e.message).toBe('.m["k"][0]: a number is required');
    expect(e.path.equals(Path.root.attr("m").key("k").index(0))).toBe(true);
  });
  test("canConvert", () => {
    expect(canConvert(stringType, numberType)).toBe(true);
    expect(canConvert(boolType, numberType)).toBe(false);
    expect(canConvert(tupleType([stringType, boolType]), listType(stringType))).toBe(true);
    expect(
      canConvert(
        objectType({ a: stringType }),
        objectType({ a: stringType, b: stringType }, ["b"]),
      ),
    ).toBe(true);
    expect(
      canConvert(objectType({ a: stringType }), objectType({ a: stringType, b: stringType })),
    ).toBe(false);
  });
});

describe("fromPlain", () => {
  const t = objectType({
    name: stringType,
    ports: listType(numberType),
    tags: mapType(stringType),
    on: boolType,
  });
  test("builds a typed value, converting as convert() would", () => {
    const v = fromPlain(
      { name: "web", ports: [80, "443", 9007199254740993n], tags: { a: "b" }, on: "true" },
      t,
    );
    expect(toPlain(v)).toEqual({
      name: "web",
      ports: [80, 443, "9007199254740993"],
      tags: { a: "b" },
      on: true,
    });
  });
  test("a missing or undefined attribute is null; an extra key is an error", () => {
    const v = fromPlain({ name: undefined, ports: null }, t);
    expect(v.getAttr("name").isNull()).toBe(true);
    expect(v.getAttr("ports").type).toEqual(listType(numberType));
    const e = thrown(() => fromPlain({ name: "x", nope: 1 }, t));
    expect(e.message).toBe('unsupported attribute "nope"');
  });
  test("numbers go through their shortest decimal text", () => {
    expect(fromPlain(0.1, numberType).asNumber().toString()).toBe("0.1");
    expect(fromPlain(0.1, stringType).asString()).toBe("0.1");
    expect(thrown(() => fromPlain(Number.NaN, numberType)).code).toBe("invalid_value");
  });
  test("errors name the path", () => {
    expect(thrown(() => fromPlain({ ports: [1, "x"] }, t)).message).toBe(
      ".ports[1]: a number is required",
    );
    expect(thrown(() => fromPlain({ on: 1 }, t)).message).toBe(".on: bool required, got a number");
    expect(thrown(() => fromPlain("x", listType(stringType))).message).toBe(
      "list of string required, got a string",
    );
    expect(thrown(() => fromPlain([1], tupleType([numberType, numberType]))).message).toBe(
      "tuple of 2 elements required, got 1",
    );
  });
  test("sets and Maps", () => {
    const s = fromPlain(new Set(["b", "a", "b"]), setType(stringType));
    expect(toPlain(s)).toEqual(["a", "b"]);
    const m = fromPlain(new Map([["k", 1]]), mapType(numberType));
    expect(toPlain(m)).toEqual({ k: 1 });
  });
  test("dynamic infers: tuple for arrays, object for objects", () => {
    const v = fromPlain({ a: [1, "x", true], b: null }, dynamicType);
    expect(v.type).toEqual(
      objectType({ a: tupleType([numberType, stringType, boolType]), b: dynamicType }),
    );
  });
  test("cty values inside plain data are converted", () => {
    expect(
      fromPlain([stringVal("5")], listType(numberType))
        .elements()[0]!
        .asNumber()
        .toString(),
    ).toBe("5");
  });
});

describe("toPlain", () => {
  test("numbers: JS numbers when exact, text otherwise, or always text", () => {
    const v = tupleVal([
      numberVal("0.1"),
      numberVal(2n ** 64n + 1n),
      numberVal(2n ** 64n),
      numberVal(1.5),
      numberVal(CtyNumber.positiveInfinity),
    ]);
    expect(toPlain(v)).toEqual(["0.1", "18446744073709551617", 2 ** 64, 1.5, Infinity]);
    expect(toPlain(v, { numbers: "string" })).toEqual([
      "0.1",
      "18446744073709551617",
      "18446744073709551616",
      "1.5",
      "+Inf",
    ]);
  });
  test("unknowns are errors with their path, or replaced by the callback", () => {
    const v = objectVal({ a: listVal([unknownVal(stringType)]) });
    const e = thrown(() => toPlain(v));
    expect(e.code).toBe("unknown_value");
    expect(e.message).toBe(".a[0]: value is not known");
    expect(toPlain(v, { unknown: (p) => `<${p.toString()}>` })).toEqual({ a: ["<a[0]>"] });
  });
  test("marks are dropped; __proto__ is an ordinary key", () => {
    const v = mapVal(new Map([["__proto__", stringVal("x").mark(Mark.Sensitive)]]));
    const p = toPlain(v) as Record<string, unknown>;
    expect(Object.keys(p)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
  });
});

describe("unify and unifyUnsafe (go-cty's convert.Unify / UnifyUnsafe)", () => {
  test("the most general type the given types convert to", () => {
    expect(unify([numberType, numberType])).toEqual(numberType);
    expect(unify([numberType, stringType])).toEqual(stringType);
    expect(unify([listType(numberType), listType(stringType)])).toEqual(listType(stringType));
    expect(unify([objectType({ a: numberType }), objectType({ b: numberType })])).toEqual(mapType(numberType));
    expect(unify([])).toBeUndefined();
  });

  test("unsafe unification also allows conversions that can fail for some values", () => {
    expect(unify([boolType, numberType])).toBeUndefined();
    expect(unifyUnsafe([stringType, boolType])).toEqual(stringType);
    expect(unifyUnsafe([tupleType([numberType]), objectType({ a: numberType })])).toBeUndefined();
  });
});
