/**
 * Normalises a string to NFC as go-cty does, skipping the work for text that cannot change.
 * @internal
 */
export function normaliseString(s: string): string {
  // Every code unit below U+0300 is unchanged by NFC and cannot combine with a predecessor.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x300) return s.normalize("NFC");
  }
  return s;
}
