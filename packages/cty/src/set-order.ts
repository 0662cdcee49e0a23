// go-cty's set order: de-duplication by exact key, and the order of set elements.
import { compareUtf8 } from "./internal/compare-utf8.js";
import { goFloatString, goQuote } from "./internal/go-format.js";
import { NULL, UNKNOWN } from "./internal/value-state.js";
import type { CtyNumber } from "./number.js";
import type { Type } from "./type.js";
import type { Value } from "./value.js";

/**
 * Orders and de-duplicates set elements as go-cty does. For codecs in this package only.
 * @internal
 */
export function normaliseSetElements(elementType: Type, elements: Value[]): readonly Value[] {
  if (elements.length <= 1) return Object.freeze(elements);
  const out: Value[] = [];
  const seen = new Set<string>();
  for (const e of elements) {
    if (!e.isWhollyKnown()) {
      out.push(e); // unknowns are never equal to anything, so never merged
      continue;
    }
    const key = exactKey(e);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  out.sort((a, b) => compareSetElements(elementType, a, b));
  return Object.freeze(out);
}

/** An exact, type-independent key for de-duplicating wholly known set elements. @internal */
export function exactKey(v: Value): string {
  if (v._s === NULL) return "~";
  const p = v._v;
  switch (v.type.kind) {
    case "string":
      return JSON.stringify(p);
    case "number": {
      // Exact and independent of how the number prints (a float64-origin number prints
      // shortest): every value that is exactly a float64 is held as one.
      // Negative zero is an element of its own, as go-cty hashes it apart ("-0").
      const n = p as CtyNumber;
      return n._c === undefined ? (n.isNegativeZero() ? "n-0" : `n${n._f}`) : `d${n._c}e${n._e}`;
    }
    case "bool":
      return p ? "T" : "F";
    case "map": {
      let s = "{";
      for (const [k, e] of p as ReadonlyMap<string, Value>)
        s += `${JSON.stringify(k)}:${exactKey(e)};`;
      return s + "}";
    }
    case "object":
      return `<${(p as Value[]).map(exactKey).join(";")}>`;
    default:
      return `[${(p as Value[]).map(exactKey).join(";")}]`;
  }
}

/**
 * go-cty's set order: known non-null values first, then unknowns, then nulls; strings by UTF-8 bytes,
 * numbers numerically, false before true; other types by the bytes of go-cty's set hash string
 * (`<1e+20;>` for an object with a number, `"\u00a0"` for a string: Go's `big.Float.String()`
 * and `%q`), elements with equal hash strings in the order given.
 */
function compareSetElements(t: Type, a: Value, b: Value): number {
  // go-cty's order: non-null known values, then unknowns, then nulls last.
  const an = a._s === NULL;
  const bn = b._s === NULL;
  if (an !== bn) return an ? 1 : -1;
  if (an) return 0;
  const ak = a._s !== UNKNOWN;
  const bk = b._s !== UNKNOWN;
  if (ak !== bk) return ak ? -1 : 1;
  if (!ak) return 0;
  switch (t.kind) {
    case "string":
      return compareUtf8(a._v as string, b._v as string);
    case "number": {
      const x = a._v as CtyNumber;
      const y = b._v as CtyNumber;
      const c = x.compare(y);
      // -0 and 0 are equal but two elements: go-cty keeps them in its hash buckets' order, and
      // the bucket of "-0" (CRC-32 1193965756) comes before that of "0" (4108050209).
      if (c === 0 && x.isNegativeZero() !== y.isNegativeZero()) return x.isNegativeZero() ? -1 : 1;
      return c;
    }
    case "bool":
      return a._v === b._v ? 0 : a._v ? 1 : -1;
    default:
      return compareUtf8(hashString(a), hashString(b));
  }
}

/** go-cty's set hash string (`appendSetHashBytes`), which orders elements that are not primitive. */
function hashString(v: Value): string {
  if (v._s === UNKNOWN) return "?";
  if (v._s === NULL) return "~";
  const p = v._v;
  switch (v.type.kind) {
    case "string":
      return goQuote(p as string);
    case "number":
      return goFloatString(p as CtyNumber);
    case "bool":
      return p ? "T" : "F";
    case "map": {
      let s = "{";
      for (const [k, e] of p as ReadonlyMap<string, Value>)
        s += `${goQuote(k)}:${hashString(e)};`;
      return s + "}";
    }
    case "object":
      return `<${(p as Value[]).map((e) => hashString(e) + ";").join("")}>`;
    default:
      return `[${(p as Value[]).map((e) => hashString(e) + ";").join("")}]`;
  }
}
