// TextEncoder and TextDecoder exist in every JavaScript runtime magma supports (Node,
// browsers, Deno, Bun, workers), but the ES library typings do not declare them, and this
// package compiles with `types: []` so that no Node-only API can slip in. This declares the
// small part of them that @magma/cty uses.

interface TextDecodeOptions {
  stream?: boolean;
}

interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}

declare class TextEncoder {
  constructor();
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
