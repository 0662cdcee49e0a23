import fc from "fast-check";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { differenceSignature, type Difference } from "./compare-observations.js";
import type { DifftestSetup } from "./difftest-setup.js";
import { renderStep, rootFiles, stackSteps, type Syntax } from "./render-stack.js";
import { stackArbitrary, type Construct } from "./stack-arbitrary.js";
import type { StackSpec } from "./stack-spec.js";
import { runTwin, type BatchStack } from "./twin-run.js";

/** Options of {@link runDifftest}. */
export interface DifftestOptions {
  /** How many stacks. */
  readonly count: number;
  /** The fast-check seed: the same seed generates the same stacks. */
  readonly seed: number;
  /** Stacks per twin run (sibling stacks in one root module; default 25). */
  readonly batchSize?: number;
  /** Constructs the generator leaves out. */
  readonly avoid?: ReadonlySet<Construct>;
  /** The most steps after the first (default 2). */
  readonly maxSteps?: number;
  /** The fewest steps after the first (default 0). */
  readonly minSteps?: number;
  /** Where batches run (a directory of its own per batch, removed when it agrees). */
  readonly workDir: string;
  /** Where reproductions are written. */
  readonly outDir: string;
  /** Shrink each difference (default true); the time limit of one shrink (default 10 min). */
  readonly shrink?: boolean;
  readonly shrinkTimeMs?: number;
  /** Compare plans only (no apply, state or re-plan; see {@link TwinOptions.planOnly}). */
  readonly planOnly?: boolean;
  /** Progress lines (default none). */
  readonly log?: (line: string) => void;
}

/** A stack that differed: its index in the seed's sequence and what differed. */
export interface StackDifference {
  readonly index: number;
  readonly seed: number;
  readonly differences: readonly Difference[];
  /** The reproduction's directory: written whenever shrinking is on (the shrunk stack, else the stack as it differed). */
  readonly reproduction?: string;
  /** The shrunk stack (when a replay showed a difference of the same kind). */
  readonly shrunk?: StackSpec;
  /** How many twin runs the shrink made (its candidates less those already run: the replay of the stack that differed, repeats). */
  readonly shrinkRuns?: number;
}

/** What a run found. */
export interface DifftestReport {
  readonly stacks: number;
  /** Steps summed over stacks. */
  readonly steps: number;
  readonly batches: number;
  /** Batch steps whose terraform plan failed (an invalid generated configuration; should be 0). */
  readonly terraformPlanFailures: number;
  /** Differences not tied to one stack (in a batch whose stacks each agree alone). */
  readonly unattributed: readonly Difference[];
  readonly differing: readonly StackDifference[];
}

/** The syntax of the stack at `index`: odd stacks JSON, even ones native. */
export function syntaxOf(index: number): Syntax {
  return index % 2 === 1 ? "json" : "native";
}

/** The stack prefix of the stack at `index`. */
export function prefixOf(index: number): string {
  return `s${index}_`;
}

function stacksMentioned(ds: readonly Difference[]): Set<number> {
  const out = new Set<number>();
  for (const d of ds) for (const m of `${d.path} ${d.terraform} ${d.magma}`.matchAll(/\bs(\d+)_/g)) out.add(Number(m[1]));
  return out;
}

/** Writes a reproduction: the stack's spec, the differences and every step's files in both syntaxes. */
export function writeReproduction(dir: string, spec: StackSpec, index: number, differences: readonly Difference[]): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "spec.json"), `${JSON.stringify(spec, null, 2)}\n`);
  writeFileSync(join(dir, "differences.txt"), differences.slice(0, 50).map((d) => `step ${d.step} ${d.path}\n  terraform: ${d.terraform}\n  magma:     ${d.magma}\n`).join(""));
  const models = stackSteps(spec);
  for (const syntax of ["native", "json"] as const) {
    models.forEach((m, step) => {
      const files = { ...rootFiles(syntax), ...renderStep(m, prefixOf(index), syntax) };
      for (const [rel, text] of Object.entries(files)) {
        const p = join(dir, `step-${step}-${syntax}`, rel);
        mkdirSync(join(p, ".."), { recursive: true });
        writeFileSync(p, text);
      }
    });
  }
  writeFileSync(
    join(dir, "README.md"),
    `# difftest reproduction\n\nRun each \`step-N-<syntax>\` directory's files in turn in one working directory (copy them over the previous step's, keep the state) with terraform and with magma: \`init\`, \`plan -out=tfplan\`, \`show -json tfplan\`, \`apply tfplan\`, \`plan -detailed-exitcode\`. The CLI configuration must serve magma/testbed (see packages/difftest/README.md). differences.txt lists what differed.\n`,
  );
}

/**
 * Generates `count` stacks from `seed`, runs them through terraform and magma in batches of
 * sibling stacks, and for each stack that differs (confirmed by running it alone) shrinks it
 * with fast-check to a minimal stack that still shows a difference of the same kind, and
 * writes the reproduction under `outDir`.
 */
export async function runDifftest(setup: DifftestSetup, options: DifftestOptions): Promise<DifftestReport> {
  const log = options.log ?? (() => undefined);
  const arb = stackArbitrary({ ...(options.avoid !== undefined ? { avoid: options.avoid } : {}), ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}), ...(options.minSteps !== undefined ? { minSteps: options.minSteps } : {}) });
  const specs = fc.sample(arb, { seed: options.seed, numRuns: options.count });
  const batchSize = options.batchSize ?? 25;
  const twin = { planOnly: options.planOnly ?? false };
  const differing: StackDifference[] = [];
  const unattributed: Difference[] = [];
  let steps = 0;
  let batches = 0;
  let terraformPlanFailures = 0;
  for (let start = 0; start < specs.length; start += batchSize) {
    const stacks: BatchStack[] = specs.slice(start, start + batchSize).map((spec, k) => ({ prefix: prefixOf(start + k), spec, syntax: syntaxOf(start + k) }));
    for (const s of stacks) steps += stackSteps(s.spec).length;
    const dir = join(options.workDir, `batch-${options.seed}-${start}`);
    const t0 = Date.now();
    const r = await runTwin(setup, dir, stacks, twin);
    batches++;
    terraformPlanFailures += r.terraformPlanFailures;
    if (r.terraformPlanFailures > 0) log(`batch ${start}: terraform's plan failed in ${r.terraformPlanFailures} steps: ${r.observations.map((o) => o.terraform.plan.diagnostics.join("; ")).filter((x) => x !== "").join(" | ")}`);
    log(`batch ${start}..${start + stacks.length - 1}: ${r.steps} steps, ${r.differences.length} differences (${Math.round((Date.now() - t0) / 1000)} s)`);
    if (r.differences.length === 0) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    const mentioned = [...stacksMentioned(r.differences)].filter((i) => i >= start && i < start + stacks.length);
    const candidates = mentioned.length > 0 ? mentioned : stacks.map((_, k) => start + k);
    let found = false;
    for (const index of candidates) {
      // A batch of one stack was that stack alone already.
      const alone = stacks.length === 1 ? r : await runTwin(setup, join(options.workDir, `alone-${options.seed}-${index}`), [{ prefix: prefixOf(index), spec: specs[index]!, syntax: syntaxOf(index) }], twin);
      rmSync(join(options.workDir, `alone-${options.seed}-${index}`), { recursive: true, force: true });
      if (alone.differences.length === 0) continue;
      found = true;
      log(`stack ${index} differs alone: ${alone.differences.length} differences, first ${alone.differences[0]!.path}`);
      let result: StackDifference = { index, seed: options.seed, differences: alone.differences };
      if (options.shrink !== false) result = await shrinkStack(setup, arb, options, index, specs[index]!, alone.differences, log);
      differing.push(result);
      if (mentioned.length === 0) break; // one culprit explains a batch-level difference
    }
    if (!found) unattributed.push(...r.differences);
  }
  return { stacks: specs.length, steps, batches, terraformPlanFailures, unattributed, differing };
}

async function shrinkStack(
  setup: DifftestSetup,
  arb: fc.Arbitrary<StackSpec>,
  options: DifftestOptions,
  index: number,
  originalSpec: StackSpec,
  original: readonly Difference[],
  log: (line: string) => void,
): Promise<StackDifference> {
  const signatures = new Set(original.map(differenceSignature));
  let last: { spec: StackSpec; differences: readonly Difference[] } | undefined;
  let attempt = 0;
  let runs = 0;
  // What each stack run so far showed, by its spec: fast-check starts by replaying the stack that
  // differed alone (its differences are known), and may try a candidate twice.
  const known = new Map<string, readonly Difference[]>([[JSON.stringify(originalSpec), original]]);
  // One pair of twin directories for every candidate: each starts from no state, and runs `init` only when its module calls differ from the previous one's.
  const dir = join(options.workDir, `shrink-${options.seed}-${index}`);
  let initialisedWith: readonly string[] | undefined;
  const result = await fc.check(
    fc.asyncProperty(arb, async (spec) => {
      attempt++;
      const key = JSON.stringify(spec);
      let differences = known.get(key);
      if (differences === undefined) {
        runs++;
        const r = await runTwin(setup, dir, [{ prefix: prefixOf(index), spec, syntax: syntaxOf(index) }], { planOnly: options.planOnly ?? false, ...(initialisedWith !== undefined ? { initialisedWith } : {}) });
        initialisedWith = r.initialisedWith;
        differences = r.differences;
        known.set(key, differences);
      }
      const same = differences.filter((d) => signatures.has(differenceSignature(d)));
      if (same.length > 0) last = { spec, differences };
      return same.length === 0;
    }),
    { seed: options.seed, path: String(index), numRuns: index + 1, interruptAfterTimeLimit: options.shrinkTimeMs ?? 600_000, markInterruptAsFailure: false },
  );
  // The smallest stack that showed a difference of the same kind; when none did (the replay
  // agreed, or the time ran out before it), the stack as it differed alone, unshrunk.
  rmSync(dir, { recursive: true, force: true });
  const shrunk = (result.counterexample?.[0] as StackSpec | undefined) ?? last?.spec;
  const spec = shrunk ?? originalSpec;
  const differences = shrunk !== undefined ? (last?.differences ?? original) : original;
  const out = join(options.outDir, `repro-seed${options.seed}-stack${index}`);
  writeReproduction(out, spec, index, differences);
  log(shrunk !== undefined ? `stack ${index}: shrunk in ${attempt} candidates, ${runs} run (${result.numShrinks} shrinks); reproduction: ${out}` : `stack ${index}: not shrunk (no replay in ${attempt} candidates, ${runs} run, showed a difference of the same kind); reproduction of the stack as it differed: ${out}`);
  return { index, seed: options.seed, differences, reproduction: out, shrinkRuns: runs, ...(shrunk !== undefined ? { shrunk } : {}) };
}
