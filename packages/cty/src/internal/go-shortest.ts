// Go's `big.Float.Text('f', -1)`: the fewest decimal digits that read back as a binary float of
// a given precision (math/big's roundShortest, followed step by step).

/** A decimal as math/big's `decimal`: digits without trailing zeros, value `0.digits × 10^point`. */
interface Decimal {
  readonly digits: string;
  readonly point: number;
}

function bitLength(x: bigint): number {
  return x.toString(2).length;
}

/** The exact decimal of `mant * 2^exp` (`mant` > 0), as math/big's `decimal.init`. */
function decimalOf(mant: bigint, exp: number): Decimal {
  let text: string;
  let point: number;
  if (exp >= 0) {
    text = (mant << BigInt(exp)).toString();
    point = text.length;
  } else {
    text = (mant * 5n ** BigInt(-exp)).toString();
    point = text.length + exp;
  }
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 48) end--;
  return { digits: text.slice(0, end), point };
}

function digitAt(d: Decimal, i: number): number {
  return i < d.digits.length ? d.digits.charCodeAt(i) - 48 : 0;
}

function trimmed(digits: string, point: number): Decimal {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return { digits: digits.slice(0, end), point };
}

function roundDown(d: Decimal, n: number): Decimal {
  return trimmed(d.digits.slice(0, n), d.point);
}

function roundUp(d: Decimal, n: number): Decimal {
  let i = n - 1;
  while (i >= 0 && d.digits.charCodeAt(i) === 57) i--;
  if (i < 0) return { digits: "1", point: d.point + 1 };
  return { digits: d.digits.slice(0, i) + String.fromCharCode(d.digits.charCodeAt(i) + 1), point: d.point };
}

/** math/big's `decimal.round`: to nearest, a tie (exactly 5 and nothing after) to even. */
function round(d: Decimal, n: number): Decimal {
  if (n >= d.digits.length) return d;
  const next = d.digits.charCodeAt(n);
  const up = next === 53 && n + 1 === d.digits.length ? n > 0 && (d.digits.charCodeAt(n - 1) - 48) % 2 === 1 : next >= 53;
  return up ? roundUp(d, n) : roundDown(d, n);
}

/**
 * The text Go's `big.Float.Text('f', -1)` gives for the binary float `m * 2^e` (`m` a signed
 * integer of at most `prec` bits, not zero) held at `prec` bits of precision: plain decimal,
 * the fewest digits within half an ulp either side (the bounds included when the mantissa is
 * even), the nearest such when there are two.
 */
export function goShortestText(m: bigint, e: number, prec: number): string {
  const negative = m < 0n;
  let mant = negative ? -m : m;
  const x = decimalOf(mant, e);
  // Give the mantissa prec + 1 bits: its lowest bit is then half an ulp.
  const s = bitLength(mant) - (prec + 1);
  let exp = e;
  if (s < 0) mant <<= BigInt(-s);
  else mant >>= BigInt(s);
  exp += s;
  const lower = decimalOf(mant - 1n, exp);
  const upper = decimalOf(mant + 1n, exp);
  const inclusive = (mant & 2n) === 0n;
  let d = x;
  for (let i = 0; i < x.digits.length; i++) {
    const l = digitAt(lower, i);
    const c = digitAt(x, i);
    const u = digitAt(upper, i);
    const okdown = l !== c || (inclusive && i + 1 === lower.digits.length);
    const okup = c !== u && (inclusive || c + 1 < u || i + 1 < upper.digits.length);
    if (okdown && okup) {
      d = round(x, i + 1);
      break;
    }
    if (okdown) {
      d = roundDown(x, i + 1);
      break;
    }
    if (okup) {
      d = roundUp(x, i + 1);
      break;
    }
  }
  return (negative ? "-" : "") + plain(d);
}

/** math/big's `fmtF` with the precision of a shortest conversion. */
function plain(d: Decimal): string {
  const { digits, point } = d;
  let out: string;
  if (point > 0) {
    out = digits.length >= point ? digits.slice(0, point) : digits + "0".repeat(point - digits.length);
    if (digits.length > point) out += "." + digits.slice(point);
  } else {
    out = "0." + "0".repeat(-point) + digits;
  }
  return out;
}
