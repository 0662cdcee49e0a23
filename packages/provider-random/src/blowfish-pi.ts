/** Words of the fractional part of π that Blowfish's initial state uses: 18 (P) + 4 × 256 (S). */
const WORDS = 18 + 4 * 256;

let cached: Uint32Array | undefined;

/** arctan(1/x) scaled by 2^bits, by its Taylor series in fixed point. */
function arctanInverse(x: bigint, bits: bigint): bigint {
  const x2 = x * x;
  let term = (1n << bits) / x;
  let sum = term;
  for (let k = 1n; term !== 0n; k++) {
    term /= x2;
    sum += (k & 1n) === 1n ? -term / (2n * k + 1n) : term / (2n * k + 1n);
  }
  return sum;
}

/**
 * The first 8,336 hexadecimal digits of the fractional part of π as 1,042 big-endian 32-bit
 * words: Blowfish's initial P-array (words 0–17) followed by its four S-boxes (256 words
 * each), as Schneier defined them. They are computed here (Machin's formula,
 * π = 16·arctan(1/5) − 4·arctan(1/239), in BigInt fixed point with 64 guard bits) rather
 * than tabulated, once, on first use; the result is cached and must not be modified.
 *
 * @internal
 */
export function blowfishPiWords(): Uint32Array {
  if (cached !== undefined) return cached;
  const fracBits = BigInt(WORDS * 32);
  const bits = fracBits + 64n;
  const pi = 16n * arctanInverse(5n, bits) - 4n * arctanInverse(239n, bits);
  const frac = (pi - (3n << bits)) >> 64n; // drop the guard bits
  const hex = frac.toString(16).padStart(WORDS * 8, "0");
  const out = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i++) out[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16);
  cached = out;
  return out;
}
