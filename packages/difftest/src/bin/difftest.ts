#!/usr/bin/env node
// pnpm difftest [--count N] [--seed S] [--batch B] [--steps N] [--min-steps N] [--all] [--avoid a,b] [--no-shrink] [--out DIR]
// Generates stacks, runs them through terraform and magma, compares, shrinks each difference
// and writes its reproduction. Without arguments: the CI batch (test/difftest-batch.test.ts: 8
// stacks of 2 steps each, seed 16, one batch, the constructs with open differences left out). Exit 0 when the tools agreed, 1 when not, 2 on
// bad arguments.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { prepareDifftest } from "../difftest-setup.js";
import { KNOWN_OPEN } from "../known-differences.js";
import { runDifftest } from "../run-difftest.js";
import { Construct } from "../stack-arbitrary.js";

const args = process.argv.slice(2);
const opts = { count: 8, seed: 16, batch: 8, steps: 1, minSteps: 1, all: false, avoid: [] as string[], shrink: true, out: resolve("difftest-out") };
function fail(message: string): never {
  console.error(`difftest: ${message}`);
  process.exit(2);
}
const whole = (name: string, v: string | undefined): number => {
  if (v === undefined || !/^[0-9]+$/.test(v)) fail(`${name} needs a whole number, got ${JSON.stringify(v)}`);
  return Number(v);
};
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === "--count") opts.count = whole(a, args[++i]);
  else if (a === "--seed") opts.seed = whole(a, args[++i]);
  else if (a === "--batch") opts.batch = Math.max(1, whole(a, args[++i]));
  else if (a === "--steps") opts.steps = whole(a, args[++i]);
  else if (a === "--min-steps") opts.minSteps = whole(a, args[++i]);
  else if (a === "--all") opts.all = true;
  else if (a === "--avoid") opts.avoid = (args[++i] ?? "").split(",").filter((x) => x !== "");
  else if (a === "--no-shrink") opts.shrink = false;
  else if (a === "--out") opts.out = resolve(args[++i] ?? fail("--out needs a directory"));
  else fail(`unknown argument ${JSON.stringify(a)}`);
}
const known = Object.values(Construct) as string[];
for (const c of opts.avoid) if (!known.includes(c)) fail(`--avoid: no construct ${JSON.stringify(c)} (known: ${known.join(", ")})`);
const avoid = new Set<Construct>([...(opts.all ? [] : KNOWN_OPEN.keys()), ...(opts.avoid as Construct[])]);

const work = mkdtempSync(join(tmpdir(), "magma-difftest-"));
const t0 = Date.now();
try {
  const setup = prepareDifftest(work);
  console.log(`difftest: ${opts.count} stacks, seed ${opts.seed}, batches of ${opts.batch}, up to ${opts.steps + 1} steps; leaving out: ${[...avoid].join(", ") || "nothing"}`);
  const report = await runDifftest(setup, {
    count: opts.count,
    seed: opts.seed,
    batchSize: opts.batch,
    maxSteps: opts.steps,
    minSteps: opts.minSteps,
    avoid,
    workDir: work,
    outDir: opts.out,
    shrink: opts.shrink,
    log: (l) => console.log(`difftest: ${l}`),
  });
  for (const d of report.differing) {
    console.log(`difftest: stack ${d.index} (seed ${d.seed}) differs${d.reproduction !== undefined ? `; reproduction: ${d.reproduction}` : ""}`);
    for (const x of d.differences.slice(0, 5)) console.log(`  step ${x.step} ${x.path}\n    terraform: ${x.terraform}\n    magma:     ${x.magma}`);
  }
  for (const x of report.unattributed.slice(0, 10)) console.log(`difftest: batch-level difference (no stack reproduces it alone): step ${x.step} ${x.path}: terraform ${x.terraform}, magma ${x.magma}`);
  const bad = report.differing.length + (report.unattributed.length > 0 ? 1 : 0) + report.terraformPlanFailures;
  console.log(`difftest: ${report.stacks} stacks, ${report.steps} steps, ${report.batches} batches, ${report.terraformPlanFailures} failed terraform plans, ${report.differing.length} differing stacks, ${report.unattributed.length} unattributed differences, seed ${opts.seed}, ${Math.round((Date.now() - t0) / 1000)} s`);
  process.exitCode = bad === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
