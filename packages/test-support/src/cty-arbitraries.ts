/**
 * fast-check arbitraries for cty types and values, shared by the property tests and fuzzers
 * of the packages that use `@magma/cty` (cty's own tests keep theirs: cty cannot depend on a
 * package that depends on it).
 */
import {
  boolType,
  boolVal,
  CtyNumber,
  dynamicType,
  emptyTupleVal,
  listType,
  listVal,
  listValEmpty,
  mapType,
  mapVal,
  mapValEmpty,
  nullVal,
  numberType,
  numberVal,
  objectType,
  objectVal,
  setType,
  setVal,
  setValEmpty,
  stringType,
  stringVal,
  tupleType,
  tupleVal,
  type Type,
  type Value,
} from "@magma/cty";
import fc from "fast-check";

/** Attribute and map-key names: short, a few non-ASCII, the empty string and `__proto__`. */
export const ctyNameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("a", "b", "id", "é", "日本", "😀", "", "__proto__"),
  fc.string({ maxLength: 6 }),
);

/**
 * Any cty type, a few levels deep, with the dynamic type anywhere (also as a collection's
 * element type): the fuzzers' type space.
 */
export const ctyAnyTypeArb: fc.Arbitrary<Type> = fc.letrec<{ t: Type }>((tie) => ({
  t: fc.oneof(
    { maxDepth: 3, depthIdentifier: "t" },
    fc.constantFrom<Type>(stringType, numberType, boolType, dynamicType),
    tie("t").map(listType),
    tie("t").map(setType),
    tie("t").map(mapType),
    fc
      .dictionary(
        fc.oneof(fc.constantFrom("a", "b", "id", "é"), fc.string({ maxLength: 3 })),
        tie("t"),
        { maxKeys: 3 },
      )
      .map((a) => objectType(a)),
    fc.array(tie("t"), { maxLength: 3 }).map(tupleType),
  ),
})).t;

/**
 * Types for round trips: concrete, or (with `withDynamic`) with the dynamic type anywhere
 * except inside a collection's element type (an empty collection of dynamic does not know
 * its element type, so no codec can bring it back exactly, in go-cty either).
 */
export function ctyTypeArb(withDynamic: boolean): fc.Arbitrary<Type> {
  const arbs = fc.letrec<{ concrete: Type; any: Type }>((tie) => {
    const collections = (elem: fc.Arbitrary<Type>): fc.Arbitrary<Type>[] => [
      elem.map(listType),
      elem.map(setType),
      elem.map(mapType),
    ];
    const structural = (elem: fc.Arbitrary<Type>): fc.Arbitrary<Type>[] => [
      fc.array(elem, { maxLength: 3 }).map(tupleType),
      fc
        .dictionary(ctyNameArb, elem, { maxKeys: 3 })
        .map((attrs) => objectType(new Map(Object.entries(attrs)))),
    ];
    const concrete = tie("concrete");
    return {
      concrete: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom<Type>(stringType, numberType, boolType),
        ...collections(concrete),
        ...structural(concrete),
      ),
      any: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom<Type>(stringType, numberType, boolType, dynamicType),
        ...collections(concrete),
        ...structural(tie("any")),
      ),
    };
  });
  return withDynamic ? arbs.any : arbs.concrete;
}

/** Numbers: float64s (via `CtyNumber.from`), big integers and big decimals. */
export const ctyNumberArb: fc.Arbitrary<CtyNumber> = fc.oneof(
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 })
    .map((d) => CtyNumber.from(d)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => CtyNumber.from(d)),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map((b) => CtyNumber.fromBigInt(b)),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -80, max: 80 }))
    .map(([c, e]) => CtyNumber.parse(`${c}e${e}`)),
);

/** Strings: short ones, graphemes, control characters, combining marks. */
export const ctyStringArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.constantFrom("\b\f\n\t\u0000", "<&>", "\u2028", "e\u0301"),
);

/** A wholly known value (nulls included, about one in seven) of the type; dynamic picks a concrete type. */
export function ctyValueArb(t: Type, depth = 0): fc.Arbitrary<Value> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(nullVal(t)) },
    { weight: 6, arbitrary: knownArb(t, depth) },
  );
}

/** A type (as {@link ctyTypeArb}) with a value of it. */
export function ctyTypedValueArb(withDynamic = true): fc.Arbitrary<readonly [Type, Value]> {
  return ctyTypeArb(withDynamic).chain((t) => ctyValueArb(t).map((v) => [t, v] as const));
}

function knownArb(t: Type, depth: number): fc.Arbitrary<Value> {
  switch (t.kind) {
    case "string":
      return ctyStringArb.map(stringVal);
    case "number":
      return ctyNumberArb.map(numberVal);
    case "bool":
      return fc.boolean().map(boolVal);
    case "dynamic":
      return (depth > 3 ? fc.constantFrom<Type>(stringType, numberType) : ctyTypeArb(false)).chain(
        (c) => ctyValueArb(c, depth + 1),
      );
    case "list":
      return fc
        .array(ctyValueArb(t.element, depth + 1), { maxLength: 3 })
        .map((es) => (es.length === 0 ? listValEmpty(t.element) : listVal(es)));
    case "set":
      return fc
        .array(ctyValueArb(t.element, depth + 1), { maxLength: 3 })
        .map((es) => (es.length === 0 ? setValEmpty(t.element) : setVal(es)));
    case "map":
      return fc
        .dictionary(ctyNameArb, ctyValueArb(t.element, depth + 1), { maxKeys: 3 })
        .map((d) =>
          Object.keys(d).length === 0 ? mapValEmpty(t.element) : mapVal(new Map(Object.entries(d))),
        );
    case "tuple":
      return t.elements.length === 0
        ? fc.constant(emptyTupleVal)
        : fc.tuple(...t.elements.map((e) => ctyValueArb(e, depth + 1))).map((es) => tupleVal(es));
    case "object": {
      const names = t.attributeNames;
      return fc
        .tuple(...names.map((n) => ctyValueArb(t.attributes[n]!, depth + 1)))
        .map((vs) => objectVal(new Map(names.map((n, i) => [n, vs[i]!]))));
    }
  }
}
