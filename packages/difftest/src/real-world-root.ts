/**
 * One real-world example root through both tools: a copy of its repository per tool (registry
 * module calls pointed at local checkouts), `init`, `plan -refresh=false -out`, `show -json`,
 * the plan's text, compared, and the outcome classified.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { diffValues, normalisePlanJson, observeCommand, type Difference } from "./compare-observations.js";
import { rewriteRegistryModules, type RegistryModuleCall } from "./module-source-rewrite.js";
import { liveProcessGroups } from "./process-groups.js";
import type { ToolCommand } from "./tool-run.js";

/** How a root came out. */
export type RealWorldOutcome = "identical" | "failed-alike" | "differ" | "timeout";

/** The result of {@link runRealWorldRoot}. */
export interface RealWorldResult {
  /** The repository's directory name. */
  readonly repository: string;
  /** The root's path inside the repository. */
  readonly root: string;
  readonly outcome: RealWorldOutcome;
  /** Where terraform stopped when it failed (`init` or `plan`) and its first diagnostic. */
  readonly failure?: { readonly step: string; readonly diagnostic: string };
  /** The differences (at most 20), when they differ. */
  readonly differences: readonly Difference[];
  /** Registry module calls rewritten to local checkouts, and those no checkout was found for. */
  readonly modules: { readonly rewritten: readonly string[]; readonly missing: readonly string[] };
  /** Seconds the root took. */
  readonly seconds: number;
}

/** What {@link runRealWorldRoot} needs besides the root. */
export interface RealWorldSetup {
  readonly tools: Readonly<Record<"terraform" | "magma", ToolCommand>>;
  /** Environment of both tools (CLI configuration, AWS credentials and endpoint). */
  readonly env: Readonly<Record<string, string>>;
  /** Scratch directory (the copies go under it and are removed after). */
  readonly work: string;
  /** Directory holding checkouts of module repositories by name (`terraform-aws-vpc`), for registry calls. */
  readonly modules?: string;
  /** Per-command time limit in ms. */
  readonly timeoutMs: number;
  /** Keep the copies (with each command's output in `.real-world-<command>.txt` beside the root) for a look afterwards. */
  readonly keep?: boolean;
}

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Runs a command in its own process group, killing the whole group (the tool and its provider
 * processes) at the time limit. The group is recorded in {@link liveProcessGroups} while the
 * command runs, so the driver can kill it when it is stopped.
 */
function run(tool: ToolCommand, args: readonly string[], cwd: string, env: Readonly<Record<string, string>>, timeoutMs: number): Promise<Ran> {
  const child = spawn(tool.executable, [...tool.preArgs, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const forget = child.pid !== undefined ? liveProcessGroups.add(child.pid) : () => undefined;
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    child.once("error", (e) => {
      clearTimeout(timer);
      forget();
      resolve({ code: null, stdout, stderr: `${stderr}\n${e.message}`, timedOut });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      forget();
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

function tfFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === ".git" || e.name === ".terraform") continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) tfFiles(p, out);
    else if (e.isFile() && e.name.endsWith(".tf")) out.push(p);
  }
  return out;
}

/**
 * Copies `top` to `copy` and the module repositories its registry calls need (transitively)
 * to `copy/.difftest-modules/<name>`, rewriting those calls to relative paths.
 */
function prepareCopy(top: string, copy: string, modules: string | undefined): { rewritten: string[]; missing: string[] } {
  const skip = (src: string): boolean => !/\/(\.git|\.terraform)(\/|$)/.test(src.slice(top.length));
  cpSync(top, copy, { recursive: true, filter: skip });
  const rewritten = new Set<string>();
  const missing = new Set<string>();
  const deps = join(copy, ".difftest-modules");
  const pending = [copy];
  while (pending.length > 0) {
    const base = pending.pop()!;
    for (const file of tfFiles(base)) {
      if (base === copy && file.startsWith(deps)) continue;
      const text = readFileSync(file, "utf8");
      const local = (call: RegistryModuleCall): string | undefined => {
        if (modules === undefined) return undefined;
        const src = join(modules, call.repository);
        if (!existsSync(src)) return undefined;
        const dst = join(deps, call.repository);
        if (!existsSync(dst)) {
          mkdirSync(deps, { recursive: true });
          cpSync(src, dst, { recursive: true, filter: (p) => !/\/(\.git|\.terraform|examples)(\/|$)/.test(p.slice(src.length)) });
          pending.push(dst);
        }
        const target = call.subdir === "" ? dst : join(dst, call.subdir);
        const rel = relative(dirname(file), target);
        return rel.startsWith(".") ? rel : `./${rel}`;
      };
      const r = rewriteRegistryModules(text, local);
      for (const c of r.rewritten) rewritten.add(c.source);
      for (const c of r.missing) missing.add(c.source);
      if (r.text !== text) writeFileSync(file, r.text);
    }
  }
  return { rewritten: [...rewritten].sort(), missing: [...missing].sort() };
}

/** The plan's text from the line that starts the plan proper (data source reads print before it, in no fixed order). */
function planText(stdout: string): string {
  const lines = stdout.split("\n");
  const from = lines.findIndex((l) => /^(Terraform used the selected providers|No changes\.|Changes to Outputs:|Terraform will perform)/.test(l));
  return from < 0 ? "" : lines.slice(from).join("\n").replace(/RequestID: [0-9a-fA-F-]+/g, "RequestID: (id)");
}

interface ToolObservation {
  init: { code: number | null; diagnostics: readonly string[] };
  plan?: { code: number | null; summary: readonly string[]; diagnostics: readonly string[] };
  planText?: string;
  planJson?: unknown;
  timedOut?: string;
}

async function observe(tool: ToolCommand, copy: string, dir: string, setup: RealWorldSetup): Promise<ToolObservation> {
  // The copies' paths differ between the tools: print both as <copy>.
  const go = async (args: string[]): Promise<Ran> => {
    const r = await run(tool, args, dir, setup.env, setup.timeoutMs);
    if (setup.keep === true) writeFileSync(join(dir, `.real-world-${args[0]!}.txt`), `exit ${String(r.code)}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
    return { ...r, stdout: r.stdout.split(copy).join("<copy>"), stderr: r.stderr.split(copy).join("<copy>") };
  };
  const init = await go(["init", "-no-color", "-input=false"]);
  const obs: ToolObservation = { init: { code: init.code, diagnostics: observeCommand(init.code, init.stdout, init.stderr).diagnostics } };
  if (init.timedOut) return { ...obs, timedOut: "init" };
  if (init.code !== 0) return obs;
  const p = await go(["plan", "-no-color", "-input=false", "-refresh=false", "-out=tfplan"]);
  if (p.timedOut) return { ...obs, timedOut: "plan" };
  obs.plan = observeCommand(p.code, p.stdout, p.stderr);
  obs.planText = planText(p.stdout);
  if (p.code !== 0) return obs;
  const shown = await go(["show", "-json", "tfplan"]);
  if (shown.timedOut) return { ...obs, timedOut: "show" };
  try {
    obs.planJson = normalisePlanJson(JSON.parse(shown.stdout) as Record<string, unknown>);
  } catch {
    obs.planJson = `not JSON (exit ${String(shown.code)}): ${shown.stdout.slice(0, 200)}${shown.stderr.slice(0, 200)}`;
  }
  return obs;
}

/**
 * Runs the example root `root` of the repository checked out at `top` through terraform and
 * magma at once, each in its own copy, and compares: `init`'s exit code (and diagnostics when
 * it fails), `plan -refresh=false -out`'s exit code, summary lines, diagnostic summaries and
 * text from the plan proper on, and `show -json` of the plan ({@link normalisePlanJson}).
 */
export async function runRealWorldRoot(top: string, root: string, setup: RealWorldSetup): Promise<RealWorldResult> {
  const started = Date.now();
  const rel = relative(top, root);
  const repository = top.split("/").pop()!;
  const seen: Partial<Record<"terraform" | "magma", ToolObservation>> = {};
  let modules = { rewritten: [] as string[], missing: [] as string[] };
  await Promise.all(
    (["terraform", "magma"] as const).map(async (tool) => {
      const copy = join(setup.work, `${repository}-${tool}`);
      rmSync(copy, { recursive: true, force: true });
      if (setup.keep === true) console.log(`real-world: ${tool} runs in ${join(copy, rel)}`);
      try {
        modules = prepareCopy(top, copy, setup.modules);
        seen[tool] = await observe(setup.tools[tool], copy, join(copy, rel), setup);
      } finally {
        if (setup.keep !== true) rmSync(copy, { recursive: true, force: true });
      }
    }),
  );
  const t = seen.terraform!;
  const m = seen.magma!;
  const seconds = Math.round((Date.now() - started) / 1000);
  const base = { repository, root: rel, modules, seconds };
  if (t.timedOut !== undefined || m.timedOut !== undefined) {
    const differences: Difference[] = [{ step: 0, path: "timedOut", terraform: t.timedOut ?? "(finished)", magma: m.timedOut ?? "(finished)" }];
    return { ...base, outcome: "timeout", differences };
  }
  const differences = diffValues(0, "", t, m).map((d) => (d.path === '["planText"]' ? firstTextDifference(t.planText, m.planText) ?? d : d));
  const failed = t.init.code !== 0 ? "init" : t.plan?.code !== 0 ? "plan" : undefined;
  const failure = failed === undefined ? undefined : { step: failed, diagnostic: (failed === "init" ? t.init.diagnostics : t.plan?.diagnostics ?? [])[0] ?? "(none)" };
  const outcome: RealWorldOutcome = differences.length > 0 ? "differ" : failed !== undefined ? "failed-alike" : "identical";
  return { ...base, outcome, ...(failure !== undefined ? { failure } : {}), differences: differences.slice(0, 20) };
}

/** Where two plan texts part: the first differing line with one line of context each side, numbered. */
function firstTextDifference(a: string | undefined, b: string | undefined): Difference | undefined {
  if (a === undefined || b === undefined) return undefined;
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const around = (lines: string[]): string => JSON.stringify(lines.slice(Math.max(0, i - 1), i + 2).join("\n"));
  return { step: 0, path: `["planText"] line ${i + 1}`, terraform: around(x), magma: around(y) };
}

/** The example roots under `top`: directories below `examples/` holding `.tf` files, not counting modules the examples call locally. */
export function exampleRoots(top: string): string[] {
  const ex = join(top, "examples");
  if (!existsSync(ex)) return [];
  const found: string[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name.endsWith(".tf"))) {
      found.push(dir);
      return;
    }
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith(".")) walk(join(dir, e.name));
  };
  for (const e of readdirSync(ex)) if (statSync(join(ex, e)).isDirectory()) walk(join(ex, e));
  return found.sort();
}
