// When a child module's output makes a root output "Output refers to sensitive values",
// against terraform 1.11.4 on the same configuration, in native and JSON syntax. Terraform's
// rule (internal/terraform node_output.go and evaluate.go's GetModule): a child output's value
// reaches its caller with the marks it was evaluated with; the child's `sensitive = true` does
// not mark it. So a root output reading a child output declared sensitive whose value is not
// sensitive is fine, and one whose value derives from a sensitive variable is an error.
// Skipped without terraform.
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const CHILD_NATIVE = `variable "s" {
  default   = "secret"
  sensitive = true
}
output "declared" {
  value     = "not-secret"
  sensitive = true
}
output "marked" {
  value     = var.s
  sensitive = true
}
output "plain" {
  value = "x"
}
`;

const NATIVE = {
  "main.tf": `module "m" {
  source = "./m"
}
output "declared" { value = module.m.declared }
output "marked" { value = module.m.marked }
output "plain" { value = module.m.plain }
`,
  "m/main.tf": CHILD_NATIVE,
};

const JSON_SYNTAX = {
  "main.tf.json": JSON.stringify({
    module: { m: { source: "./m" } },
    output: { declared: { value: "${module.m.declared}" }, marked: { value: "${module.m.marked}" }, plain: { value: "${module.m.plain}" } },
  }),
  "m/main.tf.json": JSON.stringify({
    variable: { s: { default: "secret", sensitive: true } },
    output: { declared: { value: "not-secret", sensitive: true }, marked: { value: "${var.s}", sensitive: true }, plain: { value: "x" } },
  }),
};

(TERRAFORM !== undefined ? describe : describe.skip)("sensitive child module outputs read by root outputs, against terraform's", () => {
  test.each([
    ["native", NATIVE],
    ["JSON", JSON_SYNTAX],
  ])("%s syntax: only the output whose value is sensitive is refused", async (_syntax, files) => {
    const dirs = [workdir(files), workdir(files)] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d)));
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig() };
    const [ours, theirs] = await Promise.all([runTool("magma", ["plan", "-no-color", "-input=false"], dirs[0], env), runTool("terraform", ["plan", "-no-color", "-input=false"], dirs[1], env)]);
    expect(theirs.stderr.match(/Error: Output refers to sensitive values/g)).toHaveLength(1);
    expect({ code: ours.code, stderr: ours.stderr }).toEqual({ code: theirs.code, stderr: theirs.stderr });
  }, 300_000);
});
