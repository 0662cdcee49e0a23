// `show -json PLANFILE` and `show PLANFILE` render a saved plan against the state it was made
// from, as terraform 1.11.4's (its plan file keeps its prior state), not the state as it is
// when shown: a plan saved before the first apply shows no resource in prior_state after the
// apply, and one saved against "a" still shows "a" after another apply stored "c". Same files
// in both syntaxes, with terraform_data. Skipped without terraform.
import { initialisedPair, pairCliConfig, runPair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

const TF = `variable "v" {
  default = "a"
}
resource "terraform_data" "x" {
  input = var.v
}
output "o" {
  value = var.v
}
`;

const JSON_CONFIG = JSON.stringify({
  variable: { v: { default: "a" } },
  resource: { terraform_data: { x: { input: "${var.v}" } } },
  output: { o: { value: "${var.v}" } },
});

/** show -json's prior_state with terraform_data's random id blanked. */
function priorState(run: ToolRun): unknown {
  expect(run.code).toBe(0);
  return JSON.parse(JSON.stringify((JSON.parse(run.stdout) as { prior_state?: unknown }).prior_state ?? null).replace(/"id":"[0-9a-f-]{36}"/g, '"id":"ID"'));
}

d.each([
  ["native", { "main.tf": TF }],
  ["JSON", { "main.tf.json": JSON_CONFIG }],
] as const)("show of a saved plan after the state moved on (%s syntax)", (_syntax, files) => {
  test("prior_state is the plan's, as terraform's", async () => {
    const pair = await initialisedPair(files);
    const commands = [["plan", "-out=first.tfplan"], ["apply", "-auto-approve"], ["plan", "-var=v=b", "-out=second.tfplan"], ["apply", "-auto-approve", "-var=v=c"]];
    const runs = await runPair(pair, commands);
    expect(runs.map(([ours, theirs]) => [ours.code, theirs.code])).toEqual(commands.map(() => [0, 0]));
    const show = (args: string[]): Promise<ToolRun[]> => Promise.all([runTool("magma", ["show", ...args], pair[0], {}), runTool("terraform", ["show", ...args], pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
    const [first, second, text] = [await show(["-json", "first.tfplan"]), await show(["-json", "second.tfplan"]), await show(["-no-color", "second.tfplan"])];
    expect(priorState(first[0]!)).toEqual(priorState(first[1]!));
    expect(JSON.stringify(priorState(first[0]!))).not.toContain("terraform_data");
    expect(priorState(second[0]!)).toEqual(priorState(second[1]!));
    expect(JSON.stringify(priorState(second[0]!))).toContain('"input":"a","output":"a"');
    const ids = (t: string): string => t.replace(/"[0-9a-f-]{36}"/g, '"ID"');
    expect(ids(text[0]!.stdout)).toEqual(ids(text[1]!.stdout));
  }, 300_000);
});
