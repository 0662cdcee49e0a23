import { graphemeClusters } from "./funcs/grapheme-clusters.js";

/**
 * go-cty's `ctystrings.SafeKnownPrefix`: the part of a string's known beginning that stays
 * a prefix whatever follows it. The text is NFC-normalized, then its last grapheme cluster
 * is dropped (a following combining mark could change it) unless that cluster is one of the
 * delimiters go-cty knows cannot combine with anything (`-`, `/`, `:`, `{`, space, …).
 */
export function safeKnownPrefix(text: string): string {
  const s = text.normalize("NFC");
  if (s === "") return s;
  // The last grapheme cluster starts at or after the last code point that is not a
  // combining/extending one; segmenting a short tail is enough (and keeps this linear).
  const tail = s.slice(Math.max(0, s.length - 64));
  const clusters = graphemeClusters(tail);
  const last = clusters[clusters.length - 1] ?? "";
  if ([...last].length === 1 && DELIMITERS.has(last)) return s;
  return s.slice(0, s.length - last.length);
}

const DELIMITERS = new Set([..."-_:;/\\,.(){}[]|?!~ \t@#$%^&*+\"'"]);
