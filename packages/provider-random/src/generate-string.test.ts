import fc from "fast-check";
import {
  CharClass,
  EmptyCharacterSetError,
  generateRandomString,
  type StringParams,
} from "./generate-string.js";
import { createSecureRandom } from "./secure-random.js";
import { createSeededRandom } from "./seeded-random.js";

const RUNS = Number(process.env["MAGMA_FUZZ_RUNS"] ?? 300);

const count = (s: string, set: string): number =>
  Array.from(s).filter((c) => set.includes(c)).length;

/** Parameters that can be satisfied: some class enabled (or nothing beyond the minimums asked). */
const params: fc.Arbitrary<StringParams> = fc
  .record({
    upper: fc.boolean(),
    lower: fc.boolean(),
    numeric: fc.boolean(),
    special: fc.boolean(),
    minUpper: fc.nat(6),
    minLower: fc.nat(6),
    minNumeric: fc.nat(6),
    minSpecial: fc.nat(6),
    extra: fc.nat(40),
    overrideSpecial: fc.oneof(
      fc.constant(""),
      fc.string({ unit: fc.constantFrom(..."~^|;.,/é✓"), minLength: 1, maxLength: 6 }),
    ),
  })
  .map(({ extra, ...p }) => {
    const anyClass = p.upper || p.lower || p.numeric || p.special;
    const length = p.minUpper + p.minLower + p.minNumeric + p.minSpecial + (anyClass ? extra : 0);
    return { ...p, length };
  })
  .filter((p) => p.length >= 1);

describe("generateRandomString", () => {
  test("honours length, the character sets and every minimum (property)", () => {
    const source = createSecureRandom();
    fc.assert(
      fc.property(params, (p) => {
        const s = generateRandomString(p, source);
        const chars = Array.from(s);
        const special = p.overrideSpecial === "" ? CharClass.Special : p.overrideSpecial;
        expect(chars.length).toBe(p.length);
        expect(count(s, CharClass.Upper)).toBeGreaterThanOrEqual(p.minUpper);
        expect(count(s, CharClass.Lower)).toBeGreaterThanOrEqual(p.minLower);
        expect(count(s, CharClass.Numeric)).toBeGreaterThanOrEqual(p.minNumeric);
        expect(count(s, special)).toBeGreaterThanOrEqual(p.minSpecial);
        // Beyond the minimums, only enabled classes appear.
        const allowed =
          (p.upper ? CharClass.Upper : "") +
          (p.lower ? CharClass.Lower : "") +
          (p.numeric ? CharClass.Numeric : "") +
          (p.special ? special : "");
        const outside = chars.filter((c) => !allowed.includes(c)).length;
        const forcedOutside =
          (p.upper ? 0 : p.minUpper) +
          (p.lower ? 0 : p.minLower) +
          (p.numeric ? 0 : p.minNumeric) +
          (p.special ? 0 : p.minSpecial);
        expect(outside).toBeLessThanOrEqual(forcedOutside);
        // Every character is one of the four classes (override_special replaces the special set).
        for (const c of chars)
          expect(
            (CharClass.Upper + CharClass.Lower + CharClass.Numeric + special).includes(c),
          ).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  test("a class that is off only appears through its minimum", () => {
    const s = generateRandomString(
      {
        length: 200,
        upper: false,
        lower: true,
        numeric: false,
        special: false,
        minUpper: 0,
        minLower: 0,
        minNumeric: 3,
        minSpecial: 0,
        overrideSpecial: "",
      },
      createSecureRandom(),
    );
    expect(count(s, CharClass.Upper)).toBe(0);
    expect(count(s, CharClass.Numeric)).toBe(3);
    expect(count(s, CharClass.Lower)).toBe(197);
  });

  test("draws every character of a set over many draws, and is not constant", () => {
    const s = generateRandomString(
      {
        length: 2000,
        upper: false,
        lower: false,
        numeric: true,
        special: false,
        minUpper: 0,
        minLower: 0,
        minNumeric: 0,
        minSpecial: 0,
        overrideSpecial: "",
      },
      createSecureRandom(),
    );
    for (const d of CharClass.Numeric) expect(s.includes(d)).toBe(true);
  });

  test("is deterministic for a deterministic source", () => {
    const p: StringParams = {
      length: 16,
      upper: true,
      lower: true,
      numeric: true,
      special: true,
      minUpper: 1,
      minLower: 1,
      minNumeric: 1,
      minSpecial: 1,
      overrideSpecial: "",
    };
    expect(generateRandomString(p, createSeededRandom("x"))).toBe(
      generateRandomString(p, createSeededRandom("x")),
    );
  });

  test("all classes off with characters still to draw is an error", () => {
    const p: StringParams = {
      length: 4,
      upper: false,
      lower: false,
      numeric: false,
      special: false,
      minUpper: 1,
      minLower: 0,
      minNumeric: 0,
      minSpecial: 0,
      overrideSpecial: "",
    };
    expect(() => generateRandomString(p, createSecureRandom())).toThrow(EmptyCharacterSetError);
    // …but not when the minimums fill the length.
    expect(generateRandomString({ ...p, length: 1 }, createSecureRandom())).toMatch(/^[A-Z]$/);
  });

  test("minimums above the length are a RangeError", () => {
    const p: StringParams = {
      length: 2,
      upper: true,
      lower: true,
      numeric: true,
      special: true,
      minUpper: 2,
      minLower: 1,
      minNumeric: 0,
      minSpecial: 0,
      overrideSpecial: "",
    };
    expect(() => generateRandomString(p, createSecureRandom())).toThrow(RangeError);
  });
});
