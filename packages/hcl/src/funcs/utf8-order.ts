/**
 * Go's string order (by UTF-8 bytes) for JS strings.
 *
 * @internal
 * @packageDocumentation
 */

/**
 * Compares two strings as Go does (byte-wise over UTF-8). JS's `<` compares UTF-16 code
 * units, which differs only for astral characters against U+E000..U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const ca = [...a];
  const cb = [...b];
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    const x = ca[i]!.codePointAt(0)!;
    const y = cb[i]!.codePointAt(0)!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return ca.length - cb.length;
}
