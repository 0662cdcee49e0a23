// Applying a saved plan with variables and planning options, against terraform 1.11.4 on the
// same files in both syntaxes: a -var for a variable left at its default when planning is
// "Value for undeclared variable" (terraform's plan records only the values the caller set), a
// -var-file value for one is that warning (beside "Can't change variable" for one that was set,
// worded with terraform's source labels); `destroy PLAN` is "Destroy can't be called with a
// plan file"; and -destroy, -refresh-only, -target and -replace are ignored (the plan's own
// options apply). And a plan keeps each value as it was given, as terraform's does: `-var n=5`
// for a `number` is the string "5" in the plan file (show -json's `variables`), `-var a=5` for an
// untyped variable too, `b=6` for a variable of type `any` the number, an object without its
// optional attributes' defaults; applying the plan converts them again, and `-var n=5.0` when
// applying is a changed value. Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectSameRuns, initialisedPair, pairCliConfig, runPair, stableState } from "./support/lang-pair.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

const TF = `variable "a" {
  type    = string
  default = "x"
}
variable "b" {
  type = string
}
output "o" {
  value = "\${var.a}-\${var.b}"
}
`;

const JSON_CONFIG = JSON.stringify({
  variable: { a: { type: "string", default: "x" }, b: { type: "string" } },
  output: { o: { value: "${var.a}-${var.b}" } },
});

d.each([
  ["native", { "main.tf": TF }],
  ["JSON", { "main.tf.json": JSON_CONFIG }],
] as const)("a saved plan's variables and options (%s syntax)", (_syntax, files) => {
  test("undeclared, changed and unchanged variables, destroy with a plan file, planning options ignored: as terraform", async () => {
    const pair = await initialisedPair(files);
    for (const dir of pair) writeFileSync(join(dir, "f.tfvars"), 'a = "z"\nb = "3"\n');
    const commands = [
      ["plan", "-var=b=1", "-out=p.tfplan"],
      ["apply", "-var=a=y", "p.tfplan"],
      // Equal to the default: still a value the plan does not have.
      ["apply", "-var=a=x", "p.tfplan"],
      ["apply", "-var=b=2", "p.tfplan"],
      ["apply", "-var-file=f.tfvars", "p.tfplan"],
      ["destroy", "p.tfplan"],
      ["apply", "-var=b=1", "-destroy", "-target=null_resource.x", "-replace=null_resource.x", "p.tfplan"],
    ];
    const runs = await runPair(pair, commands);
    expectSameRuns(runs, commands);
    expect(runs.map(([ours]) => ours.code)).toEqual([0, 1, 1, 1, 1, 1, 0]);
    expect(runs[1]![0].stderr).toContain("Error: Value for undeclared variable");
    expect(runs[4]![0].stdout).toContain("Warning: Value for undeclared variable");
    expect(runs[6]![0].stdout).toContain('o = "x-1"');
  }, 300_000);
});

const GIVEN_TF = `variable "n" {
  type = number
}
variable "f" {
  type = bool
}
variable "u" {}
variable "b" {
  type = any
}
variable "o" {
  type = object({ k = optional(string, "dflt") })
}
output "all" {
  value = { n = var.n, f = var.f, u = var.u, b = var.b, o = var.o }
}
`;

const GIVEN_JSON = JSON.stringify({
  variable: { n: { type: "number" }, f: { type: "bool" }, u: {}, b: { type: "any" }, o: { type: 'object({ k = optional(string, "dflt") })' } },
  output: { all: { value: { n: "${var.n}", f: "${var.f}", u: "${var.u}", b: "${var.b}", o: "${var.o}" } } },
});

d.each([
  ["native", { "main.tf": GIVEN_TF }],
  ["JSON", { "main.tf.json": GIVEN_JSON }],
] as const)("a saved plan keeps the variables as given (%s syntax)", (_syntax, files) => {
  test("-var values of primitive and untyped variables stay strings in the plan, converted when applied: as terraform", async () => {
    const pair = await initialisedPair(files);
    const commands = [
      ["plan", "-var=n=5", "-var=f=true", "-var=u=7", "-var=b=6", "-var=o={}", "-out=p.tfplan"],
      ["apply", "-var=n=5.0", "p.tfplan"],
      ["apply", "p.tfplan"],
    ];
    const runs = await runPair(pair, commands.slice(0, 2));
    const shown = await Promise.all([runTool("magma", ["show", "-json", "p.tfplan"], pair[0], {}), runTool("terraform", ["show", "-json", "p.tfplan"], pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
    const variables = shown.map((r) => (JSON.parse(r.stdout) as { variables: unknown }).variables);
    expect(variables[0]).toEqual({ n: { value: "5" }, f: { value: "true" }, u: { value: "7" }, b: { value: 6 }, o: { value: {} } });
    expect(variables[0]).toEqual(variables[1]);
    runs.push(...(await runPair(pair, commands.slice(2))));
    expectSameRuns(runs, commands);
    expect(runs[1]![0].stderr).toContain('The saved plan specifies "5" as the value');
    expect(runs[2]![0].code).toBe(0);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
    expect(JSON.stringify(stableState(pair[0]))).toContain('"value":{"b":6,"f":true,"n":5,"o":{"k":"dflt"},"u":"7"}');
  }, 300_000);
});
