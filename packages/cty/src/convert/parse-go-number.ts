import { CtyNumber } from "../number.js";

// Go's big.ParseFloat(s, 10, ...) grammar, which go-cty's ParseNumberVal uses:
// [sign] ( "inf" | "Inf" | mantissa [exponent] ), mantissa = digits "." [digits] | digits |
// "." digits, exponent = ("e" | "E" | "p" | "P") [sign] digits. No spaces, no underscores,
// no base prefixes.
const GO_NUMBER = /^([+-]?)(?:(inf|Inf)|(\d+\.?\d*|\.\d+)(?:([eEpP])([+-]?\d+))?)$/;

/** Largest binary exponent accepted for the `p` form (`1p4` = 16). */
const MAX_BINARY_EXPONENT = 10_000;

/**
 * Parses number text as go-cty's `ParseNumberVal` does (used for JSON strings given where a
 * number is expected and for string-to-number conversion): `12`, `-1.5e3`, `.5`, `5.`,
 * `+1`, `Inf`/`-Inf`/`inf`, and Go's binary-exponent form `1p4` (= 16). Returns undefined
 * when the text is not a number in that grammar.
 *
 * @throws {@link PathError} (`invalid_value`, root path) for a number beyond the supported
 * exponent range (see {@link CtyNumber.parse}).
 *
 * @internal
 */
export function parseGoNumber(text: string): CtyNumber | undefined {
  const m = GO_NUMBER.exec(text);
  if (m === null) return undefined;
  const negative = m[1] === "-";
  if (m[2] !== undefined) return negative ? CtyNumber.negativeInfinity : CtyNumber.positiveInfinity;
  const mantissa = m[3]!;
  const expKind = m[4];
  if (expKind === undefined || expKind === "e" || expKind === "E") {
    return CtyNumber.parse(
      `${negative ? "-" : ""}${mantissa}${expKind === undefined ? "" : `e${m[5]!}`}`,
    );
  }
  // Binary exponent: mantissa * 2^p, computed exactly as a decimal.
  const p = Number(m[5]!);
  if (!Number.isSafeInteger(p) || Math.abs(p) > MAX_BINARY_EXPONENT) return undefined;
  const [intPart = "", fracPart = ""] = mantissa.split(".");
  let coefficient = BigInt((intPart + fracPart).replace(/^0+(?=\d)/, "") || "0");
  let exponent = -fracPart.length;
  if (p >= 0) coefficient <<= BigInt(p);
  else {
    // 2^-k = 5^k / 10^k
    coefficient *= 5n ** BigInt(-p);
    exponent += p;
  }
  return CtyNumber.parse(`${negative ? "-" : ""}${coefficient}e${exponent}`);
}
