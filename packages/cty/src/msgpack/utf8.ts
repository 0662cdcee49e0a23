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
  TextDecoder: new (label: string, options: { fatal: boolean }) => Utf8Decoder;
};

/** @internal */
export const textEncoder: Utf8Encoder = new g.TextEncoder();
const fatalDecoder: Utf8Decoder = new g.TextDecoder("utf-8", { fatal: true });

/** Strings at most this many bytes long are decoded in JS; longer ones with TextDecoder. */
const JS_DECODE_LIMIT = 64;

/** @internal */
export function utf8Encode(s: string): Uint8Array {
  return textEncoder.encode(s);
}

/**
 * Decodes `len` bytes of strict UTF-8 at `pos`, or returns undefined when they are not valid
 * UTF-8 (overlong forms, surrogates, code points above U+10FFFF, cut sequences), exactly the
 * inputs a fatal TextDecoder rejects. Short strings are decoded in JS (a TextDecoder call costs
 * more than decoding a short name); long ones by TextDecoder.
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
    return decodeSlow(buf, pos, end);
  }
  try {
    return fatalDecoder.decode(buf.subarray(pos, end));
  } catch {
    return undefined;
  }
}

function decodeSlow(buf: Uint8Array, pos: number, end: number): string | undefined {
  const units: number[] = [];
  let i = pos;
  while (i < end) {
    const b0 = buf[i]!;
    if (b0 < 0x80) {
      units.push(b0);
      i++;
      continue;
    }
    let cp: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      if (i + 1 >= end) return undefined;
      const b1 = buf[i + 1]!;
      if ((b1 & 0xc0) !== 0x80) return undefined;
      cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
      i += 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      if (i + 2 >= end) return undefined;
      const b1 = buf[i + 1]!;
      const b2 = buf[i + 2]!;
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80) return undefined;
      if (b0 === 0xe0 && b1 < 0xa0) return undefined; // overlong
      if (b0 === 0xed && b1 >= 0xa0) return undefined; // surrogate
      cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      i += 3;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      if (i + 3 >= end) return undefined;
      const b1 = buf[i + 1]!;
      const b2 = buf[i + 2]!;
      const b3 = buf[i + 3]!;
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return undefined;
      if (b0 === 0xf0 && b1 < 0x90) return undefined; // overlong
      if (b0 === 0xf4 && b1 >= 0x90) return undefined; // above U+10FFFF
      cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
      i += 4;
    } else {
      return undefined;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 | (cp >>> 10), 0xdc00 | (cp & 0x3ff));
    } else {
      units.push(cp);
    }
  }
  return String.fromCharCode.apply(null, units);
}
