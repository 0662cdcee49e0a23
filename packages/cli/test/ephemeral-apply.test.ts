// Ephemeral resources during an apply, against terraform 1.11.4 on the same files in both
// syntaxes: an ephemeral random_password feeding a provider configuration through an ephemeral
// output of a child module, and an ephemeral eph_token (test/testdata/ephemeral-provider.mjs,
// which records its opens, closes and the secrets it handed out) whose prefix is an ephemeral
// variable, feeding a second provider configuration. A saved plan is refused without the
// ephemeral variable set when planning, and applied with it: each walk (the saved plan's, an
// apply without changes in -json, an interrupted apply) opens the ephemeral resources again,
// configures the providers with the new values (the probes record the token's length) and
// closes every instance it opened, in terraform's order relative to the resources that need
// them. Then a scan: no secret the provider handed out or was configured with is in the
// state, its backup, the plan file (its msgpack values decoded), magma's output or its
// TF_LOG=trace log. Skipped without terraform.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { comparableText, initialisedPair, stableState, type Pair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun, type ToolRunOptions } from "./support/side-by-side.js";
import { planFileText } from "./support/plan-file-text.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

let cli: string | undefined;
/** The CLI configuration serving magma/random and magma/eph. */
function cliConfig(): string {
  cli ??= testProvidersCliConfig({ random: "random-provider.mjs", eph: "ephemeral-provider.mjs" });
  return cli;
}

const ROOT_TF = `terraform {
  required_providers {
    eph    = { source = "magma/eph" }
    random = { source = "magma/random" }
  }
}
variable "v" {
  type      = string
  ephemeral = true
}
ephemeral "random_password" "p" {
  length  = 12
  special = false
}
module "m" {
  source = "./m"
  pw     = ephemeral.random_password.p.result
}
provider "eph" {
  token = module.m.tok
}
provider "eph" {
  alias = "plain"
}
provider "eph" {
  alias = "second"
  token = ephemeral.eph_token.t.value
}
ephemeral "eph_token" "t" {
  provider = eph.plain
  prefix   = var.v
}
resource "eph_probe" "a" {
  name = "a"
}
resource "eph_probe" "b" {
  provider = eph.second
  name     = "b"
}
output "lengths" {
  value = [eph_probe.a.token_length, eph_probe.b.token_length]
}
`;

const CHILD_TF = `variable "pw" {
  type      = string
  ephemeral = true
}
output "tok" {
  value     = "m-\${var.pw}"
  ephemeral = true
}
`;

const ROOT_JSON = JSON.stringify({
  terraform: { required_providers: { eph: { source: "magma/eph" }, random: { source: "magma/random" } } },
  variable: { v: { type: "string", ephemeral: true } },
  ephemeral: { random_password: { p: { length: 12, special: false } }, eph_token: { t: { provider: "eph.plain", prefix: "${var.v}" } } },
  module: { m: { source: "./m", pw: "${ephemeral.random_password.p.result}" } },
  provider: { eph: [{ token: "${module.m.tok}" }, { alias: "plain" }, { alias: "second", token: "${ephemeral.eph_token.t.value}" }] },
  resource: { eph_probe: { a: { name: "a" }, b: { provider: "eph.second", name: "b" } } },
  output: { lengths: { value: "${[eph_probe.a.token_length, eph_probe.b.token_length]}" } },
});

const CHILD_JSON = JSON.stringify({
  variable: { pw: { type: "string", ephemeral: true } },
  output: { tok: { value: "m-${var.pw}", ephemeral: true } },
});

/** One command of {@link runBoth}: its arguments, and what the run adds (environment, an interrupt). */
interface Step {
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly options?: ToolRunOptions;
}

/** Runs the steps in order in both directories, each tool with its own record file (`rec.txt`); magma with TF_LOG=trace into `magma.log`. */
async function runBoth(pair: Pair, steps: readonly Step[]): Promise<[ToolRun, ToolRun][]> {
  const each = async (tool: "magma" | "terraform", dir: string): Promise<ToolRun[]> => {
    const out: ToolRun[] = [];
    for (const s of steps) {
      const env = { EPH_RECORD_FILE: join(dir, "rec.txt"), ...s.env, ...(tool === "terraform" ? { TF_CLI_CONFIG_FILE: cliConfig() } : { TF_LOG: "trace", TF_LOG_PATH: join(dir, "magma.log") }) };
      out.push(await runTool(tool, [s.args[0]!, "-no-color", "-input=false", ...s.args.slice(1)], dir, env, s.options));
    }
    return out;
  };
  const [ours, theirs] = await Promise.all([each("magma", pair[0]), each("terraform", pair[1])]);
  return ours.map((o, i) => [o, theirs[i]!]);
}

const EPHEMERAL_LINE = /^ephemeral\.\S+: /;

/** The ephemeral resources' lines, sorted (instances opened side by side print in any order). */
function ephemeralLines(run: ToolRun): string[] {
  return run.stdout.split("\n").filter((l) => EPHEMERAL_LINE.test(l)).map((l) => l.replace(/after \d+s/, "after Ns")).sort();
}

/** The index of the first line of `run`'s stdout starting with `text`. */
function lineAt(run: ToolRun, text: string): number {
  const i = run.stdout.split("\n").findIndex((l) => l.startsWith(text));
  if (i < 0) throw new Error(`no line ${JSON.stringify(text)} in:\n${run.stdout}`);
  return i;
}

/** terraform's order during an apply: each ephemeral resource is open before the objects that need it start, and closed only after they are done. */
function expectApplyOrder(run: ToolRun): void {
  const at = (t: string): number => lineAt(run, t);
  expect(at("ephemeral.random_password.p: Opening complete")).toBeLessThan(at("eph_probe.a: Creating..."));
  expect(at("eph_probe.a: Creation complete")).toBeLessThan(at("ephemeral.random_password.p: Closing..."));
  expect(at("ephemeral.eph_token.t: Opening complete")).toBeLessThan(at("eph_probe.b: Creating..."));
  expect(at("eph_probe.b: Creation complete")).toBeLessThan(at("ephemeral.eph_token.t: Closing..."));
  expect(at("ephemeral.eph_token.t: Closing complete")).toBeLessThan(at("Apply complete!"));
}

/** The record file: the ids opened and closed (each sorted), and every secret handed out or configured. */
function record(dir: string): { opens: string[]; closes: string[]; secrets: string[] } {
  const lines = readFileSync(join(dir, "rec.txt"), "utf8").split("\n");
  const opens = lines.filter((l) => l.startsWith("open ")).map((l) => l.split(" "));
  return {
    opens: opens.map((o) => o[1]!).sort(),
    closes: lines.filter((l) => l.startsWith("close ")).map((l) => l.slice(6)).sort(),
    secrets: [...opens.map((o) => o[2]!), ...lines.filter((l) => l.startsWith("configure ")).map((l) => l.slice(10))],
  };
}

/** The -json messages (but the version): their types, with each ephemeral operation's address and action; sorted (what the walks do side by side is printed in any order). */
function jsonMessages(run: ToolRun): string[] {
  return run.stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { type: string; hook?: { resource: { addr: string }; action?: string } })
    .filter((m) => m.type !== "version")
    .map((m) => (m.type.startsWith("ephemeral_op") ? `${m.type} ${m.hook!.resource.addr} ${m.hook!.action}` : m.type))
    .sort();
}

/**
 * The ephemeral variable, the eph_token's prefix, itself a secret to scan for: given in the
 * environment (terraform and magma both log their command line).
 */
const V = { TF_VAR_v: "zq7-" };
/** The saved plan, refused without its ephemeral variable, then applied with it. */
const SAVED: readonly Step[] = [{ args: ["plan", "-out=p.tfplan"], env: V }, { args: ["apply", "p.tfplan"] }, { args: ["apply", "p.tfplan"], env: V }];
/** An apply without changes in -json, an apply interrupted while the probe's create is under way, and a destroy (whose providers need the ephemeral values too). */
const MORE: readonly Step[] = [
  { args: ["apply", "-auto-approve", "-json"], env: V },
  { args: ["apply", "-auto-approve", "-replace=eph_probe.b"], env: { ...V, EPH_SLOW_MS: "4000" }, options: { interruptAfter: /eph_probe\.b: Creating\.\.\./ } },
  { args: ["destroy", "-auto-approve"], env: V },
];

// The walks that do not depend on the syntax (-json, the interrupt) run in native syntax only, to keep the test short.
d.each([
  ["native", { "main.tf": ROOT_TF, "m/main.tf": CHILD_TF }, [...SAVED, ...MORE]],
  ["JSON", { "main.tf.json": ROOT_JSON, "m/main.tf.json": CHILD_JSON }, SAVED],
] as const)("ephemeral resources during apply (%s syntax)", (syntax, files, steps) => {
  test("a saved plan needs its ephemeral variable again; each apply opens and closes them as terraform does, feeds the providers, and no secret is left anywhere", async () => {
    const pair = await initialisedPair(files, cliConfig());
    const runs = await runBoth(pair, steps);
    // terraform prints its stop hook's "Stopping operation..." before or after the interrupt notice (two goroutines): compared as the notice's last line.
    const stopping = (s: string): string => (s.includes("Stopping operation...\n") ? `${s.replace("Stopping operation...\n", "")}\n[Stopping operation...]` : s);
    const rest = (r: ToolRun): string => comparableText(stopping(r.stdout.split("\n").filter((l) => !EPHEMERAL_LINE.test(l)).join("\n")));
    runs.forEach(([ours, theirs], i) => {
      if (steps[i]!.args.includes("-json")) return;
      const command = steps[i]!.args.join(" ");
      // After an interrupt terraform closes nothing (below): only the lines of the other walks are compared (a destroy's
      // too: its plan opens them twice, as terraform's refresh walk and destroy walk).
      const eph = (r: ToolRun): string[] => (steps[i]!.options?.interruptAfter !== undefined ? [] : ephemeralLines(r));
      expect({ command, code: ours.code, ephemeral: eph(ours), stdout: rest(ours), stderr: ours.stderr }).toEqual({ command, code: theirs.code, ephemeral: eph(theirs), stdout: rest(theirs), stderr: theirs.stderr });
    });
    // Without the ephemeral variable the saved plan is refused; with it, the apply opens both again (plan, apply) and closes them.
    expect(runs[1]![0].code).toBe(1);
    for (const r of runs[2]!) expectApplyOrder(r);
    expect(ephemeralLines(runs[2]![0])).toHaveLength(8);
    const [ours, theirs] = [record(pair[0]), record(pair[1])];
    expect(ours.closes).toEqual(ours.opens);
    if (syntax === "native") {
      // An apply without changes still walks them (in its plan and in its apply), in -json as terraform's messages.
      expect(runs[3]![0].code).toBe(0);
      expect(jsonMessages(runs[3]![0])).toEqual(jsonMessages(runs[3]![1]));
      // The interrupted apply: magma closes what it opened; terraform 1.11.4 skips the close of the token it opened for the apply.
      expect(runs[4]![0].code).toBe(1);
      expect(ephemeralLines(runs[4]![0])).toContain("ephemeral.eph_token.t: Closing complete after Ns");
      // terraform 1.11.4 left one eph_token open (the interrupted apply's, whose probe b is gone since).
      expect(theirs.closes).toHaveLength(theirs.opens.length - 1);
      expect(ours.opens.length).toBeGreaterThanOrEqual(6);
      // The destroy's apply opens the random_password again for the provider that deletes probe a, before it does.
      const destroyed = runs[5]![0].stdout;
      const opened = destroyed.indexOf("ephemeral.random_password.p: Opening complete", destroyed.indexOf("Plan:"));
      expect(opened).toBeGreaterThan(0);
      expect(opened).toBeLessThan(destroyed.indexOf("eph_probe.a: Destroying..."));
      // The destroy plan's two walks and its apply open random_password (its provider deletes probe a); eph_token feeds
      // only the provider of probe b, gone since the interrupt: only the first walk (a normal plan) opens it, as terraform's.
      const opens = (what: string): number => ephemeralLines(runs[5]![0]).filter((l) => l === `ephemeral.${what}: Opening complete after Ns`).length;
      expect([opens("random_password.p"), opens("eph_token.t")]).toEqual([3, 1]);
    } else {
      expect(theirs.closes).toEqual(theirs.opens);
      expect(ours.opens).toHaveLength(2);
    }
    // The providers were configured with the values opened by the apply: token lengths 2 + 12 and 4 + 16 (native: before the destroy, in the backup, without b since the interrupt).
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
    if (syntax === "native") expect(readFileSync(join(pair[0], "terraform.tfstate.backup"), "utf8")).toMatch(/"token_length": 14/);
    else expect(JSON.stringify(stableState(pair[0]))).toContain("[14,20]");
    // The scan: no secret handed out or configured is anywhere magma wrote.
    expect(ours.secrets.length).toBeGreaterThanOrEqual(4);
    const places: [string, string][] = [
      ["terraform.tfstate", readFileSync(join(pair[0], "terraform.tfstate"), "utf8")],
      ["terraform.tfstate.backup", existsSync(join(pair[0], "terraform.tfstate.backup")) ? readFileSync(join(pair[0], "terraform.tfstate.backup"), "utf8") : ""],
      ["p.tfplan", planFileText(join(pair[0], "p.tfplan"))],
      ["magma.log", readFileSync(join(pair[0], "magma.log"), "utf8")],
      ...runs.flatMap(([r], i): [string, string][] => [
        [`stdout of ${steps[i]!.args.join(" ")}`, r.stdout],
        [`stderr of ${steps[i]!.args.join(" ")}`, r.stderr],
      ]),
    ];
    // (The log is the trace of every call: it names the ephemeral resource it opened.)
    expect(places[3]![1]).toContain("eph_token");
    for (const [where, text] of places) for (const s of ["zq7-", ...ours.secrets]) expect({ where, found: text.includes(s) ? s : undefined }).toEqual({ where, found: undefined });
  }, 600_000);
});
