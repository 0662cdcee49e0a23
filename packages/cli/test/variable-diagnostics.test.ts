// Variable value errors and expression values in diagnostics, against terraform 1.11.4 on the
// same directory: `-var n=abc` for a number variable (parsed literally, reported at the
// declaration, "Planning failed."), a failed `validation` rule (reported at the value's
// range, the partial plan, the condition's values under the snippet), and the values of the
// references in a failing expression (`var.m is empty map of string`), plan and apply, human
// and -json. No provider is needed. Skipped without terraform. The references' values run in
// both syntaxes: as written and converted to `.tf.json` by @magma/test-support's tfToJson.
import { tfToJson } from "@magma/test-support";
import { magma, cleanUp } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const VARIABLES = `variable "n" {
  type = number
}
variable "v" {
  type    = string
  default = "abcdef"
  validation {
    condition     = length(var.v) > 3
    error_message = "The v must be long."
  }
}
output "o" { value = var.n }
`;

const ENV = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

/** The -json messages' diagnostics and summaries, without what differs from run to run. */
function jsonLines(stdout: string): unknown[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((m) => m["type"] !== "version")
    .map((m) => ({ ...m, "@timestamp": "T" }));
}

async function both(dir: string, args: readonly string[]): Promise<{ tf: { stdout: string; stderr: string; code: number }; mg: { stdout: string; stderr: string; code: number | null } }> {
  // Colour unless -no-color (terraform colours whatever the stream; magma when told to).
  const colour = args.includes("-no-color") || args.includes("-json") ? {} : { FORCE_COLOR: "1" };
  const [tf, mg] = await Promise.all([terraformAsync(args, dir, { expect: 1, env: ENV }), magma(args, { cwd: dir, env: { ...ENV, ...colour } })]);
  return { tf, mg };
}

const d = TERRAFORM === undefined ? describe.skip : describe;

d("variable errors and expression values, as terraform 1.11.4", () => {
  test.each([["plan"], ["apply"]])("%s -var n=abc: an unsuitable value for a number variable, at its declaration", async (cmd) => {
    const dir = workdir({ "main.tf": VARIABLES });
    const { tf, mg } = await both(dir, [cmd, "-no-color", "-input=false", "-var", "n=abc"]);
    expect(tf.stderr).toContain('Unsuitable value for var.n set using -var="n=...": a number is required.');
    expect({ code: mg.code, stdout: mg.stdout, stderr: mg.stderr }).toEqual({ code: tf.code, stdout: tf.stdout, stderr: tf.stderr });
    const j = await both(dir, [cmd, "-json", "-input=false", ...(cmd === "apply" ? ["-auto-approve"] : []), "-var", "n=abc"]);
    expect(jsonLines(j.mg.stdout)).toEqual(jsonLines(j.tf.stdout));
  }, 300_000);

  test.each([["plan"], ["apply"]])("%s: a failed validation rule at the value's range, with the condition's values and the partial plan", async (cmd) => {
    const dir = workdir({ "main.tf": VARIABLES, "terraform.tfvars": 'v = "ab"\n' });
    const { tf, mg } = await both(dir, [cmd, "-no-color", "-input=false", "-var", "n=1"]);
    expect(tf.stderr).toContain('│ var.v is "ab"');
    expect({ code: mg.code, stdout: mg.stdout, stderr: mg.stderr }).toEqual({ code: tf.code, stdout: tf.stdout, stderr: tf.stderr });
    const j = await both(dir, [cmd, "-json", "-input=false", ...(cmd === "apply" ? ["-auto-approve"] : []), "-var", "n=1"]);
    expect(jsonLines(j.mg.stdout)).toEqual(jsonLines(j.tf.stdout));
  }, 300_000);

  test("a validation rule failing for -var's value (at the declaration) and in colour", async () => {
    const dir = workdir({ "main.tf": VARIABLES });
    const { tf, mg } = await both(dir, ["plan", "-input=false", "-var", "n=1", "-var", "v=x"]);
    expect(tf.stderr).toContain("var.v");
    expect({ code: mg.code, stdout: mg.stdout, stderr: mg.stderr }).toEqual({ code: tf.code, stdout: tf.stdout, stderr: tf.stderr });
  }, 300_000);

  const REFERENCE_CASES: [string, string, string][] = [
    ["an invalid index", `variable "m" {\n  type    = map(string)\n  default = {}\n}\noutput "a" { value = var.m["missing"] }\n`, "│ var.m is empty map of string"],
    ["an unsupported attribute", `variable "s" {\n  type    = string\n  default = "{\\"a\\":1}"\n}\nlocals {\n  x = jsondecode(var.s)\n}\noutput "b" { value = local.x.nope }\n`, '│ local.x is object with 1 attribute "a"'],
    ["an index out of a list's range, in a for_each-free local", `variable "l" {\n  type    = list(number)\n  default = [1, 2]\n}\nlocals {\n  i = 5\n}\noutput "c" { value = var.l[local.i] }\n`, "│ var.l is list of number with 2 elements"],
  ];
  const bySyntax = (syntax: "native" | "json") => REFERENCE_CASES.map(([name, config, line]) => [name, syntax, config, line] as const);
  // The first case in JSON is left out, found and open (docs/compatibility.md): its expression
  // sits in a JSON string with escaped quotes, and terraform's coloured underline is off by the
  // escapes (`["missing\` for magma's `["missing"]`).
  test.each([...bySyntax("native"), ...bySyntax("json").slice(1)])("%s, %s syntax: the references' values under the snippet (human, colour and -json)", async (_name, syntax, config, line) => {
    const dir = workdir(syntax === "json" ? { "main.tf.json": tfToJson(config) } : { "main.tf": config });
    const plain = await both(dir, ["plan", "-no-color", "-input=false"]);
    expect(plain.tf.stderr).toContain(line);
    // Terraform also prints "Planning failed." on stdout for these (a README known gap): compare the diagnostics.
    expect(plain.mg.stderr).toBe(plain.tf.stderr);
    const colour = await both(dir, ["plan", "-input=false"]);
    expect(colour.mg.stderr).toBe(colour.tf.stderr);
    const j = await both(dir, ["plan", "-json", "-input=false"]);
    const diags = (s: string): unknown[] =>
      jsonLines(s)
        .filter((m) => (m as { type?: string }).type === "diagnostic");
    expect(diags(j.mg.stdout)).toEqual(diags(j.tf.stdout));
  }, 300_000);
});
