// The global `crypto` object (WebCrypto) exists in every runtime magma supports (Node 20+,
// browsers, Deno, Bun, workers), but this package compiles with `types: []`, so that no
// Node-only API can slip in, and the ES library typings do not declare it. This declares the
// small part of it that @magma/provider-random uses. It is read through `globalThis` (see
// secure-random.ts) rather than declared as a global variable, so that it never clashes with
// the declaration in @types/node when tests compile with Node's types.

/** The part of WebCrypto's `Crypto` that this package uses. */
interface RandomWebCrypto {
  /** Fills the array with cryptographically secure random values (at most 65,536 bytes a call). */
  getRandomValues<T extends Uint8Array | Uint32Array>(array: T): T;
  /** A random (version 4) UUID in lowercase 8-4-4-4-12 form. */
  randomUUID(): string;
}
