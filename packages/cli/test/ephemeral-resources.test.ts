// Ephemeral resources and values against terraform 1.11.4 on the same files, in both
// syntaxes: an ephemeral random_password (magma's native provider, served to terraform by
// provider-server) opened and closed while planning, its value flowing into a local but never
// into the state; and terraform's refusals where an ephemeral value would be persisted (a
// managed resource's argument, a non-ephemeral output, count). Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { initialisedPair, pairCliConfig, runPair, stableState } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

const GOOD_TF = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "tok" {
  type      = string
  ephemeral = true
  default   = "tok-secret-value"
}
ephemeral "random_password" "p" {
  length  = 12
  special = false
}
locals {
  l = "\${ephemeral.random_password.p.result}-\${var.tok}"
}
resource "random_string" "s" {
  length = 4
}
output "o" {
  value = length(random_string.s.result)
}
`;

const GOOD_JSON = JSON.stringify({
  terraform: { required_providers: { random: { source: "magma/random" } } },
  variable: { tok: { type: "string", ephemeral: true, default: "tok-secret-value" } },
  ephemeral: { random_password: { p: { length: 12, special: false } } },
  locals: { l: "${ephemeral.random_password.p.result}-${var.tok}" },
  resource: { random_string: { s: { length: 4 } } },
  output: { o: { value: "${length(random_string.s.result)}" } },
});

const BAD_TF = `resource "random_string" "bad" {
  length  = 4
  keepers = { k = ephemeral.random_password.p.result }
}
output "bad" {
  value = var.tok
}
resource "random_string" "c" {
  count  = length(local.l) > 3 ? 1 : 0
  length = 4
}
`;

const BAD_JSON = JSON.stringify({
  resource: {
    random_string: {
      bad: { length: 4, keepers: { k: "${ephemeral.random_password.p.result}" } },
      c: { count: "${length(local.l) > 3 ? 1 : 0}", length: 4 },
    },
  },
  output: { bad: { value: "${var.tok}" } },
});

/** The error diagnostics of a run's stderr: summary and detail (unwrapped), sorted. */
function errors(run: ToolRun): string[] {
  return run.stderr
    .split(/\n(?=Error: )/)
    .filter((b) => b.trimStart().startsWith("Error: "))
    .map((b) => {
      const lines = b.trim().split("\n");
      const summary = lines[0]!;
      const detail = lines.slice(lines.findIndex((l, i) => i > 0 && l === "") + 1).filter((l) => !/^\s+\d+:|^\s+on |^\s+with /.test(l));
      return `${summary} | ${detail.join(" ").replace(/\s+/g, " ").trim()}`;
    })
    .sort();
}

/** The ephemeral operation lines of a run, in order. */
function ephemeralLines(run: ToolRun): string[] {
  return run.stdout.split("\n").filter((l) => l.startsWith("ephemeral.")).map((l) => l.replace(/after \d+s/, "after Ns"));
}

d.each([
  ["native", { "main.tf": GOOD_TF }, { "bad.tf": BAD_TF }],
  ["JSON", { "main.tf.json": GOOD_JSON }, { "bad.tf.json": BAD_JSON }],
] as const)("ephemeral resources (%s syntax)", (_syntax, good, bad) => {
  test("opened and closed while planning; the value never reaches the state; the re-plan has no changes", async () => {
    const pair = await initialisedPair(good);
    const runs = await runPair(pair, [["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]]);
    const [apply, tfApply] = runs[0]!;
    const [replan, tfReplan] = runs[1]!;
    expect(apply.code).toBe(0);
    expect(tfApply.code).toBe(0);
    // The plan's open and close, as terraform's UI prints them (terraform opens the resource again while applying).
    const planPhase = ["Opening...", "Opening complete after Ns", "Closing...", "Closing complete after Ns"].map((t) => `ephemeral.random_password.p: ${t}`);
    expect(ephemeralLines(apply).slice(0, 4)).toEqual(planPhase);
    expect(ephemeralLines(tfApply).slice(0, 4).sort()).toEqual([...planPhase].sort());
    expect(replan.code).toBe(0);
    expect(tfReplan.code).toBe(0);
    expect(ephemeralLines(replan)).toEqual(planPhase);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
    for (const dir of pair) expect(readFileSync(join(dir, "terraform.tfstate"), "utf8")).not.toMatch(/ephemeral|random_password|tok-secret-value/);
  }, 600_000);

  test("graph, graph -type=plan and -type=apply draw the ephemeral resource and its close as terraform does", async () => {
    const pair = await initialisedPair(good);
    for (const args of [["graph"], ["graph", "-type=plan"], ["graph", "-type=apply"]]) {
      const [ours, theirs] = await Promise.all([runTool("magma", args, pair[0], {}), runTool("terraform", args, pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
      // terraform's resources-only graph (no -type) lists a managed and an ephemeral resource in
      // either order (seen both ways: with and without a state, at least): its lines are compared as a set.
      const lines = (s: string): string[] => (args.length === 1 ? s.split("\n").sort() : s.split("\n"));
      expect({ args, code: ours.code, stdout: lines(ours.stdout) }).toEqual({ args, code: 0, stdout: lines(theirs.stdout) });
    }
  }, 600_000);

  test("refused where the value would be persisted: a resource argument, a non-ephemeral output, count", async () => {
    const pair = await initialisedPair({ ...good, ...bad });
    const [ours, theirs] = (await runPair(pair, [["plan"]]))[0]!;
    expect(ours.code).toBe(1);
    expect(theirs.code).toBe(1);
    expect(errors(ours)).toEqual(errors(theirs));
    expect(errors(ours)).toHaveLength(3);
  }, 600_000);
});
