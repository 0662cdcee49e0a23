#!/usr/bin/env node
// Builds every package (turbo), then runs every package's typecheck, lint and test scripts in
// a pool of MAGMA_TEST_CONCURRENCY processes (default 2), longest first, and prints one closing
// line that sums the tests: `N passed, N failed, N skipped`. Each package's Jest run writes
// test-results.json (--json).
//
// Why not `turbo run typecheck lint test`: turbo starts a package's tasks when their
// dependencies are built, so @magma/cli (built last, tests ~750 s of ~2,800 s) started last and
// ran alone at the end while the other slot stood idle. Longest-processing-time-first keeps
// both slots busy until the end. The weights are seconds from a fresh-clone CI run on the 2-core
// machine; only their order matters, and a package missing here counts as `DEFAULT_WEIGHT`.
//
// Usage: node scripts/run-tests.mjs [--filter=@magma/name ...]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = join(root, "packages");

/**
 * Test seconds per package in a full run (two at once, 2 cores). The run is CPU-bound: the
 * wall time is about the sum of these halved, and the order here only decides which tasks end
 * last. A package missing here counts as `DEFAULT_WEIGHT`.
 */
const TEST_WEIGHTS = {
  // The full run of 2026-12-07 (16:55 UTC, with other runs alongside on the machine).
  "@magma/cli": 2265,
  "@magma/engine": 441,
  "@magma/fake-aws": 424,
  "@magma/conformance": 312,
  "@magma/reliability": 262,
  "@magma/difftest": 240,
  "@magma/provider-server": 224,
  "@magma/plugin": 219,
  "@magma/state": 110,
  "@magma/config": 55,
  "@magma/hcl": 41,
};
const DEFAULT_WEIGHT = 20;
/** lint (the longer of the two) seconds in the last fresh-clone CI; the rest about 10. */
const CHECK_WEIGHTS = {
  "@magma/engine": 19,
  "@magma/cli": 18,
  "@magma/hcl": 15,
  "@magma/plugin": 14,
  "@magma/provider-api": 13,
  "@magma/cty": 12,
  "@magma/config": 12,
};
const DEFAULT_CHECK_WEIGHT = 10;
/**
 * GOGC for the Go programs the tests start (terraform, and hashicorp/aws, which inherits
 * terraform's or magma's environment), unless the caller set one: Go's default (100) spends a
 * good part of each aws command collecting while it builds and encodes its 5 MB schema. Measured
 * on the 2-core machine (user + system CPU), terraform apply, plan and the update apply of one
 * aws_ssm_parameter with an ephemeral source against @magma/fake-aws: 16.6, 12.9 and 17.9 s at
 * 100; 14.0, 10.3 and 13.4 s at 200; the largest resident set 595 MB at 100, 645 MB at 200.
 * (GOGC=off cut more CPU but took 2.5 GB; with GOMEMLIMIT=700MiB, 1.1 GB.) GC settings change
 * no output.
 */
const GO_GC_PERCENT = "200";

function fail(message) {
  console.error(`run-tests: ${message}`);
  process.exit(2);
}

const concurrencyText = process.env.MAGMA_TEST_CONCURRENCY ?? "2";
if (!/^[1-9][0-9]*$/.test(concurrencyText)) {
  fail(
    `MAGMA_TEST_CONCURRENCY must be a positive whole number, got ${JSON.stringify(concurrencyText)}`,
  );
}
const concurrency = Number(concurrencyText);

const filters = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a.startsWith("--filter=")) filters.push(a.slice("--filter=".length));
  else if (a === "--filter" && i + 1 < args.length) filters.push(args[++i]);
  else fail(`unknown argument ${JSON.stringify(a)} (accepted: --filter=@magma/name, repeatable)`);
}

const packages = readdirSync(packagesDir)
  .filter((d) => existsSync(join(packagesDir, d, "package.json")))
  .map((d) => ({
    dir: join(packagesDir, d),
    manifest: JSON.parse(readFileSync(join(packagesDir, d, "package.json"), "utf8")),
  }))
  .filter((p) => filters.length === 0 || filters.includes(p.manifest.name));
for (const f of filters) {
  if (!packages.some((p) => p.manifest.name === f))
    fail(`--filter ${JSON.stringify(f)} names no package under packages/`);
}
for (const p of packages) rmSync(join(p.dir, "test-results.json"), { force: true });

// pnpm itself: the one running this script (`pnpm test` sets npm_execpath), else `pnpm` on PATH.
const execPath = process.env.npm_execpath;
const pnpm =
  execPath && /pnpm/.test(execPath)
    ? { cmd: process.execPath, pre: [execPath] }
    : { cmd: "pnpm", pre: [] };
if (!pnpm.pre.length && spawnSync("pnpm", ["--version"], { stdio: "ignore" }).status !== 0) {
  fail("pnpm is not on PATH: run this through `npx pnpm@10.34.9 test`");
}

const started = Date.now();
const seconds = (ms) => `${Math.round(ms / 100) / 10} s`;

// 1. Build (turbo: dependency order and its cache). A failed build does not stop the run: the
// packages that need it fail their own checks and tests, and are reported.
const buildArgs = [
  "exec",
  "turbo",
  "run",
  "build",
  "--continue",
  `--concurrency=${Math.max(concurrency, 2)}`,
];
// `build` depends on `^build`, so a filtered package's dependencies are built too.
for (const f of filters) buildArgs.push(`--filter=${f}`);
const build = spawnSync(pnpm.cmd, [...pnpm.pre, ...buildArgs], { cwd: root, stdio: "inherit" });
const buildOk = build.status === 0;
console.log(`run-tests: build ${buildOk ? "done" : "FAILED"} (${seconds(Date.now() - started)})`);

// 2. Every typecheck, lint and test script, longest first.
const jobs = [];
for (const p of packages) {
  const name = p.manifest.name;
  for (const task of ["test", "typecheck", "lint"]) {
    if (!p.manifest.scripts?.[task]) continue;
    const weight =
      task === "test"
        ? (TEST_WEIGHTS[name] ?? DEFAULT_WEIGHT)
        : (CHECK_WEIGHTS[name] ?? DEFAULT_CHECK_WEIGHT);
    jobs.push({ name, dir: p.dir, task, weight });
  }
}
jobs.sort(
  (a, b) => b.weight - a.weight || a.name.localeCompare(b.name) || a.task.localeCompare(b.task),
);

const results = [];
function runJob(job) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const prefix = `${job.name}:${job.task}: `;
    console.log(`${prefix}started`);
    const child = spawn(pnpm.cmd, [...pnpm.pre, "run", job.task], {
      cwd: job.dir,
      env: { ...process.env, GOGC: process.env.GOGC ?? GO_GC_PERCENT },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) =>
        console.log(prefix + line),
      );
    }
    const finish = (code, error) => {
      const ms = Date.now() - t0;
      results.push({ ...job, code, ms });
      console.log(
        `${prefix}${code === 0 ? "done" : `FAILED (${error ?? `exit ${code}`})`} in ${seconds(ms)}`,
      );
      resolve();
    };
    child.on("error", (e) => finish(-1, e.message));
    child.on("close", (code, signal) =>
      finish(code ?? -1, signal ? `signal ${signal}` : undefined),
    );
  });
}

const queue = [...jobs];
async function worker() {
  for (let job = queue.shift(); job; job = queue.shift()) await runJob(job);
}
await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));

// 3. Summary: which tasks failed, then the test counts.
const failedTasks = results.filter((r) => r.code !== 0);
console.log(
  `\nrun-tests: ${results.length} tasks in ${seconds(Date.now() - started)} (${concurrency} at once); longest:`,
);
for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 8))
  console.log(`  ${r.name}:${r.task} ${seconds(r.ms)}`);
for (const r of failedTasks) console.log(`run-tests: ${r.name}:${r.task} failed (exit ${r.code})`);

/** `file :: test name — first line of the failure` for each failed test (or suite) of a Jest --json result. */
function failedTestsOf(result, dir) {
  const out = [];
  for (const suite of result.testResults ?? []) {
    const file = suite.name.startsWith(dir) ? suite.name.slice(dir.length + 1) : suite.name;
    const firstLine = (text) => (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim().slice(0, 200) ?? "";
    const failedTests = (suite.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedTests) out.push(`${file} :: ${a.fullName} — ${firstLine(a.failureMessages?.[0])}`);
    if (failedTests.length === 0 && suite.status === "failed") out.push(`${file} — ${firstLine(suite.message)}`);
  }
  return out;
}

const failures = [];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const p of packages) {
  if (!p.manifest.scripts?.test) continue;
  const file = join(p.dir, "test-results.json");
  if (!existsSync(file)) {
    missing.push(p.manifest.name);
    continue;
  }
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  // A suite that failed to run (syntax error, import error) has no test results of its own.
  failed += r.numRuntimeErrorTestSuites ?? 0;
  console.log(
    `${p.manifest.name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped` +
      (r.numRuntimeErrorTestSuites ? `, ${r.numRuntimeErrorTestSuites} suites failed to run` : ""),
  );
  failures.push(...failedTestsOf(r, p.dir));
}
// The failed tests by name, with the first line of each failure, so that a log cut to its
// end (CI keeps the tail) still says what failed.
for (const f of failures) console.log(`  FAILED ${f}`);
for (const name of missing) {
  console.log(`${name}: no test results (its test task did not run to completion)`);
  failed += 1;
}
// A failed build, typecheck or lint counts as one failure each, so the line never reads
// "0 failed" on a red run.
failed += failedTasks.filter((r) => r.task !== "test").length + (buildOk ? 0 : 1);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(buildOk && failedTasks.length === 0 && failed === 0 ? 0 : 1);
