// hashicorp/aws 5.100.0's write-only `aws_ssm_parameter.value_wo`, fed by `ephemeral
// "aws_ssm_parameter"` and updated through `value_wo_version`, against terraform 1.11.4 on the
// same files in both syntaxes, each tool with its own @magma/fake-aws endpoint holding the
// source parameters: the plan (the ephemeral resources opened and closed, `value_wo =
// (write-only attribute)`), the apply, the state, a clean re-plan and the versioned update
// that sends the source's new value. A second ephemeral parameter is the `access_key` of a
// second aws provider configuration (alias `eph`), whose parameter the fake sees created under
// that key. The value reaches the target parameter and never the state; a scan finds neither
// secret in the states, a saved plan, `plan -json` output or the TF_LOG=trace log. (The apply
// runs' ephemeral lines, printed beside the refreshes in an order that varies, are compared
// as sorted lists.) Skipped without terraform and the AWS provider.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { awsFakeConfig, awsFakeHcl, hasAwsProvider, hasTerraform } from "@magma/test-support";
import { comparableText, runPair, stableState, type Pair } from "./support/lang-pair.js";
import { planFileText } from "./support/plan-file-text.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { mirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const fakes: FakeAws[] = [];
/**
 * One cache directory (XDG_CACHE_HOME) for every magma run of this file, as a user's home cache
 * is: magma's on-disk schema cache then asks hashicorp/aws for its 5 MB schema once, not in
 * every run (each run of runTool otherwise gets an empty cache of its own).
 */
const magmaCache = mkdtempSync(join(tmpdir(), "magma-wo-aws-cache-"));
const magmaEnv = { XDG_CACHE_HOME: magmaCache };
afterAll(async () => {
  stopToolRuns();
  removeWorkdirs();
  rmSync(magmaCache, { recursive: true, force: true });
  await Promise.all(fakes.map((f) => f.close()));
});

const d = hasTerraform() && hasAwsProvider() ? describe : describe.skip;

const SOURCE_ARN = "arn:aws:ssm:us-east-1:123456789012:parameter/wo/source";
const KEY_ARN = "arn:aws:ssm:us-east-1:123456789012:parameter/wo/key";
/** The access key the `eph` provider configuration gets from the ephemeral parameter (the fake takes any key). */
const EPH_KEY = "AKIAEPHEMERALKEY0036";

/** The `eph` aws provider configuration: the fake's, its access key from `ephemeral.aws_ssm_parameter.key`. */
const ephProvider = (url: string): Record<string, unknown> => ({ ...awsFakeConfig(url, { maxRetries: 1 }), alias: "eph", access_key: "${ephemeral.aws_ssm_parameter.key.value}" });

const BODY_TF = `variable "ver" {
  type    = number
  default = 1
}
ephemeral "aws_ssm_parameter" "src" {
  arn             = "${SOURCE_ARN}"
  with_decryption = true
}
ephemeral "aws_ssm_parameter" "key" {
  arn             = "${KEY_ARN}"
  with_decryption = true
}
resource "aws_ssm_parameter" "via" {
  provider = aws.eph
  name     = "/wo/via"
  type     = "String"
  value    = "made-with-the-ephemeral-key"
}
resource "aws_ssm_parameter" "wo" {
  name             = "/wo/target"
  type             = "SecureString"
  value_wo         = ephemeral.aws_ssm_parameter.src.value
  value_wo_version = var.ver
}
`;

/** `ephProvider` as HCL. */
function ephProviderHcl(url: string): string {
  const lines = Object.entries(ephProvider(url)).map(([k, v]) => (k === "endpoints" ? `  endpoints {\n${Object.entries((v as Record<string, string>[])[0]!).map(([e, u]) => `    ${e} = "${u}"`).join("\n")}\n  }` : `  ${k} = ${k === "access_key" ? "ephemeral.aws_ssm_parameter.key.value" : JSON.stringify(v)}`));
  return `provider "aws" {\n${lines.join("\n")}\n}\n`;
}

const nativeFiles = (url: string): Record<string, string> => ({ "main.tf": `${awsFakeHcl(url, { maxRetries: 1 })}${ephProviderHcl(url)}${BODY_TF}` });

const jsonFiles = (url: string): Record<string, string> => ({
  "main.tf.json": JSON.stringify({
    terraform: { required_providers: { aws: { source: "hashicorp/aws", version: "5.100.0" } } },
    provider: { aws: [awsFakeConfig(url, { maxRetries: 1 }), ephProvider(url)] },
    variable: { ver: { type: "number", default: 1 } },
    ephemeral: { aws_ssm_parameter: { src: { arn: SOURCE_ARN, with_decryption: true }, key: { arn: KEY_ARN, with_decryption: true } } },
    resource: { aws_ssm_parameter: { via: { provider: "aws.eph", name: "/wo/via", type: "String", value: "made-with-the-ephemeral-key" }, wo: { name: "/wo/target", type: "SecureString", value_wo: "${ephemeral.aws_ssm_parameter.src.value}", value_wo_version: "${var.ver}" } } },
  }),
});

/** Sets the source parameter's value in a fake, as someone outside the configuration would. */
async function putSource(fake: FakeAws, value: string, name = "/wo/source"): Promise<void> {
  const res = await fetch(fake.url, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.PutParameter" },
    body: JSON.stringify({ Name: name, Value: value, Type: "SecureString", Overwrite: true }),
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

/** A run's ephemeral resource lines, sorted (they run alongside the refreshes and each other: their order varies). */
function ephemeralLines(run: ToolRun): string[] {
  return comparableText(run.stdout)
    .split("\n")
    .filter((l) => l.startsWith("ephemeral."))
    .sort();
}

/** The four lines of an ephemeral resource opened and closed, as ephemeralLines sorts them. */
const openedAndClosed = (name: string): string[] => [`ephemeral.aws_ssm_parameter.${name}: Closing complete after Ns`, `ephemeral.aws_ssm_parameter.${name}: Closing...`, `ephemeral.aws_ssm_parameter.${name}: Opening complete after Ns`, `ephemeral.aws_ssm_parameter.${name}: Opening...`];

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
    await Promise.all(pairFakes.flatMap((f) => [putSource(f, "source-secret-1"), putSource(f, EPH_KEY, "/wo/key")]));
    const cliConfig = mirrorCliConfig();
    const pair: Pair = [workdir(files(pairFakes[0].url)), workdir(files(pairFakes[1].url))];
    await Promise.all(pair.map((dir) => terraformAsync(["init", "-no-color", "-input=false"], dir, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));

    const commands = [["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]];
    const runs = await runPair(pair, commands, cliConfig, magmaEnv);
    const [ours, theirs] = runs[0]!;
    expect(withoutEphemeral(ours)).toEqual(withoutEphemeral(theirs));
    expect(ours.code).toBe(0);
    expect(ours.stdout).toContain("+ value_wo         = (write-only attribute)");
    expect(sortedPaths(stableState(pair[0]))).toEqual(sortedPaths(stableState(pair[1])));
    for (const f of pairFakes) expect(target(f)).toBe("source-secret-1");
    expect(ephemeralLines(ours)).toEqual(ephemeralLines(theirs));
    // The eph provider configuration was configured with the ephemeral key: the fake saw /wo/via created under it.
    for (const f of pairFakes) expect(f.calls.filter((c) => c.action === "PutParameter" && c.accessKeyId === EPH_KEY)).toHaveLength(1);
    // The re-plan: no changes; the ephemeral resource opened and closed while planning, as terraform.
    const [replan, tfReplan] = runs[1]!;
    expect(withoutEphemeral(replan)).toEqual(withoutEphemeral(tfReplan));
    expect(replan.code).toBe(0);
    expect(ephemeralLines(replan)).toEqual([...openedAndClosed("key"), ...openedAndClosed("src")]);
    expect(ephemeralLines(tfReplan)).toEqual(ephemeralLines(replan));

    // A new source value is sent only by the update that value_wo_version plans.
    await Promise.all(pairFakes.map((f) => putSource(f, "source-secret-2")));
    // (magma's run logged at trace level, for the scan below)
    const updateArgs = ["apply", "-no-color", "-input=false", "-auto-approve", "-var=ver=2"];
    const [update, tfUpdate] = await Promise.all([
      runTool("magma", updateArgs, pair[0], { ...magmaEnv, TF_LOG: "trace", TF_LOG_PATH: join(pair[0], "trace.log") }),
      runTool("terraform", updateArgs, pair[1], { TF_CLI_CONFIG_FILE: cliConfig }),
    ]);
    expect(withoutEphemeral(update)).toEqual(withoutEphemeral(tfUpdate));
    expect(update.stdout).toContain("~ value_wo_version = 1 -> 2");
    expect(sortedPaths(stableState(pair[0]))).toEqual(sortedPaths(stableState(pair[1])));
    for (const f of pairFakes) expect(target(f)).toBe("source-secret-2");
    expect(ephemeralLines(update)).toEqual(ephemeralLines(tfUpdate));

    // The scan: a saved plan, plan -json and magma's TF_LOG=trace log of the update hold neither secret
    // (nor does any state); terraform's the same plan files and -json output. The log's lines passed
    // through from hashicorp/aws are left out: its own debug logging prints the HTTP bodies it sends and
    // receives (GetParameter's answer, PutParameter's request), which terraform's log passes through the same.
    const [saved, tfSaved] = (await runPair(pair, [["plan", "-var=ver=3", "-out=scan.tfplan"]], cliConfig, magmaEnv))[0]!;
    expect(withoutEphemeral(saved)).toEqual(withoutEphemeral(tfSaved));
    const scanned: string[] = [saved.stdout, saved.stderr, update.stdout, update.stderr, ours.stdout];
    const json = await runTool("magma", ["plan", "-json", "-var=ver=3"], pair[0], magmaEnv);
    expect(json.code).toBe(0);
    const logLines = readFileSync(join(pair[0], "trace.log"), "utf8").split("\n");
    const fromAws = (l: string): boolean => /^\S+ \[[A-Z]+\]\s+provider\.terraform-provider-aws[^:\s]*: /.test(l);
    expect(logLines.some((l) => fromAws(l) && l.includes("tf_ephemeral_resource_type=aws_ssm_parameter"))).toBe(true);
    scanned.push(json.stdout, json.stderr, logLines.filter((l) => !fromAws(l)).join("\n"));
    for (const text of scanned) {
      expect(text).not.toContain("source-secret");
      expect(text).not.toContain(EPH_KEY);
    }
    // The states of both tools; magma's plan file with its msgpack values decoded (terraform's is a zip).
    const stateFiles = pair.flatMap((dir) => readdirSync(dir).filter((n) => /\.tfstate(\.backup)?$/.test(n)).map((n) => join(dir, n)));
    expect(stateFiles.length).toBeGreaterThanOrEqual(4);
    for (const file of stateFiles) expect({ file, secret: /source-secret|AKIAEPHEMERAL/.test(readFileSync(file, "utf8")) }).toEqual({ file, secret: false });
    const planText = planFileText(join(pair[0], "scan.tfplan"));
    expect(planText).toContain("aws_ssm_parameter.wo");
    expect(planText).not.toMatch(/source-secret|AKIAEPHEMERAL/);
    for (const f of pairFakes) expect(f.unknownCalls()).toEqual([]);
  }, 900_000);
});
