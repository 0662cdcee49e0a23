import { attrIndex } from "./internal/attr-index.js";
import { KNOWN, NO_MARKS, NULL, UNKNOWN, type State } from "./internal/value-state.js";
import { sameMarks, unionMarks, unmarkDeepAt, withMarks, type PathMarks } from "./marks.js";
import type { CtyNumber } from "./number.js";
import { Path } from "./path.js";
import { PathError, PathErrorCode } from "./path-error.js";
import { checkRefinements, sameRefinements, type Refinements } from "./refinements.js";
import { exactKey } from "./set-order.js";
import { boolType, dynamicType, typeEquals, typeName, type Type } from "./type.js";

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
    return (
      typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[VALUE_BRAND] === true
    );
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
  static _new(
    type: Type,
    state: State,
    payload: unknown,
    marks: ReadonlySet<string> | undefined,
  ): Value {
    return new Value(type, state, payload, marks);
  }

  /** Use the factory functions ({@link stringVal}, {@link objectVal}, …) or the codecs. */
  private constructor(
    type: Type,
    state: State,
    payload: unknown,
    marks: ReadonlySet<string> | undefined,
  ) {
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
      for (const e of (v as ReadonlyMap<string, Value>).values())
        if (!e.isWhollyKnown()) return false;
    }
    return true;
  }

  /** The refinements of an unknown value (an empty object for unrefined unknowns). */
  get refinements(): Refinements {
    if (this._s !== UNKNOWN)
      throw misuse(`refinements of a ${this._s === NULL ? "null" : "known"} value`);
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
      for (const e of (v as ReadonlyMap<string, Value>).values())
        if (e.containsMarked()) return true;
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
    if (k !== "list" && k !== "set" && k !== "tuple")
      throw misuse(`elements of ${typeName(this.type)}`);
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
    if (this._s !== KNOWN)
      throw misuse(`length of a ${this._s === NULL ? "null" : "unknown"} value`);
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
    if (t.kind === "dynamic" && this._s === UNKNOWN)
      return withMarks(unknownOf(dynamicType), this._m);
    if (t.kind !== "object")
      throw new PathError(
        PathErrorCode.TypeMismatch,
        Path.root,
        `cannot access attribute ${JSON.stringify(name)} of ${typeName(t)}`,
      );
    const at = t.attributes[name];
    if (at === undefined) {
      throw new PathError(
        PathErrorCode.TypeMismatch,
        Path.root,
        `object has no attribute ${JSON.stringify(name)}`,
      );
    }
    if (this._s === NULL)
      throw new PathError(
        PathErrorCode.NullValue,
        Path.root,
        `cannot access attribute ${JSON.stringify(name)} of a null object`,
      );
    if (this._s === UNKNOWN) return withMarks(unknownOf(at), this._m);
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
    if (t.kind === "dynamic" && this._s === UNKNOWN)
      return withMarks(unknownOf(dynamicType), this._m);
    if (this._s === NULL)
      throw new PathError(PathErrorCode.NullValue, Path.root, `cannot index a null value`);
    if (t.kind === "map") {
      if (typeof key !== "string")
        throw new PathError(PathErrorCode.TypeMismatch, Path.root, "a map key must be a string");
      if (this._s === UNKNOWN) return withMarks(unknownOf(t.element), this._m);
      const e = (this._v as ReadonlyMap<string, Value>).get(key);
      if (e === undefined)
        throw new PathError(
          PathErrorCode.TypeMismatch,
          Path.root,
          `map has no element with key ${JSON.stringify(key)}`,
        );
      return withMarks(e, this._m);
    }
    if (t.kind === "list" || t.kind === "tuple") {
      if (typeof key !== "number" || !Number.isInteger(key)) {
        throw new PathError(
          PathErrorCode.TypeMismatch,
          Path.root,
          `a ${t.kind} index must be a whole number`,
        );
      }
      if (this._s === UNKNOWN) {
        if (t.kind === "list") return withMarks(unknownOf(t.element), this._m);
        const et = t.elements[key];
        if (et === undefined)
          throw new PathError(
            PathErrorCode.TypeMismatch,
            Path.root,
            `index ${key} is out of range for ${typeName(t)}`,
          );
        return withMarks(unknownOf(et), this._m);
      }
      const e = (this._v as Value[])[key];
      if (e === undefined || key < 0) {
        throw new PathError(
          PathErrorCode.TypeMismatch,
          Path.root,
          `index ${key} is out of range (length ${(this._v as Value[]).length})`,
        );
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
        v =
          step.kind === "attr"
            ? v.getAttr(step.name)
            : step.kind === "key"
              ? v.index(step.key)
              : v.index(step.index);
      } catch (e) {
        if (e instanceof PathError) throw new PathError(e.code, at, e.reason, { cause: e });
        throw e;
      }
      at =
        step.kind === "attr"
          ? at.attr(step.name)
          : step.kind === "key"
            ? at.key(step.key)
            : at.index(step.index);
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
    const v = r === undefined ? UNKNOWN_NOT_NULL_BOOL : r ? TRUE_VALUE : FALSE_VALUE;
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
      throw new PathError(
        PathErrorCode.TypeMismatch,
        Path.root,
        `expected ${what}, got ${typeName(this.type)}`,
      );
    }
    if (this._s === NULL)
      throw new PathError(PathErrorCode.NullValue, Path.root, `${what} value is null`);
    if (this._s === UNKNOWN)
      throw new PathError(PathErrorCode.UnknownValue, Path.root, `${what} value is unknown`);
  }
}

Object.defineProperty(Value.prototype, VALUE_BRAND, { value: true });

/** The known bools, shared by `boolVal` and equality. @internal */
export const TRUE_VALUE: Value = Value._new(boolType, KNOWN, true, undefined);
/** @internal */
export const FALSE_VALUE: Value = Value._new(boolType, KNOWN, false, undefined);
/** What `equals` returns when the answer depends on unknowns (as `unknownVal(bool, { notNull: true })`). */
const UNKNOWN_NOT_NULL_BOOL: Value = Value._new(
  boolType,
  UNKNOWN,
  checkRefinements(boolType, { notNull: true }),
  undefined,
);

/** The unrefined unknown of a type (as `unknownVal(type)`), without importing the factories. */
function unknownOf(type: Type): Value {
  return Value._new(type, UNKNOWN, undefined, undefined);
}

function misuse(what: string): PathError {
  return new PathError(PathErrorCode.TypeMismatch, Path.root, `cannot take ${what}`);
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

function render(v: Value): string {
  let s: string;
  if (v._s === NULL) s = `null`;
  else if (v._s === UNKNOWN) {
    const r = v.refinements;
    const parts: string[] = [];
    if (r.notNull === true) parts.push("not null");
    if (r.stringPrefix !== undefined) parts.push(`prefix ${JSON.stringify(r.stringPrefix)}`);
    if (r.numberLowerBound !== undefined)
      parts.push(
        `${r.numberLowerBound.inclusive ? ">=" : ">"} ${r.numberLowerBound.value.toString()}`,
      );
    if (r.numberUpperBound !== undefined)
      parts.push(
        `${r.numberUpperBound.inclusive ? "<=" : "<"} ${r.numberUpperBound.value.toString()}`,
      );
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
