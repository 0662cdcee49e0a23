// Making values: the factory functions (and the codecs' unchecked maker).
import { compareUtf8 } from "./internal/compare-utf8.js";
import { normaliseString } from "./internal/normalise-string.js";
import { KNOWN, NULL, UNKNOWN } from "./internal/value-state.js";
import { CtyNumber } from "./number.js";
import { Path } from "./path.js";
import { PathError, PathErrorCode } from "./path-error.js";
import { checkRefinements, isEmptyRefinements, type Refinements } from "./refinements.js";
import { normaliseSetElements } from "./set-order.js";
import {
  dynamicType,
  emptyObjectType,
  emptyTupleType,
  internObjectType,
  listType,
  mapType,
  numberType,
  setType,
  stringType,
  tupleType,
  typeEquals,
  typeName,
  type Type,
} from "./type.js";
import { FALSE_VALUE, TRUE_VALUE, Value } from "./value.js";

/** A known string; normalised to Unicode NFC, as go-cty's `StringVal` does. */
export function stringVal(s: string): Value {
  if (typeof s !== "string")
    throw new PathError(
      PathErrorCode.TypeMismatch,
      Path.root,
      `stringVal needs a string, got ${typeof s}`,
    );
  return Value._new(stringType, KNOWN, normaliseString(s), undefined);
}

/**
 * A known number, from a {@link CtyNumber}, a bigint, decimal text or a JS number (taken as
 * its shortest decimal form; see {@link CtyNumber.from}).
 */
export function numberVal(n: CtyNumber | bigint | number | string): Value {
  return Value._new(numberType, KNOWN, CtyNumber.from(n), undefined);
}

/** A known bool. */
export function boolVal(b: boolean): Value {
  if (typeof b !== "boolean")
    throw new PathError(
      PathErrorCode.TypeMismatch,
      Path.root,
      `boolVal needs a boolean, got ${typeof b}`,
    );
  return b ? TRUE_VALUE : FALSE_VALUE;
}

/** A typed null. */
export function nullVal(type: Type): Value {
  return Value._new(type, NULL, null, undefined);
}

/**
 * An unknown value of the type, optionally refined.
 *
 * @throws {@link PathError} (`invalid_value`) for refinements that do not fit the type
 * (a prefix on a non-string, bounds on a non-number, lengths on a non-collection, or any
 * refinement on the dynamic type) or that contradict each other.
 */
export function unknownVal(type: Type, refinements?: Refinements): Value {
  if (refinements === undefined || isEmptyRefinements(refinements)) {
    return Value._new(type, UNKNOWN, undefined, undefined);
  }
  return Value._new(type, UNKNOWN, checkRefinements(type, refinements), undefined);
}

/** The unknown value of unknown type (go-cty's `DynamicVal`). */
export const dynamicVal: Value = Value._new(dynamicType, UNKNOWN, undefined, undefined);

/**
 * A non-empty list; every element must have the same type (unknowns of the dynamic type
 * are accepted anywhere).
 *
 * @throws {@link PathError} (`type_mismatch`) for an empty array or mixed element types.
 */
export function listVal(elements: readonly Value[]): Value {
  if (elements.length === 0)
    throw new PathError(
      PathErrorCode.TypeMismatch,
      Path.root,
      "listVal needs at least one element; use listValEmpty(type)",
    );
  const et = commonElementType(elements, "list");
  return Value._new(listType(et), KNOWN, Object.freeze(elements.slice()), undefined);
}

/** The empty list of the element type. */
export function listValEmpty(element: Type): Value {
  return Value._new(listType(element), KNOWN, EMPTY_ARRAY, undefined);
}

/**
 * A non-empty set: duplicate elements (by cty equality) are merged, elements are ordered
 * as go-cty orders them, and marks on elements move onto the set (as in go-cty).
 *
 * @throws {@link PathError} (`type_mismatch`) for an empty array or mixed element types.
 */
export function setVal(elements: readonly Value[]): Value {
  if (elements.length === 0)
    throw new PathError(
      PathErrorCode.TypeMismatch,
      Path.root,
      "setVal needs at least one element; use setValEmpty(type)",
    );
  const et = commonElementType(elements, "set");
  let marks: Set<string> | undefined;
  const clean = elements.map((e) => {
    const { value, paths } = e.unmarkDeep();
    for (const p of paths) {
      marks ??= new Set();
      for (const m of p.marks) marks.add(m);
    }
    return value;
  });
  return Value._new(setType(et), KNOWN, normaliseSetElements(et, clean), marks);
}

/** The empty set of the element type. */
export function setValEmpty(element: Type): Value {
  return Value._new(setType(element), KNOWN, EMPTY_ARRAY, undefined);
}

/**
 * A non-empty map from a record or a `Map`; every element must have the same type.
 *
 * @throws {@link PathError} (`type_mismatch`) for no entries or mixed element types.
 */
export function mapVal(
  entries: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>,
): Value {
  const list = entries instanceof Map ? [...entries.entries()] : Object.entries(entries);
  if (list.length === 0)
    throw new PathError(
      PathErrorCode.TypeMismatch,
      Path.root,
      "mapVal needs at least one element; use mapValEmpty(type)",
    );
  const et = commonElementType(
    list.map(([, v]) => v),
    "map",
  );
  list.sort((a, b) => compareUtf8(a[0], b[0]));
  const m = new Map<string, Value>();
  for (const [k, v] of list) m.set(normaliseString(k), v);
  return Value._new(mapType(et), KNOWN, m, undefined);
}

/** The empty map of the element type. */
export function mapValEmpty(element: Type): Value {
  return Value._new(mapType(element), KNOWN, EMPTY_MAP, undefined);
}

/** A known object; its type is derived from the attributes' types. */
export function objectVal(
  attributes: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>,
): Value {
  const names: string[] = [];
  const types: Type[] = [];
  const values: Value[] = [];
  const add = (k: string, v: Value | undefined): void => {
    if (!(v instanceof Value))
      throw new PathError(
        PathErrorCode.TypeMismatch,
        Path.root.attr(k),
        "attribute value is not a cty Value",
      );
    names.push(k);
    types.push(v.type);
    values.push(v);
  };
  if (attributes instanceof Map) for (const [k, v] of attributes) add(k, v);
  else {
    const record = attributes as Readonly<Record<string, Value>>;
    for (const k of Object.keys(record)) add(k, record[k]);
  }
  const { type, order } = internObjectType(names, types);
  return Value._new(
    type,
    KNOWN,
    Object.freeze(order.map((i) => values[i]!)),
    undefined,
  );
}

/** The empty object, `{}`. */
export const emptyObjectVal: Value = Value._new(
  emptyObjectType,
  KNOWN,
  Object.freeze([]),
  undefined,
);

/** A known tuple; its type is derived from the elements' types. */
export function tupleVal(elements: readonly Value[]): Value {
  if (elements.length === 0) return emptyTupleVal;
  return Value._new(
    tupleType(elements.map((e) => e.type)),
    KNOWN,
    Object.freeze(elements.slice()),
    undefined,
  );
}

/** The empty tuple, `[]`. */
export const emptyTupleVal: Value = Value._new(emptyTupleType, KNOWN, Object.freeze([]), undefined);

/**
 * Makes a known value from a payload that the caller guarantees to be valid for the type.
 * For codecs in this package only.
 * @internal
 */
export function knownValueUnchecked(type: Type, payload: unknown): Value {
  return Value._new(type, KNOWN, payload, undefined);
}

const EMPTY_ARRAY: readonly Value[] = Object.freeze([]);
const EMPTY_MAP: ReadonlyMap<string, Value> = new Map();

function commonElementType(elements: readonly Value[], kind: string): Type {
  let et: Type = dynamicType;
  elements.forEach((e, i) => {
    if (!(e instanceof Value))
      throw new PathError(
        PathErrorCode.TypeMismatch,
        Path.root.index(i),
        `${kind} element is not a cty Value`,
      );
    if (e.type.kind === "dynamic") return;
    if (et.kind === "dynamic") et = e.type;
    else if (!typeEquals(et, e.type)) {
      throw new PathError(
        PathErrorCode.TypeMismatch,
        Path.root.index(i),
        `inconsistent ${kind} element types: ${typeName(et)} and ${typeName(e.type)}`,
      );
    }
  });
  return et;
}
