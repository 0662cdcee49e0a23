import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { diffValues, normalisePlanJson, normaliseState, observeCommand, type Difference, type StepObservation } from "./compare-observations.js";
import type { DifftestSetup } from "./difftest-setup.js";
import { moduleCalls, renderStep, rootFiles, stackSteps, type StepModel, type Syntax } from "./render-stack.js";
import type { StackSpec } from "./stack-spec.js";
import { runToolCommand, type ToolCommand } from "./tool-run.js";

/** One stack of a batch: its names start with `prefix`, its files are in `syntax`. */
export interface BatchStack {
  readonly prefix: string;
  readonly spec: StackSpec;
  readonly syntax: Syntax;
}

/** What a twin run of a batch found. */
export interface TwinResult {
  /** Steps run (the longest stack's). */
  readonly steps: number;
  readonly differences: readonly Difference[];
  /** Steps whose terraform plan failed (the generator writes valid configurations: should be none). */
  readonly terraformPlanFailures: number;
  /** Each step's observations by tool (for reports). */
  readonly observations: readonly { readonly terraform: StepObservation; readonly magma: StepObservation }[];
  /** The module calls the twin directories are initialised with now (for {@link TwinOptions.initialisedWith}); absent when an `init` failed. */
  readonly initialisedWith?: readonly string[];
}

/** Options of {@link runTwin}. */
export interface TwinOptions {
  /** Stop after `plan` and `show -json` (no apply, state or re-plan): cheaper, for shrinking plan differences. */
  readonly planOnly?: boolean;
  /**
   * The directories were used by an earlier run, which left them initialised with these module
   * calls ({@link TwinResult.initialisedWith}): its state and plan files are removed first, and
   * the first step runs `init` only when its module calls differ. Shrinking reuses one pair of
   * directories this way, sparing most candidates their `init`.
   */
  readonly initialisedWith?: readonly string[];
}

/** The files of one step of a batch: the root's own and every stack's. */
export function batchFiles(stacks: readonly BatchStack[], models: readonly (readonly StepModel[])[], step: number): { files: Record<string, string>; modules: string[] } {
  const files: Record<string, string> = { ...rootFiles("native") };
  const modules: string[] = [];
  stacks.forEach((s, i) => {
    const m = models[i]!;
    const model = m[Math.min(step, m.length - 1)]!;
    Object.assign(files, renderStep(model, s.prefix, s.syntax));
    modules.push(...moduleCalls(model, s.prefix));
  });
  return { files, modules: modules.sort() };
}

function writeConfig(dir: string, files: Readonly<Record<string, string>>): void {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith(".tf") || f.endsWith(".tf.json")) rmSync(join(dir, f));
  rmSync(join(dir, "modules"), { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
}

function readJson(text: string): Record<string, unknown> | string {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
}

async function observeStep(tool: ToolCommand, dir: string, env: Record<string, string>, init: boolean, options: TwinOptions): Promise<StepObservation> {
  const run = (args: string[]) => runToolCommand(tool, args, dir, env);
  let initCode: number | null | undefined;
  if (init) initCode = (await run(["init", "-no-color", "-input=false"])).code;
  const p = await run(["plan", "-no-color", "-input=false", "-out=tfplan"]);
  const plan = observeCommand(p.code, p.stdout, p.stderr);
  const base = initCode === undefined ? { plan } : { init: initCode, plan };
  if (p.code !== 0) return base;
  const shown = await run(["show", "-json", "tfplan"]);
  const doc = readJson(shown.stdout);
  const planJson = typeof doc === "string" ? doc : normalisePlanJson(doc);
  if (options.planOnly === true) return { ...base, planJson };
  const a = await run(["apply", "-no-color", "-input=false", "tfplan"]);
  const apply = observeCommand(a.code, a.stdout, a.stderr);
  const statePath = join(dir, "terraform.tfstate");
  const stateDoc = existsSync(statePath) ? readJson(readFileSync(statePath, "utf8")) : "no state file";
  const state = typeof stateDoc === "string" ? stateDoc : normaliseState(stateDoc);
  const r = await run(["plan", "-no-color", "-input=false", "-detailed-exitcode"]);
  return { ...base, planJson, apply, state, replan: observeCommand(r.code, r.stdout, r.stderr) };
}

/** One step of a twin run given as files: the root module's files (paths relative to it) and whether to `init` first. */
export interface TwinStep {
  readonly files: Readonly<Record<string, string>>;
  readonly init: boolean;
}

/** What a twin run of explicit steps found ({@link runTwinSteps}). */
export interface TwinStepsResult {
  readonly differences: readonly Difference[];
  readonly observations: readonly { readonly terraform: StepObservation; readonly magma: StepObservation }[];
}

/**
 * Runs explicit steps through terraform and magma in twin directories (`dir/terraform`,
 * `dir/magma`): each step's files replace the previous step's configuration (the state stays),
 * then `init` (when asked), `plan -out`, `show -json`, `apply`, the state file and
 * `plan -detailed-exitcode`, compared step by step. The two tools run at the same time. The
 * regression cases of test/regressions.test.ts use it directly; {@link runTwin} for generated
 * stacks.
 */
export async function runTwinSteps(setup: DifftestSetup, dir: string, steps: readonly TwinStep[], options: TwinOptions = {}): Promise<TwinStepsResult> {
  const tfDir = join(dir, "terraform");
  const mgDir = join(dir, "magma");
  const env = { TF_CLI_CONFIG_FILE: setup.cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_INPUT: "0", XDG_CACHE_HOME: setup.cacheHome, NO_COLOR: "1" };
  const differences: Difference[] = [];
  const observations: { terraform: StepObservation; magma: StepObservation }[] = [];
  for (const [step, s] of steps.entries()) {
    writeConfig(tfDir, s.files);
    writeConfig(mgDir, s.files);
    const [terraform, magma] = await Promise.all([observeStep(setup.terraform, tfDir, env, s.init, options), observeStep(setup.magma, mgDir, env, s.init, options)]);
    observations.push({ terraform, magma });
    diffValues(step, "", terraform, magma, differences);
  }
  return { differences, observations };
}

/**
 * Runs a batch of stacks through terraform and magma in twin directories (`dir/terraform`,
 * `dir/magma`), step by step — all stacks' step N side by side in one root module (a stack with
 * fewer steps keeps its last configuration) — and compares each step's observations: `init`'s
 * exit code (when the module calls changed), `plan -out` (exit code, summary lines, diagnostic
 * summaries), `show -json` of the plan ({@link normalisePlanJson}), `apply` of the plan, the
 * state file ({@link normaliseState}) and `plan -detailed-exitcode` after it. The two tools
 * run at the same time.
 */
export async function runTwin(setup: DifftestSetup, dir: string, stacks: readonly BatchStack[], options: TwinOptions = {}): Promise<TwinResult> {
  const models = stacks.map((s) => stackSteps(s.spec));
  const steps = Math.max(1, ...models.map((m) => m.length));
  const twinSteps: TwinStep[] = [];
  let previousModules = options.initialisedWith !== undefined ? JSON.stringify(options.initialisedWith) : undefined;
  let modules: string[] = [];
  for (let step = 0; step < steps; step++) {
    const b = batchFiles(stacks, models, step);
    modules = b.modules;
    const init = previousModules !== JSON.stringify(modules);
    previousModules = JSON.stringify(modules);
    twinSteps.push({ files: b.files, init });
  }
  if (options.initialisedWith !== undefined) {
    for (const tool of ["terraform", "magma"]) for (const f of ["terraform.tfstate", "terraform.tfstate.backup", "tfplan"]) rmSync(join(dir, tool, f), { force: true });
  }
  const { differences, observations } = await runTwinSteps(setup, dir, twinSteps, options);
  const terraformPlanFailures = observations.filter((o) => o.terraform.plan.code !== 0).length;
  const initFailed = observations.some((o) => (o.terraform.init ?? 0) !== 0 || (o.magma.init ?? 0) !== 0);
  return { steps, differences, observations, terraformPlanFailures, ...(initFailed ? {} : { initialisedWith: modules }) };
}
