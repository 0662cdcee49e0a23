import { compareUtf8 } from "./internal/compare-utf8.js";
import { CtyNumber } from "./number.js";
import { Path } from "./path.js";
import { PathError, PathErrorCode } from "./path-error.js";
import {
  boolType,
  dynamicType,
  emptyObjectType,
  emptyTupleType,
  isCollectionType,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  typeEquals,
  typeName,
  type ObjectType,
  type Type,
} from "./type.js";

/** Well-known marks. Marks are strings; `sensitive` is the one Terraform uses. */
export const Mark = {
  /** The value is sensitive: hide it from people, never log it. */
  Sensitive: "sensitive",
} as const;

/** An inclusive or exclusive bound on an unknown number. */
export interface NumberBound {
  readonly value: CtyNumber;
  readonly inclusive: boolean;
}

/**
 * What is known about an unknown value (go-cty's refinements). Every field is optional; an
 * unknown with no refinements is "any value of its type, or null".
 */
export interface Refinements {
  /** The value will definitely not be null. */
  readonly notNull?: boolean;
  /** Strings only: the value will start with this prefix (at most 256 UTF-8 bytes are kept). */
  readonly stringPrefix?: string;
  /** Numbers only. */
  readonly numberLowerBound?: NumberBound;
  /** Numbers only. */
  readonly numberUpperBound?: NumberBound;
  /** Lists, sets and maps only: the least possible length (0 = no bound). */
  readonly lengthLowerBound?: number;
  /** Lists, sets and maps only: the greatest possible length. */
  readonly lengthUpperBound?: number;
}

/** A path together with the marks found there (see {@link Value.unmarkDeep}). */
export interface PathMarks {
  readonly path: Path;
  readonly marks: ReadonlySet<string>;
}

const KNOWN = 0;
const NULL = 1;
const UNKNOWN = 2;
type State = typeof KNOWN | typeof NULL | typeof UNKNOWN;

const NO_MARKS: ReadonlySet<string> = new Set<string>();

/** The brand every copy of this package's `Value` carries (see `Value[Symbol.hasInstance]`). */
const VALUE_BRAND: symbol = Symbol.for("@magma/cty.Value@1");

/**
 * An immutable cty value: a typed null, an unknown (possibly refined), or a known value of
 * its type. Values may carry marks such as `sensitive`; marks travel through navigation and
 * comparison but never onto the wire.
 *
 * Make values with the factory functions ({@link stringVal}, {@link objectVal},
 * {@link nullVal}, {@link unknownVal}, …) or decode them with the codecs.
 *
 * A known value always has a concrete type; only null and unknown values can have the
 * dynamic type. The type of a known object or tuple is derived from its contents, as in
 * go-cty.
 */
export class Value {
  /**
   * `x instanceof Value` holds for values made by any copy of `@magma/cty` with the same
   * brand (a registered symbol), so that two installed copies of this package exchange
   * values. The brand names the layout of the internal fields, which only changes with a
   * major version.
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[VALUE_BRAND] === true;
  }

  /** The value's type. */
  readonly type: Type;
  /** @internal */
  readonly _s: State;
  /**
   * Payload: string | CtyNumber | boolean (primitives), Value[] (list, set, tuple, object
   * attributes in `attributeNames` order), ReadonlyMap<string, Value> (map, keys in UTF-8
   * order), Refinements | undefined (unknown), null (null).
   * @internal
   */
  readonly _v: unknown;
  /** @internal */
  readonly _m: ReadonlySet<string> | undefined;

  /**
   * Makes a value from its parts, unchecked. For this package's factories and codecs.
   * @internal
   */
  static _new(type: Type, state: State, payload: unknown, marks: ReadonlySet<string> | undefined): Value {
    return new Value(type, state, payload, marks);
  }

  /** Use the factory functions ({@link stringVal}, {@link objectVal}, …) or the codecs. */
  private constructor(type: Type, state: State, payload: unknown, marks: ReadonlySet<string> | undefined) {
    this.type = type;
    this._s = state;
    this._v = payload;
    this._m = marks;
  }

  /** True for a null value. */
  isNull(): boolean {
    return this._s === NULL;
  }

  /** True unless the value itself is unknown (its contents may still contain unknowns). */
  isKnown(): boolean {
    return this._s !== UNKNOWN;
  }

  /** True when neither the value nor anything inside it is unknown. */
  isWhollyKnown(): boolean {
    if (this._s === UNKNOWN) return false;
    if (this._s === NULL) return true;
    const v = this._v;
    if (Array.isArray(v)) return (v as Value[]).every((e) => e.isWhollyKnown());
    if (v instanceof Map) {
      for (const e of (v as ReadonlyMap<string, Value>).values()) if (!e.isWhollyKnown()) return false;
    }
    return true;
  }

  /** The refinements of an unknown value (an empty object for unrefined unknowns). */
  get refinements(): Refinements {
    if (this._s !== UNKNOWN) throw misuse(`refinements of a ${this._s === NULL ? "null" : "known"} value`);
    return (this._v as Refinements | undefined) ?? {};
  }

  /** The marks directly on this value (not those inside it). */
  get marks(): ReadonlySet<string> {
    return this._m ?? NO_MARKS;
  }

  /** True when this value (not its contents) carries any mark, or the given one. */
  isMarked(mark?: string): boolean {
    if (this._m === undefined) return false;
    return mark === undefined ? true : this._m.has(mark);
  }

  /** True when this value or anything inside it carries a mark. */
  containsMarked(): boolean {
    if (this._m !== undefined) return true;
    const v = this._v;
    if (this._s !== KNOWN) return false;
    if (Array.isArray(v)) return (v as Value[]).some((e) => e.containsMarked());
    if (v instanceof Map) {
      for (const e of (v as ReadonlyMap<string, Value>).values()) if (e.containsMarked()) return true;
    }
    return false;
  }

  /** A copy of this value with the given marks added. */
  mark(...marks: string[]): Value {
    if (marks.length === 0) return this;
    const next = new Set(this._m ?? NO_MARKS);
    for (const m of marks) next.add(m);
    if (this._m !== undefined && next.size === this._m.size) return this;
    return Value._new(this.type, this._s, this._v, next);
  }

  /** A copy of this value without its own marks (marks inside it stay). */
  unmark(): Value {
    if (this._m === undefined) return this;
    return Value._new(this.type, this._s, this._v, undefined);
  }

  /**
   * This value with every mark removed, at every depth, plus the paths where marks were
   * (go-cty's `UnmarkDeepWithPaths`). Set elements are not addressable, so marks inside a
   * set are reported at the set's path.
   */
  unmarkDeep(): { value: Value; paths: PathMarks[] } {
    const paths: PathMarks[] = [];
    const value = unmarkDeepAt(this, Path.root, paths, false);
    return { value, paths };
  }

  /** The string of a known, non-null string value. */
  asString(): string {
    this.expectKnown("string");
    return this._v as string;
  }

  /** The number of a known, non-null number value. */
  asNumber(): CtyNumber {
    this.expectKnown("number");
    return this._v as CtyNumber;
  }

  /** The boolean of a known, non-null bool value. */
  asBool(): boolean {
    this.expectKnown("bool");
    return this._v as boolean;
  }

  /**
   * The elements of a known, non-null list, set or tuple (sets in go-cty's order). Marks on
   * the container are not copied onto the elements here; use {@link Value.index} for that.
   */
  elements(): readonly Value[] {
    const k = this.type.kind;
    if (k !== "list" && k !== "set" && k !== "tuple") throw misuse(`elements of ${typeName(this.type)}`);
    this.expectKnown(k);
    return this._v as Value[];
  }

  /** The entries of a known, non-null map, keys in UTF-8 byte order. */
  entries(): ReadonlyMap<string, Value> {
    if (this.type.kind !== "map") throw misuse(`entries of ${typeName(this.type)}`);
    this.expectKnown("map");
    return this._v as ReadonlyMap<string, Value>;
  }

  /** The attributes of a known, non-null object, as a record. */
  attributes(): Readonly<Record<string, Value>> {
    if (this.type.kind !== "object") throw misuse(`attributes of ${typeName(this.type)}`);
    this.expectKnown("object");
    const out: Record<string, Value> = Object.create(null) as Record<string, Value>;
    const vals = this._v as Value[];
    this.type.attributeNames.forEach((n, i) => (out[n] = vals[i]!));
    return out;
  }

  /** The number of elements of a known, non-null list, set, map or tuple, or of attributes of an object. */
  length(): number {
    if (this._s !== KNOWN) throw misuse(`length of a ${this._s === NULL ? "null" : "unknown"} value`);
    const v = this._v;
    if (Array.isArray(v)) return v.length;
    if (v instanceof Map) return v.size;
    throw misuse(`length of ${typeName(this.type)}`);
  }

  /** True when the object type has the attribute. */
  hasAttr(name: string): boolean {
    return this.type.kind === "object" && name in this.type.attributes;
  }

  /**
   * An attribute of an object. An unknown object gives an unknown of the attribute's type;
   * the object's marks are added to the result.
   *
   * @throws {@link PathError} (`type_mismatch`) for a non-object or an absent attribute,
   * (`null_value`) for a null object.
   */
  getAttr(name: string): Value {
    const t = this.type;
    if (t.kind === "dynamic" && this._s === UNKNOWN) return withMarks(unknownVal(dynamicType), this._m);
    if (t.kind !== "object") throw new PathError(PathErrorCode.TypeMismatch, Path.root, `cannot access attribute ${JSON.stringify(name)} of ${typeName(t)}`);
    const at = t.attributes[name];
    if (at === undefined) {
      throw new PathError(PathErrorCode.TypeMismatch, Path.root, `object has no attribute ${JSON.stringify(name)}`);
    }
    if (this._s === NULL) throw new PathError(PathErrorCode.NullValue, Path.root, `cannot access attribute ${JSON.stringify(name)} of a null object`);
    if (this._s === UNKNOWN) return withMarks(unknownVal(at), this._m);
    const i = attrIndex(t, name);
    return withMarks((this._v as Value[])[i]!, this._m);
  }

  /**
   * An element by index (list, tuple) or key (map). An unknown collection gives an unknown
   * of the element type; the container's marks are added to the result.
   *
   * @throws {@link PathError} (`type_mismatch`) for a wrong key kind or a missing
   * element, (`null_value`) for a null container.
   */
  index(key: number | string): Value {
    const t = this.type;
    if (t.kind === "dynamic" && this._s === UNKNOWN) return withMarks(unknownVal(dynamicType), this._m);
    if (this._s === NULL) throw new PathError(PathErrorCode.NullValue, Path.root, `cannot index a null value`);
    if (t.kind === "map") {
      if (typeof key !== "string") throw new PathError(PathErrorCode.TypeMismatch, Path.root, "a map key must be a string");
      if (this._s === UNKNOWN) return withMarks(unknownVal(t.element), this._m);
      const e = (this._v as ReadonlyMap<string, Value>).get(key);
      if (e === undefined) throw new PathError(PathErrorCode.TypeMismatch, Path.root, `map has no element with key ${JSON.stringify(key)}`);
      return withMarks(e, this._m);
    }
    if (t.kind === "list" || t.kind === "tuple") {
      if (typeof key !== "number" || !Number.isInteger(key)) {
        throw new PathError(PathErrorCode.TypeMismatch, Path.root, `a ${t.kind} index must be a whole number`);
      }
      if (this._s === UNKNOWN) {
        if (t.kind === "list") return withMarks(unknownVal(t.element), this._m);
        const et = t.elements[key];
        if (et === undefined) throw new PathError(PathErrorCode.TypeMismatch, Path.root, `index ${key} is out of range for ${typeName(t)}`);
        return withMarks(unknownVal(et), this._m);
      }
      const e = (this._v as Value[])[key];
      if (e === undefined || key < 0) {
        throw new PathError(PathErrorCode.TypeMismatch, Path.root, `index ${key} is out of range (length ${(this._v as Value[]).length})`);
      }
      return withMarks(e, this._m);
    }
    throw new PathError(PathErrorCode.TypeMismatch, Path.root, `cannot index ${typeName(t)}`);
  }

  /**
   * The value at a path (go-cty's `Path.Apply`).
   *
   * @throws {@link PathError} with the path of the first step that does not apply.
   */
  getPath(path: Path): Value {
    let v: Value = this;
    let at = Path.root;
    for (const step of path.steps) {
      try {
        v = step.kind === "attr" ? v.getAttr(step.name) : step.kind === "key" ? v.index(step.key) : v.index(step.index);
      } catch (e) {
        if (e instanceof PathError) throw new PathError(e.code, at, e.reason, { cause: e });
        throw e;
      }
      at = step.kind === "attr" ? at.attr(step.name) : step.kind === "key" ? at.key(step.key) : at.index(step.index);
    }
    return v;
  }

  /**
   * cty equality: a bool value that is unknown when the answer depends on unknowns, true for
   * two nulls, false for values of different types. Marks of both sides are carried onto the
   * result.
   */
  equals(other: Value): Value {
    const r = equalsInner(this, other);
    const marks = unionMarks(this._m, other._m);
    const v = r === undefined ? unknownVal(boolType, { notNull: true }) : boolVal(r);
    return withMarks(v, marks);
  }

  /**
   * Exact identity: same type, same known/null/unknown state, same refinements, same
   * marks, same contents (go-cty's `RawEquals`). Two unknowns of the same type and
   * refinements are raw-equal.
   */
  rawEquals(other: Value): boolean {
    return rawEqualsInner(this, other);
  }

  /** A readable rendering for messages and debugging; sensitive values are not hidden. */
  toString(): string {
    return render(this);
  }

  private expectKnown(what: string): void {
    if (this.type.kind !== what) {
      throw new PathError(PathErrorCode.TypeMismatch, Path.root, `expected ${what}, got ${typeName(this.type)}`);
    }
    if (this._s === NULL) throw new PathError(PathErrorCode.NullValue, Path.root, `${what} value is null`);
    if (this._s === UNKNOWN) throw new PathError(PathErrorCode.UnknownValue, Path.root, `${what} value is unknown`);
  }
}

// ---------------------------------------------------------------------------------------
// Factories

Object.defineProperty(Value.prototype, VALUE_BRAND, { value: true });

/** A known string; normalised to Unicode NFC, as go-cty's `StringVal` does. */
export function stringVal(s: string): Value {
  if (typeof s !== "string") throw new PathError(PathErrorCode.TypeMismatch, Path.root, `stringVal needs a string, got ${typeof s}`);
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
  if (typeof b !== "boolean") throw new PathError(PathErrorCode.TypeMismatch, Path.root, `boolVal needs a boolean, got ${typeof b}`);
  return b ? TRUE : FALSE;
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
  if (elements.length === 0) throw new PathError(PathErrorCode.TypeMismatch, Path.root, "listVal needs at least one element; use listValEmpty(type)");
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
  if (elements.length === 0) throw new PathError(PathErrorCode.TypeMismatch, Path.root, "setVal needs at least one element; use setValEmpty(type)");
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
export function mapVal(entries: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>): Value {
  const list = entries instanceof Map ? [...entries.entries()] : Object.entries(entries);
  if (list.length === 0) throw new PathError(PathErrorCode.TypeMismatch, Path.root, "mapVal needs at least one element; use mapValEmpty(type)");
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
export function objectVal(attributes: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>): Value {
  const types = new Map<string, Type>();
  const entries = attributes instanceof Map ? [...attributes.entries()] : Object.entries(attributes);
  for (const [k, v] of entries) {
    if (!(v instanceof Value)) throw new PathError(PathErrorCode.TypeMismatch, Path.root.attr(k), "attribute value is not a cty Value");
    types.set(k, v.type);
  }
  const t = entries.length === 0 ? emptyObjectType : objectType(types);
  const byName = new Map(entries);
  return Value._new(t, KNOWN, Object.freeze(t.attributeNames.map((n) => byName.get(n)!)), undefined);
}

/** The empty object, `{}`. */
export const emptyObjectVal: Value = Value._new(emptyObjectType, KNOWN, Object.freeze([]), undefined);

/** A known tuple; its type is derived from the elements' types. */
export function tupleVal(elements: readonly Value[]): Value {
  if (elements.length === 0) return emptyTupleVal;
  return Value._new(tupleType(elements.map((e) => e.type)), KNOWN, Object.freeze(elements.slice()), undefined);
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

/**
 * Orders and de-duplicates set elements as go-cty does. For codecs in this package only.
 * @internal
 */
export function normaliseSetElements(elementType: Type, elements: Value[]): readonly Value[] {
  if (elements.length <= 1) return Object.freeze(elements);
  const out: Value[] = [];
  const seen = new Set<string>();
  for (const e of elements) {
    if (!e.isWhollyKnown()) {
      out.push(e); // unknowns are never equal to anything, so never merged
      continue;
    }
    const key = exactKey(e);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  out.sort((a, b) => compareSetElements(elementType, a, b));
  return Object.freeze(out);
}

/**
 * Normalises a string to NFC as go-cty does, skipping the work for text that cannot change.
 * @internal
 */
export function normaliseString(s: string): string {
  // Every code unit below U+0300 is unchanged by NFC and cannot combine with a predecessor.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x300) return s.normalize("NFC");
  }
  return s;
}

/**
 * Checks refinements against a type and returns the canonical form (the string prefix
 * truncated to 256 UTF-8 bytes at a character boundary). For codecs in this package only.
 * @internal
 */
export function checkRefinements(type: Type, r: Refinements): Refinements {
  const bad = (reason: string): PathError => new PathError(PathErrorCode.InvalidValue, Path.root, reason);
  if (type.kind === "dynamic") throw bad("a value of unknown type cannot be refined");
  const out: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  if (r.notNull === true) out.notNull = true;
  if (r.stringPrefix !== undefined && r.stringPrefix !== "") {
    if (type.kind !== "string") throw bad(`a string prefix cannot refine ${typeName(type)}`);
    out.stringPrefix = truncateUtf8(normaliseString(r.stringPrefix), 256);
  }
  if (r.numberLowerBound !== undefined || r.numberUpperBound !== undefined) {
    if (type.kind !== "number") throw bad(`number bounds cannot refine ${typeName(type)}`);
    const lo = r.numberLowerBound;
    const hi = r.numberUpperBound;
    if (lo !== undefined && !lo.value.isInfinite()) out.numberLowerBound = lo;
    if (hi !== undefined && !hi.value.isInfinite()) out.numberUpperBound = hi;
    if (lo !== undefined && hi !== undefined) {
      const c = lo.value.compare(hi.value);
      if (c > 0 || (c === 0 && !(lo.inclusive && hi.inclusive))) throw bad("number lower bound is above the upper bound");
    }
  }
  if (r.lengthLowerBound !== undefined || r.lengthUpperBound !== undefined) {
    if (!isCollectionType(type)) throw bad(`length bounds cannot refine ${typeName(type)}`);
    const lo = r.lengthLowerBound ?? 0;
    const hi = r.lengthUpperBound;
    if (!Number.isSafeInteger(lo) || lo < 0) throw bad("length lower bound must be a non-negative integer");
    if (hi !== undefined && (!Number.isSafeInteger(hi) || hi < 0)) throw bad("length upper bound must be a non-negative integer");
    if (hi !== undefined && hi < lo) throw bad("length lower bound is above the upper bound");
    if (lo > 0) out.lengthLowerBound = lo;
    if (hi !== undefined) out.lengthUpperBound = hi;
  }
  return Object.freeze(out);
}

// ---------------------------------------------------------------------------------------
// Internals

const TRUE = Value._new(boolType, KNOWN, true, undefined);
const FALSE = Value._new(boolType, KNOWN, false, undefined);
const EMPTY_ARRAY: readonly Value[] = Object.freeze([]);
const EMPTY_MAP: ReadonlyMap<string, Value> = new Map();

function isEmptyRefinements(r: Refinements): boolean {
  return (
    r.notNull !== true &&
    (r.stringPrefix === undefined || r.stringPrefix === "") &&
    r.numberLowerBound === undefined &&
    r.numberUpperBound === undefined &&
    (r.lengthLowerBound === undefined || r.lengthLowerBound === 0) &&
    r.lengthUpperBound === undefined
  );
}

const utf8 = new TextEncoder();

function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length * 3 <= maxBytes) return s;
  const bytes = utf8.encode(s);
  if (bytes.length <= maxBytes) return s;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back up to a character boundary
  return new TextDecoder().decode(bytes.subarray(0, end));
}

function misuse(what: string): PathError {
  return new PathError(PathErrorCode.TypeMismatch, Path.root, `cannot take ${what}`);
}

function attrIndex(t: ObjectType, name: string): number {
  // attributeNames is sorted by UTF-8 bytes: binary search.
  const names = t.attributeNames;
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareUtf8(names[mid]!, name);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function withMarks(v: Value, marks: ReadonlySet<string> | undefined): Value {
  if (marks === undefined || marks.size === 0) return v;
  return v.mark(...marks);
}

function unionMarks(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a, ...b]);
}

function commonElementType(elements: readonly Value[], kind: string): Type {
  let et: Type = dynamicType;
  elements.forEach((e, i) => {
    if (!(e instanceof Value)) throw new PathError(PathErrorCode.TypeMismatch, Path.root.index(i), `${kind} element is not a cty Value`);
    if (e.type.kind === "dynamic") return;
    if (et.kind === "dynamic") et = e.type;
    else if (!typeEquals(et, e.type)) {
      throw new PathError(PathErrorCode.TypeMismatch, Path.root.index(i), `inconsistent ${kind} element types: ${typeName(et)} and ${typeName(e.type)}`);
    }
  });
  return et;
}

function unmarkDeepAt(v: Value, path: Path, out: PathMarks[], inSet: boolean): Value {
  let result = v;
  if (v._m !== undefined) {
    out.push({ path, marks: v._m });
    result = v.unmark();
  }
  if (v._s !== KNOWN) return result;
  const t = v.type;
  if (t.kind === "list" || t.kind === "tuple" || t.kind === "set" || t.kind === "object") {
    const elems = v._v as Value[];
    let changed = false;
    const next = elems.map((e, i) => {
      const p = inSet || t.kind === "set" ? path : t.kind === "object" ? path.attr(t.attributeNames[i]!) : path.index(i);
      const n = unmarkDeepAt(e, p, out, inSet || t.kind === "set");
      if (n !== e) changed = true;
      return n;
    });
    if (changed) result = Value._new(t, KNOWN, Object.freeze(next), undefined);
  } else if (t.kind === "map") {
    const m = v._v as ReadonlyMap<string, Value>;
    let changed = false;
    const next = new Map<string, Value>();
    for (const [k, e] of m) {
      const n = unmarkDeepAt(e, inSet ? path : path.key(k), out, inSet);
      if (n !== e) changed = true;
      next.set(k, n);
    }
    if (changed) result = Value._new(t, KNOWN, next, undefined);
  }
  return result;
}

/** An exact, type-independent key for de-duplicating wholly known set elements. */
function exactKey(v: Value): string {
  if (v._s === NULL) return "~";
  const p = v._v;
  switch (v.type.kind) {
    case "string":
      return JSON.stringify(p);
    case "number": {
      // Exact and independent of how the number prints (a float64-origin number prints
      // shortest): every value that is exactly a float64 is held as one.
      const n = p as CtyNumber;
      return n._c === undefined ? `n${n._f}` : `d${n._c}e${n._e}`;
    }
    case "bool":
      return p ? "T" : "F";
    case "map": {
      let s = "{";
      for (const [k, e] of p as ReadonlyMap<string, Value>) s += `${JSON.stringify(k)}:${exactKey(e)};`;
      return s + "}";
    }
    case "object":
      return `<${(p as Value[]).map(exactKey).join(";")}>`;
    default:
      return `[${(p as Value[]).map(exactKey).join(";")}]`;
  }
}

/**
 * go-cty's set order: known non-null values first, then unknowns, then nulls; strings by UTF-8 bytes,
 * numbers numerically, false before true; other types by a canonical rendering (go-cty uses
 * its hash string there; that order is not part of its contract).
 */
function compareSetElements(t: Type, a: Value, b: Value): number {
  // go-cty's order: non-null known values, then unknowns, then nulls last.
  const an = a._s === NULL;
  const bn = b._s === NULL;
  if (an !== bn) return an ? 1 : -1;
  if (an) return 0;
  const ak = a._s !== UNKNOWN;
  const bk = b._s !== UNKNOWN;
  if (ak !== bk) return ak ? -1 : 1;
  if (!ak) return 0;
  switch (t.kind) {
    case "string":
      return compareUtf8(a._v as string, b._v as string);
    case "number":
      return (a._v as CtyNumber).compare(b._v as CtyNumber);
    case "bool":
      return a._v === b._v ? 0 : a._v ? 1 : -1;
    default:
      return compareUtf8(hashString(a), hashString(b));
  }
}

/** A rendering in the spirit of go-cty's set hash string, used only to order complex set elements. */
function hashString(v: Value): string {
  if (v._s === UNKNOWN) return "?";
  if (v._s === NULL) return "~";
  const p = v._v;
  switch (v.type.kind) {
    case "string":
      return JSON.stringify(p);
    case "number":
      return (p as CtyNumber).toString();
    case "bool":
      return p ? "T" : "F";
    case "map": {
      let s = "{";
      for (const [k, e] of p as ReadonlyMap<string, Value>) s += `${JSON.stringify(k)}:${hashString(e)};`;
      return s + "}";
    }
    case "object":
      return `<${(p as Value[]).map((e) => hashString(e) + ";").join("")}>`;
    default:
      return `[${(p as Value[]).map((e) => hashString(e) + ";").join("")}]`;
  }
}

/** true, false, or undefined for "unknown". */
function equalsInner(a: Value, b: Value): boolean | undefined {
  const aUnknown = a._s === UNKNOWN;
  const bUnknown = b._s === UNKNOWN;
  if (aUnknown || bUnknown) {
    // A null on one side and a definitely-not-null unknown on the other cannot be equal.
    if (a._s === NULL && bUnknown && b.refinements.notNull === true) return false;
    if (b._s === NULL && aUnknown && a.refinements.notNull === true) return false;
    return undefined;
  }
  if (a._s === NULL || b._s === NULL) return a._s === NULL && b._s === NULL;
  if (!typeEquals(a.type, b.type)) return false;
  const t = a.type;
  switch (t.kind) {
    case "string":
    case "bool":
      return a._v === b._v;
    case "number":
      return (a._v as CtyNumber).equals(b._v as CtyNumber);
    case "list":
    case "tuple":
    case "object": {
      const x = a._v as Value[];
      const y = b._v as Value[];
      if (x.length !== y.length) return false;
      let unknown = false;
      for (let i = 0; i < x.length; i++) {
        const r = equalsInner(x[i]!, y[i]!);
        if (r === false) return false;
        if (r === undefined) unknown = true;
      }
      return unknown ? undefined : true;
    }
    case "map": {
      const x = a._v as ReadonlyMap<string, Value>;
      const y = b._v as ReadonlyMap<string, Value>;
      if (x.size !== y.size) return false;
      let unknown = false;
      for (const [k, e] of x) {
        const o = y.get(k);
        if (o === undefined) return false;
        const r = equalsInner(e, o);
        if (r === false) return false;
        if (r === undefined) unknown = true;
      }
      return unknown ? undefined : true;
    }
    case "set": {
      const x = a._v as Value[];
      const y = b._v as Value[];
      if (!a.isWhollyKnown() || !b.isWhollyKnown()) return undefined;
      if (x.length !== y.length) return false;
      const keys = new Set(x.map(exactKey));
      return y.every((e) => keys.has(exactKey(e)));
    }
    case "dynamic":
      return undefined;
  }
}

function rawEqualsInner(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a._s !== b._s || !typeEquals(a.type, b.type)) return false;
  if (!sameMarks(a._m, b._m)) return false;
  if (a._s === NULL) return true;
  if (a._s === UNKNOWN) return sameRefinements(a.refinements, b.refinements);
  const t = a.type;
  switch (t.kind) {
    case "string":
    case "bool":
      return a._v === b._v;
    case "number":
      return (a._v as CtyNumber).equals(b._v as CtyNumber);
    case "map": {
      const x = a._v as ReadonlyMap<string, Value>;
      const y = b._v as ReadonlyMap<string, Value>;
      if (x.size !== y.size) return false;
      for (const [k, e] of x) {
        const o = y.get(k);
        if (o === undefined || !rawEqualsInner(e, o)) return false;
      }
      return true;
    }
    default: {
      const x = a._v as Value[];
      const y = b._v as Value[];
      return x.length === y.length && x.every((e, i) => rawEqualsInner(e, y[i]!));
    }
  }
}

function sameMarks(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  const x = a ?? NO_MARKS;
  const y = b ?? NO_MARKS;
  if (x.size !== y.size) return false;
  for (const m of x) if (!y.has(m)) return false;
  return true;
}

function sameBound(a: NumberBound | undefined, b: NumberBound | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.inclusive === b.inclusive && a.value.equals(b.value);
}

function sameRefinements(a: Refinements, b: Refinements): boolean {
  return (
    (a.notNull === true) === (b.notNull === true) &&
    (a.stringPrefix ?? "") === (b.stringPrefix ?? "") &&
    sameBound(a.numberLowerBound, b.numberLowerBound) &&
    sameBound(a.numberUpperBound, b.numberUpperBound) &&
    (a.lengthLowerBound ?? 0) === (b.lengthLowerBound ?? 0) &&
    a.lengthUpperBound === b.lengthUpperBound
  );
}

function render(v: Value): string {
  let s: string;
  if (v._s === NULL) s = `null`;
  else if (v._s === UNKNOWN) {
    const r = v.refinements;
    const parts: string[] = [];
    if (r.notNull === true) parts.push("not null");
    if (r.stringPrefix !== undefined) parts.push(`prefix ${JSON.stringify(r.stringPrefix)}`);
    if (r.numberLowerBound !== undefined) parts.push(`${r.numberLowerBound.inclusive ? ">=" : ">"} ${r.numberLowerBound.value.toString()}`);
    if (r.numberUpperBound !== undefined) parts.push(`${r.numberUpperBound.inclusive ? "<=" : "<"} ${r.numberUpperBound.value.toString()}`);
    if (r.lengthLowerBound !== undefined) parts.push(`length >= ${r.lengthLowerBound}`);
    if (r.lengthUpperBound !== undefined) parts.push(`length <= ${r.lengthUpperBound}`);
    s = `unknown(${typeName(v.type)}${parts.length > 0 ? `; ${parts.join(", ")}` : ""})`;
  } else {
    const t = v.type;
    switch (t.kind) {
      case "string":
        s = JSON.stringify(v._v);
        break;
      case "number":
        s = (v._v as CtyNumber).toString();
        break;
      case "bool":
        s = String(v._v);
        break;
      case "list":
      case "tuple":
        s = `[${(v._v as Value[]).map(render).join(", ")}]`;
        break;
      case "set":
        s = `toset([${(v._v as Value[]).map(render).join(", ")}])`;
        break;
      case "map":
        s = `tomap({${[...(v._v as ReadonlyMap<string, Value>)].map(([k, e]) => `${JSON.stringify(k)} = ${render(e)}`).join(", ")}})`;
        break;
      case "object":
        s = `{${(v._v as Value[]).map((e, i) => `${t.attributeNames[i]} = ${render(e)}`).join(", ")}}`;
        break;
      default:
        s = "?";
    }
  }
  if (v._m !== undefined && v._m.size > 0) s = `${[...v._m].sort().join("+")}(${s})`;
  return s;
}


/**
 * Puts marks back at paths (go-cty's `MarkWithPaths`), the inverse of
 * {@link Value.unmarkDeep}: `markWithPaths(v.unmarkDeep().value, v.unmarkDeep().paths)`
 * equals `v` for values without marks inside sets. A path that does not exist in the value
 * (or goes through a null or unknown) is skipped; a path into a set marks the set.
 */
export function markWithPaths(value: Value, paths: readonly PathMarks[]): Value {
  let out = value;
  for (const { path, marks } of paths) out = markAt(out, path, 0, marks);
  return out;
}

function markAt(v: Value, path: Path, i: number, marks: ReadonlySet<string>): Value {
  if (i === path.steps.length) return v.mark(...marks);
  if (v._s !== KNOWN) return v;
  const step = path.steps[i]!;
  const t = v.type;
  let next: Value;
  if (t.kind === "set") return v.mark(...marks);
  if (step.kind === "attr" && t.kind === "object") {
    const idx = attrIndex(t, step.name);
    if (idx < 0) return v;
    const vals = (v._v as Value[]).slice();
    vals[idx] = markAt(vals[idx]!, path, i + 1, marks);
    next = Value._new(t, KNOWN, Object.freeze(vals), undefined);
  } else if (step.kind === "index" && (t.kind === "list" || t.kind === "tuple")) {
    const vals = (v._v as Value[]).slice();
    if (step.index >= vals.length) return v;
    vals[step.index] = markAt(vals[step.index]!, path, i + 1, marks);
    next = Value._new(t, KNOWN, Object.freeze(vals), undefined);
  } else if (step.kind === "key" && t.kind === "map") {
    const m = v._v as ReadonlyMap<string, Value>;
    const e = m.get(step.key);
    if (e === undefined) return v;
    const copy = new Map(m);
    copy.set(step.key, markAt(e, path, i + 1, marks));
    next = Value._new(t, KNOWN, copy, undefined);
  } else {
    return v;
  }
  return v._m === undefined ? next : next.mark(...v._m);
}
