// hashicorp/aws 5.100.0 is on the legacy SDK type system: its plans and apply results break
// core's rules in small ways (`skip_destroy` planned for a non-computed attribute, `""` where
// the plan had null), and terraform 1.11.4 tolerates them silently — it only writes a
// `[WARN]` line to its log (TF_LOG). magma printed each as a "Warning: Provider produced
// inconsistent result after apply" / "invalid plan". Against terraform on the same files, in
// native and JSON syntax, each tool with its own @magma/fake-aws: the same apply output (no
// warnings) and, with TF_LOG=WARN and TF_LOG_PATH, the same tolerated-problem log lines.
// Skipped without terraform or the AWS provider.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { TerraformWorkspace, awsFakeHcl, hasAwsProvider, hasTerraform } from "@magma/test-support";
import { comparableText } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";

const fakes: FakeAws[] = [];
const workspaces: TerraformWorkspace[] = [];
afterAll(async () => {
  stopToolRuns();
  for (const ws of workspaces) ws.dispose();
  await Promise.all(fakes.map((f) => f.close()));
});

/** Three types whose answers the legacy SDK leaves inconsistent: an SSM parameter (twice, one reading the other), a log group. */
const NATIVE = `resource "aws_ssm_parameter" "a" {
  name        = "/noise/a"
  type        = "String"
  value       = "one"
  description = "d"
}
resource "aws_ssm_parameter" "b" {
  name  = "/noise/b"
  type  = "String"
  value = aws_ssm_parameter.a.version
  tags  = { k = "v" }
}
resource "aws_cloudwatch_log_group" "g" {
  name              = "noise-g"
  retention_in_days = 7
}
`;

const JSON_SYNTAX = `${JSON.stringify(
  {
    resource: {
      aws_ssm_parameter: {
        a: { name: "/noise/a", type: "String", value: "one", description: "d" },
        b: { name: "/noise/b", type: "String", value: "${aws_ssm_parameter.a.version}", tags: { k: "v" } },
      },
      aws_cloudwatch_log_group: { g: { name: "noise-g", retention_in_days: 7 } },
    },
  },
  null,
  2,
)}\n`;

/**
 * The tolerated-problem lines of a log, without their time stamps, sorted (objects are applied
 * in parallel), each block's problems sorted too (terraform lists an object's attributes in
 * Go map order, which differs from run to run).
 */
function toleratedLines(log: string): string[] {
  const blocks: string[] = [];
  let cur: string[] | undefined;
  for (const line of log.split("\n")) {
    if (/^\S+ \[WARN\] {2}Provider ".*but we are tolerating it/.test(line)) {
      cur = [line.replace(/^\S+ /, "")];
      blocks.push("");
    } else if (cur !== undefined && /^ {4}/.test(line)) cur.push(line);
    else cur = undefined;
    if (cur !== undefined) blocks[blocks.length - 1] = [...cur.slice(0, 2), ...cur.slice(2).sort()].join("\n");
  }
  return blocks.sort();
}

/** Output with the write-only attribute lines left out (rendered by other work) and run-to-run ids blanked. */
function comparable(r: ToolRun): { code: number | null; stdout: string; stderr: string } {
  const drop = (s: string): string =>
    comparableText(s)
      .split("\n")
      .filter((l) => !l.includes("value_wo"))
      .join("\n");
  return { code: r.code, stdout: drop(r.stdout), stderr: drop(r.stderr) };
}

const enabled = hasTerraform() && hasAwsProvider();

(enabled ? describe : describe.skip)("a legacy-SDK provider's tolerated problems, against terraform's", () => {
  const scenario = async (file: string, text: string): Promise<void> => {
    const tools = ["magma", "terraform"] as const;
    const setup = await Promise.all(
      tools.map(async () => {
        const fake = await startFakeAws();
        fakes.push(fake);
        const ws = TerraformWorkspace.create("magma-legacy-noise-");
        workspaces.push(ws);
        ws.write("provider.tf", awsFakeHcl(fake.url));
        ws.write(file, text);
        await ws.init();
        return ws;
      }),
    );
    const runs = await Promise.all(
      tools.map((tool, i) => {
        const dir = setup[i]!.dir;
        return runTool(tool, ["apply", "-auto-approve", "-input=false", "-no-color"], dir, { TF_CLI_CONFIG_FILE: join(dir, ".terraformrc"), TF_LOG: "WARN", TF_LOG_PATH: join(dir, "tf.log") });
      }),
    );
    const [ours, theirs] = runs.map(comparable);
    expect(theirs!.code).toBe(0);
    expect(theirs!.stdout).not.toContain("Warning:");
    expect(ours).toEqual(theirs);
    const logs = setup.map((ws) => toleratedLines(readFileSync(join(ws.dir, "tf.log"), "utf8")));
    // terraform logs the plan's problem twice (at plan and at the apply's final plan) and each apply result's.
    expect(logs[1]!.length).toBeGreaterThanOrEqual(4);
    expect(logs[1]!.some((l) => l.includes("produced an invalid plan for aws_cloudwatch_log_group.g"))).toBe(true);
    expect(logs[1]!.some((l) => l.includes('Provider "provider[\\"registry.terraform.io/hashicorp/aws\\"]" produced an unexpected new value for aws_ssm_parameter.b'))).toBe(true);
    expect(logs[0]).toEqual(logs[1]);
  };

  // Side by side: the four applies (two tools, two syntaxes) run at once.
  test("native and JSON syntax: no warnings, the same log lines", () => Promise.all([scenario("main.tf", NATIVE), scenario("main.tf.json", JSON_SYNTAX)]), 600_000);
});
