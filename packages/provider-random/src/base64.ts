const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Base64 of `bytes` over a 64-character alphabet, with or without `=` padding.
 *
 * @internal
 */
export function base64Encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      alphabet[(n >> 18) & 63]! +
      alphabet[(n >> 12) & 63]! +
      alphabet[(n >> 6) & 63]! +
      alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]! + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out +=
      alphabet[(n >> 18) & 63]! +
      alphabet[(n >> 12) & 63]! +
      alphabet[(n >> 6) & 63]! +
      (pad ? "=" : "");
  }
  return out;
}

/**
 * Decodes unpadded base64 over a 64-character alphabet; leftover bits of a final partial
 * group are ignored (as Go's non-strict decoders do).
 *
 * @throws RangeError naming the offset of the first character outside the alphabet, or when
 * the length leaves a single character in the last group.
 * @internal
 */
export function base64DecodeUnpadded(text: string, alphabet: string): Uint8Array {
  if (text.length % 4 === 1)
    throw new RangeError(
      `illegal base64 data: a length of ${text.length} characters is not possible`,
    );
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const v = alphabet.indexOf(text[i]!);
    if (v < 0) throw new RangeError(`illegal base64 data at input byte ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Standard base64 with `=` padding (Go's `base64.StdEncoding`). @internal */
export function base64Std(bytes: Uint8Array): string {
  return base64Encode(bytes, STD, true);
}

/** URL-safe base64 without padding (Go's `base64.RawURLEncoding`). @internal */
export function base64RawUrl(bytes: Uint8Array): string {
  return base64Encode(bytes, URL, false);
}

/**
 * Decodes URL-safe base64 without padding (Go's `base64.RawURLEncoding.DecodeString`).
 *
 * @throws RangeError for characters outside the URL-safe alphabet (including `=`).
 * @internal
 */
export function base64RawUrlDecode(text: string): Uint8Array {
  return base64DecodeUnpadded(text, URL);
}

/** Lowercase hexadecimal, two digits a byte. @internal */
export function hexEncode(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The bytes read as one big-endian unsigned integer, in decimal ("0" for no bytes). @internal */
export function bigEndianDecimal(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n.toString(10);
}
