// Base64 by the platform's btoa/atob (globals in Node 16+, browsers, Deno, Bun and workers),
// reached through globalThis because the package builds with `types: []`. Only the URL-safe
// alphabet, padding and Go's error messages are handled here.

const { btoa, atob } = globalThis as unknown as {
  btoa(binary: string): string;
  atob(base64: string): string;
};

/** Standard base64 with `=` padding (Go's `base64.StdEncoding`). @internal */
export function base64Std(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  }
  return btoa(binary);
}

/** URL-safe base64 without padding (Go's `base64.RawURLEncoding`). @internal */
export function base64RawUrl(bytes: Uint8Array): string {
  return base64Std(bytes).replace(/=+$/, "").replace(/[+/]/g, (c) => (c === "+" ? "-" : "_"));
}

/**
 * Decodes URL-safe base64 without padding (Go's `base64.RawURLEncoding.DecodeString`);
 * leftover bits of a final partial group are ignored (as Go's non-strict decoders do).
 *
 * @throws RangeError naming the offset of the first character outside the URL-safe alphabet
 * (including `=`), or when the length leaves a single character in the last group.
 * @internal
 */
export function base64RawUrlDecode(text: string): Uint8Array {
  const bad = /[^A-Za-z0-9_-]/.exec(text);
  if (bad !== null) throw new RangeError(`illegal base64 data at input byte ${bad.index}`);
  if (text.length % 4 === 1)
    throw new RangeError(
      `illegal base64 data: a length of ${text.length} characters is not possible`,
    );
  const binary = atob(text.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/")));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Lowercase hexadecimal, two digits a byte. @internal */
export function hexEncode(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The bytes read as one big-endian unsigned integer, in decimal ("0" for no bytes). @internal */
export function bigEndianDecimal(bytes: Uint8Array): string {
  return bytes.length === 0 ? "0" : BigInt(`0x${hexEncode(bytes)}`).toString(10);
}
