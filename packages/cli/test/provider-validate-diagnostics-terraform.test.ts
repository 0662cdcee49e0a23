// The providers' own validation diagnostics (ValidateProviderConfig, ValidateResourceConfig,
// ValidateDataResourceConfig) against terraform 1.11.4 on the same files, native and JSON
// syntax, with hashicorp/aws 5.100.0 (offline configuration; nothing here reaches AWS).
// Terraform calls them in its validate walk (`validate`, and before every plan) with the
// configuration evaluated from unknown inputs, and again as it plans each instance and reads
// each data source; each diagnostic is placed at the attribute (or block) its path names, with
// the object's address (`with aws_s3_bucket.c,`).
//
// - "warnings": deprecated arguments (`acl`, a `versioning` block under `count`, a data source's
//   `override_json`): `validate` warns once each, `plan` twice (the walk's and the plan's; the
//   human view consolidates them).
// - "errors": an invalid `assume_role.duration` in an aliased provider block and a data source
//   argument the provider refuses: `validate` and `plan` fail with both, each once; the
//   resource of the failed provider configuration is not validated (no `acl` warning; the data
//   source's deprecated `source_json` still warns).
//
// Compared: exit code, stdout and stderr byte for byte; `-json` output as its lines (timestamps
// removed) sorted, since terraform's walk is concurrent and the AWS provider reports the
// diagnostics of one object in Go's map order. Skipped without terraform and the AWS provider.
import { AWS_OFFLINE_HCL, hasAwsProvider, hasTerraform, tfToJson } from "@magma/test-support";
import { initialisedPair, type Pair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { mirrorCliConfig, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = hasTerraform() && hasAwsProvider() ? describe : describe.skip;

const WARNINGS = `${AWS_OFFLINE_HCL}
variable "name" {
  type    = string
  default = "bkt"
}
resource "aws_s3_bucket" "b" {
  bucket = "x"
  acl    = "private"
}
resource "aws_s3_bucket" "c" {
  count  = 2
  bucket = "\${var.name}-\${count.index}"
  versioning {
    enabled = true
  }
}
data "aws_iam_policy_document" "d" {
  override_json = ""
  statement {
    actions   = ["s3:GetObject"]
    resources = ["*"]
  }
}
output "policy" {
  value = data.aws_iam_policy_document.d.json
}
`;

const ERRORS = `${AWS_OFFLINE_HCL}
provider "aws" {
  alias      = "bad"
  region     = "us-east-1"
  access_key = "test"
  secret_key = "test"
  assume_role {
    role_arn = "arn:aws:iam::123456789012:role/x"
    duration = "bogus"
  }
}
resource "aws_s3_bucket" "b" {
  provider = aws.bad
  bucket   = "x"
  acl      = "private"
}
data "aws_iam_policy_document" "d" {
  source_json = jsonencode({ Version = "2012-10-17", Statement = [] })
}
`;

/** Runs each command (`-no-color` added) in both directories, each tool's in order, the tools side by side; the runs by command, magma's first. */
async function runBoth(pair: Pair, commands: readonly (readonly string[])[], cliConfig: string): Promise<[ToolRun, ToolRun][]> {
  const each = async (tool: "magma" | "terraform", dir: string): Promise<ToolRun[]> => {
    const out: ToolRun[] = [];
    for (const c of commands) out.push(await runTool(tool, [c[0]!, "-no-color", ...c.slice(1)], dir, tool === "terraform" ? { TF_CLI_CONFIG_FILE: cliConfig } : {}));
    return out;
  };
  const [ours, theirs] = await Promise.all([each("magma", pair[0]), each("terraform", pair[1])]);
  return ours.map((o, i) => [o, theirs[i]!]);
}

/** What is compared: `-json` output as its lines without timestamps, sorted; other output as it is. */
function comparable(r: ToolRun, command: readonly string[]): unknown {
  if (!command.includes("-json")) return { command: command.join(" "), code: r.code, stdout: r.stdout, stderr: r.stderr };
  const lines = r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/"@timestamp":"[^"]*"/, ""));
  // validate -json is one indented document: its diagnostics sorted, the rest as it is.
  if (command[0] === "validate") {
    const doc = JSON.parse(r.stdout) as { diagnostics: unknown[] };
    const diagnostics = doc.diagnostics.map((x) => JSON.stringify(x)).sort();
    return { command: command.join(" "), code: r.code, doc: { ...doc, diagnostics }, stderr: r.stderr };
  }
  return { command: command.join(" "), code: r.code, lines: lines.sort(), stderr: r.stderr };
}

const SYNTAXES = [
  ["native", (text: string): Record<string, string> => ({ "main.tf": text })],
  ["JSON", (text: string): Record<string, string> => ({ "main.tf.json": tfToJson(text) })],
] as const;

d.each(SYNTAXES)("provider validation diagnostics as terraform's (%s syntax)", (_syntax, files) => {
  test("deprecated arguments: validate warns once each, plan twice (walk and plan), at the attribute or block", async () => {
    const cliConfig = mirrorCliConfig();
    const pair = await initialisedPair(files(WARNINGS), cliConfig);
    const commands = [["validate"], ["validate", "-json"], ["plan"], ["plan", "-json"]];
    const runs = await runBoth(pair, commands, cliConfig);
    runs.forEach(([ours, theirs], i) => expect(comparable(ours, commands[i]!)).toEqual(comparable(theirs, commands[i]!)));
    const [validate, validateJson, plan, planJson] = runs.map(([ours]) => ours);
    expect(validate!.code).toBe(0);
    expect(validate!.stdout).toContain("Warning: Argument is deprecated");
    expect(validate!.stdout).toContain("(and 2 more similar warnings elsewhere)");
    const found = (JSON.parse(validateJson!.stdout) as { diagnostics: { detail: string; address: string; range?: unknown }[] }).diagnostics;
    expect(found.map((x) => `${x.address}: ${x.detail.split(" ")[0]}`).sort()).toEqual(["aws_s3_bucket.b: acl", "aws_s3_bucket.c: versioning", "data.aws_iam_policy_document.d: override_json"]);
    for (const x of found) expect(x.range).toBeDefined();
    expect(plan!.code).toBe(0);
    expect(plan!.stdout).toContain("Plan: 3 to add, 0 to change, 0 to destroy.");
    // The walk's three, then the plan's: b, c[0], c[1] and the data source read.
    const planned = planJson!.stdout.split("\n").filter((l) => l.includes('"type":"diagnostic"'));
    expect(planned).toHaveLength(7);
    expect(planned.filter((l) => l.includes('"address":"aws_s3_bucket.c[1]"'))).toHaveLength(1);
  }, 900_000);

  test("errors in a provider block and a data source: validate and plan fail with each once, at the attribute; the bad provider's resource is not validated", async () => {
    const cliConfig = mirrorCliConfig();
    const pair = await initialisedPair(files(ERRORS), cliConfig);
    const commands = [["validate"], ["validate", "-json"], ["plan"]];
    const runs = await runBoth(pair, commands, cliConfig);
    runs.forEach(([ours, theirs], i) => expect(comparable(ours, commands[i]!)).toEqual(comparable(theirs, commands[i]!)));
    const [validate, , plan] = runs.map(([ours]) => ours);
    for (const r of [validate!, plan!]) {
      expect(r.code).toBe(1);
      expect(r.stderr.match(/Error: "assume_role.0.duration" cannot be parsed as a duration/g)).toHaveLength(1);
      expect(r.stderr).toContain('  with provider["registry.terraform.io/hashicorp/aws"].bad,');
      expect(r.stderr.match(/Error: expected "source_json" to be an empty string/g)).toHaveLength(1);
      expect(r.stderr).toContain("  with data.aws_iam_policy_document.d,");
      // The resource of the failed provider configuration is not validated (terraform's walk skips it).
      expect(`${r.stdout}${r.stderr}`).not.toContain("acl is deprecated");
    }
  }, 900_000);
});
