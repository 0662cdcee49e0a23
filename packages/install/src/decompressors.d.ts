// Declarations of the two decompression libraries, which ship none.

declare module "bz2" {
  /** Decodes a whole bzip2 stream, its blocks' CRCs checked when `checkCRC`. @throws on bad data. */
  export function decompress(input: Uint8Array, checkCRC?: boolean): Uint8Array;
}

declare module "xz-decompress" {
  /** A web stream of the xz stream `input` decompressed. */
  export class XzReadableStream extends ReadableStream<Uint8Array> {
    constructor(input: ReadableStream<Uint8Array>);
  }
}
