import { Path } from "../path.js";
import { PathError, PathErrorCode, isPathError } from "../path-error.js";
import {
  dynamicType,
  isPrimitiveType,
  listType,
  mapType,
  objectType,
  setType,
  tupleType,
  typeEquals,
  type ObjectType,
  type TupleType,
  type Type,
} from "../type.js";
import {
  emptyTupleVal,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  unknownVal,
} from "../construction.js";
import type { Refinements } from "../refinements.js";
import type { Value } from "../value.js";
import { stringToBool, stringToNumber } from "./primitive-conversions.js";
import { withoutOptional } from "./type-utils.js";
import { mismatchMessage } from "./mismatch-message.js";
import { unifyWith } from "./unify.js";

/** A conversion of a value of one particular type, reporting errors under `path`. @internal */
export type Conversion = (value: Value, path: Path) => Value;

/**
 * Converts a value to a type, as go-cty's `convert.Convert` does (safe and unsafe
 * conversions alike).
 *
 * - number → string (`"1.5"`), bool → string (`"true"`); string → number (go-cty's number
 *   syntax, exact), string → bool (`"true"`/`"1"`, `"false"`/`"0"`);
 * - list ↔ set ↔ tuple, map ↔ object (an object keeps only the wanted attributes; a map
 *   converted to an object must have every non-optional attribute; optional attributes that
 *   are absent become null);
 * - anything → dynamic (unchanged); dynamic-typed unknowns and nulls take the wanted type;
 * - nested types are converted element by element; nulls and unknowns keep their state and
 *   take the converted type (unknowns keep the refinements that still apply); marks are kept
 *   on the values that carried them.
 *
 * A value that already has the type (ignoring optional-attribute markers) is returned as is.
 *
 * @throws {@link PathError} `type_mismatch` when no conversion exists, with go-cty's message
 * (`a number is required`, `attribute "x" is required`, `element 1: string required`,
 * `incorrect list element type: a bool is required`) and the path of the failing part
 * (`.rules[1].from: a number is required`); `invalid_value` for a number beyond the
 * supported exponent range.
 */
export function convert(value: Value, type: Type): Value {
  if (typeEquals(value.type, withoutOptional(type))) return value;
  const conv = getConversion(value.type, type, true);
  if (conv === undefined) {
    throw new PathError(PathErrorCode.TypeMismatch, Path.root, mismatchMessage(value.type, type));
  }
  return conv(value, Path.root);
}

/**
 * Whether {@link convert} could succeed for some value of type `from` (go-cty's
 * `GetConversionUnsafe(from, to) != nil`, or equal types). Values can still fail, e.g. the
 * string "abc" to number.
 */
export function canConvert(from: Type, to: Type): boolean {
  return typeEquals(from, withoutOptional(to)) || getConversion(from, to, true) !== undefined;
}

// ---------------------------------------------------------------------------------------
// Conversion selection (type level)

/** The conversion from `inT` to `outT`, or undefined when there is none. @internal */
export function getConversion(inT: Type, outT: Type, unsafe: boolean): Conversion | undefined {
  const conv = getConversionKnown(inT, outT, unsafe);
  if (conv === undefined) return undefined;
  const ret: Conversion = (v, path) => {
    if (v.isMarked()) {
      const marks = [...v.marks];
      return ret(v.unmark(), path).mark(...marks);
    }
    if (outT.kind === "dynamic") return v;
    if (!v.isKnown() || v.isNull()) {
      const t = dynamicReplace(v.type, withoutOptional(outT));
      return v.isNull() ? nullVal(t) : unknownVal(t, keptRefinements(v, t));
    }
    return conv(v, path);
  };
  return ret;
}

function getConversionKnown(inT: Type, outT: Type, unsafe: boolean): Conversion | undefined {
  if (outT.kind === "dynamic") return (v) => v;
  if (unsafe && inT.kind === "dynamic") return dynamicFixup(outT);
  if (isPrimitiveType(inT) && isPrimitiveType(outT)) {
    if (inT.kind === outT.kind) return (v) => v;
    if (outT.kind === "string") {
      if (inT.kind === "number") return (v) => stringVal(v.asNumber().toString());
      return (v) => stringVal(v.asBool() ? "true" : "false");
    }
    if (!unsafe || inT.kind !== "string") return undefined;
    if (outT.kind === "number") return (v, path) => stringToNumber(v.asString(), path);
    return (v, path) => stringToBool(v.asString(), path);
  }
  if (outT.kind === "object" && inT.kind === "object") return objectToObject(inT, outT, unsafe);
  if (outT.kind === "tuple" && inT.kind === "tuple") return tupleToTuple(inT, outT, unsafe);
  if (
    (outT.kind === "list" || outT.kind === "set") &&
    (inT.kind === "list" || inT.kind === "set")
  ) {
    if (outT.kind === "set" && inT.kind === "list" && !unsafe) return undefined; // loses order and duplicates
    if (typeEquals(inT.element, outT.element))
      return collectionToSequence(outT.kind, outT.element, undefined);
    const convEty = getConversion(inT.element, outT.element, unsafe);
    if (convEty === undefined) return undefined;
    return collectionToSequence(outT.kind, outT.element, convEty);
  }
  if (outT.kind === "map" && inT.kind === "map") {
    const convEty = getConversion(inT.element, outT.element, unsafe);
    if (convEty === undefined) return undefined;
    return mapToMap(outT.element, convEty);
  }
  if ((outT.kind === "list" || outT.kind === "set") && inT.kind === "tuple") {
    return tupleToSequence(inT, outT.kind, outT.element, unsafe);
  }
  if (outT.kind === "map" && inT.kind === "object") return objectToMap(inT, outT.element, unsafe);
  if (outT.kind === "object" && inT.kind === "map") {
    if (!unsafe) return undefined; // keys may not match the attributes
    return mapToObject(inT.element, outT, unsafe);
  }
  return undefined;
}

/** Refinements of an unknown that still hold after conversion to `t`. */
function keptRefinements(v: Value, t: Type): Refinements | undefined {
  if (t.kind === "dynamic") return undefined;
  const r = v.refinements;
  const out: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  if (r.notNull === true) out.notNull = true;
  if (t.kind === v.type.kind) {
    if (r.stringPrefix !== undefined) out.stringPrefix = r.stringPrefix;
    if (r.numberLowerBound !== undefined) out.numberLowerBound = r.numberLowerBound;
    if (r.numberUpperBound !== undefined) out.numberUpperBound = r.numberUpperBound;
    if (t.kind !== "set") {
      if (r.lengthLowerBound !== undefined) out.lengthLowerBound = r.lengthLowerBound;
      if (r.lengthUpperBound !== undefined) out.lengthUpperBound = r.lengthUpperBound;
    } else if (r.lengthUpperBound !== undefined) {
      out.lengthUpperBound = r.lengthUpperBound;
    }
  }
  return out;
}

function dynamicFixup(want: Type): Conversion {
  return (v, path) => {
    try {
      return convert(v, want);
    } catch (e) {
      if (!isPathError(e)) throw e;
      throw new PathError(e.code, path.concat(e.path), e.reason, { cause: e });
    }
  };
}

/** Runs a value constructor; its errors (e.g. mixed element types) are reported at `path`. */
function build(path: Path, reason: string, make: () => Value): Value {
  try {
    return make();
  } catch (e) {
    if (!isPathError(e)) throw e;
    throw new PathError(PathErrorCode.TypeMismatch, path, reason, { cause: e });
  }
}

function nullWithoutOptional(v: Value): Value {
  return v.isNull() && !v.isMarked() ? nullVal(withoutOptional(v.type)) : v;
}

/** Length of a set is unknown when it has unknown elements that might coincide. */
function lengthKnown(v: Value): boolean {
  if (v.type.kind !== "set") return true;
  const elems = v.elements();
  return elems.length <= 1 || v.isWhollyKnown();
}

function collectionToSequence(
  kind: "list" | "set",
  ety: Type,
  conv: Conversion | undefined,
): Conversion {
  return (v, path) => {
    if (kind === "list" && !lengthKnown(v)) {
      return unknownVal(
        listType(ety.kind === "dynamic" ? (v.type as { element: Type }).element : ety),
      );
    }
    const elems = v
      .elements()
      .map((e, i) => nullWithoutOptional(conv === undefined ? e : conv(e, path.index(i))));
    if (elems.length === 0) {
      const et =
        ety.kind === "dynamic" ? (v.type as { element: Type }).element : withoutOptional(ety);
      return kind === "list" ? listValEmpty(et) : setValEmpty(et);
    }
    return build(path, `element types must all match for conversion to ${kind}`, () =>
      kind === "list" ? listVal(elems) : setVal(elems),
    );
  };
}

function mapToMap(ety: Type, conv: Conversion): Conversion {
  return (v, path) => {
    let elems = new Map<string, Value>();
    for (const [k, e] of v.entries()) elems.set(k, conv(e, path.key(k)));
    if (elems.size === 0) {
      return mapValEmpty(ety.kind === "dynamic" ? (v.type as { element: Type }).element : ety);
    }
    if (ety.kind === "list" || ety.kind === "set" || ety.kind === "map" || ety.kind === "object") {
      elems = unifyMapElements(elems, path, false);
    }
    return build(path, "element types must all match for conversion to map", () => mapVal(elems));
  };
}

function tupleToSequence(
  inT: TupleType,
  kind: "list" | "set",
  wantEty: Type,
  unsafe: boolean,
): Conversion | undefined {
  const etys = inT.elements;
  if (etys.length === 0) {
    return () =>
      kind === "list"
        ? listValEmpty(withoutOptional(wantEty))
        : setValEmpty(withoutOptional(wantEty));
  }
  let ety = wantEty;
  if (ety.kind === "dynamic") {
    const u = unifyWith(etys, unsafe);
    if (u === undefined) return undefined;
    if (u.kind === "dynamic" && !etys.every((t) => t.kind === "dynamic")) return undefined;
    ety = u;
  }
  const convs: (Conversion | undefined)[] = [];
  for (const t of etys) {
    if (typeEquals(t, ety)) {
      convs.push(undefined);
      continue;
    }
    const c = getConversion(t, ety, unsafe);
    if (c === undefined) return undefined;
    convs.push(c);
  }
  return (v, path) => {
    let elems = v.elements().map((e, i) => {
      const c = convs[i];
      return c === undefined ? e : c(e, path.index(i));
    });
    if (kind === "list") {
      elems = unifyListElements(elems, path, unsafe);
      return build(path, "element types must all match for conversion to list", () =>
        listVal(elems),
      );
    }
    elems = elems.map(nullWithoutOptional);
    return build(path, "element types must all match for conversion to set", () => setVal(elems));
  };
}

function objectToMap(inT: ObjectType, wantEty: Type, unsafe: boolean): Conversion | undefined {
  const names = inT.attributeNames;
  if (names.length === 0) return () => mapValEmpty(withoutOptional(wantEty));
  let ety = wantEty;
  if (ety.kind === "dynamic") {
    const u = unifyWith(
      names.map((n) => inT.attributes[n]!),
      unsafe,
    );
    if (u === undefined) return undefined;
    ety = u;
  }
  const convs = new Map<string, Conversion>();
  for (const n of names) {
    const t = inT.attributes[n]!;
    if (typeEquals(t, ety)) continue;
    const c = getConversion(t, ety, unsafe);
    if (c === undefined) return undefined;
    convs.set(n, c);
  }
  return (v, path) => {
    let elems = new Map<string, Value>();
    const attrs = v.attributes();
    for (const n of names) {
      const c = convs.get(n);
      elems.set(n, c === undefined ? attrs[n]! : c(attrs[n]!, path.key(n)));
    }
    if (ety.kind === "list" || ety.kind === "set" || ety.kind === "map" || ety.kind === "object") {
      elems = unifyMapElements(elems, path, unsafe);
    }
    return build(path, "attribute types must all match for conversion to map", () => mapVal(elems));
  };
}

function mapToObject(mapEty: Type, outT: ObjectType, unsafe: boolean): Conversion | undefined {
  // undefined: no conversion needed; null: an optional attribute with no conversion.
  const convs = new Map<string, Conversion | null>();
  for (const n of outT.attributeNames) {
    const t = outT.attributes[n]!;
    if (typeEquals(t, mapEty)) continue;
    const c = getConversion(mapEty, t, unsafe);
    if (c === undefined) {
      if (outT.optional.has(n) && unsafe) {
        convs.set(n, null);
        continue;
      }
      return undefined;
    }
    convs.set(n, c);
  }
  return (v, path) => {
    const elems = new Map<string, Value>();
    for (const [k, e] of v.entries()) {
      const at = outT.attributes[k];
      if (at === undefined) continue; // extra map keys are dropped
      const c = convs.get(k);
      let out = e;
      if (c === null) {
        throw new PathError(
          PathErrorCode.TypeMismatch,
          path,
          `map element type is incompatible with attribute ${JSON.stringify(k)}: ${mismatchMessage(e.type, at)}`,
        );
      }
      if (c !== undefined) out = c(e, path.key(k));
      elems.set(k, nullWithoutOptional(out));
    }
    for (const n of outT.attributeNames) {
      if (elems.has(n)) continue;
      if (!outT.optional.has(n)) {
        throw new PathError(
          PathErrorCode.TypeMismatch,
          path,
          `map has no element for required attribute ${JSON.stringify(n)}`,
        );
      }
      elems.set(n, nullVal(outT.attributes[n]!));
    }
    return objectVal(elems);
  };
}

function objectToObject(
  inT: ObjectType,
  outT: ObjectType,
  unsafe: boolean,
): Conversion | undefined {
  const convs = new Map<string, Conversion | undefined>();
  for (const n of outT.attributeNames) {
    const out = outT.attributes[n]!;
    const inAt = inT.attributes[n];
    if (inAt === undefined) {
      if (outT.optional.has(n)) continue;
      return undefined;
    }
    if (typeEquals(inAt, out)) {
      convs.set(n, undefined);
      continue;
    }
    const c = getConversion(inAt, out, unsafe);
    if (c === undefined) return undefined;
    convs.set(n, c);
  }
  return (v, path) => {
    const elems = new Map<string, Value>();
    const attrs = v.attributes();
    for (const n of inT.attributeNames) {
      if (!convs.has(n)) continue; // attributes the wanted type lacks are dropped
      const c = convs.get(n);
      const e = attrs[n]!;
      elems.set(n, nullWithoutOptional(c === undefined ? e : c(e, path.attr(n))));
    }
    for (const n of outT.optional) {
      if (!elems.has(n)) elems.set(n, nullVal(withoutOptional(outT.attributes[n]!)));
    }
    return objectVal(elems);
  };
}

function tupleToTuple(inT: TupleType, outT: TupleType, unsafe: boolean): Conversion | undefined {
  if (inT.elements.length !== outT.elements.length) return undefined;
  const convs: (Conversion | undefined)[] = [];
  for (let i = 0; i < outT.elements.length; i++) {
    const a = inT.elements[i]!;
    const b = outT.elements[i]!;
    if (typeEquals(a, b)) {
      convs.push(undefined);
      continue;
    }
    const c = getConversion(a, b, unsafe);
    if (c === undefined) return undefined;
    convs.push(c);
  }
  return (v, path) => {
    const elems = v.elements().map((e, i) => {
      const c = convs[i];
      return c === undefined ? e : c(e, path.index(i));
    });
    return elems.length === 0 ? emptyTupleVal : tupleVal(elems);
  };
}

function unifyListElements(elems: Value[], path: Path, unsafe: boolean): Value[] {
  const u = unifyWith(
    elems.map((e) => e.type),
    unsafe,
  );
  if (u === undefined)
    throw new PathError(
      PathErrorCode.TypeMismatch,
      path,
      "cannot find a common base type for all elements",
    );
  return elems.map((e, i) => {
    if (typeEquals(e.type, u)) return e;
    const c = getConversion(e.type, u, unsafe);
    if (c === undefined)
      throw new PathError(PathErrorCode.TypeMismatch, path.index(i), mismatchMessage(e.type, u));
    return c(e, path.index(i));
  });
}

function unifyMapElements(
  elems: Map<string, Value>,
  path: Path,
  unsafe: boolean,
): Map<string, Value> {
  const u = unifyWith(
    [...elems.values()].map((e) => e.type),
    unsafe,
  );
  if (u === undefined)
    throw new PathError(
      PathErrorCode.TypeMismatch,
      path,
      "cannot find a common base type for all elements",
    );
  const out = new Map<string, Value>();
  for (const [k, e] of elems) {
    if (typeEquals(e.type, u)) {
      out.set(k, e);
      continue;
    }
    const c = getConversion(e.type, u, unsafe);
    if (c === undefined)
      throw new PathError(PathErrorCode.TypeMismatch, path.key(k), mismatchMessage(e.type, u));
    out.set(k, c(e, path.key(k)));
  }
  return out;
}

/**
 * go-cty's `dynamicReplace`: `out`, with dynamic parts replaced by the matching parts of
 * `inT` (used for the type of converted nulls and unknowns).
 */
function dynamicReplace(inT: Type, out: Type): Type {
  if (inT.kind === "dynamic") return out;
  switch (out.kind) {
    case "dynamic":
      return inT;
    case "string":
    case "number":
    case "bool":
      return out;
    case "map": {
      let et: Type = dynamicType;
      if (inT.kind === "map") et = dynamicReplace(inT.element, out.element);
      else if (inT.kind === "object") {
        et = dynamicReplace(
          unifyWith(
            inT.attributeNames.map((n) => inT.attributes[n]!),
            true,
          ) ?? dynamicType,
          out.element,
        );
      }
      return mapType(et);
    }
    case "object": {
      const attrs = new Map<string, Type>();
      for (const n of out.attributeNames) {
        const at = out.attributes[n]!;
        if (inT.kind === "map") attrs.set(n, dynamicReplace(inT.element, at));
        else if (inT.kind === "object") {
          const ia = inT.attributes[n];
          attrs.set(n, ia === undefined ? at : dynamicReplace(ia, at));
        } else attrs.set(n, at);
      }
      return objectType(attrs);
    }
    case "set":
    case "list": {
      let et: Type = dynamicType;
      if (inT.kind === "set" || inT.kind === "list") et = dynamicReplace(inT.element, out.element);
      else if (inT.kind === "tuple")
        et = dynamicReplace(unifyWith(inT.elements, true) ?? dynamicType, out.element);
      return out.kind === "set" ? setType(et) : listType(et);
    }
    case "tuple":
      return tupleType(
        out.elements.map((e, i) =>
          inT.kind === "tuple" && inT.elements[i] !== undefined
            ? dynamicReplace(inT.elements[i], e)
            : e,
        ),
      );
  }
}
