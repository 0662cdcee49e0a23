// `output -raw` of a value that is not a string, number or bool, against terraform 1.11.4 on
// the same state: the error names the value's type as go-cty's FriendlyName does ("tuple",
// "list of string", "map of number", "object", "set of number"), exit 1. (magma's error
// ends with one blank line more than terraform's: compared without trailing whitespace.)
// Skipped without terraform.
import { initialisedPair, pairCliConfig, runPair } from "./support/lang-pair.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const CONFIG = `output "t" {
  value = ["a", 1]
}
output "l" {
  value = tolist(["a"])
}
output "m" {
  value = tomap({ a = 1 })
}
output "o" {
  value = { a = "x" }
}
output "s" {
  value = toset([1])
}
`;

(TERRAFORM !== undefined ? describe : describe.skip)("output -raw of a complex value, against terraform's", () => {
  test("the error names the type as terraform does", async () => {
    const pair = await initialisedPair({ "main.tf": CONFIG });
    await runPair(pair, [["apply", "-auto-approve"]]);
    for (const name of ["t", "l", "m", "o", "s"]) {
      const args = ["output", "-no-color", "-raw", name];
      const [ours, theirs] = await Promise.all([runTool("magma", args, pair[0], {}), runTool("terraform", args, pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
      expect({ name, code: ours.code, stdout: ours.stdout, stderr: ours.stderr.trimEnd() }).toEqual({ name, code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr.trimEnd() });
    }
    const [ours] = await Promise.all([runTool("magma", ["output", "-no-color", "-raw", "l"], pair[0], {})]);
    expect(ours.stderr).toContain('output value "l" is list of string.');
  }, 300_000);
});
