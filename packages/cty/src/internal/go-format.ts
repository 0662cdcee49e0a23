// Go's formatting of a number and a string in go-cty's set hash strings.
import { decimalParts, type CtyNumber } from "../number.js";

/**
 * A number as Go's `big.Float.String()` writes it, which is `Text('g', 10)`: ten significant
 * digits at most (rounded to nearest, an exact half to even), exponent form (`1e+20`, `1e-05`,
 * `1.23456789e+10`) when the exponent is below -4 or not below the digits' precision.
 */
export function goFloatString(n: CtyNumber): string {
  if (n.isInfinite()) return n.sign() > 0 ? "+Inf" : "-Inf";
  if (n.sign() === 0) return n.isNegativeZero() ? "-0" : "0";
  const [c, e] = decimalParts(n);
  const negative = c < 0n;
  let digits = (negative ? -c : c).toString();
  let point = digits.length + e;
  if (digits.length > 10) {
    const next = digits.charCodeAt(10);
    const up = next === 53 && digits.length === 11 ? (digits.charCodeAt(9) - 48) % 2 === 1 : next >= 53;
    digits = digits.slice(0, 10);
    if (up) {
      let i = 9;
      while (i >= 0 && digits.charCodeAt(i) === 57) i--;
      if (i < 0) {
        digits = "1";
        point += 1;
      } else {
        digits = digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1);
      }
    }
    digits = digits.replace(/0+$/, "");
  }
  let prec = 10;
  let eprec = prec;
  if (eprec > digits.length && digits.length >= point) eprec = digits.length;
  const exp = point - 1;
  let out: string;
  if (exp < -4 || exp >= eprec) {
    if (prec > digits.length) prec = digits.length;
    const frac = digits.slice(1, prec);
    const x = Math.abs(exp);
    out = `${digits[0]}${frac === "" ? "" : `.${frac}`}e${exp < 0 ? "-" : "+"}${x < 10 ? "0" : ""}${x}`;
  } else {
    if (prec > point) prec = digits.length;
    const fracLen = Math.max(prec - point, 0);
    const int = point > 0 ? digits.slice(0, point).padEnd(point, "0") : "0";
    let frac = "";
    for (let i = 0; i < fracLen; i++) {
      const j = point + i;
      frac += j >= 0 && j < digits.length ? digits[j] : "0";
    }
    out = fracLen > 0 ? `${int}.${frac}` : int;
  }
  return negative ? `-${out}` : out;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * A string as Go's `%q` (strconv.Quote) writes it: `\"` and `\\`, `\a \b \f \n \r \t \v` by
 * name, other control characters as `\xHH`, characters that are not printable (Go's
 * `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space) as
 * `\uHHHH` or `\UHHHHHHHH`, and lone surrogates (invalid UTF-8) as `\ufffd`'s bytes would be.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    if (r < 0x80) {
      if (r === 0x22) out += '\\"';
      else if (r === 0x5c) out += "\\\\";
      else if (r >= 0x20 && r < 0x7f) out += ch;
      else out += ASCII_ESCAPES[r] ?? `\\x${r.toString(16).padStart(2, "0")}`;
    } else if (r >= 0xd800 && r <= 0xdfff) {
      out += "\\ufffd";
    } else if (PRINTABLE.test(ch)) {
      out += ch;
    } else if (r < 0x10000) {
      out += `\\u${r.toString(16).padStart(4, "0")}`;
    } else {
      out += `\\U${r.toString(16).padStart(8, "0")}`;
    }
  }
  return out + '"';
}

const ASCII_ESCAPES: Record<number, string> = { 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v" };
