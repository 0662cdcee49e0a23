// An ephemeral resource's preconditions and postconditions against terraform 1.11.4 on the
// same files in both syntaxes, with the recording native provider (test/testdata/ephemeral-provider.mjs,
// served to terraform by provider-server): a precondition is checked before each open and a
// postcondition (`self`, the opened value) after it, while planning and again while applying,
// with terraform's diagnostics; a precondition that holds while planning but not while applying
// (`terraform.applying`) fails the apply; an error message built from an ephemeral value is not
// shown (terraform's warning, even when the condition holds); every instance magma opened is
// closed (terraform 1.11.4 leaves open the one whose postcondition failed and the one of the
// failed apply). `terraform.applying` is true while applying. Skipped without terraform.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { comparableText, initialisedPair, type Pair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

let cli: string | undefined;
/** The CLI configuration serving magma/eph. */
const cliConfig = (): string => (cli ??= testProvidersCliConfig({ eph: "ephemeral-provider.mjs" }));

const TF = `terraform {
  required_providers {
    eph = { source = "magma/eph" }
  }
}
variable "pre" {
  type    = bool
  default = true
}
variable "prefix" {
  type    = string
  default = "p-"
}
provider "eph" {
  alias = "plain"
}
ephemeral "eph_token" "t" {
  provider = eph.plain
  prefix   = var.prefix
  lifecycle {
    precondition {
      condition     = var.pre
      error_message = "The precondition of t failed."
    }
    postcondition {
      condition     = startswith(self.value, "p-")
      error_message = "The token must start with p-, not \${self.prefix}."
    }
  }
}
provider "eph" {
  token = ephemeral.eph_token.t.value
}
resource "eph_probe" "a" {
  name = "a"
}
`;

const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { eph: { source: "magma/eph" } } },
  variable: { pre: { type: "bool", default: true }, prefix: { type: "string", default: "p-" } },
  ephemeral: {
    eph_token: {
      t: {
        provider: "eph.plain",
        prefix: "${var.prefix}",
        lifecycle: {
          precondition: [{ condition: "${var.pre}", error_message: "The precondition of t failed." }],
          postcondition: [{ condition: '${startswith(self.value, "p-")}', error_message: "The token must start with p-, not ${self.prefix}." }],
        },
      },
    },
  },
  provider: { eph: [{ token: "${ephemeral.eph_token.t.value}" }, { alias: "plain" }] },
  resource: { eph_probe: { a: { name: "a" } } },
});

/** A second ephemeral resource whose precondition holds while planning only. */
const APPLYING_TF = `ephemeral "eph_token" "only_planning" {
  prefix = "o-"
  lifecycle {
    precondition {
      condition     = !terraform.applying
      error_message = "Opened while planning only."
    }
  }
}
`;
const APPLYING_JSON = JSON.stringify({
  ephemeral: { eph_token: { only_planning: { prefix: "o-", lifecycle: { precondition: [{ condition: "${!terraform.applying}", error_message: "Opened while planning only." }] } } } },
});

const EPHEMERAL_LINE = /^ephemeral\.\S+: /;

/** A run as compared: its code, its ephemeral lines sorted (instances opened side by side print in any order), the rest of stdout, stderr. */
function comparable(r: ToolRun): { code: number | null; ephemeral: string[]; stdout: string; stderr: string } {
  const lines = r.stdout.split("\n");
  return {
    code: r.code,
    ephemeral: lines.filter((l) => EPHEMERAL_LINE.test(l)).map((l) => l.replace(/after \d+s/, "after Ns")).sort(),
    stdout: comparableText(lines.filter((l) => !EPHEMERAL_LINE.test(l)).join("\n")),
    stderr: comparableText(r.stderr),
  };
}

/** Runs `args` in both directories (each with its own record file), magma's run first. */
async function both(pair: Pair, args: readonly string[]): Promise<[ToolRun, ToolRun]> {
  const env = (dir: string): Record<string, string> => ({ EPH_RECORD_FILE: join(dir, "rec.txt") });
  return Promise.all([
    runTool("magma", [args[0]!, "-no-color", "-input=false", ...args.slice(1)], pair[0], env(pair[0])),
    runTool("terraform", [args[0]!, "-no-color", "-input=false", ...args.slice(1)], pair[1], { ...env(pair[1]), TF_CLI_CONFIG_FILE: cliConfig() }),
  ]);
}

/** The ids opened and closed in a directory's record file (each sorted). */
function record(dir: string): { opens: string[]; closes: string[] } {
  const lines = readFileSync(join(dir, "rec.txt"), "utf8").split("\n");
  return { opens: lines.filter((l) => l.startsWith("open ")).map((l) => l.split(" ")[1]!).sort(), closes: lines.filter((l) => l.startsWith("close ")).map((l) => l.slice(6)).sort() };
}

d.each([
  ["native", { "main.tf": TF }, { "applying.tf": APPLYING_TF }],
  ["JSON", { "main.tf.json": JSON_CONFIG }, { "applying.tf.json": APPLYING_JSON }],
] as const)("an ephemeral resource's conditions (%s syntax)", (_syntax, files, applying) => {
  test("checked before and after each open while planning and applying, with terraform's diagnostics", async () => {
    const pair = await initialisedPair(files, cliConfig());
    const steps: (readonly string[])[] = [["plan", "-var=pre=false"], ["plan", "-var=prefix=q-"], ["apply", "-auto-approve"]];
    const runs: [ToolRun, ToolRun][] = [];
    for (const args of steps) runs.push(await both(pair, args));
    // A precondition that holds while planning but not while applying: the apply fails on it.
    for (const dir of pair) for (const [name, text] of Object.entries(applying)) writeFileSync(join(dir, name), text);
    const last = ["apply", "-auto-approve", "-replace=eph_probe.a"];
    steps.push(last);
    runs.push(await both(pair, last));
    // After a failed postcondition (the plan with prefix=q-) and in a failed apply, terraform 1.11.4 does not close the
    // instance whose postcondition failed / that it opened for the apply: its close node is skipped when the walk has errors, and the provider never hears of it again (a leak). magma closes it, by decision:
    // issue 36 asks that ephemeral resources be "closed on every error path", and a close is the provider's only chance
    // to end what it opened (a lease, a token). So that run's closing lines, and the record file's closes, are compared
    // apart; everything else (the warnings consolidated and printed after the failed apply's error) is terraform's.
    const closing = (l: string): boolean => / Closing/.test(l);
    const WARNING = "Warning: Error message refers to ephemeral values";
    runs.forEach(([ours, theirs], i) => {
      const command = steps[i]!.join(" ");
      const view = (r: ToolRun): ReturnType<typeof comparable> => {
        const c = comparable(r);
        // The plan whose postcondition fails and the failed apply: magma's closes (see above) left out.
        if (i === 1 || i === 3) return { ...c, ephemeral: c.ephemeral.filter((l) => !closing(l)) };
        return c;
      };
      expect({ command, ...view(ours) }).toEqual({ command, ...view(theirs) });
    });
    // The plan's and the apply's warning consolidated into one, as terraform's view does.
    expect(runs[2]![0].stdout.split(WARNING)).toHaveLength(2);
    expect(runs[2]![0].stdout).toContain("(and one more similar warning elsewhere)");
    // The failed apply still prints its warnings (stdout), as terraform's.
    expect(runs[3]![0].stdout).toMatch(/\nWarning: /);
    // t closed after the plan and after the failed apply; terraform closes only the plan's.
    expect(comparable(runs[3]![0]).ephemeral.filter((l) => l === "ephemeral.eph_token.t: Closing complete after Ns")).toHaveLength(2);
    expect(comparable(runs[3]![1]).ephemeral.filter((l) => l === "ephemeral.eph_token.t: Closing complete after Ns")).toHaveLength(1);
    expect(comparable(runs[1]![0]).ephemeral.filter(closing)).toEqual(["ephemeral.eph_token.t: Closing complete after Ns", "ephemeral.eph_token.t: Closing..."]);
    expect(comparable(runs[1]![1]).ephemeral.filter(closing)).toEqual([]);
    expect(runs.map(([ours]) => ours.code)).toEqual([1, 1, 0, 1]);
    expect(runs[0]![0].stderr).toContain("Error: Resource precondition failed");
    expect(runs[0]![0].stdout).not.toContain("ephemeral.eph_token.t: Opening...");
    expect(runs[1]![0].stdout).toContain("Warning: Error message refers to ephemeral values");
    expect(runs[3]![0].stderr).toContain("Opened while planning only.");
    // The planning walk of the last apply opened only_planning; its apply walk did not.
    expect(comparable(runs[3]![0]).ephemeral.filter((l) => l === "ephemeral.eph_token.only_planning: Opening complete after Ns")).toHaveLength(1);
    // Every instance magma opened was closed; terraform left the one of the failed postcondition open.
    const [ours, theirs] = pair.map(record) as [ReturnType<typeof record>, ReturnType<typeof record>];
    expect(ours.closes).toEqual(ours.opens);
    expect(theirs.closes).toHaveLength(theirs.opens.length - 2);
  }, 600_000);
});
