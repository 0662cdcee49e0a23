/**
 * A source of uniformly distributed 32-bit words, and the unbiased integer and permutation
 * draws built on it. Both the cryptographically secure source and the seeded one implement it.
 *
 * @internal
 */
export interface RandomSource {
  /** The next uniformly distributed unsigned 32-bit integer. */
  nextUint32(): number;
}

/**
 * A uniformly distributed integer in `[0, n)`, by rejection sampling on the smallest number
 * of whole bits that covers `n - 1` (no modulo bias).
 *
 * @throws RangeError when `n` is not positive.
 */
export function uniformBelow(source: RandomSource, n: bigint): bigint {
  if (n <= 0n) throw new RangeError(`uniformBelow needs a positive bound, got ${n}`);
  if (n === 1n) return 0n;
  const bits = (n - 1n).toString(2).length;
  const words = Math.ceil(bits / 32);
  const mask = (1n << BigInt(bits)) - 1n;
  for (;;) {
    let x = 0n;
    for (let i = 0; i < words; i++) x = (x << 32n) | BigInt(source.nextUint32());
    x &= mask;
    if (x < n) return x;
  }
}

/** A uniformly distributed integer in `[0, n)` for a small positive `n` (at most 2^32). */
export function uniformIndex(source: RandomSource, n: number): number {
  if (!Number.isSafeInteger(n) || n <= 0 || n > 2 ** 32)
    throw new RangeError(`uniformIndex needs an integer bound in [1, 2^32], got ${n}`);
  if (n === 1) return 0;
  const bits = Math.ceil(Math.log2(n));
  const mask = bits >= 32 ? 0xffffffff : 2 ** bits - 1;
  for (;;) {
    const x = (source.nextUint32() & mask) >>> 0;
    if (x < n) return x;
  }
}

/** A uniformly random permutation of `0 … n-1` (Fisher–Yates, from the end). */
export function permutation(source: RandomSource, n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  shuffleInPlace(source, out);
  return out;
}

/** Shuffles an array in place, uniformly (Fisher–Yates, from the end). */
export function shuffleInPlace<T>(source: RandomSource, items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = uniformIndex(source, i + 1);
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
}
