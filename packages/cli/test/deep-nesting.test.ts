// Deep nesting that terraform 1.11.4 accepts, within @magma/hcl's documented limits (about 400
// levels, MAX_NESTING_DEPTH; a run of directly nested parentheses up to MAX_PARENTHESES_RUN):
// 300 nested template directives, jsonencode of a 150-deep list, 300 parentheses and 10,000
// parentheses (with a newline inside and an operator after) plan as terraform's, in native and
// JSON syntax (issue 33 item 7). Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const IFS = `${"%{if true}".repeat(300)}x${"%{endif}".repeat(300)}`;
const LIST = `length(jsonencode(${"[".repeat(150)}${"]".repeat(150)}))`;
const PARENS = `${"(".repeat(300)}1${")".repeat(300)}`;
const MANY = `${"(".repeat(5_000)}\n${"(".repeat(5_000)}1${")".repeat(10_000)} + 1`;

const native = `output "ifs" {\n  value = "${IFS}"\n}\noutput "list" {\n  value = ${LIST}\n}\noutput "parens" {\n  value = ${PARENS}\n}\noutput "many" {\n  value = ${MANY}\n}\n`;
const json = JSON.stringify({ output: { ifs: { value: IFS }, list: { value: `\${${LIST}}` }, parens: { value: `\${${PARENS}}` }, many: { value: `\${${MANY}}` } } });

(TERRAFORM !== undefined ? describe : describe.skip)("deep nesting, against terraform's", () => {
  test.each([
    ["native", { "main.tf": native }],
    ["json", { "main.tf.json": json }],
  ] as const)("%s: plans as terraform does", async (_syntax, files) => {
    const cliConfig = join(workdir(), "cli.tfrc");
    writeFileSync(cliConfig, "");
    const args = ["plan", "-no-color", "-input=false"];
    const [ours, theirs] = await Promise.all([runTool("magma", args, workdir(files), {}), runTool("terraform", args, workdir(files), { TF_CLI_CONFIG_FILE: cliConfig })]);
    expect(theirs.code).toBe(0);
    expect(theirs.stdout).toContain("+ list   = 300");
    expect(theirs.stdout).toContain("+ many   = 2");
    expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
  }, 300_000);
});
