/**
 * The text a configuration file's bytes hold, for the native-syntax parsers: UTF-8 decoded,
 * with each byte that is not part of a valid UTF-8 sequence turned into
 * {@link INVALID_ENCODING} (a lone low surrogate, which no valid UTF-8 decodes to), so the
 * lexer reports terraform's "Invalid character encoding" where it stands instead of reading a
 * silent U+FFFD. A leading byte order mark is kept (the lexer skips it, as HCL does).
 */
export function decodeSource(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    // some bytes are not UTF-8: decode the valid runs and mark the rest
  }
  let out = "";
  let runStart = 0;
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const len = sequenceLength(bytes, i);
    if (len > 0) {
      i += len;
      continue;
    }
    if (i > runStart) out += strict.decode(bytes.subarray(runStart, i));
    out += INVALID_ENCODING;
    i++;
    runStart = i;
  }
  if (n > runStart) out += strict.decode(bytes.subarray(runStart, n));
  return out;
}

/** What {@link decodeSource} puts in place of a byte that is not UTF-8. */
export const INVALID_ENCODING = "\udfff";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The length of the valid UTF-8 sequence at `i`, or 0 when the byte there does not start one. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
