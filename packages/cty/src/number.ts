import { PathError, PathErrorCode } from "./path-error.js";
import { Path } from "./path.js";
import { goShortestText } from "./internal/go-shortest.js";

/**
 * Largest decimal exponent magnitude accepted when parsing a number. go-cty parses numbers
 * into 512-bit floats with a 32-bit binary exponent; magma keeps numbers exact instead, and
 * bounds the exponent so that hostile input such as `1e999999999` cannot make printing or
 * comparing a number allocate gigabytes.
 */
const MAX_DECIMAL_EXPONENT = 100_000;

const TWO_53 = 2n ** 53n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const DECIMAL_SYNTAX = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

const f64Buffer = new DataView(new ArrayBuffer(8));

/** The brand every copy of this package's `CtyNumber` carries. */
const NUMBER_BRAND: symbol = Symbol.for("@magma/cty.CtyNumber@1");

/**
 * An exact cty number: an arbitrary-precision decimal, or positive or negative infinity.
 *
 * go-cty represents numbers as `big.Float` values of 512-bit precision. magma keeps every
 * finite number as an exact decimal, which agrees with go-cty for every number with at most
 * 153 significant digits (more digits than a 512-bit float can tell apart) and is more exact
 * beyond that. Equality and ordering are exact: `0.1` decoded from a float64 (which is
 * `0.1000000000000000055511151231257827021181583404541015625`) is not equal to `0.1` parsed
 * from text, exactly as in go-cty.
 *
 * Like go-cty's `big.Float`s, a number also carries what printing depends on: whether it came
 * from a float64 ({@link CtyNumber.isFloat64Precision}: go-cty's `NumberFloatVal`, 53 bits of
 * precision), and the sign of a zero ({@link CtyNumber.negativeZero}, as `-0` is in HCL). Neither
 * affects equality or ordering.
 *
 * Instances are immutable. NaN is not a cty number.
 */
export class CtyNumber {
  /**
   * `x instanceof CtyNumber` holds for numbers made by any copy of `@magma/cty` with the
   * same brand (a registered symbol), so that two installed copies exchange numbers.
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[NUMBER_BRAND] === true;
  }

  /**
   * The value as a float64 when it is one exactly (`_c === undefined`), or ±Infinity.
   * @internal
   */
  readonly _f: number;
  /**
   * Decimal coefficient, present when the value is not exactly a float64. The value is
   * `_c * 10 ** _e`, normalised so that `_c` is not a multiple of 10.
   * @internal
   */
  readonly _c: bigint | undefined;
  /** @internal */
  readonly _e: number;
  /**
   * True when the number came from a float64 (msgpack float, {@link CtyNumber.fromFloat64}):
   * it is then printed as the shortest decimal that reads back as that float64 at 53 bits of
   * precision, as go-cty prints a 53-bit `big.Float`. Affects printing only, never equality.
   * @internal
   */
  readonly _f53: boolean;

  private constructor(f: number, c: bigint | undefined, e: number, f53: boolean) {
    this._f = f;
    this._c = c;
    this._e = e;
    this._f53 = f53;
  }

  /** Zero. */
  static readonly zero: CtyNumber = new CtyNumber(0, undefined, 0, false);
  /**
   * Negative zero, as go-cty's `big.Float` has it: what `-0` is in HCL (a negated zero), and
   * what `ParseNumberVal("-0")` gives. It equals {@link CtyNumber.zero} and prints `-0`; msgpack
   * writes it as the integer 0, as go-cty does.
   */
  static readonly negativeZero: CtyNumber = new CtyNumber(-0, undefined, 0, false);
  /** Positive infinity, which cty allows (go-cty's `cty.PositiveInfinity`). */
  static readonly positiveInfinity: CtyNumber = new CtyNumber(Infinity, undefined, 0, false);
  /** Negative infinity (go-cty's `cty.NegativeInfinity`). */
  static readonly negativeInfinity: CtyNumber = new CtyNumber(-Infinity, undefined, 0, false);

  /**
   * Makes a number from a JS number, a bigint or decimal text.
   *
   * A JS number is taken as the shortest decimal that reads back as it (`0.1` becomes the
   * decimal 0.1, as if written in a configuration file); use {@link CtyNumber.fromFloat64} for
   * the exact binary value instead. Text follows go-cty's `ParseNumberVal`: an optional sign,
   * digits with an optional fraction, an optional exponent.
   *
   * @throws {@link PathError} with code `invalid_value` for NaN, malformed text, or an
   * exponent beyond ±100000.
   */
  static from(x: number | bigint | string | CtyNumber): CtyNumber {
    if (x instanceof CtyNumber) return x;
    if (typeof x === "bigint") return CtyNumber.fromBigInt(x);
    if (typeof x === "number") {
      if (Number.isNaN(x)) throw invalidNumber("NaN is not a number in cty");
      if (x === Infinity) return CtyNumber.positiveInfinity;
      if (x === -Infinity) return CtyNumber.negativeInfinity;
      if (Number.isSafeInteger(x)) return x === 0 ? CtyNumber.zero : new CtyNumber(x, undefined, 0, false);
      return CtyNumber.parse(String(x));
    }
    return CtyNumber.parse(x);
  }

  /**
   * Makes the number that is exactly the given float64, with a float64's precision, as go-cty's
   * `NumberFloatVal` does (what its `pow` and `log` return, and what a msgpack float decodes
   * to): it prints as the shortest decimal that reads back as that float64 at 53 bits
   * (`2 ** 64` prints `18446744073709550000`), and `-0` stays negative zero.
   *
   * @throws {@link PathError} with code `invalid_value` for NaN.
   */
  static fromFloat64(x: number): CtyNumber {
    if (Number.isNaN(x)) throw invalidNumber("NaN is not a number in cty");
    if (x === Infinity) return CtyNumber.positiveInfinity;
    if (x === -Infinity) return CtyNumber.negativeInfinity;
    if (x === 0) return Object.is(x, -0) ? CtyNumber.negativeZero : CtyNumber.zero;
    return new CtyNumber(x, undefined, 0, true);
  }

  /** Makes the number that is exactly the given integer (go-cty's `NumberIntVal`: printed exactly). */
  static fromBigInt(x: bigint): CtyNumber {
    if (x >= -TWO_53 && x <= TWO_53) return x === 0n ? CtyNumber.zero : new CtyNumber(Number(x), undefined, 0, false);
    return CtyNumber.fromDecimal(x, 0);
  }

  /**
   * Parses decimal text such as `-12.5e3`, exactly.
   *
   * @throws {@link PathError} with code `invalid_value` when the text is not a number.
   */
  static parse(text: string): CtyNumber {
    const m = DECIMAL_SYNTAX.exec(text);
    if (m === null) {
      if (/^[+-]?inf(inity)?$/i.test(text)) {
        return text.startsWith("-") ? CtyNumber.negativeInfinity : CtyNumber.positiveInfinity;
      }
      throw invalidNumber(`${JSON.stringify(truncate(text))} is not a valid number`);
    }
    const negative = m[1] === "-";
    const intDigits = m[2] ?? "";
    const fracDigits = m[3] ?? m[4] ?? "";
    const expText = m[5];
    let exp = 0;
    if (expText !== undefined) {
      // Bound the exponent text before converting it, so that "1e99999999999999999999" fails
      // cleanly instead of becoming Infinity.
      const digits = expText.replace(/^[+-]?0*/, "");
      if (digits.length > 9) throw invalidNumber(`exponent of ${truncate(text)} is out of range`);
      exp = Number(expText);
    }
    const allDigits = (intDigits + fracDigits).replace(/^0+/, "");
    if (allDigits === "") return negative ? CtyNumber.negativeZero : CtyNumber.zero;
    exp -= fracDigits.length;
    const significantExponent = exp + allDigits.length;
    if (significantExponent > MAX_DECIMAL_EXPONENT || exp < -MAX_DECIMAL_EXPONENT) {
      throw invalidNumber(`${truncate(text)} is out of the supported range (exponent ±${MAX_DECIMAL_EXPONENT})`);
    }
    // Trailing zeros moved into the exponent before the digits become a bigint (linear time).
    const end = withoutTrailingZeros(allDigits);
    let coefficient = BigInt(allDigits.slice(0, end));
    exp += allDigits.length - end;
    if (negative) coefficient = -coefficient;
    return CtyNumber.fromDecimal(coefficient, exp);
  }

  /** Builds a number from a decimal, detecting when it is exactly a float64. */
  private static fromDecimal(coefficient: bigint, exponent: number): CtyNumber {
    if (coefficient === 0n) return CtyNumber.zero;
    if (coefficient % 10n === 0n) {
      // Trailing zeros stripped through the decimal text: linear, where dividing by ten once
      // per zero was quadratic (a coefficient of a million digits took minutes).
      const text = coefficient.toString();
      const end = withoutTrailingZeros(text);
      coefficient = BigInt(text.slice(0, end));
      exponent += text.length - end;
    }
    const f = exactFloat64(coefficient, exponent);
    if (f !== undefined) return new CtyNumber(f, undefined, 0, false);
    return new CtyNumber(Number.NaN, coefficient, exponent, false);
  }

  /**
   * True when the number has a float64's precision (it came from {@link CtyNumber.fromFloat64}):
   * go-cty then prints it with the fewest digits at 53 bits, and arithmetic between two such
   * numbers is rounded to a float64, as `big.Float` arithmetic takes its operands' precision.
   */
  isFloat64Precision(): boolean {
    return this._f53;
  }

  /** True for negative zero ({@link CtyNumber.negativeZero}). */
  isNegativeZero(): boolean {
    return this._c === undefined && this._f === 0 && 1 / this._f < 0;
  }

  /**
   * `-this`, exactly, keeping the precision (a float64-precision number stays one) and the
   * sign of zero (`-0` of zero is negative zero), as `big.Float.Neg` does.
   */
  negate(): CtyNumber {
    if (this._c !== undefined) return new CtyNumber(Number.NaN, -this._c, this._e, false);
    if (this._f === 0) return this.isNegativeZero() ? CtyNumber.zero : CtyNumber.negativeZero;
    if (!Number.isFinite(this._f)) return this._f > 0 ? CtyNumber.negativeInfinity : CtyNumber.positiveInfinity;
    return new CtyNumber(-this._f, undefined, 0, this._f53);
  }

  /** True for positive or negative infinity. */
  isInfinite(): boolean {
    return this._c === undefined && !Number.isFinite(this._f);
  }

  /** True when the number is a whole number (never for infinities). */
  isInteger(): boolean {
    if (this._c === undefined) return Number.isInteger(this._f);
    return this._e >= 0;
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    if (this._c === undefined) return this._f > 0 ? 1 : this._f < 0 ? -1 : 0;
    return this._c > 0n ? 1 : -1;
  }

  /**
   * The number as a bigint.
   *
   * @throws {@link PathError} with code `invalid_value` when it is not a whole number.
   */
  toBigInt(): bigint {
    if (!this.isInteger()) throw invalidNumber(`${this.toString()} is not a whole number`);
    if (this._c === undefined) return BigInt(this._f);
    return this._c * 10n ** BigInt(this._e);
  }

  /**
   * The number as a JS number, rounded to the nearest float64 when it is not exactly one
   * (lossy: check {@link CtyNumber.isFloat64} first where that matters).
   */
  toNumber(): number {
    if (this._c === undefined) return this._f;
    return Number(this.toString());
  }

  /** True when the number is exactly a float64 value (always true for infinities). */
  isFloat64(): boolean {
    return this._c === undefined;
  }

  /**
   * True when the number is a whole number within the int64 range: go-cty writes such
   * numbers to msgpack as integers.
   */
  isInt64(): boolean {
    if (this._c === undefined) {
      return Number.isInteger(this._f) && this._f >= -9223372036854775808 && this._f < 9223372036854775808;
    }
    if (this._e < 0) return false;
    const v = this.toBigInt();
    return v >= INT64_MIN && v <= INT64_MAX;
  }

  /** Exact comparison: -1 when this < other, 0 when equal, 1 when greater. */
  compare(other: CtyNumber): -1 | 0 | 1 {
    if (this._c === undefined && other._c === undefined) {
      return this._f < other._f ? -1 : this._f > other._f ? 1 : 0;
    }
    if (this.isInfinite()) return this._f > 0 ? 1 : -1;
    if (other.isInfinite()) return other._f > 0 ? -1 : 1;
    const [ac, ae] = decimalParts(this);
    const [bc, be] = decimalParts(other);
    const as = ac > 0n ? 1 : ac < 0n ? -1 : 0;
    const bs = bc > 0n ? 1 : bc < 0n ? -1 : 0;
    if (as !== bs) return as < bs ? -1 : 1;
    if (as === 0) return 0;
    // Same sign: compare magnitudes by their leading digit positions first.
    const am = ac < 0n ? -ac : ac;
    const bm = bc < 0n ? -bc : bc;
    const aTop = am.toString().length + ae;
    const bTop = bm.toString().length + be;
    let magnitude: number;
    if (aTop !== bTop) {
      magnitude = aTop < bTop ? -1 : 1;
    } else {
      const e = Math.min(ae, be);
      const ax = am * 10n ** BigInt(ae - e);
      const bx = bm * 10n ** BigInt(be - e);
      magnitude = ax < bx ? -1 : ax > bx ? 1 : 0;
    }
    return (as > 0 ? magnitude : -magnitude) as -1 | 0 | 1;
  }

  /** Exact equality (the float64 origin of a number does not matter). */
  equals(other: CtyNumber): boolean {
    if (this === other) return true;
    if (this._c === undefined && other._c === undefined) return this._f === other._f;
    if (this._c === undefined || other._c === undefined) return false; // normalised forms differ
    return this._c === other._c && this._e === other._e;
  }

  /**
   * The number as go-cty prints it (`big.Float.Text('f', -1)`): plain decimal notation, no
   * exponent; a number from a float64 as the shortest decimal that reads back as it;
   * infinities as `+Inf` and `-Inf`.
   */
  toString(): string {
    if (this._c === undefined) {
      const f = this._f;
      if (f === Infinity) return "+Inf";
      if (f === -Infinity) return "-Inf";
      if (Number.isSafeInteger(f)) return f === 0 && 1 / f < 0 ? "-0" : String(f);
      if (this._f53) return shortestFloat64Text(f);
    }
    const [c, e] = decimalParts(this);
    return plainDecimal(c, e);
  }

  /** The same as {@link CtyNumber.toString}, so that `JSON.stringify` gives the exact text. */
  toJSON(): string {
    return this.toString();
  }
}

Object.defineProperty(CtyNumber.prototype, NUMBER_BRAND, { value: true });

/** The float64 that is exactly `c * 10^e`, or undefined when there is none. */
function exactFloat64(c: bigint, e: number): number | undefined {
  const negative = c < 0n;
  let m = negative ? -c : c;
  let binExp = 0;
  if (e >= 0) {
    // Integers: more than 1024 bits can never be a float64; 10^e contributes ~3.32 bits each.
    if (e > 330) return undefined;
    m *= 10n ** BigInt(e);
  } else {
    // c / 10^k is a binary fraction only when 5^k divides c.
    const k = -e;
    if (k * 0.69 > m.toString().length + 1) return undefined;
    const five = 5n ** BigInt(k);
    if (m % five !== 0n) return undefined;
    m /= five;
    binExp = -k;
  }
  // Now value = m * 2^binExp with m > 0; strip trailing zero bits.
  while ((m & 0xffffffffn) === 0n) {
    m >>= 32n;
    binExp += 32;
  }
  while ((m & 1n) === 0n) {
    m >>= 1n;
    binExp += 1;
  }
  const bits = m.toString(2).length;
  if (bits > 53) return undefined;
  const top = binExp + bits - 1;
  if (top > 1023 || binExp < -1074) return undefined;
  // Scale in two steps so that neither factor under- or overflows on its own.
  const half = Math.trunc(binExp / 2);
  const f = Number(m) * 2 ** half * 2 ** (binExp - half);
  return negative ? -f : f;
}

/**
 * The exact decimal form `[coefficient, exponent]` of a finite number (value `c * 10^e`, `c` not
 * a multiple of 10). For this package's code only.
 * @internal
 */
export function decimalParts(n: CtyNumber): [bigint, number] {
  if (n._c !== undefined) return [n._c, n._e];
  const f = n._f;
  if (f === 0) return [0n, 0];
  if (Number.isSafeInteger(f)) return normalise(BigInt(f), 0);
  const [signed, binExp] = float64Binary(f);
  const negative = signed < 0n;
  const mantissa = negative ? -signed : signed;
  let c: bigint;
  let e: number;
  if (binExp >= 0) {
    c = mantissa << BigInt(binExp);
    e = 0;
  } else {
    c = mantissa * 5n ** BigInt(-binExp);
    e = binExp;
  }
  return normalise(negative ? -c : c, e);
}

function normalise(c: bigint, e: number): [bigint, number] {
  if (c === 0n) return [0n, 0];
  while (c % 10n === 0n) {
    c /= 10n;
    e += 1;
  }
  return [c, e];
}

function plainDecimal(c: bigint, e: number): string {
  const negative = c < 0n;
  const digits = (negative ? -c : c).toString();
  let out: string;
  if (e >= 0) {
    out = digits + "0".repeat(e);
  } else {
    const point = digits.length + e;
    out = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${"0".repeat(-point)}${digits}`;
  }
  return negative ? `-${out}` : out;
}

/**
 * A float64 as Go's `big.Float.Text('f', -1)` prints it at 53 bits of precision: the fewest
 * digits that round back to it. JS's shortest text agrees except where a float64's neighbours
 * are not equally far away: at a power of two JS narrows the interval below (the next float64
 * down is half as far), where `big.Float` takes half an ulp either side (`2 ** 64` is
 * `18446744073709550000`, not JS's `18446744073709552000`), and for subnormals, which
 * `big.Float` holds normalised with a full 53-bit mantissa.
 */
function shortestFloat64Text(f: number): string {
  f64Buffer.setFloat64(0, f);
  const hi = f64Buffer.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  if (biased !== 0 && ((hi & 0xfffff) !== 0 || f64Buffer.getUint32(4) !== 0)) return plainFromShortest(String(f));
  const [m, e] = float64Binary(f);
  return goShortestText(m, e, 53);
}

/** A finite non-zero float64 as `[m, e]` with value `m * 2^e` and `m` a (signed) integer of at most 53 bits. */
function float64Binary(f: number): [bigint, number] {
  f64Buffer.setFloat64(0, f);
  const hi = f64Buffer.getUint32(0);
  const lo = f64Buffer.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let binExp: number;
  if (biased === 0) {
    binExp = -1074;
  } else {
    mantissa |= 1n << 52n;
    binExp = biased - 1075;
  }
  return [hi >>> 31 === 1 ? -mantissa : mantissa, binExp];
}

/** Rewrites JS's shortest float text (which may use an exponent) in plain notation. */
function plainFromShortest(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (m === null) return text;
  const digits = (m[2] ?? "") + (m[3] ?? "");
  const exponent = Number(m[4] ?? "0") - (m[3] ?? "").length;
  const [c, e] = normalise(BigInt(digits), exponent);
  return plainDecimal(m[1] === "-" ? -c : c, e);
}

function truncate(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

function invalidNumber(reason: string): PathError {
  return new PathError(PathErrorCode.InvalidValue, Path.root, reason);
}

/** The length of `digits` without its trailing zeros (a loop: a regex like /0+$/ is quadratic on long runs of zeros). */
function withoutTrailingZeros(digits: string): number {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return end;
}
