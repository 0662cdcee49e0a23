// UTF-8 through the platform's TextEncoder, reached through globalThis with a local interface
// because the package builds with `types: []` (no DOM or Node typings), as provider-random does.

interface Utf8Encoder {
  encode(s: string): Uint8Array;
}
const encoder: Utf8Encoder = new (globalThis as unknown as { TextEncoder: new () => Utf8Encoder }).TextEncoder();

/** The UTF-8 encoding of a string. @internal */
export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}
