/**
 * Property tests: every wholly known value survives toJson → fromJson exactly, and the
 * decoder, fed random or mutated text against random types, throws nothing but PathError.
 * Runs per property: MAGMA_FUZZ_RUNS (default 2000).
 */
import fc from "fast-check";
import { CtyNumber } from "../number.js";
import { isPathError } from "../path-error.js";
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
} from "../type.js";
import { boolVal, emptyTupleVal, listVal, listValEmpty, mapVal, mapValEmpty, nullVal, numberVal, objectVal, setVal, setValEmpty, stringVal, tupleVal } from "../construction.js";
import type { Value } from "../value.js";
import { fromJson, toJson } from "./index.js";

const RUNS = Number(process.env["MAGMA_FUZZ_RUNS"] ?? "2000");

const nameArb = fc.oneof(
  fc.constantFrom("a", "b", "id", "é", "日本", "😀", "", "__proto__"),
  fc.string({ maxLength: 6 }),
);

/**
 * Types; with `withDynamic`, dynamic may appear anywhere except inside a collection's element
 * type (an empty map or list of dynamic does not know its element type, so JSON cannot bring
 * it back exactly, in go-cty either).
 */
function typeArb(withDynamic: boolean): fc.Arbitrary<Type> {
  const arbs = fc.letrec<{ concrete: Type; any: Type }>((tie) => {
    const collections = (elem: fc.Arbitrary<Type>) => [
      elem.map((t) => listType(t)),
      elem.map((t) => setType(t)),
      elem.map((t) => mapType(t)),
    ];
    const structural = (elem: fc.Arbitrary<Type>) => [
      fc.array(elem, { maxLength: 3 }).map((ts) => tupleType(ts)),
      fc
        .dictionary(nameArb, elem, { maxKeys: 3 })
        .map((attrs) => objectType(new Map(Object.entries(attrs)))),
    ];
    const concrete = tie("concrete");
    const anyType = tie("any");
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
        ...structural(anyType),
      ),
    };
  });
  return withDynamic ? arbs.any : arbs.concrete;
}

const numberArb: fc.Arbitrary<CtyNumber> = fc.oneof(
  // (A float64-origin number prints as its shortest decimal, which reads back as that
  // decimal, not the binary value, as in go-cty; so JS numbers go in through CtyNumber.from.)
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 })
    .map((d) => CtyNumber.from(d)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => CtyNumber.from(d)),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map((b) => CtyNumber.fromBigInt(b)),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -80, max: 80 }))
    .map(([c, e]) => CtyNumber.parse(`${c}e${e}`)),
);

const stringArb = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.constantFrom("\b\f\n\t\u0000", "<&>", "\u2028", "e\u0301"),
);

/** A wholly known value (nulls included) of the type; dynamic picks a concrete type. */
function valueArb(t: Type, depth = 0): fc.Arbitrary<Value> {
  const known = knownArb(t, depth);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(nullVal(t)) },
    { weight: 6, arbitrary: known },
  );
}

function knownArb(t: Type, depth: number): fc.Arbitrary<Value> {
  switch (t.kind) {
    case "string":
      return stringArb.map(stringVal);
    case "number":
      return numberArb.map(numberVal);
    case "bool":
      return fc.boolean().map(boolVal);
    case "dynamic":
      return (depth > 3 ? fc.constantFrom<Type>(stringType, numberType) : typeArb(false)).chain(
        (c) => valueArb(c, depth + 1),
      );
    case "list":
    case "set":
    case "map": {
      const et = t.element;
      {
        const elems = fc.array(valueArb(et, depth + 1), { maxLength: 3 });
        if (t.kind === "list")
          return elems.map((es) => (es.length === 0 ? listValEmpty(t.element) : listVal(es)));
        if (t.kind === "set")
          return elems.map((es) => (es.length === 0 ? setValEmpty(t.element) : setVal(es)));
        return fc
          .dictionary(nameArb, valueArb(et, depth + 1), { maxKeys: 3 })
          .map((d) =>
            Object.keys(d).length === 0
              ? mapValEmpty(t.element)
              : mapVal(new Map(Object.entries(d))),
          );
      }
    }
    case "tuple":
      return t.elements.length === 0
        ? fc.constant(emptyTupleVal)
        : fc.tuple(...t.elements.map((e) => valueArb(e, depth + 1))).map((es) => tupleVal(es));
    case "object": {
      const names = t.attributeNames;
      return fc
        .tuple(...names.map((n) => valueArb(t.attributes[n]!, depth + 1)))
        .map((vs) => objectVal(new Map(names.map((n, i) => [n, vs[i]!]))));
    }
  }
}

const typedValueArb = typeArb(true).chain((t) => valueArb(t).map((v) => [t, v] as const));

test("every wholly known value round-trips through JSON exactly", () => {
  fc.assert(
    fc.property(typedValueArb, ([t, v]) => {
      const json = toJson(v, t);
      const back = fromJson(json, t);
      expect(back.rawEquals(v)).toBe(true);
      expect(toJson(back, t)).toBe(json);
    }),
    { numRuns: RUNS },
  );
});

const mutation = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({
    op: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      '"',
      "\\",
      " ",
      "0",
      "-",
      "e",
      "n",
      "t",
      "\ud800",
      "\u00e9",
      "1e99999999",
    ),
  }),
  fc.record({ op: fc.constant("swap" as const), at: fc.nat() }),
);

function mutate(text: string, ms: readonly { op: string; at: number; text?: string }[]): string {
  let s = text;
  for (const m of ms) {
    const i = s.length === 0 ? 0 : m.at % (s.length + 1);
    if (m.op === "delete") s = s.slice(0, i) + s.slice(i + 1);
    else if (m.op === "insert") s = s.slice(0, i) + m.text! + s.slice(i);
    else if (i + 1 < s.length) s = s.slice(0, i) + s[i + 1]! + s[i]! + s.slice(i + 2);
  }
  return s;
}

function onlyPathErrors(text: string | Uint8Array, t: Type): void {
  try {
    fromJson(text, t);
  } catch (e) {
    if (!isPathError(e)) throw e;
  }
}

test("mutated JSON against random types: only PathError comes out", () => {
  fc.assert(
    fc.property(
      typedValueArb,
      typeArb(true),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      ([t, v], other, ms) => {
        const text = mutate(toJson(v, t), ms);
        onlyPathErrors(text, t);
        onlyPathErrors(text, other);
      },
    ),
    { numRuns: RUNS },
  );
});

test("random text and bytes: only PathError comes out", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string(), fc.json()),
      fc.uint8Array({ maxLength: 32 }),
      typeArb(true),
      (text, bytes, t) => {
        onlyPathErrors(text, t);
        onlyPathErrors(bytes, t);
      },
    ),
    { numRuns: RUNS },
  );
});
