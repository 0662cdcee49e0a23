/**
 * `format` and `formatlist`: go-cty's `stdlib/format.go` with its printf-like verbs, and
 * Go's `fmt` formatting of `big.Int` and `big.Float` that go-cty leans on for numbers.
 *
 * @internal
 * @packageDocumentation
 */

import {
  boolType,
  convert,
  dynamicType,
  listType,
  listVal,
  listValEmpty,
  numberType,
  stringType,
  stringVal,
  toJson,
  unknownVal,
  type CtyNumber,
  type Value,
} from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { graphemeCount } from "./grapheme-clusters.js";
import { fixedFunction, graphemes, notNull, param, toDecimal } from "./helpers.js";

interface Verb {
  raw: string;
  offset: number;
  argNum: number;
  mode: string;
  zero: boolean;
  sharp: boolean;
  plus: boolean;
  minus: boolean;
  space: boolean;
  width: number; // -1 when absent
  prec: number; // -1 when absent
}

class FormatFailure extends Error {}

/** Formats `args` by `fmt`; returns the text and the highest argument number used. */
function formatString(fmt: string, args: readonly Value[]): { text: string; used: number } {
  let out = "";
  let nextArg = 1;
  let used = 0;
  let p = 0;
  const n = fmt.length;
  while (p < n) {
    const c = fmt[p]!;
    if (c !== "%") {
      out += c;
      p++;
      continue;
    }
    if (fmt[p + 1] === "%") {
      out += "%";
      p += 2;
      continue;
    }
    const start = p;
    const verb: Verb = { raw: "", offset: start, argNum: nextArg, mode: "", zero: false, sharp: false, plus: false, minus: false, space: false, width: -1, prec: -1 };
    p++;
    for (; p < n; p++) {
      const f = fmt[p];
      if (f === "0") verb.zero = true;
      else if (f === "#") verb.sharp = true;
      else if (f === "-") verb.minus = true;
      else if (f === "+") verb.plus = true;
      else if (f === " ") verb.space = true;
      else break;
    }
    if (fmt[p] === "[") {
      p++;
      if (!/[1-9]/.test(fmt[p] ?? "")) throw badChar(fmt, p);
      let num = 0;
      while (p < n && /[0-9]/.test(fmt[p]!)) num = num * 10 + Number(fmt[p++]);
      if (fmt[p] !== "]") throw badChar(fmt, p);
      p++;
      verb.argNum = num;
    }
    if (/[1-9]/.test(fmt[p] ?? "")) {
      let w = 0;
      while (p < n && /[0-9]/.test(fmt[p]!)) w = w * 10 + Number(fmt[p++]);
      verb.width = w;
    }
    if (fmt[p] === ".") {
      p++;
      let pr = 0;
      while (p < n && /[0-9]/.test(fmt[p]!)) pr = pr * 10 + Number(fmt[p++]);
      verb.prec = pr;
    }
    if (p >= n) throw new FormatFailure(`invalid format string starting at offset ${p}`);
    const m = fmt[p]!;
    if (!/[a-zA-Z]/.test(m)) throw badChar(fmt, p);
    verb.mode = m;
    p++;
    verb.raw = fmt.slice(start, p);
    out += formatVerb(verb, args);
    used = Math.max(used, verb.argNum);
    nextArg = verb.argNum + 1;
  }
  return { text: out, used };
}

function badChar(fmt: string, p: number): FormatFailure {
  if (p >= fmt.length) return new FormatFailure(`invalid format string starting at offset ${p}`);
  return new FormatFailure(`unrecognized format character ${goRuneQuote(fmt[p]!)} at offset ${p}`);
}

function goRuneQuote(c: string): string {
  if (c === "'") return "'\\''";
  if (c === "\\") return "'\\\\'";
  if (c === "\n") return "'\\n'";
  if (c === "\t") return "'\\t'";
  return `'${c}'`;
}

function formatVerb(verb: Verb, args: readonly Value[]): string {
  const idx = verb.argNum - 1;
  if (idx >= args.length) {
    throw new FormatFailure(`not enough arguments for ${JSON.stringify(verb.raw)} at ${verb.offset}: need index ${verb.argNum} but have ${args.length} total`);
  }
  const arg = args[idx]!;
  if (verb.mode !== "v" && arg.isNull()) {
    throw new FormatFailure(`unsupported value for ${JSON.stringify(verb.raw)} at ${verb.offset}: null value cannot be formatted`);
  }
  const fail = (e: unknown) =>
    new FormatFailure(`unsupported value for ${JSON.stringify(verb.raw)} at ${verb.offset}: ${(e as { reason?: string }).reason ?? (e as Error).message}`);
  switch (verb.mode) {
    case "v": {
      if (!verb.sharp && !arg.isNull()) {
        if (arg.type.kind === "string") return padWidth(verb, arg.asString());
        if (arg.type.kind === "number") return padWidth(verb, formatFloat(arg.asNumber(), "g", -1, "", -1, false));
      }
      return padWidth(verb, arg.isNull() ? "null" : toJson(arg, arg.type));
    }
    case "t": {
      let b: Value;
      try {
        b = convert(arg, boolType);
      } catch (e) {
        throw fail(e);
      }
      return b.asBool() ? "true" : "false";
    }
    case "b":
    case "d":
    case "o":
    case "x":
    case "X":
    case "e":
    case "E":
    case "f":
    case "g":
    case "G": {
      let nv: Value;
      try {
        nv = convert(arg, numberType);
      } catch (e) {
        throw fail(e);
      }
      const num = nv.asNumber();
      if ("bdoxX".includes(verb.mode)) {
        if (!num.isInteger()) throw new FormatFailure(`unsupported value for ${JSON.stringify(verb.raw)} at ${verb.offset}: an integer is required`);
        return formatInteger(num.toBigInt(), verb);
      }
      const flags = (verb.plus ? "+" : "") + (verb.space ? " " : "") + (verb.zero ? "0" : "") + (verb.minus ? "-" : "");
      return formatFloat(num, verb.mode, verb.prec, flags, verb.width, true);
    }
    case "s":
    case "q": {
      let sv: Value;
      try {
        sv = convert(arg, stringType);
      } catch (e) {
        throw fail(e);
      }
      let s = sv.asString();
      if (verb.prec > 0) s = graphemes(s).slice(0, verb.prec).join("");
      if (verb.mode === "s") return padWidth(verb, s);
      return padWidth(verb, toJson(stringVal(s), stringType));
    }
    default:
      throw new FormatFailure(`unsupported format verb ${goRuneQuote(verb.mode)} in ${JSON.stringify(verb.raw)} at offset ${verb.offset}`);
  }
}

function padWidth(verb: Verb, s: string): string {
  if (verb.width < 0) return s;
  const len = graphemeCount(s);
  if (len >= verb.width) return s;
  const pad = (verb.zero ? "0" : " ").repeat(verb.width - len);
  return verb.minus ? s + pad : pad + s;
}

/** Go's `big.Int` formatting by `fmt` (`%d`, `%x`, `%#o`, `%08b`, …). */
function formatInteger(x: bigint, verb: Verb): string {
  const base = verb.mode === "b" ? 2 : verb.mode === "o" ? 8 : verb.mode === "d" ? 10 : 16;
  const neg = x < 0n;
  const sign = neg ? "-" : verb.plus ? "+" : verb.space ? " " : "";
  let prefix = "";
  if (verb.sharp) prefix = verb.mode === "b" ? "0b" : verb.mode === "o" ? "0" : verb.mode === "x" ? "0x" : verb.mode === "X" ? "0X" : "";
  let digits = (neg ? -x : x).toString(base);
  if (verb.mode === "X") digits = digits.toUpperCase();
  let zeros = 0;
  let left = 0;
  let right = 0;
  if (verb.prec >= 0) {
    if (digits.length < verb.prec) zeros = verb.prec - digits.length;
    else if (digits === "0" && verb.prec === 0) return "";
  }
  const length = sign.length + prefix.length + zeros + digits.length;
  if (verb.width >= 0 && length < verb.width) {
    const d = verb.width - length;
    if (verb.minus) right = d;
    else if (verb.zero && verb.prec < 0) zeros = d;
    else left = d;
  }
  return " ".repeat(left) + sign + prefix + "0".repeat(zeros) + digits + " ".repeat(right);
}

/** A decimal `0.mant × 10^exp` (mant without leading or trailing zeros; empty for zero). */
interface Dec {
  mant: string;
  exp: number;
}

function toDec(n: CtyNumber): { neg: boolean; d: Dec } {
  const { c, e } = toDecimal(n);
  const neg = c < 0n;
  let digits = (neg ? -c : c).toString();
  if (digits === "0") return { neg: false, d: { mant: "", exp: 0 } };
  let exp = digits.length + e;
  digits = digits.replace(/0+$/, "");
  const lead = digits.length - digits.replace(/^0+/, "").length;
  digits = digits.slice(lead);
  exp -= lead;
  return { neg, d: { mant: digits, exp } };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * Whether go-cty's 512-bit binary float nearest to `|n|` is above (1), below (-1) or equal
 * to (0) the exact decimal: it decides exact decimal ties, such as `%.1f` of 0.35 (the
 * float is a little below 0.35, so Go prints 0.3).
 */
function float512Direction(n: CtyNumber): number {
  if (n.isInfinite()) return 0;
  const { c, e } = toDecimal(n);
  if (e >= 0 || c === 0n) return 0;
  const a = c < 0n ? -c : c;
  const den = 10n ** BigInt(-e);
  let s = 512 - (bitLength(a) - bitLength(den));
  const quotient = (sh: number): [bigint, bigint, bigint] => {
    const num = sh >= 0 ? a << BigInt(sh) : a;
    const d = sh >= 0 ? den : den << BigInt(-sh);
    return [num / d, num % d, d];
  };
  let [q, r, d] = quotient(s);
  while (bitLength(q) > 512) [q, r, d] = quotient(--s);
  while (bitLength(q) < 512) [q, r, d] = quotient(++s);
  if (r === 0n) return 0;
  const twice = 2n * r;
  return twice > d || (twice === d && (q & 1n) === 1n) ? 1 : -1;
}

function roundDec(d: Dec, n: number, tieDirection: () => number = () => 0): void {
  if (n < 0 || n >= d.mant.length) return;
  const m = d.mant;
  let up: boolean;
  if (m[n] === "5" && n + 1 === m.length) {
    const dir = tieDirection();
    up = dir !== 0 ? dir > 0 : n > 0 && (Number(m[n - 1]) & 1) !== 0;
  } else up = m[n]! >= "5";
  if (up) {
    let i = n - 1;
    const ds = m.slice(0, n).split("");
    while (i >= 0 && ds[i] === "9") i--;
    if (i < 0) {
      d.mant = "1";
      d.exp += 1;
    } else {
      ds[i] = String(Number(ds[i]) + 1);
      d.mant = ds.slice(0, i + 1).join("");
    }
  } else {
    d.mant = m.slice(0, n).replace(/0+$/, "");
  }
  if (d.mant === "") d.exp = 0;
}

function digitAt(d: Dec, i: number): string {
  return i >= 0 && i < d.mant.length ? d.mant[i]! : "0";
}

function fmtE(d: Dec, prec: number, e: string): string {
  let out = d.mant.length > 0 ? d.mant[0]! : "0";
  if (prec > 0) {
    out += ".";
    for (let i = 1; i <= prec; i++) out += digitAt(d, i);
  }
  let exp = d.mant.length > 0 ? d.exp - 1 : 0;
  const sign = exp < 0 ? "-" : "+";
  exp = Math.abs(exp);
  return `${out}${e}${sign}${exp < 10 ? "0" : ""}${exp}`;
}

function fmtF(d: Dec, prec: number): string {
  let out = "";
  if (d.exp > 0) {
    for (let i = 0; i < d.exp; i++) out += digitAt(d, i);
  } else out = "0";
  if (prec > 0) {
    out += ".";
    for (let i = 0; i < prec; i++) out += digitAt(d, d.exp + i);
  }
  return out;
}

/**
 * Go's `big.Float` formatting (`Text`, or `Format` through `fmt` when `viaFmt`): verbs e, E,
 * f, g, G; `prec` -1 for the default (6 for e and f, shortest for g).
 */
export function formatFloat(n: CtyNumber, verb: string, prec: number, flags: string, width: number, viaFmt: boolean): string {
  let body: string;
  let neg = false;
  if (n.isInfinite()) {
    neg = n.sign() < 0;
    body = "Inf";
    if (!neg && !viaFmt) body = "+Inf";
  } else {
    const r = toDec(n);
    neg = r.neg;
    const d = r.d;
    let p = prec;
    const shortest = p < 0 && (verb === "g" || verb === "G" || !viaFmt);
    if (p < 0 && !shortest) p = 6;
    if (shortest) {
      p = verb === "e" || verb === "E" ? d.mant.length - 1 : verb === "f" ? Math.max(d.mant.length - d.exp, 0) : d.mant.length;
    } else {
      const tie = () => (n.isFloat64() ? 0 : float512Direction(n));
      if (verb === "e" || verb === "E") roundDec(d, 1 + p, tie);
      else if (verb === "f") roundDec(d, d.exp + p, tie);
      else {
        if (p === 0) p = 1;
        roundDec(d, p, tie);
      }
    }
    if (verb === "e" || verb === "E") body = fmtE(d, p, verb);
    else if (verb === "f") body = fmtF(d, p);
    else {
      let eprec = p;
      if (eprec > d.mant.length && d.mant.length >= d.exp) eprec = d.mant.length;
      if (shortest) eprec = 6;
      const exp = d.exp - 1;
      if (exp < -4 || exp >= eprec) {
        if (p > d.mant.length) p = d.mant.length;
        body = fmtE(d, p - 1, verb === "g" ? "e" : "E");
      } else {
        if (p > d.exp) p = d.mant.length;
        body = fmtF(d, Math.max(p - d.exp, 0));
      }
    }
  }
  if (!viaFmt) return (neg ? "-" : "") + body;
  let sign = "";
  if (neg) sign = "-";
  else if (n.isInfinite()) sign = flags.includes(" ") && !flags.includes("+") ? " " : "+";
  else if (flags.includes("+")) sign = "+";
  else if (flags.includes(" ")) sign = " ";
  const padding = width > sign.length + body.length ? width - sign.length - body.length : 0;
  if (flags.includes("0") && !n.isInfinite() && !flags.includes("-")) return sign + "0".repeat(padding) + body;
  if (flags.includes("-")) return sign + body + " ".repeat(padding);
  return " ".repeat(padding) + sign + body;
}

function runFormat(fmt: string, args: readonly Value[], argBase: number): string {
  let r: { text: string; used: number };
  try {
    r = formatString(fmt, args);
  } catch (e) {
    if (e instanceof FormatFailure) throw new FunctionError(e.message);
    throw e;
  }
  if (r.used < args.length) {
    throw new FunctionArgError(argBase + r.used, `too many arguments; ${r.used === 0 ? "no verbs in format string" : `only ${r.used} used by format string`}`);
  }
  return r.text;
}

/** `format` and `formatlist`, by name. */
export function formatFunctions(): Record<string, HclFunction> {
  return {
    format: fixedFunction({
      description: "Constructs a string by applying formatting verbs to a series of arguments, using a similar syntax to the C function \"printf\".",
      params: [param("format", stringType)],
      varParam: param("args", dynamicType, { allowNull: true }),
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        for (const v of a.slice(1)) if (!v.isWhollyKnown()) return unknownVal(stringType, { notNull: true });
        return stringVal(runFormat(a[0]!.asString(), a.slice(1), 1));
      },
    }),
    formatlist: fixedFunction({
      description: "Constructs a list of strings by applying formatting verbs to a series of arguments, using a similar syntax to the C function \"printf\".",
      params: [param("format", stringType)],
      varParam: param("args", dynamicType, { allowNull: true, allowUnknown: true }),
      returns: listType(stringType),
      refineResult: notNull,
      impl: (a) => {
        const fmt = a[0]!.asString();
        const args = a.slice(1);
        if (args.length === 0) return listVal([stringVal(runFormat(fmt, [], 1))]);
        let iterLen = -1;
        let chooser = -1;
        const iters: (readonly Value[] | undefined)[] = [];
        for (let i = 0; i < args.length; i++) {
          const v = args[i]!;
          const k = v.type.kind;
          if ((k === "list" || k === "set" || k === "tuple") && !v.isNull()) {
            if (!v.isKnown()) {
              if (k !== "tuple") return unknownVal(listType(stringType), { notNull: true });
            }
            const len = k === "tuple" ? (v.type as { elements: readonly unknown[] }).elements.length : v.length();
            if (iterLen === -1) {
              iterLen = len;
              chooser = i;
            } else if (len !== iterLen) {
              throw new FunctionArgError(i + 1, `argument ${i + 1} has length ${len}, which is inconsistent with argument ${chooser + 1} of length ${iterLen}`);
            }
            if (!v.isKnown()) return unknownVal(listType(stringType), { notNull: true });
            iters.push(v.elements());
          } else iters.push(undefined);
        }
        if (iterLen === 0) return listValEmpty(stringType);
        if (iterLen === -1) iterLen = 1;
        const out: Value[] = [];
        for (let it = 0; it < iterLen; it++) {
          const callArgs = args.map((v, i) => iters[i]?.[it] ?? v);
          if (callArgs.some((v) => !v.isWhollyKnown())) {
            out.push(unknownVal(stringType));
            continue;
          }
          try {
            out.push(stringVal(runFormat(fmt, callArgs, 1)));
          } catch (e) {
            throw new FunctionError(`error on format iteration ${it}: ${(e as Error).message}`);
          }
        }
        return listVal(out);
      },
    }),
  };
}
