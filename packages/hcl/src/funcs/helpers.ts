/**
 * Small building blocks shared by the function groups: parameter specs, a constructor for
 * functions with a fixed return type, and exact decimal arithmetic on cty numbers.
 *
 * @internal
 * @packageDocumentation
 */

import { CtyNumber, numberVal, type Refinements, type Type, type Value } from "@magma/cty";
import type { FunctionParameter, HclFunction } from "../function.js";
import { graphemeClusters } from "./grapheme-clusters.js";

/** A parameter spec; `flags` sets the allow* switches. */
export function param(name: string, type: Type, flags: Partial<Omit<FunctionParameter, "name" | "type">> = {}): FunctionParameter {
  return { name, type, ...flags };
}

/** Options of {@link fixedFunction}. */
export interface FixedFunctionSpec {
  readonly description: string;
  readonly params: readonly FunctionParameter[];
  readonly varParam?: FunctionParameter;
  readonly returns: Type;
  readonly impl: (args: readonly Value[], returnType: Type) => Value;
  readonly refineResult?: (returnType: Type) => Refinements;
}

/** A function whose result type does not depend on its arguments (go-cty's `function.StaticReturnType`). */
export function fixedFunction(spec: FixedFunctionSpec): HclFunction {
  const { returns, ...rest } = spec;
  return { ...rest, type: () => returns };
}

/** Refinement: the result is never null (go-cty's `RefineNonNull`). */
export const notNull = (): Refinements => ({ notNull: true });

/** An exact decimal: `c * 10^e`. */
export interface Decimal {
  readonly c: bigint;
  readonly e: number;
}

/** The exact decimal of a finite cty number. */
export function toDecimal(n: CtyNumber): Decimal {
  const text = n.toString();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null) throw new Error(`not a finite number: ${text}`);
  const frac = m[3] ?? "";
  const c = BigInt((m[2] ?? "") + frac);
  return { c: m[1] === "-" ? -c : c, e: -frac.length };
}

/** The cty number of a decimal. */
export function fromDecimal(d: Decimal): CtyNumber {
  if (d.c === 0n) return CtyNumber.zero;
  const neg = d.c < 0n;
  const digits = (neg ? -d.c : d.c).toString();
  let text: string;
  if (d.e >= 0) text = digits + "0".repeat(d.e);
  else {
    const point = digits.length + d.e;
    text = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${"0".repeat(-point)}${digits}`;
  }
  return CtyNumber.parse(neg ? `-${text}` : text);
}

/** `|n|`. */
export function absNumber(n: CtyNumber): CtyNumber {
  if (n.isNegativeZero()) return CtyNumber.zero;
  return n.sign() < 0 ? n.negate() : n;
}

/** The greatest integer ≤ n (infinities unchanged). */
export function floorNumber(n: CtyNumber): CtyNumber {
  if (n.isInfinite() || n.isInteger()) return n;
  const d = toDecimal(n);
  const p = 10n ** BigInt(-d.e);
  let q = d.c / p;
  if (d.c < 0n) q -= 1n;
  return CtyNumber.fromBigInt(q);
}

/** The least integer ≥ n (infinities unchanged). */
export function ceilNumber(n: CtyNumber): CtyNumber {
  if (n.isInfinite() || n.isInteger()) return n;
  const d = toDecimal(n);
  const p = 10n ** BigInt(-d.e);
  let q = d.c / p;
  if (d.c > 0n) q += 1n;
  return CtyNumber.fromBigInt(q);
}

/** The integer part of n, truncated toward zero (as go's `big.Float.Int64`). */
export function truncNumber(n: CtyNumber): bigint {
  if (n.isInteger()) return n.toBigInt();
  const d = toDecimal(n);
  return d.c / 10n ** BigInt(-d.e);
}

/** A number value from a JS number taken as a float64 result (as go-cty's `NumberFloatVal`). */
export function floatResult(x: number): Value {
  return numberVal(CtyNumber.fromFloat64(x));
}

/**
 * A cty number as an integer of Go's `int` (go-cty's `gocty.FromCtyValue` into an `int`):
 * throws go-cty's message when it is not a whole number or is out of range.
 */
export function toGoInt(n: CtyNumber): number {
  if (n.isInfinite() || !n.isInteger()) throw new Error("value must be a whole number, between -9223372036854775808 and 9223372036854775807");
  const b = n.toBigInt();
  if (b < -(2n ** 63n) || b > 2n ** 63n - 1n) {
    throw new Error("value must be a whole number, between -9223372036854775808 and 9223372036854775807");
  }
  return Number(b);
}

/**
 * The user-perceived characters (extended grapheme clusters) of a string, as go-cty's
 * go-textseg finds them, in time linear in its length (see {@link graphemeClusters}).
 */
export function graphemes(s: string): string[] {
  return graphemeClusters(s);
}

/** The UTF-8 bytes of a string. */
export function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Decodes UTF-8, replacing invalid sequences with U+FFFD as Go does when converting. */
export function fromUtf8(b: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(b);
}

/** Whether the bytes are valid UTF-8. */
export function isValidUtf8(b: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}
