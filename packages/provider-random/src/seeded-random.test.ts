import { crc64Iso } from "./crc64.js";
import { permutation, uniformBelow, uniformIndex, type RandomSource } from "./random-source.js";
import { createSeededRandom, createSplitMix64, xoshiro256StarStar } from "./seeded-random.js";
import { utf8Bytes } from "./utf8.js";

describe("crc64Iso", () => {
  test.each([
    ["123456789", 0xb90956c775a41001n], // the catalogue's check value for CRC-64/GO-ISO
    ["", 0n],
    ["hello", 0x3c3eeee2d8100000n],
  ])("of %j", (text, want) => {
    expect(crc64Iso(utf8Bytes(text))).toBe(want);
  });
});

describe("SplitMix64 and xoshiro256**", () => {
  test("SplitMix64 from seed 0 gives the reference sequence", () => {
    const next = createSplitMix64(0n);
    expect([next(), next(), next()]).toEqual([
      0xe220a8397b1dcdafn,
      0x6e789e6aa1b965f4n,
      0x06c45d188009454fn,
    ]);
  });

  test("xoshiro256** from state {1, 2, 3, 4} gives the reference sequence", () => {
    const next = xoshiro256StarStar([1n, 2n, 3n, 4n]);
    expect([next(), next(), next(), next()]).toEqual([
      11520n,
      0n,
      1509978240n,
      1215971899390074240n,
    ]);
  });

  test("a seed string gives a fixed sequence (CRC-64/ISO → SplitMix64 → xoshiro256**, high halves)", () => {
    const r = createSeededRandom("hello");
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual([
      0x6617ae10, 0x10a15b28, 0x261e920b,
    ]);
  });

  test("different seeds give different sequences; the same seed the same one", () => {
    const draw = (seed: string): number[] => {
      const r = createSeededRandom(seed);
      return Array.from({ length: 8 }, () => r.nextUint32());
    };
    expect(draw("a")).toEqual(draw("a"));
    expect(draw("a")).not.toEqual(draw("b"));
  });
});

/** A source that replays fixed words (to check rejection sampling). */
function replay(words: number[]): RandomSource {
  let i = 0;
  return { nextUint32: () => words[i++ % words.length]! };
}

describe("uniform draws", () => {
  test("uniformBelow rejects draws outside the bound instead of folding them", () => {
    // bound 5 needs 3 bits: 7 and 6 and 5 are rejected, 4 is taken.
    expect(uniformBelow(replay([7, 6, 5, 4]), 5n)).toBe(4n);
    expect(uniformIndex(replay([0xffffffff, 0xfffffffe, 3]), 5)).toBe(3);
  });

  test("uniformBelow covers 64-bit ranges", () => {
    const r = createSeededRandom("range");
    const span = 2n ** 64n;
    for (let i = 0; i < 50; i++) {
      const x = uniformBelow(r, span);
      expect(x >= 0n && x < span).toBe(true);
    }
    expect(uniformBelow(r, 1n)).toBe(0n);
    expect(() => uniformBelow(r, 0n)).toThrow(RangeError);
  });

  test("draws are roughly uniform (deterministic source, chi-square with 9 degrees of freedom)", () => {
    const r = createSeededRandom("uniformity");
    const counts = new Array<number>(10).fill(0);
    const n = 20000;
    for (let i = 0; i < n; i++) counts[uniformIndex(r, 10)]!++;
    const chi = counts.reduce((s, c) => s + (c - n / 10) ** 2 / (n / 10), 0);
    expect(chi).toBeLessThan(27.9); // p = 0.001
  });

  test("permutation is a permutation", () => {
    const r = createSeededRandom("perm");
    for (const n of [0, 1, 2, 7, 50])
      expect(
        permutation(r, n)
          .slice()
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});
