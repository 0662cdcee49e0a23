// The DEFLATE stream must decode to the input for every kind of data (exact bytes against
// terraform are checked by the base64gzip cases of the corpus).
import { inflateRawSync } from "node:zlib";
import { goDeflateFlushClose } from "./go-deflate.js";

function pseudoRandom(n: number, seed: number, alphabet: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = (x >>> 16) % alphabet;
  }
  return out;
}

describe("goDeflateFlushClose", () => {
  const text = new TextEncoder().encode("the quick brown fox jumps over the lazy dog; ".repeat(5000));
  it.each([
    ["empty", new Uint8Array(0)],
    ["one byte", Uint8Array.of(65)],
    ["text with repeats (beyond the 32 KiB window)", text],
    ["random bytes", pseudoRandom(100_000, 1, 256)],
    ["low-entropy bytes (long matches, window sliding)", pseudoRandom(300_000, 7, 3)],
    ["zeros", new Uint8Array(70_000)],
  ])("round-trips %s", (_name, data) => {
    const out = goDeflateFlushClose(data);
    expect(Buffer.compare(inflateRawSync(out), Buffer.from(data))).toBe(0);
  });

  it("ends with Go's sync-flush and final empty stored blocks", () => {
    const out = goDeflateFlushClose(new TextEncoder().encode("hello"));
    expect(Buffer.from(out).toString("hex")).toBe("ca48cdc9c90700" + "0000ffff" + "010000ffff");
  });
});
