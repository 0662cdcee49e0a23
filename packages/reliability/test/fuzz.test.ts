// Item 3 — bad input, at CI scale: the same properties as scripts/fuzz.mjs (which runs
// 100,000 cases each) at MAGMA_FUZZ_RUNS cases (default 2,000): only typed errors, no case
// slower than 5 s, and the resident set bounded (a declared 2 GiB length allocates nothing).
import fc from "fast-check";
import { fromMsgpack, isPathError, listType, stringType } from "@magma/cty";
import { emptyStats, fuzzTargets } from "../src/fuzz-targets.js";

const RUNS = Number(process.env["MAGMA_FUZZ_RUNS"] ?? 2000);
const RSS_LIMIT = 1024 * 1024 * 1024;

describe.each(fuzzTargets.map((t) => [t.name, t] as const))("fuzz %s", (_name, target) => {
  test(`${RUNS} cases: only typed errors, each case within 5 s, RSS under 1 GiB`, () => {
    const stats = emptyStats();
    fc.assert(target.property({ maxCaseMs: 5000 }, stats), { numRuns: RUNS });
    expect(stats.runs).toBeGreaterThanOrEqual(RUNS);
    expect(stats.typedErrors).toBeGreaterThan(0);
    expect(Math.max(stats.peakRssBytes, process.memoryUsage.rss())).toBeLessThan(RSS_LIMIT);
  }, 300_000);
});

test("a msgpack array declaring 2^31 elements, or a string of 2 GiB, fails at once without allocating them", () => {
  const before = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
  for (const bytes of [
    [0xdd, 0x7f, 0xff, 0xff, 0xff, 0xa1, 0x61],
    [0xdb, 0x7f, 0xff, 0xff, 0xff, 0x61],
    [0xc6, 0xff, 0xff, 0xff, 0xff],
  ]) {
    let error: unknown;
    try {
      fromMsgpack(Uint8Array.from(bytes), bytes[0] === 0xdd ? listType(stringType) : stringType);
    } catch (e) {
      error = e;
    }
    expect(isPathError(error)).toBe(true);
    expect((error as Error).message).toMatch(/declared/);
  }
  const after = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
  expect(after - before).toBeLessThan(64 * 1024 * 1024);
});
