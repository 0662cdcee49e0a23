/**
 * Regular expressions with RE2 semantics (Go's `regexp`), over the `re2js` port of RE2:
 * `regex`, `regexall`, and the regex form of `replace`.
 *
 * @internal
 * @packageDocumentation
 */

import { createRequire } from "node:module";
import type { RE2JS } from "re2js";
import type * as Re2jsModule from "re2js";

/** The re2js package, loaded on the first regular expression compiled (most configurations use none; loading it is part of start-up otherwise). */
let re2jsModule: typeof Re2jsModule | undefined;
const re2js = (): typeof Re2jsModule => (re2jsModule ??= createRequire(import.meta.url)("re2js") as typeof Re2jsModule);
import {
  dynamicType,
  dynamicVal,
  listType,
  listVal,
  listValEmpty,
  nullVal,
  objectType,
  objectVal,
  stringType,
  stringVal,
  tupleType,
  tupleVal,
  type Type,
  type Value,
} from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { param } from "./helpers.js";

/** A compiled pattern with its group names (index 1..n; "" for unnamed). */
export interface CompiledRegex {
  readonly re: RE2JS;
  readonly names: readonly string[];
}

/** One match: the whole span and each group's span (-1 when the group did not take part). */
export interface RegexMatch {
  readonly start: number;
  readonly end: number;
  readonly groups: readonly (readonly [number, number])[];
}

/**
 * Compiles an RE2 pattern. `fail` makes the error for a syntax error from Go's message
 * code and expression (`missing closing )`, `(`).
 */
export function compileRegex(pattern: string, fail: (goMessage: string, code: string, expr: string) => Error): CompiledRegex {
  const cached = cache.get(pattern);
  if (cached !== undefined) return cached;
  let re: RE2JS;
  try {
    re = re2js().RE2JS.compile(pattern);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const m = /^error parsing regexp: (.*?): `([\s\S]*)`$/.exec(msg);
    throw fail(msg, m?.[1] ?? msg, m?.[2] ?? pattern);
  }
  const names: string[] = new Array<string>(re.groupCount() + 1).fill("");
  for (const [name, idx] of Object.entries(re.namedGroups())) names[idx] = name;
  const compiled = { re, names };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}

/** Compiled patterns by source, oldest first (configurations repeat the same few). */
const cache = new Map<string, CompiledRegex>();
const CACHE_SIZE = 256;

/** Every non-overlapping match, as Go's `FindAllStringSubmatchIndex(s, -1)` finds them. */
export function findAll(c: CompiledRegex, s: string, limit = Infinity): RegexMatch[] {
  const out: RegexMatch[] = [];
  const m = c.re.matcher(s);
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length && out.length < limit) {
    if (!m.find(pos)) break;
    const start = m.start();
    const end = m.end();
    let accept = true;
    if (end === start) {
      if (start === prevEnd) accept = false;
      const cp = s.codePointAt(start);
      pos = start + (cp === undefined ? 1 : cp > 0xffff ? 2 : 1);
    } else {
      pos = end;
    }
    prevEnd = end;
    if (accept) {
      const groups: [number, number][] = [];
      for (let g = 1; g < c.names.length; g++) {
        const gs = m.start(g);
        groups.push(gs < 0 ? [-1, -1] : [gs, m.end(g)]);
      }
      out.push({ start, end, groups });
    }
  }
  return out;
}

/** Go's `Regexp.Expand` for `ReplaceAllString`: `$1`, `${1}`, `$name`, `${name}`, `$$`. */
export function expandReplacement(c: CompiledRegex, template: string, s: string, m: RegexMatch): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const d = template.indexOf("$", i);
    if (d < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, d);
    i = d + 1;
    if (template[i] === "$") {
      out += "$";
      i++;
      continue;
    }
    let name: string | undefined;
    if (template[i] === "{") {
      const close = template.indexOf("}", i);
      const candidate = close < 0 ? "" : template.slice(i + 1, close);
      if (close >= 0 && /^[A-Za-z0-9_]+$/.test(candidate)) {
        name = candidate;
        i = close + 1;
      }
    } else {
      const mm = /^[A-Za-z0-9_]+/.exec(template.slice(i));
      if (mm !== null) {
        name = mm[0];
        i += name.length;
      }
    }
    if (name === undefined) {
      out += "$";
      continue;
    }
    let idx = -1;
    if (/^\d+$/.test(name)) {
      const n = Number(name);
      if (n < c.names.length && String(n) === name.replace(/^0+(?=\d)/, "")) idx = n;
    } else {
      idx = c.names.indexOf(name);
    }
    if (idx === 0) out += s.slice(m.start, m.end);
    else if (idx > 0) {
      const g = m.groups[idx - 1]!;
      if (g[0] >= 0) out += s.slice(g[0], g[1]);
    }
  }
  return out;
}

function resultType(pattern: string): Type {
  const c = compileRegex(pattern, (_msg, code, expr) => new FunctionArgError(0, `invalid regexp pattern: ${code} in ${expr}`));
  const groups = c.names.slice(1);
  const named = groups.filter((n) => n !== "");
  const unnamed = groups.length - named.length;
  if (groups.length === 0) return stringType;
  if (unnamed > 0 && named.length > 0) throw new FunctionArgError(0, "invalid regexp pattern: cannot mix both named and unnamed capture groups");
  if (unnamed > 0) return tupleType(groups.map(() => stringType));
  return objectType(Object.fromEntries(named.map((n) => [n, stringType])));
}

function matchResult(c: CompiledRegex, s: string, m: RegexMatch, t: Type): Value {
  if (t.kind === "string") return stringVal(s.slice(m.start, m.end));
  const vals = m.groups.map(([a, b]) => (a < 0 ? nullVal(stringType) : stringVal(s.slice(a, b))));
  if (t.kind === "tuple") return tupleVal(vals);
  return objectVal(Object.fromEntries(c.names.slice(1).map((n, i) => [n, vals[i]!])));
}

/** `regex` and `regexall`. */
export function regexFunctions(): Record<string, HclFunction> {
  const params = [param("pattern", stringType), param("string", stringType)];
  return {
    regex: {
      description: "Applies a regular expression to a string and returns the matching substrings.",
      params,
      type: (a) => (a[0]!.isKnown() ? resultType(a[0]!.asString()) : dynamicType),
      impl: (a, t) => {
        if (t.kind === "dynamic") return dynamicVal;
        const c = compileRegex(a[0]!.asString(), (msg) => new FunctionArgError(0, `error parsing pattern: ${msg}`));
        const s = a[1]!.asString();
        const m = findAll(c, s, 1)[0];
        if (m === undefined) throw new FunctionError("pattern did not match any part of the given string");
        return matchResult(c, s, m, t);
      },
    },
    regexall: {
      description: "Applies a regular expression to a string and returns a list of all matches.",
      params,
      type: (a) => listType(a[0]!.isKnown() ? resultType(a[0]!.asString()) : dynamicType),
      impl: (a, t) => {
        const ety = (t as { element: Type }).element;
        if (ety.kind === "dynamic") return dynamicVal;
        const c = compileRegex(a[0]!.asString(), (msg) => new FunctionArgError(0, `error parsing pattern: ${msg}`));
        const s = a[1]!.asString();
        const ms = findAll(c, s);
        if (ms.length === 0) return listValEmpty(ety);
        return listVal(ms.map((m) => matchResult(c, s, m, ety)));
      },
    },
  };
}
