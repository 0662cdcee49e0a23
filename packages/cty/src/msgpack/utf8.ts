// UTF-8 helpers for the msgpack codec. TextEncoder/TextDecoder are reached through
// globalThis with local interfaces, because the package builds with `types: []` (no DOM or
// Node typings) while both exist in every runtime we support.

interface Utf8Encoder {
  encode(s: string): Uint8Array;
  encodeInto(s: string, dest: Uint8Array): { read: number; written: number };
}
interface Utf8Decoder {
  decode(b: Uint8Array): string;
}
const g = globalThis as unknown as {
  TextEncoder: new () => Utf8Encoder;
  TextDecoder: new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => Utf8Decoder;
};

/** @internal */
export const textEncoder: Utf8Encoder = new g.TextEncoder();
// ignoreBOM: a leading U+FEFF is part of the string (TextDecoder would drop it by default).
const fatalDecoder: Utf8Decoder = new g.TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** ASCII strings at most this many bytes long are decoded in JS; others with TextDecoder. */
const JS_DECODE_LIMIT = 64;

/** @internal */
export function utf8Encode(s: string): Uint8Array {
  return textEncoder.encode(s);
}

/**
 * Decodes `len` bytes of strict UTF-8 at `pos`, or returns undefined when they are not valid
 * UTF-8 (overlong forms, surrogates, code points above U+10FFFF, cut sequences): the inputs a
 * fatal TextDecoder rejects. Short ASCII (most names and values) is decoded in JS, which a
 * TextDecoder call costs more than; everything else by TextDecoder.
 * @internal
 */
export function utf8Decode(buf: Uint8Array, pos: number, len: number): string | undefined {
  const end = pos + len;
  if (len <= JS_DECODE_LIMIT) {
    // ASCII fast path.
    let i = pos;
    for (; i < end; i++) if (buf[i]! >= 0x80) break;
    if (i === end) {
      if (len === 0) return "";
      return String.fromCharCode.apply(null, buf.subarray(pos, end) as unknown as number[]);
    }
  }
  try {
    return fatalDecoder.decode(buf.subarray(pos, end));
  } catch {
    return undefined;
  }
}
