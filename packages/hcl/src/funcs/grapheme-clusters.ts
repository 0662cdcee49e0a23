/**
 * Extended grapheme clusters (Unicode UAX #29) in one linear pass: what go-cty counts with
 * go-textseg for `length`, `substr`, `strrev` and `format` widths.
 *
 * `Intl.Segmenter` gives the same clusters but V8's iterator takes time quadratic in the
 * string's length (9 s for 100 KB), so the rules are applied here directly: GB3–GB13 over
 * the Grapheme_Cluster_Break classes derived from the Unicode properties JS regular
 * expressions know (Grapheme_Extend, Extended_Pictographic, Regional_Indicator, general
 * categories) and the Hangul syllable blocks.
 *
 * @internal
 * @packageDocumentation
 */

/** Grapheme_Cluster_Break classes. */
const Gcb = {
  Other: 0,
  CR: 1,
  LF: 2,
  Control: 3,
  Extend: 4,
  ZWJ: 5,
  RegionalIndicator: 6,
  Prepend: 7,
  SpacingMark: 8,
  L: 9,
  V: 10,
  T: 11,
  LV: 12,
  LVT: 13,
} as const;
type Gcb = (typeof Gcb)[keyof typeof Gcb];

const EXTEND = /^[\p{Grapheme_Extend}\p{Emoji_Modifier}\u200C]$/u;
const CONTROL = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]$/u;
// Prepended_Concatenation_Mark (the Prepend class also has a few Indic letters, left out).
const PREPEND = /^[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]$/u;
const SPACING_MARK = /^[\p{Mc}\u0E33\u0EB3]$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

function classOf(cp: number): Gcb {
  if (cp < 0x300) {
    if (cp === 0x0d) return Gcb.CR;
    if (cp === 0x0a) return Gcb.LF;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === 0xad) return Gcb.Control;
    return Gcb.Other;
  }
  if (cp === 0x200d) return Gcb.ZWJ;
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return Gcb.RegionalIndicator;
  if (cp >= 0x1100 && cp <= 0x115f) return Gcb.L;
  if (cp >= 0xa960 && cp <= 0xa97c) return Gcb.L;
  if (cp >= 0x1160 && cp <= 0x11a7) return Gcb.V;
  if (cp >= 0xd7b0 && cp <= 0xd7c6) return Gcb.V;
  if (cp >= 0x11a8 && cp <= 0x11ff) return Gcb.T;
  if (cp >= 0xd7cb && cp <= 0xd7fb) return Gcb.T;
  if (cp >= 0xac00 && cp <= 0xd7a3) return (cp - 0xac00) % 28 === 0 ? Gcb.LV : Gcb.LVT;
  const ch = String.fromCodePoint(cp);
  if (EXTEND.test(ch)) return Gcb.Extend;
  if (PREPEND.test(ch)) return Gcb.Prepend;
  if (CONTROL.test(ch)) return Gcb.Control;
  if (SPACING_MARK.test(ch)) return Gcb.SpacingMark;
  return Gcb.Other;
}

// Class and Extended_Pictographic of code points from U+0300 up, packed (class | 32 when
// pictographic) and cached: configurations use few distinct characters.
const PICT = 32;
const packed = new Map<number, number>();
function packedOf(cp: number): number {
  if (cp < 0x300) return classOf(cp) | (cp === 0xa9 || cp === 0xae ? PICT : 0);
  let c = packed.get(cp);
  if (c === undefined) {
    c = classOf(cp) | (PICTOGRAPHIC.test(String.fromCodePoint(cp)) ? PICT : 0);
    if (packed.size < 65536) packed.set(cp, c);
  }
  return c;
}

/** Whether there is a cluster boundary between a code point of class `prev` and one of class `next`. */
function breaks(prev: Gcb, next: Gcb, riCount: number, emojiZwj: boolean): boolean {
  if (prev === Gcb.CR && next === Gcb.LF) return false; // GB3
  if (prev === Gcb.Control || prev === Gcb.CR || prev === Gcb.LF) return true; // GB4
  if (next === Gcb.Control || next === Gcb.CR || next === Gcb.LF) return true; // GB5
  if (prev === Gcb.L && (next === Gcb.L || next === Gcb.V || next === Gcb.LV || next === Gcb.LVT)) return false; // GB6
  if ((prev === Gcb.LV || prev === Gcb.V) && (next === Gcb.V || next === Gcb.T)) return false; // GB7
  if ((prev === Gcb.LVT || prev === Gcb.T) && next === Gcb.T) return false; // GB8
  if (next === Gcb.Extend || next === Gcb.ZWJ) return false; // GB9
  if (next === Gcb.SpacingMark) return false; // GB9a
  if (prev === Gcb.Prepend) return false; // GB9b
  if (prev === Gcb.ZWJ && emojiZwj) return false; // GB11
  if (prev === Gcb.RegionalIndicator && next === Gcb.RegionalIndicator) return riCount % 2 === 0; // GB12, GB13
  return true; // GB999
}

/**
 * Calls `onBoundary(i)` at each UTF-16 index where a cluster starts, after the first (so
 * `s` has one more cluster than calls, unless it is empty). Linear in the length of `s`.
 */
function eachBoundary(s: string, onBoundary: (i: number) => void): void {
  let prev = -1;
  // GB11: 1 after `ExtPict Extend*`, 2 after `ExtPict Extend* ZWJ`; GB12/13: the number of
  // regional indicators in the run that ends at the previous code point.
  let emoji = 0;
  let riCount = 0;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    let cls: Gcb;
    let pict: boolean;
    if (cp >= 0x20 && cp < 0x7f) {
      cls = Gcb.Other;
      pict = false;
    } else {
      const p = packedOf(cp);
      cls = (p & 31) as Gcb;
      pict = (p & PICT) !== 0;
    }
    if (prev >= 0 && (prev === Gcb.Other && cls === Gcb.Other ? true : breaks(prev as Gcb, cls, riCount, emoji === 2 && pict))) onBoundary(i);
    emoji = pict ? 1 : cls === Gcb.Extend && emoji === 1 ? 1 : cls === Gcb.ZWJ && emoji === 1 ? 2 : 0;
    riCount = cls === Gcb.RegionalIndicator ? riCount + 1 : 0;
    prev = cls;
    i += cp > 0xffff ? 2 : 1;
  }
}

/** The extended grapheme clusters of `s`, in order. Linear in the length of `s`. */
export function graphemeClusters(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  eachBoundary(s, (i) => {
    out.push(s.slice(start, i));
    start = i;
  });
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/** The number of extended grapheme clusters of `s` (`graphemeClusters(s).length`, without building them). */
export function graphemeCount(s: string): number {
  if (s === "") return 0;
  let n = 1;
  eachBoundary(s, () => n++);
  return n;
}

/**
 * The UTF-16 indexes where the clusters of `s` start, then `s.length`: cluster `k` is
 * `s.slice(b[k], b[k + 1])`, and there are `b.length - 1` of them.
 */
export function graphemeBoundaries(s: string): number[] {
  const b = [0];
  if (s === "") return b;
  eachBoundary(s, (i) => b.push(i));
  b.push(s.length);
  return b;
}
