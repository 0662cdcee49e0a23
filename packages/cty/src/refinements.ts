// Refinements of unknown values (go-cty's): their shape, their checks against a type, and
// their comparison.
import { normaliseString } from "./internal/normalise-string.js";
import type { CtyNumber } from "./number.js";
import { Path } from "./path.js";
import { PathError, PathErrorCode } from "./path-error.js";
import { isCollectionType, typeName, type Type } from "./type.js";

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

/**
 * Checks refinements against a type and returns the canonical form (the string prefix
 * truncated to 256 UTF-8 bytes at a character boundary). For codecs in this package only.
 * @internal
 */
export function checkRefinements(type: Type, r: Refinements): Refinements {
  const bad = (reason: string): PathError =>
    new PathError(PathErrorCode.InvalidValue, Path.root, reason);
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
      if (c > 0 || (c === 0 && !(lo.inclusive && hi.inclusive)))
        throw bad("number lower bound is above the upper bound");
    }
  }
  if (r.lengthLowerBound !== undefined || r.lengthUpperBound !== undefined) {
    if (!isCollectionType(type)) throw bad(`length bounds cannot refine ${typeName(type)}`);
    const lo = r.lengthLowerBound ?? 0;
    const hi = r.lengthUpperBound;
    if (!Number.isSafeInteger(lo) || lo < 0)
      throw bad("length lower bound must be a non-negative integer");
    if (hi !== undefined && (!Number.isSafeInteger(hi) || hi < 0))
      throw bad("length upper bound must be a non-negative integer");
    if (hi !== undefined && hi < lo) throw bad("length lower bound is above the upper bound");
    if (lo > 0) out.lengthLowerBound = lo;
    if (hi !== undefined) out.lengthUpperBound = hi;
  }
  return Object.freeze(out);
}

/** @internal */
export function isEmptyRefinements(r: Refinements): boolean {
  return (
    r.notNull !== true &&
    (r.stringPrefix === undefined || r.stringPrefix === "") &&
    r.numberLowerBound === undefined &&
    r.numberUpperBound === undefined &&
    (r.lengthLowerBound === undefined || r.lengthLowerBound === 0) &&
    r.lengthUpperBound === undefined
  );
}

/** @internal */
export function sameRefinements(a: Refinements, b: Refinements): boolean {
  return (
    (a.notNull === true) === (b.notNull === true) &&
    (a.stringPrefix ?? "") === (b.stringPrefix ?? "") &&
    sameBound(a.numberLowerBound, b.numberLowerBound) &&
    sameBound(a.numberUpperBound, b.numberUpperBound) &&
    (a.lengthLowerBound ?? 0) === (b.lengthLowerBound ?? 0) &&
    a.lengthUpperBound === b.lengthUpperBound
  );
}

function sameBound(a: NumberBound | undefined, b: NumberBound | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.inclusive === b.inclusive && a.value.equals(b.value);
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
