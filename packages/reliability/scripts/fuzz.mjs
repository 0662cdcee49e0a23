#!/usr/bin/env node
// The long fuzz run (pnpm fuzz, after the build): every decoder under fuzz — fromMsgpack,
// fromJson, parseHandshakeLine, schemaEntryFromProto — gets MAGMA_FUZZ_RUNS cases (default
// 100,000) of random, mutated and hostile input (2 GiB declared lengths, deep nesting).
// Fails when a case throws anything but the decoder's typed error, takes longer than
// MAGMA_FUZZ_CASE_MS (default 2000 ms), or the resident set grows past MAGMA_FUZZ_RSS_MB
// (default 1024 MB). Prints cases, time, slowest case and peak RSS per decoder.
import fc from "fast-check";
import { emptyStats, fuzzTargets } from "../dist/index.js";

const runs = Number(process.env.MAGMA_FUZZ_RUNS ?? 100_000);
const maxCaseMs = Number(process.env.MAGMA_FUZZ_CASE_MS ?? 2000);
const rssLimit = Number(process.env.MAGMA_FUZZ_RSS_MB ?? 1024) * 1024 * 1024;
const seed = process.env.MAGMA_FUZZ_SEED === undefined ? Date.now() : Number(process.env.MAGMA_FUZZ_SEED);
let failed = false;
console.log(`fuzz: ${runs} cases per decoder, seed ${seed}, case limit ${maxCaseMs} ms, RSS limit ${rssLimit / 1048576} MB`);
for (const target of fuzzTargets) {
  const stats = emptyStats();
  const start = performance.now();
  try {
    fc.assert(target.property({ maxCaseMs }, stats), { numRuns: runs, seed, endOnFailure: true });
  } catch (e) {
    failed = true;
    console.error(`${target.name}: FAILED\n${e instanceof Error ? e.message : String(e)}`);
  }
  stats.peakRssBytes = Math.max(stats.peakRssBytes, process.memoryUsage.rss());
  const secs = (performance.now() - start) / 1000;
  console.log(
    `${target.name.padEnd(22)} ${String(stats.runs).padStart(7)} cases  ${secs.toFixed(1).padStart(6)} s  typed errors ${String(stats.typedErrors).padStart(7)}  decoded ${String(stats.decoded).padStart(7)}  slowest ${stats.slowestMs.toFixed(1)} ms  peak RSS ${(stats.peakRssBytes / 1048576).toFixed(0)} MB`,
  );
  if (stats.peakRssBytes > rssLimit) {
    failed = true;
    console.error(`${target.name}: peak RSS ${(stats.peakRssBytes / 1048576).toFixed(0)} MB is over the limit`);
  }
  globalThis.gc?.();
}
process.exitCode = failed ? 1 : 0;
