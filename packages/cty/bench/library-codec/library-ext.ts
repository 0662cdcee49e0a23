// The ExtensionCodec shared by the @msgpack/msgpack-backed codec: cty unknowns travel as
// msgpack extensions (ext 0 with a one-byte payload for a plain unknown, ext 12 carrying a
// msgpack map of refinements), see protocol.md D3.

import { ExtData, ExtensionCodec } from "@msgpack/msgpack";

/** A plain unknown on its way into the encoder: written as `d4 00 00`. @internal */
export const UNKNOWN_MARK: unique symbol = Symbol("cty.unknown");

/** A refined unknown on its way into the encoder: its ext-12 payload, already encoded. @internal */
export class RefinedPayload {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

/** Any extension read by the decoder: its code and payload. @internal */
export class ReadExt {
  readonly code: number;
  readonly data: Uint8Array;
  constructor(code: number, data: Uint8Array) {
    this.code = code;
    this.data = data;
  }
}

const PLAIN_PAYLOAD = new Uint8Array([0]);

/**
 * Extension codec: encodes {@link UNKNOWN_MARK} as ext 0 and {@link RefinedPayload} as ext 12;
 * decodes every extension code (including the timestamp code -1, which would otherwise become
 * a Date) as a {@link ReadExt}, since go-cty reads any extension as an unknown.
 * @internal
 */
export const ctyExtensionCodec = new ExtensionCodec();
ctyExtensionCodec.register({
  type: 0,
  encode: (input) => (input === UNKNOWN_MARK ? PLAIN_PAYLOAD : null),
  decode: (data) => new ReadExt(0, data),
});
ctyExtensionCodec.register({
  type: 12,
  encode: (input) => (input instanceof RefinedPayload ? input.bytes : null),
  decode: (data) => new ReadExt(12, data),
});
// The timestamp extension: read as an unknown like any other code, never written.
ctyExtensionCodec.register({ type: -1, encode: () => null, decode: (data) => new ReadExt(-1, data) });

/** An extension as the decoder hands it over: ours, or an ExtData for an unregistered code. @internal */
export function asExt(x: unknown): ReadExt | undefined {
  if (x instanceof ReadExt) return x;
  if (x instanceof ExtData) return new ReadExt(x.type, x.data as Uint8Array);
  return undefined;
}
