// hashicorp/aws 5.100.0's write-only `aws_ssm_parameter.value_wo`, fed by `ephemeral
// "aws_ssm_parameter"` and updated through `value_wo_version`, against terraform 1.11.4 on the
// same files in both syntaxes, each tool with its own @magma/fake-aws endpoint holding the
// source parameter: the plan (the ephemeral resource opened and closed, `value_wo =
// (write-only attribute)`), the apply, the state, a clean re-plan and the versioned update
// that sends the source's new value. The value reaches the target parameter and never the
// state. (Terraform opens the ephemeral resource again while applying; magma does not yet, so
// the apply runs are compared without their ephemeral lines.) Skipped without terraform and
// the AWS provider.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { awsFakeConfig, awsFakeHcl, hasAwsProvider, hasTerraform } from "@magma/test-support";
import { comparableText, runPair, stableState, type Pair } from "./support/lang-pair.js";
import { stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { mirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const fakes: FakeAws[] = [];
afterAll(async () => {
  stopToolRuns();
  removeWorkdirs();
  await Promise.all(fakes.map((f) => f.close()));
});

const d = hasTerraform() && hasAwsProvider() ? describe : describe.skip;

const SOURCE_ARN = "arn:aws:ssm:us-east-1:123456789012:parameter/wo/source";

const BODY_TF = `variable "ver" {
  type    = number
  default = 1
}
ephemeral "aws_ssm_parameter" "src" {
  arn             = "${SOURCE_ARN}"
  with_decryption = true
}
resource "aws_ssm_parameter" "wo" {
  name             = "/wo/target"
  type             = "SecureString"
  value_wo         = ephemeral.aws_ssm_parameter.src.value
  value_wo_version = var.ver
}
`;

const nativeFiles = (url: string): Record<string, string> => ({ "main.tf": `${awsFakeHcl(url, { maxRetries: 1 })}${BODY_TF}` });

const jsonFiles = (url: string): Record<string, string> => ({
  "main.tf.json": JSON.stringify({
    terraform: { required_providers: { aws: { source: "hashicorp/aws", version: "5.100.0" } } },
    provider: { aws: awsFakeConfig(url, { maxRetries: 1 }) },
    variable: { ver: { type: "number", default: 1 } },
    ephemeral: { aws_ssm_parameter: { src: { arn: SOURCE_ARN, with_decryption: true } } },
    resource: { aws_ssm_parameter: { wo: { name: "/wo/target", type: "SecureString", value_wo: "${ephemeral.aws_ssm_parameter.src.value}", value_wo_version: "${var.ver}" } } },
  }),
});

/** Sets the source parameter's value in a fake, as someone outside the configuration would. */
async function putSource(fake: FakeAws, value: string): Promise<void> {
  const res = await fetch(fake.url, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.PutParameter" },
    body: JSON.stringify({ Name: "/wo/source", Value: value, Type: "SecureString", Overwrite: true }),
  });
  expect(res.status).toBe(200);
}

/** The target parameter's value in a fake. */
function target(fake: FakeAws): string | undefined {
  return fake.state().ssmParameters.find((p) => p.name === "/wo/target")?.value;
}

/** A run's text ({@link comparableText}) without the ephemeral resource's lines (terraform's at apply: see the header; their order among refreshes varies). */
function withoutEphemeral(run: ToolRun): { code: number | null; stdout: string; stderr: string } {
  return { code: run.code, stderr: comparableText(run.stderr), stdout: comparableText(run.stdout.split("\n").filter((l) => !l.startsWith("ephemeral.")).join("\n")) };
}

/** A run's ephemeral resource lines (independent of the refreshes, which run alongside: their order between those varies). */
function ephemeralLines(run: ToolRun): string[] {
  return comparableText(run.stdout)
    .split("\n")
    .filter((l) => l.startsWith("ephemeral."));
}

/** The state with each object's sensitive paths sorted (terraform writes them in Go's map order). */
function sortedPaths(state: unknown): unknown {
  const doc = state as { resources?: { instances: { sensitive_attributes?: unknown[] }[] }[] };
  for (const r of doc.resources ?? []) for (const i of r.instances) if (i.sensitive_attributes !== undefined) i.sensitive_attributes = i.sensitive_attributes.map((p) => JSON.stringify(p)).sort();
  return doc;
}

d.each([
  ["native", nativeFiles],
  ["JSON", jsonFiles],
] as const)("aws_ssm_parameter.value_wo from ephemeral aws_ssm_parameter (%s syntax)", (_syntax, files) => {
  test("plan, apply, state, re-plan and the value_wo_version update as terraform's; the value reaches the parameter, never the state", async () => {
    const pairFakes = [await startFakeAws(), await startFakeAws()] as const;
    fakes.push(...pairFakes);
    await Promise.all(pairFakes.map((f) => putSource(f, "source-secret-1")));
    const cliConfig = mirrorCliConfig();
    const pair: Pair = [workdir(files(pairFakes[0].url)), workdir(files(pairFakes[1].url))];
    await Promise.all(pair.map((dir) => terraformAsync(["init", "-no-color", "-input=false"], dir, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));

    const commands = [["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]];
    const runs = await runPair(pair, commands, cliConfig);
    const [ours, theirs] = runs[0]!;
    expect(withoutEphemeral(ours)).toEqual(withoutEphemeral(theirs));
    expect(ours.code).toBe(0);
    expect(ours.stdout).toContain("+ value_wo         = (write-only attribute)");
    expect(sortedPaths(stableState(pair[0]))).toEqual(sortedPaths(stableState(pair[1])));
    for (const f of pairFakes) expect(target(f)).toBe("source-secret-1");
    // The re-plan: no changes; the ephemeral resource opened and closed while planning, as terraform.
    const [replan, tfReplan] = runs[1]!;
    expect(withoutEphemeral(replan)).toEqual(withoutEphemeral(tfReplan));
    expect(replan.code).toBe(0);
    expect(ephemeralLines(replan)).toEqual(["ephemeral.aws_ssm_parameter.src: Opening...", "ephemeral.aws_ssm_parameter.src: Opening complete after Ns", "ephemeral.aws_ssm_parameter.src: Closing...", "ephemeral.aws_ssm_parameter.src: Closing complete after Ns"]);
    expect(ephemeralLines(tfReplan)).toEqual(ephemeralLines(replan));

    // A new source value is sent only by the update that value_wo_version plans.
    await Promise.all(pairFakes.map((f) => putSource(f, "source-secret-2")));
    const [update, tfUpdate] = (await runPair(pair, [["apply", "-auto-approve", "-var=ver=2"]], cliConfig))[0]!;
    expect(withoutEphemeral(update)).toEqual(withoutEphemeral(tfUpdate));
    expect(update.stdout).toContain("~ value_wo_version = 1 -> 2");
    expect(sortedPaths(stableState(pair[0]))).toEqual(sortedPaths(stableState(pair[1])));
    for (const f of pairFakes) expect(target(f)).toBe("source-secret-2");
    for (const dir of pair) {
      for (const file of ["terraform.tfstate", "terraform.tfstate.backup"]) expect(readFileSync(join(dir, file), "utf8")).not.toMatch(/source-secret/);
    }
    for (const f of pairFakes) expect(f.unknownCalls()).toEqual([]);
  }, 600_000);
});
