import type { RandomSource } from "./random-source.js";

/** The most bytes `crypto.getRandomValues` fills in one call. */
const MAX_CHUNK = 65536;

function webCrypto(): RandomWebCrypto {
  const c = (globalThis as { crypto?: Partial<RandomWebCrypto> }).crypto;
  if (c === undefined || typeof c.getRandomValues !== "function") {
    throw new Error(
      "no cryptographically secure random number generator: the global crypto.getRandomValues (WebCrypto) is missing",
    );
  }
  return c as RandomWebCrypto;
}

/**
 * `n` bytes from the platform's cryptographically secure generator (WebCrypto's
 * `crypto.getRandomValues`).
 *
 * @throws Error when the platform has no WebCrypto.
 * @internal
 */
export function secureRandomBytes(n: number): Uint8Array {
  const c = webCrypto();
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += MAX_CHUNK)
    c.getRandomValues(out.subarray(at, Math.min(n, at + MAX_CHUNK)));
  return out;
}

/**
 * A random version 4 UUID from the platform (WebCrypto's `crypto.randomUUID`), lowercase.
 *
 * @throws Error when the platform has no WebCrypto.
 * @internal
 */
export function secureRandomUuid(): string {
  const c = webCrypto();
  if (typeof c.randomUUID === "function") return c.randomUUID();
  // Older browsers: build one from 16 random bytes with the version and variant bits set.
  const b = secureRandomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * A {@link RandomSource} backed by the platform's cryptographically secure generator,
 * buffered 256 words at a time.
 *
 * @throws Error (on first use) when the platform has no WebCrypto.
 * @internal
 */
export function createSecureRandom(): RandomSource {
  const buf = new Uint32Array(256);
  let at = buf.length;
  return {
    nextUint32(): number {
      if (at === buf.length) {
        webCrypto().getRandomValues(buf);
        at = 0;
      }
      return buf[at++]!;
    },
  };
}
