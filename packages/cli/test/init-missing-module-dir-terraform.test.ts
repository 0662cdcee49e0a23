/**
 * `init` with module calls whose local directory does not exist, compared with terraform
 * 1.11.4 in both syntaxes (found by the real-world corpus: terraform-aws-cloudwatch examples
 * calling `terraform-aws-iam//modules/iam-role`, absent at the iam commit used). Terraform's
 * `installLocalModule` records the call with no directory (`- x in`, `"Dir": ""` in
 * modules.json), goes on with the other calls, and reports two diagnostics without a source
 * range per call: filepath.EvalSymlinks' `lstat` error naming the first missing component and
 * `The directory  could not be read for module …` with the module block's line. magma stopped
 * at the first such call with one line of its own.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const d = TERRAFORM !== undefined ? describe : describe.skip;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `module "x" {
  source = "./nope/sub"
}
module "ok" {
  source = "./ok"
}

module "y" {
  source = "./a/b/c"
}
`;

d("init with missing local module directories, against terraform", () => {
  test.each([["native"], ["JSON"]])("%s syntax: every call listed, two diagnostics for each missing directory, the manifest as terraform's", async (syntax) => {
    const files: Record<string, string> = {
      "ok/main.tf": 'variable "v" {\n  default = 1\n}\n',
      "a/b/keep.txt": "",
      ...(syntax === "native" ? { "main.tf": MAIN } : { "main.tf.json": tfToJson(MAIN, "main.tf") }),
    };
    const env = { TF_CLI_CONFIG_FILE: join(workdir({ "cli.tfrc": "" }), "cli.tfrc") };
    const theirsDir = workdir(files);
    const oursDir = workdir(files);
    const [theirs, ours] = await Promise.all([runTool("terraform", ["init", "-no-color"], theirsDir, env), runTool("magma", ["init", "-no-color"], oursDir, env)]);
    expect(theirs.code).toBe(1);
    expect(theirs.stderr).toContain("lstat nope: no such file or directory");
    expect(ours.code).toBe(theirs.code);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.stderr).toBe(theirs.stderr);
    const manifest = (dir: string): unknown => JSON.parse(readFileSync(join(dir, ".terraform", "modules", "modules.json"), "utf8"));
    expect(manifest(oursDir)).toEqual(manifest(theirsDir));
  }, 240_000);
});
