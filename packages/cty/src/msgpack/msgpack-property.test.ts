// Property tests: arbitrary type + conforming value round trips, and decoder robustness
// against random and mutated input. MAGMA_FUZZ_RUNS sets the robustness run count
// (default 2000); round trips run a quarter of that (at least 200).
import fc from "fast-check";
import { CtyNumber } from "../number.js";
import { isPathError } from "../path-error.js";
import {
  boolType,
  dynamicType,
  hasDynamicTypes,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  type Type,
} from "../type.js";
import { boolVal, dynamicVal, listVal, listValEmpty, mapVal, mapValEmpty, nullVal, numberVal, objectVal, setVal, setValEmpty, stringVal, tupleVal, unknownVal } from "../construction.js";
import type { Refinements } from "../refinements.js";
import type { Value } from "../value.js";
import { fromMsgpack, toMsgpack } from "./index.js";

const FUZZ_RUNS = Number(process.env.MAGMA_FUZZ_RUNS ?? 2000);
const ROUND_TRIP_RUNS = Math.max(200, Math.floor(FUZZ_RUNS / 4));

const name = fc.oneof(fc.constantFrom("a", "b", "id", "tags", "é", "Z", "\u{1F600}"), fc.string({ maxLength: 4 }));

/** Arbitrary cty types, nested a few levels, including the dynamic type. */
const typeArb: fc.Arbitrary<Type> = fc.letrec<{ type: Type }>((tie) => ({
  type: fc.oneof(
    { maxDepth: 3, depthIdentifier: "type" },
    fc.constantFrom<Type>(stringType, numberType, boolType, dynamicType),
    tie("type").map(listType),
    tie("type").map(setType),
    tie("type").map(mapType),
    fc.dictionary(name, tie("type"), { maxKeys: 4 }).map((attrs) => objectType(attrs)),
    fc.array(tie("type"), { maxLength: 3 }).map(tupleType),
  ),
})).type;

/** Concrete types (no dynamic), for what a dynamic slot holds. */
const concreteTypeArb: fc.Arbitrary<Type> = typeArb.filter((t) => !hasDynamicTypes(t));

const numberArb: fc.Arbitrary<Value> = fc.oneof(
  fc.integer({ min: -300, max: 300 }).map((n) => numberVal(n)),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => numberVal(n)),
  // A float64 that is a whole number beyond int64 is written as the text it prints at 53 bits,
  // which reads back as another number (go-cty's rule): such floats are taken as exact numbers.
  fc.double({ noNaN: true }).map((f) => numberVal(Number.isInteger(f) && Math.abs(f) >= 2 ** 63 ? CtyNumber.from(BigInt(f)) : CtyNumber.fromFloat64(f))),
  fc.tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -40, max: 40 })).map(([c, e]) => numberVal(CtyNumber.parse(`${c}e${e}`))),
);

function refinementsArb(t: Type): fc.Arbitrary<Refinements> {
  switch (t.kind) {
    case "string":
      return fc.record({ notNull: fc.boolean(), stringPrefix: fc.string({ unit: "grapheme", maxLength: 6 }) });
    case "number":
      return fc
        .tuple(fc.boolean(), fc.integer({ min: -1000, max: 1000 }), fc.nat(1000), fc.boolean(), fc.boolean(), fc.boolean())
        .map(([notNull, lo, span, loInc, hasHi, hiInc]) => ({
          notNull,
          numberLowerBound: { value: CtyNumber.from(lo), inclusive: loInc || span === 0 },
          ...(hasHi ? { numberUpperBound: { value: CtyNumber.from(lo + span + 0.5), inclusive: hiInc } } : {}),
        }));
    case "list":
    case "set":
    case "map":
      return fc.tuple(fc.boolean(), fc.nat(5), fc.option(fc.nat(5), { nil: undefined })).map(([notNull, lo, span]) => ({
        notNull,
        lengthLowerBound: lo,
        ...(span === undefined ? {} : { lengthUpperBound: lo + span }),
      }));
    default:
      return fc.constant({ notNull: true });
  }
}

/**
 * Values of a type. In "uniform" mode (inside lists, sets and maps, whose elements must all
 * have one type) a dynamic slot holds only the null or unknown of the dynamic type; outside
 * collections it may hold a value of any concrete type.
 */
function valueArb(t: Type, uniform: boolean, depth: number): fc.Arbitrary<Value> {
  if (t.kind === "dynamic") {
    const plain = fc.constantFrom(nullVal(dynamicType), dynamicVal);
    if (uniform || depth > 3) return plain;
    return fc.oneof(plain, concreteTypeArb.chain((ct) => valueArb(ct, false, depth + 1)));
  }
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(nullVal(t)) },
    { weight: 1, arbitrary: fc.constant(unknownVal(t)) },
    { weight: 1, arbitrary: refinementsArb(t).map((r) => unknownVal(t, r)) },
    { weight: 5, arbitrary: knownArb(t, uniform, depth) },
  );
}

function knownArb(t: Type, uniform: boolean, depth: number): fc.Arbitrary<Value> {
  switch (t.kind) {
    case "string":
      return fc.string({ unit: "grapheme", maxLength: 40 }).map(stringVal);
    case "number":
      return numberArb;
    case "bool":
      return fc.boolean().map(boolVal);
    case "list":
    case "set":
    case "map": {
      const el = t.element;
      // A collection of dynamic: choose one concrete element type for all elements.
      const elements: fc.Arbitrary<Value[]> =
        el.kind === "dynamic" && !uniform
          ? concreteTypeArb.chain((ct) => fc.array(valueArb(ct, true, depth + 1), { maxLength: 4 }))
          : fc.array(valueArb(el, true, depth + 1), { maxLength: 4 });
      if (t.kind === "map") {
        return fc.tuple(elements, fc.array(name, { minLength: 4, maxLength: 4 })).map(([es, keys]) => {
          if (es.length === 0) return mapValEmpty(el);
          const entries = new Map<string, Value>();
          es.forEach((e, i) => entries.set(`${keys[i]}${i}`, e));
          return mapVal(entries);
        });
      }
      if (t.kind === "list") return elements.map((es) => (es.length === 0 ? listValEmpty(el) : listVal(es)));
      return elements.map((es) => (es.length === 0 ? setValEmpty(el) : setVal(es)));
    }
    case "object": {
      const names = t.attributeNames;
      return fc
        .tuple(...names.map((n) => valueArb(t.attributes[n]!, uniform, depth + 1)))
        .map((vals) => objectVal(new Map(names.map((n, i) => [n, vals[i]!]))));
    }
    case "tuple":
      return fc.tuple(...t.elements.map((e) => valueArb(e, uniform, depth + 1))).map((vals) => tupleVal(vals));
    case "dynamic":
      return valueArb(t, uniform, depth);
  }
}

const typedValue = typeArb.chain((t) => valueArb(t, false, 0).map((v) => ({ t, v })));

describe("msgpack properties", () => {
  test("fromMsgpack(toMsgpack(v, t), t) rawEquals v, and encoding is canonical", () => {
    fc.assert(
      fc.property(typedValue, ({ t, v }) => {
        const bytes = toMsgpack(v, t);
        const back = fromMsgpack(bytes, t);
        
        expect(back.rawEquals(v)).toBe(true);
        expect(Buffer.from(toMsgpack(back, t)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: ROUND_TRIP_RUNS },
    );
  });

  /** Decoding either succeeds or throws a PathError: nothing else may escape. */
  function decodeSafely(bytes: Uint8Array, t: Type): void {
    try {
      const v = fromMsgpack(bytes, t);
      // Whatever decodes must encode again (a well-formed value of a fitting type) unless it
      // is one of go-cty's 0-length object/tuple quirks.
      try {
        toMsgpack(v, t);
      } catch (e) {
        if (!isPathError(e) || e.code !== "type_mismatch") throw e;
      }
    } catch (e) {
      if (!isPathError(e)) throw e;
    }
  }

  test("random bytes against random types only ever fail with a PathError", () => {
    fc.assert(
      fc.property(typeArb, fc.uint8Array({ maxLength: 64 }), (t, bytes) => decodeSafely(bytes, t)),
      { numRuns: FUZZ_RUNS },
    );
  });

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat(7) }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant("set" as const), at: fc.nat(), byte: fc.constantFrom(0xc1, 0xdd, 0xdf, 0xdb, 0xc9, 0xff, 0x00, 0x7f) }),
  );

  test("mutated valid encodings (bit flips, truncations, inserted bytes) only ever fail with a PathError", () => {
    fc.assert(
      fc.property(typedValue, fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ t, v }, ms) => {
        let b = Array.from(toMsgpack(v, t));
        for (const m of ms) {
          const at = b.length === 0 ? 0 : m.at % b.length;
          if (m.kind === "flip" && b.length > 0) b[at] = b[at]! ^ (1 << m.bit);
          else if (m.kind === "truncate") b = b.slice(0, at);
          else if (m.kind === "insert") b.splice(at, 0, m.byte);
          else if (m.kind === "set" && b.length > 0) b[at] = m.byte;
        }
        decodeSafely(new Uint8Array(b), t);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });
});
