// `magma validate` evaluates every expression as terraform validate's walk does, against
// terraform 1.11.4 on the same files, in native syntax and converted to `.tf.json` (by
// @magma/test-support's tfToJson): input variables unknown of their type (a sensitive one
// marked: a root output of it must say `sensitive = true`), locals known (an invalid index,
// an attribute an object does not have), count.index unknown, an unknown function, a module
// argument that does not convert to the variable's type, an operator on a value of the wrong
// type in a resource's body and in a precondition, reported with the static checks' reference
// errors; what refers to a failed object is not evaluated (not reported). Human output byte
// for byte, `-json` the same document with its diagnostics as a set (terraform's walk is
// concurrent: its order varies from run to run). Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `variable "n" {
  type = number
}
variable "s" {
  type      = string
  sensitive = true
}
locals {
  l    = [1, 2]
  bad  = local.l[3]
  dep  = "\${local.bad}x"
  m    = { a = 1 }
  ok   = local.m.a + var.n
  attr = local.m.nope
  z    = var.nope
}
resource "terraform_data" "a" {
  count = 2
  input = nosuchfunction(count.index)
}
resource "terraform_data" "b" {
  input = local.m.a + true
  lifecycle {
    precondition {
      condition     = true + 1 > var.n
      error_message = "m"
    }
  }
}
resource "terraform_data" "c" {
  input = local.dep
}
module "m" {
  source = "./m"
  x      = "notanumber"
}
output "o" {
  value = module.m.y["k"]
}
output "p" {
  value = var.s
}
`;

const CHILD = `variable "x" {
  type = number
}
output "y" {
  value = { k = var.x }
}
`;

const VALID = `variable "n" {
  type = number
}
locals {
  l = [for i in range(3) : i * var.n]
}
resource "terraform_data" "a" {
  count = 2
  input = "\${count.index}-\${local.l[0]}"
}
output "o" {
  value = upper(terraform_data.a[0].output)
}
`;

/** The `-json` document with its diagnostics sorted (terraform's order varies). */
function sortedJson(r: ToolRun): unknown {
  const doc = JSON.parse(r.stdout) as { diagnostics: unknown[] };
  doc.diagnostics.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return doc;
}

async function pair(files: Readonly<Record<string, string>>): Promise<[string, string]> {
  const dirs: [string, string] = [workdir({ ...files }), workdir({ ...files })];
  // The module must be installed (terraform's init; magma validate reads .terraform/modules as terraform's).
  await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: mirrorCliConfig() } })));
  return dirs;
}

(TERRAFORM !== undefined ? describe : describe.skip)("validate evaluates expressions, against terraform's", () => {
  test.each([
    ["native", { "main.tf": MAIN, "m/main.tf": CHILD }],
    ["JSON", { "main.tf.json": tfToJson(MAIN), "m/main.tf.json": tfToJson(CHILD, "m/main.tf") }],
  ])("%s syntax: every error the walk finds", async (_syntax, files) => {
    const [ours, theirs] = await pair(files);
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig() };
    for (const args of [["validate", "-no-color"], ["validate", "-json"]]) {
      const [m, t] = await Promise.all([runTool("magma", args, ours, {}), runTool("terraform", args, theirs, env)]);
      if (args.includes("-json")) expect({ code: m.code, doc: sortedJson(m), stderr: m.stderr }).toEqual({ code: t.code, doc: sortedJson(t), stderr: t.stderr });
      else expect({ code: m.code, stdout: m.stdout, stderr: m.stderr }).toEqual({ code: t.code, stdout: t.stdout, stderr: t.stderr });
      expect(m.code).toBe(1);
    }
    const human = await runTool("magma", ["validate", "-no-color"], ours, {});
    for (const s of ["Call to unknown function", "Invalid index", "Unsupported attribute", "Invalid value for input variable", "Output refers to sensitive values", "Invalid operand"]) expect(human.stderr).toContain(`Error: ${s}`);
    // local.dep and terraform_data.c refer to the failed local.bad: not evaluated.
    expect(human.stderr).not.toContain("line 11,");
  }, 300_000);

  test.each([
    ["native", { "main.tf": VALID }],
    ["JSON", { "main.tf.json": tfToJson(VALID) }],
  ])("%s syntax: a valid configuration with unknown inputs is valid", async (_syntax, files) => {
    const [ours, theirs] = await pair(files);
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig() };
    for (const args of [["validate", "-no-color"], ["validate", "-json"]]) {
      const [m, t] = await Promise.all([runTool("magma", args, ours, {}), runTool("terraform", args, theirs, env)]);
      expect({ code: m.code, stdout: m.stdout, stderr: m.stderr }).toEqual({ code: t.code, stdout: t.stdout, stderr: t.stderr });
      expect(m.code).toBe(0);
    }
  }, 300_000);
});
