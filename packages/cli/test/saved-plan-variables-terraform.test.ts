// Applying a saved plan with variables and planning options, against terraform 1.11.4 on the
// same files in both syntaxes: a -var for a variable left at its default when planning is
// "Value for undeclared variable" (terraform's plan records only the values the caller set), a
// -var-file value for one is that warning (beside "Can't change variable" for one that was set,
// worded with terraform's source labels); `destroy PLAN` is "Destroy can't be called with a
// plan file"; and -destroy, -refresh-only, -target and -replace are ignored (the plan's own
// options apply). Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectSameRuns, initialisedPair, runPair } from "./support/lang-pair.js";
import { stopToolRuns } from "./support/side-by-side.js";
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
