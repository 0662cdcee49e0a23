import { crc64Iso } from "./crc64.js";
import type { RandomSource } from "./random-source.js";
import { utf8Bytes } from "./utf8.js";

const MASK64 = 0xffffffffffffffffn;

function rotl(x: bigint, k: bigint): bigint {
  return ((x << k) | (x >> (64n - k))) & MASK64;
}

/** SplitMix64 (Steele, Lea and Flood): expands one 64-bit seed into a stream of 64-bit words. */
export function createSplitMix64(seed: bigint): () => bigint {
  let s = BigInt.asUintN(64, seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & MASK64;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
}

/** xoshiro256** (Blackman and Vigna, 2018) from its 256-bit state; returns the generator of 64-bit words. */
export function xoshiro256StarStar(state: readonly [bigint, bigint, bigint, bigint]): () => bigint {
  let [s0, s1, s2, s3] = state.map((x) => BigInt.asUintN(64, x)) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return () => {
    const result = (rotl((s1 * 5n) & MASK64, 7n) * 9n) & MASK64;
    const t = (s1 << 17n) & MASK64;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 45n);
    return result;
  };
}

/** xoshiro256** with its state filled from SplitMix64 of `seed`, as its authors recommend. */
export function createXoshiro256StarStar(seed: bigint): () => bigint {
  const sm = createSplitMix64(seed);
  return xoshiro256StarStar([sm(), sm(), sm(), sm()]);
}

/**
 * The deterministic generator behind `seed` in random_integer and random_shuffle: the seed
 * text's UTF-8 bytes are hashed with CRC-64/ISO (as hashicorp/random does), and the 64-bit
 * checksum seeds xoshiro256** through SplitMix64; each 32-bit draw is the high half of one
 * 64-bit output. The same seed always gives the same sequence, on every platform. It is NOT
 * the sequence of Go's `math/rand`, so seeded results differ from hashicorp/random's.
 *
 * @internal
 */
export function createSeededRandom(seed: string): RandomSource {
  const next = createXoshiro256StarStar(crc64Iso(utf8Bytes(seed)));
  return { nextUint32: () => Number(next() >> 32n) };
}
