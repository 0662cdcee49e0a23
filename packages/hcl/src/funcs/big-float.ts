/**
 * go-cty's number arithmetic: `big.Float` values of 512-bit precision, rounded to nearest
 * even after every operation, and printed as the shortest decimal that reads back as the
 * same 512-bit value. `CtyNumber` keeps exact decimals; converting through this module
 * makes sums such as `range(0, 3, 0.3)` come out digit for digit as terraform's.
 *
 * @internal
 * @packageDocumentation
 */

import { CtyNumber } from "@magma/cty";
import { toDecimal } from "./helpers.js";
import { absorbedSum } from "../number-ops.js";

const PREC = 512;
const TOP = 1n << BigInt(PREC);
const BOTTOM = 1n << BigInt(PREC - 1);

/** A finite binary float: `(neg ? -1 : 1) * m * 2^e`, `m` below 2^512 (0 for zero). */
interface Bin {
  readonly neg: boolean;
  readonly m: bigint;
  readonly e: number;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Rounds the positive rational num/den to a 512-bit mantissa (nearest, ties to even). */
function roundRational(neg: boolean, num: bigint, den: bigint): Bin {
  if (num === 0n) return { neg: false, m: 0n, e: 0 };
  let s = PREC - (bitLength(num) - bitLength(den));
  const div = (sh: number): [bigint, bigint, bigint] => {
    const n = sh >= 0 ? num << BigInt(sh) : num;
    const d = sh >= 0 ? den : den << BigInt(-sh);
    return [n / d, n % d, d];
  };
  let [q, r, d] = div(s);
  while (q >= TOP) [q, r, d] = div(--s);
  while (q < BOTTOM) [q, r, d] = div(++s);
  const twice = 2n * r;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  if (q === TOP) {
    q >>= 1n;
    s -= 1;
  }
  return { neg, m: q, e: -s };
}

/** The 512-bit float nearest to a finite cty number (how go-cty parses a literal). */
function toBin(n: CtyNumber): Bin {
  const { c, e } = toDecimal(n);
  const neg = c < 0n;
  const a = neg ? -c : c;
  if (e >= 0) return roundRational(neg, a * 10n ** BigInt(e), 1n);
  return roundRational(neg, a, 10n ** BigInt(-e));
}

function round(neg: boolean, m: bigint, e: number): Bin {
  if (m === 0n) return { neg: false, m: 0n, e: 0 };
  if (bitLength(m) <= PREC) return { neg, m, e };
  const r = roundRational(neg, m, 1n);
  return { neg, m: r.m, e: r.e + e };
}

function addBin(a: Bin, b: Bin): Bin {
  if (a.m === 0n) return b;
  if (b.m === 0n) return a;
  const e = Math.min(a.e, b.e);
  const x = (a.neg ? -a.m : a.m) << BigInt(a.e - e);
  const y = (b.neg ? -b.m : b.m) << BigInt(b.e - e);
  const sum = x + y;
  return round(sum < 0n, sum < 0n ? -sum : sum, e);
}

/** The shortest decimal that rounds to `b` at 512 bits (Go's `Text('f', -1)` digits). */
function shortest(b: Bin): CtyNumber {
  if (b.m === 0n) return CtyNumber.zero;
  // Strip trailing zero bits so the power-of-two boundary test below is right.
  let m = b.m;
  let e = b.e;
  // Normalise to a full 512-bit mantissa: the neighbours are one unit of it away.
  while (m < BOTTOM) {
    m <<= 1n;
    e -= 1;
  }
  // Bounds as integers over 2^k: v = m*2^e, midpoints at (2m±1)*2^(e-1) (lower one
  // closer at the bottom of a binade).
  const k = Math.max(0, 2 - e);
  const unit = (x: bigint, ex: number) => (ex + k >= 0 ? x << BigInt(ex + k) : x >> BigInt(-(ex + k)));
  const v = unit(m, e);
  const hi = unit(2n * m + 1n, e - 1);
  const lo = m === BOTTOM ? unit(4n * m - 1n, e - 2) : unit(2n * m - 1n, e - 1);
  const den = 1n << BigInt(k);
  const inclusive = (m & 1n) === 0n;
  const intDigits = Math.max(1, Math.ceil((bitLength(v) - k) * 0.30103) + 1);
  for (let p = -intDigits; p <= 1100; p++) {
    const scale = (x: bigint): [bigint, bigint] => (p >= 0 ? [x * 10n ** BigInt(p), den] : [x, den * 10n ** BigInt(-p)]);
    const [ln, ld] = scale(lo);
    const [hn, hd] = scale(hi);
    let first = ln / ld + (ln % ld === 0n ? 0n : 1n);
    if (!inclusive && ln % ld === 0n) first += 1n;
    let last = hn / hd;
    if (!inclusive && hn % hd === 0n) last -= 1n;
    if (first > last) continue;
    const [vn, vd] = scale(v);
    let pick = (2n * vn + vd) / (2n * vd);
    if (pick < first) pick = first;
    if (pick > last) pick = last;
    const digits = (b.neg ? "-" : "") + pick.toString();
    return CtyNumber.parse(p >= 0 ? `${digits}e-${p}` : `${digits}e${-p}`);
  }
  return CtyNumber.parse(toExactText(b));
}

function toExactText(b: Bin): string {
  if (b.e >= 0) return `${b.neg ? "-" : ""}${(b.m << BigInt(b.e)).toString()}`;
  const d = b.m * 5n ** BigInt(-b.e);
  return `${b.neg ? "-" : ""}${d.toString()}e${b.e}`;
}

/** `a + b` as go-cty computes it (512-bit binary floats). */
export function addGoNumbers(a: CtyNumber, b: CtyNumber): CtyNumber {
  if (a.isInfinite() || b.isInfinite()) {
    if (a.isInfinite() && b.isInfinite() && a.sign() !== b.sign()) throw new Error("can't compute sum of opposing infinities");
    return a.isInfinite() ? a : b;
  }
  const absorbed = absorbedSum(a, b);
  if (absorbed !== undefined) return absorbed;
  if (a.isInteger() && b.isInteger()) {
    const s = a.toBigInt() + b.toBigInt();
    if (bitLength(s < 0n ? -s : s) <= PREC) return CtyNumber.fromBigInt(s);
  }
  return shortest(addBin(toBin(a), toBin(b)));
}

/**
 * A number as go-cty holds it after parsing: decimals with more significant digits than a
 * 512-bit float keeps are rounded to it (and printed shortest).
 */
export function asGoNumber(n: CtyNumber): CtyNumber {
  if (n.isInfinite()) return n;
  const { c } = toDecimal(n);
  const digits = (c < 0n ? -c : c).toString().replace(/0+$/, "").length;
  return digits <= 150 ? n : shortest(toBin(n));
}
