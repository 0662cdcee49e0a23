// A local value that refers to itself, against terraform 1.11.4 on the same configuration in
// native and JSON syntax (issue 33 item 7): terraform's "Self-referencing local value" at the
// reference, not a JavaScript "Maximum call stack size exceeded". No provider is involved.
// Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

(TERRAFORM !== undefined ? describe : describe.skip)("self-referencing locals, against terraform's", () => {
  test.each([
    ["native", { "main.tf": 'locals {\n  a = local.a\n}\noutput "o" { value = local.a }\n' }],
    ["json", { "main.tf.json": JSON.stringify({ locals: { a: "${local.a}" }, output: { o: { value: "${local.a}" } } }, null, 2) }],
  ] as const)("%s: Self-referencing local value", async (syntax, files) => {
    const cliConfig = join(workdir(), "cli.tfrc");
    writeFileSync(cliConfig, "");
    const args = ["plan", "-no-color", "-input=false"];
    const [ours, theirs] = await Promise.all([runTool("magma", args, workdir(files), {}), runTool("terraform", args, workdir(files), { TF_CLI_CONFIG_FILE: cliConfig })]);
    expect(theirs.stderr).toContain("Error: Self-referencing local value");
    expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
  }, 300_000);
});
