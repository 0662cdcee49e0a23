// Process-level kill trials (issue 20 item 1): the BUILT `magma` CLI applies a configuration of
// 50 aws_ssm_parameter plus dependent resources (chains, depends_on) with the real hashicorp/aws
// provider against @magma/fake-aws, and is SIGKILLed at a chosen, observed moment; then a fresh
// `magma apply` must converge. Everything a trial measures is returned for the report.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FakeAws, InjectedFault } from "@magma/fake-aws";
import { createLocalBackend, loadState, readStateFile, type StateFile } from "@magma/state";
import { awsFakeHcl, writeTerraformCliConfig } from "@magma/test-support";
import { stateObjects } from "./engine-support.js";
import { isGone, waitUntil } from "./support.js";

/** The built CLI. */
export const MAGMA_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "dist", "bin", "magma.js");

/** The environment variable of the state write pause hook (`@magma/state`'s local backend). */
const PAUSE_ENV = "MAGMA_TEST_STATE_WRITE_PAUSE";

/** Where a trial kills magma. */
export type KillMoment = "planning" | "provider-call" | "apply-before-persist" | "state-write";

/** The kinds in the order the trials cycle through them. */
export const KILL_MOMENTS: readonly KillMoment[] = ["planning", "provider-call", "apply-before-persist", "state-write"];

/** How many objects {@link killTrialConfig} declares. */
export const CONFIG_OBJECTS = 50 + 10 + 5 + 3;

/**
 * 50 `aws_ssm_parameter.p<i>`; 10 `q<i>` whose value is `p<i>.arn` (known only after p's
 * create); 5 `r<i>` whose value is `q<i>.arn`, a chain of three; 3 `s<i>` that
 * `depends_on` two of the q's.
 */
export function killTrialConfig(prefix: string): string {
  const out: string[] = [];
  const param = (name: string, value: string, extra = ""): string => `resource "aws_ssm_parameter" "${name}" {\n  name  = "${prefix}/${name}"\n  type  = "String"\n  value = ${value}\n${extra}}\n`;
  for (let i = 0; i < 50; i++) out.push(param(`p${i}`, `"p${i}"`));
  for (let i = 0; i < 10; i++) out.push(param(`q${i}`, `aws_ssm_parameter.p${i}.arn`));
  for (let i = 0; i < 5; i++) out.push(param(`r${i}`, `aws_ssm_parameter.q${i}.arn`));
  for (let i = 0; i < 3; i++) out.push(param(`s${i}`, `"s${i}"`, `  depends_on = [aws_ssm_parameter.q${i + 5}, aws_ssm_parameter.q${(i + 6) % 10}]\n`));
  return out.join("\n");
}

/** A small seeded PRNG (mulberry32), so a run's moments can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A running or finished magma child. */
interface Run {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startMagma(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  // detached: magma gets its own process group, so the kill below hits magma alone (as a
  // kill -9 of its pid does), not the providers it started.
  const child = spawn(process.execPath, [MAGMA_BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const stdout: string[] = [];
  const stderr: string[] = [];
  let outBuf = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    outBuf += d;
    const lines = outBuf.split("\n");
    outBuf = lines.pop()!;
    stdout.push(...lines);
  });
  child.stderr!.setEncoding("utf8").on("data", (d: string) => stderr.push(d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, stdout, stderr, exited };
}

/** Runs the built magma to its end. */
export async function runMagma(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string[]; stderr: string }> {
  const r = startMagma(args, cwd, env);
  const { code } = await r.exited;
  return { code, stdout: r.stdout, stderr: r.stderr.join("") };
}

/** The JSON UI messages among stdout lines. */
export function uiMessages(lines: readonly string[]): { type?: string; hook?: { action?: string; resource?: { addr?: string } }; outcome?: string; "@message"?: string }[] {
  const out = [];
  for (const l of lines) {
    try {
      out.push(JSON.parse(l) as { type?: string });
    } catch {
      // not a JSON line
    }
  }
  return out;
}

/** A provider recorded in a `magma-plugin-*` socket directory's owner.json. */
interface ProviderRecord {
  readonly directory: string;
  readonly hostPid: number;
  readonly providerPid: number | null;
}

function providerRecords(tmp: string): ProviderRecord[] {
  const out: ProviderRecord[] = [];
  if (!existsSync(tmp)) return out;
  for (const name of readdirSync(tmp)) {
    if (!name.startsWith("magma-plugin-")) continue;
    const directory = join(tmp, name);
    try {
      const r = JSON.parse(readFileSync(join(directory, "owner.json"), "utf8")) as { hostPid: number; providerPid: number | null };
      out.push({ directory, hostPid: r.hostPid, providerPid: r.providerPid });
    } catch {
      out.push({ directory, hostPid: -1, providerPid: null });
    }
  }
  return out;
}

/** The committed state of a working directory without touching it (a copy is recovered). */
export async function committedState(dir: string): Promise<{ state: StateFile | undefined; rawParses: boolean; rawObjects: number; journal: boolean }> {
  const scratch = mkdtempSync(join(tmpdir(), "magma-kill-copy-"));
  try {
    let rawParses = true;
    let rawObjects = 0;
    const file = join(dir, "terraform.tfstate");
    if (existsSync(file)) {
      const bytes = readFileSync(file);
      if (bytes.length > 0) {
        try {
          rawObjects = stateObjects(readStateFile(bytes)).length;
        } catch {
          rawParses = false;
        }
      }
    }
    for (const n of readdirSync(dir)) if (n.startsWith("terraform.tfstate")) copyFileSync(join(dir, n), join(scratch, n));
    const state = await loadState(createLocalBackend({ dir: scratch, onRecovery: () => undefined }).store("default"));
    return { state, rawParses, rawObjects, journal: existsSync(join(dir, "terraform.tfstate.magma-new")) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** One trial's figures. */
export interface KillTrialResult {
  readonly trial: number;
  readonly moment: KillMoment;
  /** Where the kill landed, from what was observed at the kill. */
  readonly landed: string;
  /** Objects whose apply_complete magma printed before the kill. */
  readonly appliedBeforeKill: number;
  /** Objects fake-aws held right after the kill (once the calls in flight were answered). */
  readonly endpointAfterKill: number;
  /** Objects the committed state held after the kill (journal recovery applied to a copy). */
  readonly persistedAfterKill: number;
  /** Whether the state file itself parsed right after the kill (a torn file may or may not: the journal then holds the committed state). */
  readonly stateFileParsedAfterKill: boolean;
  /** Objects in the state file itself right after the kill, when it parsed (before any journal recovery). */
  readonly stateFileObjectsAfterKill: number;
  /** Whether an interrupted write's journal was left. */
  readonly journalAfterKill: boolean;
  /** Whether the killed run's lock info file was left behind. */
  readonly staleLockInfo: boolean;
  /** Provider processes of the killed run still running after the kill. */
  readonly orphansAfterKill: number;
  /** The next apply's exit code (0 expected, without force-unlock). */
  readonly nextApplyExit: number | null;
  /** Objects the next apply adopted through import on conflict. */
  readonly adopted: number;
  /** The plan after it: exit code of `plan -detailed-exitcode` (0: no changes). */
  readonly planExit: number | null;
  readonly configObjects: number;
  readonly finalEndpoint: number;
  readonly finalState: number;
  /** Config objects missing from the endpoint or from state. */
  readonly lost: number;
  /** Endpoint objects not in state, or in state more than once. */
  readonly leaks: number;
  /** Names created more than once (successful creates minus deletes above 1). */
  readonly duplicates: number;
  /** State files (state, backup) that do not parse after convergence, plus a journal left over. */
  readonly corrupt: number;
  /** Provider processes of the killed run still running after the next apply, plus socket directories left. */
  readonly orphansAfterNext: number;
  /** How long the trial took. */
  readonly seconds: number;
}

/** Options of {@link runKillTrial}. */
export interface KillTrialOptions {
  readonly fake: FakeAws;
  readonly trial: number;
  readonly moment: KillMoment;
  readonly random: () => number;
  /** For `state-write`: the phase to kill in (default: `journal` or `torn` at random). */
  readonly writePhase?: "journal" | "torn";
  /** Prints progress (default: nothing). */
  readonly log?: (line: string) => void;
}

/** Runs one kill trial in its own temp working directory (removed afterwards). */
export async function runKillTrial(o: KillTrialOptions): Promise<KillTrialResult> {
  const started = Date.now();
  const { fake, random } = o;
  const prefix = `/kill/t${o.trial}`;
  const root = mkdtempSync(join(tmpdir(), "magma-kill-"));
  const dir = join(root, "wd");
  const tmp = join(root, "tmp");
  mkdirSync(dir);
  mkdirSync(tmp);
  try {
    writeFileSync(join(dir, "main.tf"), `${awsFakeHcl(fake.url)}\n${killTrialConfig(prefix)}`);
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: writeTerraformCliConfig(root), TMPDIR: tmp, CHECKPOINT_DISABLE: "1", AWS_EC2_METADATA_DISABLED: "true" };
    delete env[PAUSE_ENV];
    const init = await runMagma(["init", "-input=false"], dir, env);
    if (init.code !== 0) throw new Error(`magma init failed (${String(init.code)}): ${init.stderr}`);

    // ----- the run to kill -----
    let fault: InjectedFault | undefined;
    const killEnv = { ...env };
    let pauseWrite = 0;
    let pausePhase = "";
    if (o.moment === "provider-call") {
      // Hold the k-th PutParameter at the endpoint: the provider call is in flight.
      const k = 1 + Math.floor(random() * 50);
      fault = fake.inject({ action: "PutParameter", service: "ssm", nth: k, delayMs: 4000 });
    } else if (o.moment === "apply-before-persist" || o.moment === "state-write") {
      // State writes are group commits that do not block the process: how many an apply makes
      // depends on timing (one per object when the disk is fast, 11–17 for case 1's 100
      // objects on a loaded machine, where a write takes as long as several provider calls).
      // The first six happen in every run: three dependent levels of provider calls take
      // longer than six writes.
      pauseWrite = 1 + Math.floor(random() * 6);
      pausePhase = o.moment === "apply-before-persist" ? "begin" : (o.writePhase ?? (random() < 0.5 ? "journal" : "torn"));
      killEnv[PAUSE_ENV] = `${pauseWrite}:${pausePhase}:60000`;
    }
    const putsBefore = fake.callsOf("PutParameter").length;
    const run = startMagma(["apply", "-auto-approve", "-json", "-input=false"], dir, killEnv);
    let landed = "";
    const ended = (): boolean => run.child.exitCode !== null || run.child.signalCode !== null;
    if (o.moment === "planning") {
      // Once the provider process is up (its socket directory recorded), wait a random while.
      await waitUntil(() => providerRecords(tmp).some((r) => r.providerPid !== null) || ended(), 120_000);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
    } else if (fault !== undefined) {
      await waitUntil(() => fault!.hits > 0 || ended(), 180_000);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 2000)));
    } else {
      await waitUntil(() => run.stderr.join("").includes(`state write ${pauseWrite} paused at ${pausePhase}`) || ended(), 180_000);
    }
    const wasRunning = !ended();
    if (wasRunning) process.kill(run.child.pid!, "SIGKILL");
    await run.exited;
    // What was observed at the kill.
    const ui = uiMessages(run.stdout);
    const completes = ui.filter((m) => m.type === "apply_complete").length;
    const planned = ui.some((m) => m.type === "planned_change" || m.type === "change_summary");
    const putsAtKill = fake.callsOf("PutParameter").length - putsBefore;
    if (!wasRunning) landed = `not killed: magma had exited (${String(run.child.exitCode)})`;
    else if (o.moment === "planning") landed = planned ? `after planning (${completes} applied, ${putsAtKill} PutParameter answered)` : `planning (no plan output, ${putsAtKill} PutParameter answered)`;
    else if (fault !== undefined) {
      landed = fault.hits > 0 ? `PutParameter #${fault.options.nth ?? 1} held at the endpoint (${completes} applied)` : `before PutParameter #${fault.options.nth ?? 1}`;
    } else landed = `state write ${pauseWrite} paused at ${pausePhase} (${completes} applied)`;
    o.log?.(`trial ${o.trial}: killed at ${landed}`);
    // Let the endpoint finish what was in flight (a held PutParameter lands after the kill).
    if (fault !== undefined && fault.hits > 0) await waitUntil(() => fake.calls.some((c) => c.faultIds.includes(fault!.id)), 30_000);
    fault?.remove();
    const afterKill = await committedState(dir);
    const killedProviders = providerRecords(tmp).filter((r) => r.hostPid === run.child.pid);
    const orphansAfterKill = killedProviders.filter((r) => r.providerPid !== null && !isGone(r.providerPid)).length;
    const staleLockInfo = existsSync(join(dir, ".terraform.tfstate.lock.info"));
    const endpointAfterKill = fake.state().ssmParameters.filter((p) => p.name.startsWith(`${prefix}/`)).length;

    // ----- the next apply: must converge, without force-unlock -----
    const next = await runMagma(["apply", "-auto-approve", "-json", "-input=false", "-import-on-conflict"], dir, env);
    const adopted = uiMessages(next.stdout).filter((m) => m.type === "import_on_conflict" && m.outcome === "adopted").length;
    if (next.code !== 0) o.log?.(`trial ${o.trial}: next apply exit ${String(next.code)}: ${next.stderr.slice(-2000)} ${next.stdout.filter((l) => l.includes('"error"')).join("\n").slice(-2000)}`);
    const plan = await runMagma(["plan", "-detailed-exitcode", "-input=false", "-no-color"], dir, env);
    if (plan.code !== 0) o.log?.(`trial ${o.trial}: plan exit ${String(plan.code)}: ${plan.stdout.join("\n").slice(-1500)} ${plan.stderr.slice(-1500)}`);

    // ----- the counts -----
    let corrupt = 0;
    let finalState: StateFile | undefined;
    for (const f of ["terraform.tfstate", "terraform.tfstate.backup"]) {
      const p = join(dir, f);
      if (!existsSync(p)) continue;
      try {
        const s = readStateFile(readFileSync(p));
        if (f === "terraform.tfstate") finalState = s;
      } catch {
        corrupt++;
      }
    }
    if (existsSync(join(dir, "terraform.tfstate.magma-new"))) corrupt++;
    const inState = stateObjects(finalState);
    const endpoint = fake.state().ssmParameters.filter((p) => p.name.startsWith(`${prefix}/`)).map((p) => p.name);
    const stateCount = new Map<string, number>();
    for (const s of inState) stateCount.set(s.name, (stateCount.get(s.name) ?? 0) + 1);
    const expected = [...killTrialConfig(prefix).matchAll(/name {2}= "([^"]+)"/g)].map((m) => m[1]!);
    const lost = expected.filter((n) => !endpoint.includes(n) || !stateCount.has(n)).length;
    const leaks = endpoint.filter((n) => stateCount.get(n) !== 1).length + inState.filter((s) => !endpoint.includes(s.name)).length;
    const creates = new Map<string, number>();
    for (const c of fake.callsOf("PutParameter")) {
      const name = String(c.params["Name"]);
      if (!name.startsWith(`${prefix}/`) || c.status !== 200 || c.params["Overwrite"] === true) continue;
      creates.set(name, (creates.get(name) ?? 0) + 1);
    }
    for (const c of fake.callsOf("DeleteParameter")) {
      const name = String(c.params["Name"]);
      if (c.status === 200 && creates.has(name)) creates.set(name, creates.get(name)! - 1);
    }
    const duplicates = [...creates.values()].filter((n) => n > 1).length;
    const orphansAfterNext =
      killedProviders.filter((r) => r.providerPid !== null && !isGone(r.providerPid)).length + providerRecords(tmp).length;
    return {
      trial: o.trial,
      moment: o.moment,
      landed,
      appliedBeforeKill: completes,
      endpointAfterKill,
      persistedAfterKill: stateObjects(afterKill.state).length,
      stateFileParsedAfterKill: afterKill.rawParses,
      stateFileObjectsAfterKill: afterKill.rawObjects,
      journalAfterKill: afterKill.journal,
      staleLockInfo,
      orphansAfterKill,
      nextApplyExit: next.code,
      adopted,
      planExit: plan.code,
      configObjects: expected.length,
      finalEndpoint: endpoint.length,
      finalState: inState.length,
      lost,
      leaks,
      duplicates,
      corrupt,
      orphansAfterNext,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    // Never leave a provider of ours behind, whatever happened above.
    for (const r of providerRecords(tmp)) if (r.providerPid !== null && !isGone(r.providerPid)) process.kill(r.providerPid, "SIGKILL");
    rmSync(root, { recursive: true, force: true });
  }
}

/** The per-trial table (Markdown) for docs/reliability.md. */
export function killTrialTable(results: readonly KillTrialResult[]): string {
  const head =
    "| trial | moment | where the kill landed | applied before | endpoint after kill | persisted after kill | state file parses (its objects) / journal | stale lock info | orphans after kill | next apply (exit) | adopted | plan after (exit) | final endpoint = state (of config) | lost | leaks | duplicates | corrupt | orphans after next | s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  const rows = results.map(
    (r) =>
      `| ${r.trial} | ${r.moment} | ${r.landed} | ${r.appliedBeforeKill} | ${r.endpointAfterKill} | ${r.persistedAfterKill} | ${r.stateFileParsedAfterKill ? `yes (${r.stateFileObjectsAfterKill})` : "no"} / ${r.journalAfterKill ? "yes" : "no"} | ${r.staleLockInfo ? "yes" : "no"} | ${r.orphansAfterKill} | ${String(r.nextApplyExit)} | ${r.adopted} | ${String(r.planExit)} | ${r.finalEndpoint} = ${r.finalState} (${r.configObjects}) | ${r.lost} | ${r.leaks} | ${r.duplicates} | ${r.corrupt} | ${r.orphansAfterNext} | ${r.seconds} |`,
  );
  return [head, ...rows].join("\n");
}
