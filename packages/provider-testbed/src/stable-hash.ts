import { utf8Bytes } from "./utf8.js";
const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;

/**
 * The 64-bit FNV-1a hash of a text's UTF-8 bytes, as 16 lowercase hex digits: the one source
 * of every id and computed value the testbed provider makes, so that they are a pure function
 * of their inputs (and the same in every process, on every machine).
 */
export function stableHash(text: string): string {
  let h = OFFSET;
  for (const b of utf8Bytes(text)) {
    h ^= BigInt(b);
    h = (h * PRIME) & MASK;
  }
  return h.toString(16).padStart(16, "0");
}
