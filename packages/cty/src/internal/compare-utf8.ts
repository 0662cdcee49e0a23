/**
 * Compares two strings by their UTF-8 bytes, as Go compares strings (and so as go-cty
 * orders object attributes, map keys and set elements). JS's `<` compares UTF-16 code units,
 * which differs only between astral characters (surrogate pairs) and U+E000..U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (astral characters) sort after every BMP character in UTF-8.
      if (x <= 0xdfff) x += 0x2000;
      else if (x >= 0xe000) x -= 0x800;
      if (y <= 0xdfff) y += 0x2000;
      else if (y >= 0xe000) y -= 0x800;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
