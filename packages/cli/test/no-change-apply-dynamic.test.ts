// A no-change apply writes the refreshed objects back (apply-refreshed-only.test.ts); objects
// with a dynamic attribute — terraform_data's `input` and `output` — must be written with their
// schema's type ({"value","type"}), not the value's own: magma wrote `"input": "x"`, which the
// next plan could not read ("upgradeResourceState … missing expected {"). Two applies and a
// targeted plan, native and JSON syntax, state and output side by side with terraform 1.11.4.
// Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { expectSameRuns, initialisedPair, runPair, stableState } from "./support/lang-pair.js";
import { stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `resource "terraform_data" "a" {
  input = "x"
}

resource "terraform_data" "b" {
  input = {
    from = terraform_data.a.output
    n    = [1, 2]
  }
}

output "b" {
  value = terraform_data.b.output
}
`;

const COMMANDS = [["apply", "-auto-approve"], ["apply", "-auto-approve"], ["plan", "-detailed-exitcode", "-target=terraform_data.b"], ["plan", "-detailed-exitcode"]] as const;

(TERRAFORM !== undefined ? describe : describe.skip)("a no-change apply keeps dynamic attributes in their stored form, as terraform", () => {
  test.each([
    ["native", { "main.tf": MAIN }],
    ["json", { "main.tf.json": tfToJson(MAIN) }],
  ] as const)("%s", async (_syntax, files) => {
    const pair = await initialisedPair(files);
    const runs = await runPair(pair, COMMANDS);
    expectSameRuns(runs, COMMANDS);
    expect(runs.map(([, theirs]) => theirs.code)).toEqual([0, 0, 0, 0]);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
  }, 300_000);
});
