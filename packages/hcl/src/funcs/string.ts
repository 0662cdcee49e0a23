/**
 * String functions: go-cty's `stdlib/string.go` and Terraform's `funcs/string.go`.
 *
 * @internal
 * @packageDocumentation
 */

import { boolType, listType, listVal, numberType, stringType, stringVal, boolVal, unknownVal, type Value } from "@magma/cty";
import { FunctionArgError, type HclFunction } from "../function.js";
import { graphemeBoundaries } from "./grapheme-clusters.js";
import { fixedFunction, notNull, param, toGoInt, utf8 } from "./helpers.js";
import { compileRegex, expandReplacement, findAll } from "./regex.js";

const str = (name = "str") => param(name, stringType);

function strFn(description: string, f: (s: string) => string): HclFunction {
  return fixedFunction({ description, params: [str()], returns: stringType, refineResult: notNull, impl: (a) => stringVal(f(a[0]!.asString())) });
}

/** Go's `unicode.ToUpper`/`ToLower`/`ToTitle` per code point: simple one-to-one mappings only. */
function mapRunes(s: string, f: (c: string) => string): string {
  let out = "";
  for (const c of s) {
    const m = f(c);
    out += [...m].length === 1 ? m : c;
  }
  return out;
}

const upper = (s: string) => mapRunes(s, (c) => (c === "ß" ? c : c.toUpperCase()));
const lower = (s: string) => mapRunes(s, (c) => (c === "İ" ? "i" : c.toLowerCase()));
/** Go's `unicode.ToTitle`: title case, which differs from upper case for a few digraphs. */
const TITLE_SPECIAL: Readonly<Record<string, string>> = {
  Ǆ: "ǅ", ǅ: "ǅ", ǆ: "ǅ", Ǉ: "ǈ", ǈ: "ǈ", ǉ: "ǈ", Ǌ: "ǋ", ǋ: "ǋ", ǌ: "ǋ", Ǳ: "ǲ", ǲ: "ǲ", ǳ: "ǲ",
};
const toTitleRune = (c: string) => TITLE_SPECIAL[c] ?? upper(c);

/** Go's `strings.Title`: upper-cases the first letter of every word. */
function title(s: string): string {
  let prev = " ";
  let out = "";
  for (const c of s) {
    out += isTitleSeparator(prev) ? toTitleRune(c) : c;
    prev = c;
  }
  return out;
}

function isTitleSeparator(c: string): boolean {
  const cp = c.codePointAt(0)!;
  if (cp <= 0x7f) {
    if (/[0-9a-zA-Z_]/.test(c)) return false;
    return true;
  }
  if (/[\p{L}\p{Nd}]/u.test(c)) return false;
  return /\s/u.test(c);
}

/** Go's `unicode.IsSpace`. */
function isGoSpace(c: string): boolean {
  return /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(c);
}

function trimSpace(s: string): string {
  const cs = [...s];
  let i = 0;
  let j = cs.length;
  while (i < j && isGoSpace(cs[i]!)) i++;
  while (j > i && isGoSpace(cs[j - 1]!)) j--;
  return cs.slice(i, j).join("");
}

/** go-cty's `substr`: offsets and lengths count grapheme clusters. */
function substr(s: string, offset: number, length: number): string {
  const b = graphemeBoundaries(s);
  const n = b.length - 1;
  if (offset < 0) offset += n;
  else if (length === 0) return "";
  if (offset < 0) offset = 0;
  if (offset >= n) return "";
  const end = length < 0 || offset + length > n ? n : offset + length;
  return s.slice(b[offset], b[end]);
}

/** `s` with its grapheme clusters in reverse order. */
function reverseClusters(s: string): string {
  const b = graphemeBoundaries(s);
  // Code units copied into a buffer, cluster by cluster from the end: no string per cluster.
  const out = new Uint16Array(s.length);
  let w = 0;
  for (let k = b.length - 2; k >= 0; k--) for (let i = b[k]!; i < b[k + 1]!; i++) out[w++] = s.charCodeAt(i);
  let r = "";
  for (let i = 0; i < out.length; i += 8192) r += String.fromCharCode(...out.subarray(i, i + 8192));
  return r;
}

/** Go's `strings.Split`, including the empty separator (split into code points). */
function goSplit(s: string, sep: string): string[] {
  if (sep === "") return [...s];
  return s.split(sep);
}

function intArg(v: Value): number {
  return toGoInt(v.asNumber());
}

/** The string functions, by name. */
export function stringFunctions(): Record<string, HclFunction> {
  return {
    upper: strFn("Converts all cased letters in the given string to uppercase.", upper),
    lower: strFn("Converts all cased letters in the given string to lowercase.", lower),
    title: strFn("Converts the first letter of each word in the given string to uppercase.", title),
    strrev: strFn("Reverses the characters in a string.", reverseClusters),
    chomp: strFn("Removes one or more newline characters from the end of the given string.", (s) => s.replace(/(?:\r\n?|\n)*$/, "")),
    trimspace: strFn("Removes any consecutive space characters from the start and end of the given string.", trimSpace),
    substr: fixedFunction({
      description: "Extracts a substring from the given string.",
      params: [str(), param("offset", numberType), param("length", numberType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(substr(a[0]!.asString(), intArg(a[1]!), intArg(a[2]!))),
    }),
    indent: fixedFunction({
      description: "Adds a given number of spaces after each newline character in the given string.",
      params: [param("spaces", numberType), str()],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const n = intArg(a[0]!);
        return stringVal(a[1]!.asString().replaceAll("\n", "\n" + " ".repeat(Math.max(0, n))));
      },
    }),
    join: fixedFunction({
      description: "Concatenates together the string elements of one or more lists with a given separator.",
      params: [param("separator", stringType)],
      varParam: param("lists", listType(stringType)),
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const sep = a[0]!.asString();
        const lists = a.slice(1);
        if (lists.length === 0) throw new Error("at least one list is required");
        const parts: string[] = [];
        for (let li = 0; li < lists.length; li++) {
          const l = lists[li]!;
          if (!l.isWhollyKnown()) return unknownVal(stringType, { notNull: true });
          l.elements().forEach((e, ei) => {
            if (e.isNull()) throw new FunctionArgError(li + 1, `element ${ei} is null; cannot concatenate null values`);
            parts.push(e.asString());
          });
        }
        return stringVal(parts.join(sep));
      },
    }),
    split: fixedFunction({
      description: "Produces a list by dividing a given string at all occurrences of a given separator.",
      params: [param("separator", stringType), str()],
      returns: listType(stringType),
      refineResult: notNull,
      impl: (a) => listVal(goSplit(a[1]!.asString(), a[0]!.asString()).map(stringVal)),
    }),
    trim: fixedFunction({
      description: "Removes the specified set of characters from the start and end of the given string.",
      params: [str(), param("cutset", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const cut = new Set([...a[1]!.asString()]);
        const cs = [...a[0]!.asString()];
        let i = 0;
        let j = cs.length;
        while (i < j && cut.has(cs[i]!)) i++;
        while (j > i && cut.has(cs[j - 1]!)) j--;
        return stringVal(cs.slice(i, j).join(""));
      },
    }),
    trimprefix: fixedFunction({
      description: "Removes the specified prefix from the start of the given string, if present.",
      params: [str(), param("prefix", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const s = a[0]!.asString();
        const p = a[1]!.asString();
        return stringVal(s.startsWith(p) ? s.slice(p.length) : s);
      },
    }),
    trimsuffix: fixedFunction({
      description: "Removes the specified suffix from the end of the given string.",
      params: [str(), param("suffix", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const s = a[0]!.asString();
        const p = a[1]!.asString();
        return stringVal(p !== "" && s.endsWith(p) ? s.slice(0, s.length - p.length) : s);
      },
    }),
    startswith: fixedFunction({
      description: "Determines if the input string starts with the provided prefix.",
      // Terraform's StartsWithFunc takes an unknown string: its known prefix may decide.
      params: [param("str", stringType, { allowUnknown: true }), param("prefix", stringType)],
      returns: boolType,
      refineResult: notNull,
      impl: (a) => {
        const prefix = a[1]!.asString();
        const s = a[0]!;
        if (!s.isKnown()) {
          if (prefix === "") return boolVal(true);
          const known = s.isNull() ? "" : (s.refinements.stringPrefix ?? "");
          if (known !== "") {
            if (known.startsWith(prefix)) return boolVal(true);
            if (utf8Length(known) >= utf8Length(prefix)) return boolVal(false);
          }
          return unknownVal(boolType, { notNull: true });
        }
        return boolVal(s.asString().startsWith(prefix));
      },
    }),
    endswith: stringTest("Determines if the input string ends with the provided suffix.", "suffix", (s, p) => s.endsWith(p)),
    // Terraform's StrContainsFunc has no RefineResult: its unknown result may be null.
    strcontains: stringTest("Checks if a string contains the given substring.", "substr", (s, p) => s.includes(p), false),
    replace: fixedFunction({
      description: "Replaces each occurrence of a given substring in the given string with another string; a substring wrapped in slashes is a regular expression.",
      params: [str(), param("substr", stringType), param("replace", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const s = a[0]!.asString();
        const sub = a[1]!.asString();
        const rep = a[2]!.asString();
        if (sub.length > 1 && sub.startsWith("/") && sub.endsWith("/")) {
          const re = compileRegex(sub.slice(1, -1), (m) => new Error(m));
          let out = "";
          let last = 0;
          for (const m of findAll(re, s)) {
            out += s.slice(last, m.start) + expandReplacement(re, rep, s, m);
            last = m.end;
          }
          return stringVal(out + s.slice(last));
        }
        return stringVal(sub === "" ? goReplaceEmpty(s, rep) : s.split(sub).join(rep));
      },
    }),
  };
}

/** Go's `strings.Replace(s, "", r, -1)`: `r` before every code point and at the end. */
function goReplaceEmpty(s: string, r: string): string {
  return r + [...s].map((c) => c + r).join("");
}

function stringTest(description: string, name: string, f: (s: string, p: string) => boolean, refined = true): HclFunction {
  return fixedFunction({
    description,
    params: [str(), param(name, stringType)],
    returns: boolType,
    ...(refined ? { refineResult: notNull } : {}),
    impl: (a) => boolVal(f(a[0]!.asString(), a[1]!.asString())),
  });
}

function utf8Length(s: string): number {
  return utf8(s).length;
}
