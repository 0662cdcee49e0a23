import { shuffleInPlace, uniformIndex, type RandomSource } from "./random-source.js";

/** The character classes of random_string and random_password. @internal */
export const CharClass = {
  Upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  Lower: "abcdefghijklmnopqrstuvwxyz",
  Numeric: "0123456789",
  /** The default special characters, used unless `override_special` is a non-empty string. */
  Special: "!@#$%&*()-_=+[]{}<>:?",
} as const;

/** What random_string and random_password generate from. @internal */
export interface StringParams {
  readonly length: number;
  readonly upper: boolean;
  readonly lower: boolean;
  readonly numeric: boolean;
  readonly special: boolean;
  readonly minUpper: number;
  readonly minLower: number;
  readonly minNumeric: number;
  readonly minSpecial: number;
  /** Replaces the special characters when not empty. */
  readonly overrideSpecial: string;
}

/** The generation asks for characters from an empty set. @internal */
export class EmptyCharacterSetError extends Error {
  override readonly name = "EmptyCharacterSetError";
}

/**
 * A random string as hashicorp/random builds it: `min_numeric`, `min_lower`, `min_upper` and
 * `min_special` characters drawn from their own classes (whether or not the class is
 * enabled), the rest of `length` drawn from the union of the enabled classes, then the whole
 * shuffled. Every draw is uniform over its set. Characters are Unicode code points, so a
 * non-ASCII `override_special` yields whole characters (hashicorp/random picks bytes).
 *
 * @throws {@link EmptyCharacterSetError} when characters are needed from an empty set.
 * @throws RangeError when the minimums exceed the length or a count is negative.
 * @internal
 */
export function generateRandomString(p: StringParams, source: RandomSource): string {
  const counts = [p.length, p.minUpper, p.minLower, p.minNumeric, p.minSpecial];
  if (counts.some((n) => !Number.isSafeInteger(n) || n < 0))
    throw new RangeError(`lengths must be non-negative integers, got ${counts.join(", ")}`);
  const rest = p.length - p.minUpper - p.minLower - p.minNumeric - p.minSpecial;
  if (rest < 0)
    throw new RangeError(
      `length ${p.length} is below the sum of the minimums (${p.length - rest})`,
    );
  const special = Array.from(p.overrideSpecial === "" ? CharClass.Special : p.overrideSpecial);
  const upper = Array.from(CharClass.Upper);
  const lower = Array.from(CharClass.Lower);
  const numeric = Array.from(CharClass.Numeric);
  const all = [
    ...(p.upper ? upper : []),
    ...(p.lower ? lower : []),
    ...(p.numeric ? numeric : []),
    ...(p.special ? special : []),
  ];
  const out: string[] = [];
  const draw = (set: readonly string[], n: number, what: string): void => {
    if (n > 0 && set.length === 0)
      throw new EmptyCharacterSetError(`cannot draw ${n} characters from an empty set of ${what}`);
    for (let i = 0; i < n; i++) out.push(set[uniformIndex(source, set.length)]!);
  };
  draw(numeric, p.minNumeric, "numeric characters");
  draw(lower, p.minLower, "lowercase characters");
  draw(upper, p.minUpper, "uppercase characters");
  draw(special, p.minSpecial, "special characters");
  draw(all, rest, "enabled characters (upper, lower, numeric and special are all false)");
  shuffleInPlace(source, out);
  return out.join("");
}
