import { CtyNumber } from "@magma/cty";

/**
 * go-cty's arithmetic: numbers are `big.Float`s of 512-bit precision, every operation's
 * exact result is rounded to 512 bits (to nearest, ties to even), and a number prints as
 * the shortest decimal that reads back as the same 512-bit float. magma's {@link CtyNumber}
 * keeps exact decimals, so each operation here converts its operands to 512-bit binary,
 * computes, rounds, and returns the shortest decimal: `1/3` is
 * `0.333…335` (157 digits) and `1/3*3` is `1`, as in Terraform.
 */

const PREC = 512;
/** The decimal exponent range CtyNumber accepts (see its parse). */
const MAX_DECIMAL_EXPONENT = 100_000;
const ONE = 1n;

/** A finite non-zero binary float `m * 2^e` with `|m|` of at most {@link PREC} bits, or zero (`m = 0`). */
interface Bin {
  readonly m: bigint;
  readonly e: number;
}

/** Error raised for an operation go-cty's `big.Float` refuses (0/0, ∞-∞, ∞×0, …). */
export class NumberOpError extends Error {
  override readonly name = "NumberOpError";
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Rounds the positive rational `p / q * 2^e` to PREC bits. */
function roundRational(negative: boolean, p: bigint, q: bigint, e: number): Bin {
  if (p === 0n) return { m: 0n, e: 0 };
  // Choose s so that 2^(PREC-1) <= p*2^s/q < 2^PREC.
  let s = PREC - (bitLength(p) - bitLength(q));
  let num = s >= 0 ? p << BigInt(s) : p;
  let den = s >= 0 ? q : q << BigInt(-s);
  let quo = num / den;
  if (bitLength(quo) > PREC) {
    s -= 1;
    if (s >= 0) num = p << BigInt(s);
    else den = q << BigInt(-s);
    quo = num / den;
  } else if (bitLength(quo) < PREC) {
    s += 1;
    if (s >= 0) {
      num = p << BigInt(s);
      den = q;
    } else {
      den = q << BigInt(-s);
    }
    quo = num / den;
  }
  const rem = num - quo * den;
  const twice = rem * 2n;
  if (twice > den || (twice === den && (quo & ONE) === ONE)) quo += ONE;
  let exp = e - s;
  if (bitLength(quo) > PREC) {
    quo >>= ONE;
    exp += 1;
  }
  return normalise({ m: negative ? -quo : quo, e: exp });
}

function normalise(b: Bin): Bin {
  if (b.m === 0n) return { m: 0n, e: 0 };
  let m = b.m;
  let e = b.e;
  while ((m & 0xffffffffn) === 0n) {
    m >>= 32n;
    e += 32;
  }
  while ((m & ONE) === 0n) {
    m >>= ONE;
    e += 1;
  }
  return { m, e };
}

/** Rounds the exact integer-times-power-of-two `m * 2^e` to PREC bits. */
function roundBin(m: bigint, e: number): Bin {
  if (m === 0n) return { m: 0n, e: 0 };
  const negative = m < 0n;
  const a = negative ? -m : m;
  const extra = bitLength(a) - PREC;
  if (extra <= 0) return normalise({ m, e });
  return roundRational(negative, a, ONE << BigInt(extra), e + extra);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** The 512-bit float nearest to a finite number (a float64 taken exactly, from its bits). */
function toBin(n: CtyNumber): Bin {
  if (n.isFloat64()) return float64Bin(n.toNumber());
  const text = n.toString();
  const m = DECIMAL.exec(text);
  if (m === null) throw new NumberOpError(`not a finite number: ${text}`);
  const negative = m[1] === "-";
  const frac = m[3] ?? "";
  const c = BigInt(m[2]! + frac);
  if (frac.length === 0) return roundBin(negative ? -c : c, 0);
  return roundRational(negative, c, 10n ** BigInt(frac.length), 0);
}

const f64 = new DataView(new ArrayBuffer(8));

/** A finite float64 exactly, as `m * 2^e`. */
function float64Bin(f: number): Bin {
  if (f === 0) return { m: 0n, e: 0 };
  f64.setFloat64(0, f);
  const hi = f64.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(f64.getUint32(4));
  if (biased !== 0) m |= 1n << 52n;
  return normalise({ m: hi >>> 31 === 1 ? -m : m, e: biased === 0 ? -1074 : biased - 1075 });
}

/** The shortest decimal that reads back as `b` at PREC bits (Go's `big.Float.Text('f', -1)`). */
function fromBin(b: Bin): CtyNumber {
  if (b.m === 0n) return CtyNumber.zero;
  const negative = b.m < 0n;
  let mant = negative ? -b.m : b.m;
  let exp = b.e;
  // Refuse numbers beyond the decimal exponent range CtyNumber supports, before printing them.
  if (Math.abs((bitLength(mant) + exp) * Math.LOG10E * Math.LN2) > MAX_DECIMAL_EXPONENT) {
    throw new NumberOpError(`the result is too ${bitLength(mant) + exp > 0 ? "large" : "small"} to represent`);
  }
  if (exp >= 0 && bitLength(mant) + exp <= 53) {
    const v = Number(mant << BigInt(exp));
    return CtyNumber.from(negative ? -v : v);
  }
  // Scale so that the mantissa has PREC+1 bits: its lowest bit is half an ulp.
  const s = bitLength(mant) - (PREC + 1);
  if (s < 0) mant <<= BigInt(-s);
  else mant >>= BigInt(s);
  exp += s;
  const inclusive = (mant & 2n) === 0n;
  const exact = decimalDigits(mant, exp);
  const lower = decimalDigits(mant - ONE, exp);
  const upper = decimalDigits(mant + ONE, exp);
  const digits = shortest(exact, lower, upper, inclusive);
  const text = `${negative ? "-" : ""}${digits.d}e${digits.point - digits.d.length}`;
  return CtyNumber.parse(text);
}

interface Dec {
  /** Significant digits, no leading zeros (may have trailing zeros). */
  d: string;
  /** Decimal point position: value = 0.d × 10^point. */
  point: number;
}

function decimalDigits(mant: bigint, exp: number): Dec {
  // value = mant * 2^exp; exact decimal.
  let digits: string;
  let point: number;
  if (exp >= 0) {
    digits = (mant << BigInt(exp)).toString();
    point = digits.length;
  } else {
    // mant * 5^-exp / 10^-exp
    digits = (mant * 5n ** BigInt(-exp)).toString();
    point = digits.length + exp;
  }
  let end = digits.length;
  while (end > 0 && digits[end - 1] === "0") end--;
  return { d: digits.slice(0, end), point };
}

function digitAt(x: Dec, i: number): number {
  return i < x.d.length ? x.d.charCodeAt(i) - 48 : 0;
}

/** Go's `roundShortest` over exact decimals of the value and its half-ulp bounds. */
function shortest(x: Dec, lower: Dec, upper: Dec, inclusive: boolean): Dec {
  // Align lower and upper to x's decimal point.
  const lo = alignTo(lower, x.point);
  const up = alignTo(upper, x.point);
  if (lo === undefined || up === undefined) return x;
  for (let i = 0; i < x.d.length; i++) {
    const l = digitAt(lo, i);
    const m = digitAt(x, i);
    const u = digitAt(up, i);
    const okdown = l !== m || (inclusive && i + 1 === lo.d.length);
    const okup = m !== u && (inclusive || m + 1 < u || i + 1 < up.d.length);
    if (okdown && okup) return roundDigits(x, i + 1);
    if (okdown) return truncDigits(x, i + 1);
    if (okup) return roundUpDigits(x, i + 1);
  }
  return x;
}

function alignTo(x: Dec, point: number): Dec | undefined {
  const shift = point - x.point;
  if (shift < 0) return undefined;
  return { d: "0".repeat(shift) + x.d, point };
}

function truncDigits(x: Dec, n: number): Dec {
  return { d: x.d.slice(0, n), point: x.point };
}

function roundUpDigits(x: Dec, n: number): Dec {
  let d = x.d.slice(0, n);
  let i = d.length - 1;
  while (i >= 0 && d[i] === "9") i--;
  if (i < 0) return { d: "1", point: x.point + 1 };
  d = d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1);
  return { d, point: x.point };
}

function roundDigits(x: Dec, n: number): Dec {
  if (n >= x.d.length) return x;
  const next = x.d.charCodeAt(n) - 48;
  let up = next > 5;
  if (next === 5) {
    // Exactly half only when nothing non-zero follows; then round to even.
    up = n + 1 < x.d.length || (x.d.charCodeAt(n - 1) - 48) % 2 === 1;
  }
  return up ? roundUpDigits(x, n) : truncDigits(x, n);
}

function isSmallInt(n: CtyNumber): boolean {
  return n.isFloat64() && Number.isSafeInteger(n.toNumber());
}

function inf(sign: number): CtyNumber {
  return sign < 0 ? CtyNumber.negativeInfinity : CtyNumber.positiveInfinity;
}

/** True for a number below zero or negative zero (`big.Float`'s sign bit). */
function signBit(n: CtyNumber): boolean {
  return n.sign() < 0 || n.isNegativeZero();
}

/** A whole JS number as an exact cty number, keeping the sign of a zero. */
function exactInt(r: number): CtyNumber {
  return r === 0 && 1 / r < 0 ? CtyNumber.negativeZero : CtyNumber.from(r);
}

/**
 * True when both operands have a float64's precision (go-cty's `NumberFloatVal`, as `pow`
 * returns): `big.Float` arithmetic then rounds to 53 bits, which is the float64 operation.
 */
function bothFloat64(a: CtyNumber, b: CtyNumber): boolean {
  return a.isFloat64Precision() && b.isFloat64Precision() && !a.isInfinite() && !b.isInfinite();
}

/** A float64 result as a float64-precision number, unless it left the float64 range. */
function float64Result(r: number): CtyNumber | undefined {
  return Number.isFinite(r) && (r === 0 || Math.abs(r) >= 2.2250738585072014e-308) ? CtyNumber.fromFloat64(r) : undefined;
}

/** `a + b` as go-cty computes it. */
export function addNumbers(a: CtyNumber, b: CtyNumber): CtyNumber {
  if (bothFloat64(a, b)) {
    const r = float64Result(a.toNumber() + b.toNumber());
    if (r !== undefined) return r;
  }
  const absorbed = absorbedSum(a, b);
  if (absorbed !== undefined) return absorbed;
  if (isSmallInt(a) && isSmallInt(b)) {
    const r = a.toNumber() + b.toNumber();
    if (Number.isSafeInteger(r)) return exactInt(r);
  }
  if (a.isInfinite() || b.isInfinite()) {
    if (a.isInfinite() && b.isInfinite() && a.sign() !== b.sign()) throw new NumberOpError("addition of infinities with opposite signs");
    return a.isInfinite() ? a : b;
  }
  if (a.sign() === 0 && b.sign() === 0) return signBit(a) && signBit(b) ? CtyNumber.negativeZero : CtyNumber.zero;
  const x = toBin(a);
  const y = toBin(b);
  const e = Math.min(x.e, y.e);
  return fromBin(roundBin((x.m << BigInt(x.e - e)) + (y.m << BigInt(y.e - e)), e));
}

/** `-a`, keeping its precision; `-0` is negative zero, as `big.Float.Neg` gives. */
export function negateNumber(a: CtyNumber): CtyNumber {
  return a.negate();
}

/**
 * The decimal text of `-a` in exponent form without trailing zeros (`-15e-100000`, not the
 * 100,000 digits of the plain form, which took seconds to parse back). @internal
 */
export function negatedText(a: CtyNumber): string {
  const t = a.toString();
  const negative = t.startsWith("-");
  const body = negative ? t.slice(1) : t;
  const dot = body.indexOf(".");
  const frac = dot < 0 ? "" : body.slice(dot + 1);
  const digits = ((dot < 0 ? body : body.slice(0, dot)) + frac).replace(/^0+/, "");
  const trimmed = digits.replace(/0+$/, "");
  if (trimmed === "") return "0";
  return `${negative ? "" : "-"}${trimmed}e${digits.length - trimmed.length - frac.length}`;
}

/** `a - b`. */
export function subtractNumbers(a: CtyNumber, b: CtyNumber): CtyNumber {
  return addNumbers(a, negateNumber(b));
}

/** `a * b`. */
export function multiplyNumbers(a: CtyNumber, b: CtyNumber): CtyNumber {
  if (bothFloat64(a, b)) {
    const r = float64Result(a.toNumber() * b.toNumber());
    if (r !== undefined) return r;
  }
  if (isSmallInt(a) && isSmallInt(b)) {
    const r = a.toNumber() * b.toNumber();
    if (Number.isSafeInteger(r)) return exactInt(r);
  }
  if (a.isInfinite() || b.isInfinite()) {
    if (a.sign() === 0 || b.sign() === 0) throw new NumberOpError("multiplication of zero by infinity");
    return inf(a.sign() * b.sign());
  }
  if (a.sign() === 0 || b.sign() === 0) return signBit(a) !== signBit(b) ? CtyNumber.negativeZero : CtyNumber.zero;
  const x = toBin(a);
  const y = toBin(b);
  return fromBin(roundBin(x.m * y.m, x.e + y.e));
}

/** `a / b` (division by zero gives an infinity, as `big.Float` does; 0/0 fails). */
export function divideNumbers(a: CtyNumber, b: CtyNumber): CtyNumber {
  const negative = signBit(a) !== signBit(b);
  if (b.sign() === 0) {
    if (a.sign() === 0) throw new NumberOpError("division of zero by zero");
    return inf(negative ? -1 : 1);
  }
  if (a.isInfinite()) {
    if (b.isInfinite()) throw new NumberOpError("division of infinity by infinity");
    return inf(a.sign() * b.sign());
  }
  if (b.isInfinite() || a.sign() === 0) return negative ? CtyNumber.negativeZero : CtyNumber.zero;
  if (bothFloat64(a, b)) {
    const r = float64Result(a.toNumber() / b.toNumber());
    if (r !== undefined) return r;
  }
  const x = toBin(a);
  const y = toBin(b);
  const p = x.m < 0n ? -x.m : x.m;
  const q = y.m < 0n ? -y.m : y.m;
  return fromBin(roundRational(negative, p, q, x.e - y.e));
}

/**
 * `a % b` as go-cty computes it: `a - b * trunc(a / b)` (the sign follows `a`); an
 * infinite `a` gives an infinity, an infinite `b` gives `a`.
 */
export function moduloNumbers(a: CtyNumber, b: CtyNumber): CtyNumber {
  if (isSmallInt(a) && isSmallInt(b) && b.sign() !== 0) {
    const r = a.toNumber() % b.toNumber();
    return CtyNumber.from(r === 0 ? 0 : r);
  }
  if (a.isInfinite()) return multiplyNumbers(a, b);
  // go-cty truncates an infinite quotient to zero, so x % 0 and x % ±∞ are x.
  if (b.isInfinite() || b.sign() === 0) return a;
  const q = divideNumbers(a, b);
  const t = truncNumber(q);
  return subtractNumbers(a, multiplyNumbers(b, t));
}

function truncNumber(n: CtyNumber): CtyNumber {
  if (n.isInfinite() || n.isInteger()) return n;
  const t = n.toString();
  const i = t.indexOf(".");
  return CtyNumber.parse(i < 0 ? t : t.slice(0, i) === "-0" ? "0" : t.slice(0, i));
}

/**
 * A number literal as HCL parses it: exact text rounded to 512 bits (only numbers with
 * more significant digits than that precision change).
 */
export function parseNumberLiteral(text: string): CtyNumber {
  const n = CtyNumber.parse(text);
  if (n.isFloat64() || n.isInfinite()) return n;
  // Significant digits only: trailing zeros (1e99999's 99,999) are the exponent's, not the
  // mantissa's. Up to 150 significant digits the literal is the shortest decimal of its 512-bit
  // rounding, as Go prints it; rounding it through bigints of 100,000 digits took seconds and
  // gave 999…9 for 1e99999.
  const s = n.toString().replace(/^-/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
  if (s.length <= 150) return n;
  return fromBin(toBin(n));
}

/** The decimal magnitude (position of the first significant digit) and significant digits of a finite non-zero number. */
function decimalShape(n: CtyNumber): { readonly magnitude: number; readonly significant: number } {
  const t = n.toString().replace(/^-/, "");
  const dot = t.indexOf(".");
  const int = dot < 0 ? t : t.slice(0, dot);
  const frac = dot < 0 ? "" : t.slice(dot + 1);
  const magnitude = int !== "0" ? int.length : -(frac.length - frac.replace(/^0+/, "").length);
  const significant = (int + frac).replace(/^0+/, "").replace(/0+$/, "").length;
  return { magnitude, significant };
}

/**
 * `a + b` when one of them is too small to change the other at 512 bits: the larger, when it
 * has at most 150 significant digits (then it is its own shortest decimal) and the smaller is
 * more than 160 decimal places below it (under half an ulp). Otherwise undefined. Adding 1 to
 * 1e99999 took about 0.3 s through bigints of 100,000 digits; range(-1e99999, 0) made 1,024
 * such additions before failing. @internal
 */
export function absorbedSum(a: CtyNumber, b: CtyNumber): CtyNumber | undefined {
  if (a.isInfinite() || b.isInfinite() || a.sign() === 0 || b.sign() === 0) return undefined;
  const x = decimalShape(a);
  const y = decimalShape(b);
  if (x.magnitude - y.magnitude > 160 && x.significant <= 150) return a;
  if (y.magnitude - x.magnitude > 160 && y.significant <= 150) return b;
  return undefined;
}
