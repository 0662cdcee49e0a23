// `import` blocks and `magma import ADDR ID` against terraform 1.11.4 on the same files, in
// both syntaxes: the plan's "Preparing import..." and refresh lines and the imported object
// listed with every attribute, the apply's "Importing..."/"Import complete" lines and
// "1 imported, 0 added, 0 changed", the state, and the next plan's "No changes." (an import
// block whose target is in the state is a no-op); `import -no-color` and the root outputs
// `import` writes. Skipped without terraform.
import { expectSameRuns, initialisedPair, runPair, stableState } from "./support/lang-pair.js";
import { stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const NATIVE = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
import {
  id = "abc"
  to = random_string.a
}
resource "random_string" "a" {
  length = 3
}
output "r" {
  value = random_string.a.result
}
output "c" {
  value = "const"
}
`;

const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { random: { source: "magma/random" } } },
  import: [{ id: "abc", to: "random_string.a" }],
  resource: { random_string: { a: { length: 3 } } },
  output: { r: { value: "${random_string.a.result}" }, c: { value: "const" } },
});

/** The configurations without their import block (for `import ADDR ID`). */
const WITHOUT_BLOCK = {
  native: NATIVE.replace(/import \{[^}]*\}\n/, ""),
  json: JSON.stringify({ ...(JSON.parse(JSON_CONFIG) as Record<string, unknown>), import: undefined }),
};

const COMMANDS = [["plan"], ["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]] as const;

(TERRAFORM !== undefined ? describe : describe.skip)("import blocks and magma import, against terraform's", () => {
  test.each([
    ["native syntax", { "main.tf": NATIVE }],
    ["JSON syntax", { "main.tf.json": JSON_CONFIG }],
  ])("%s: an import block planned, applied and then a no-op", async (_name, files) => {
    const pair = await initialisedPair(files);
    const runs = await runPair(pair, COMMANDS);
    expectSameRuns(runs, COMMANDS);
    expect(runs[0]![0].stdout).toContain("random_string.a: Preparing import... [id=abc]\nrandom_string.a: Refreshing state... [id=abc]\n");
    expect(runs[0]![0].stdout).toContain('  # random_string.a will be imported\n    resource "random_string" "a" {\n        id          = "abc"\n        length      = 3\n');
    expect(runs[1]![0].stdout).toContain("random_string.a: Importing... [id=abc]\nrandom_string.a: Import complete [id=abc]\n");
    expect(runs[1]![0].stdout).toContain("Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.");
    expect(runs[2]![0].code).toBe(0);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
  }, 600_000);

  test.each([
    ["native syntax", { "main.tf": WITHOUT_BLOCK.native }],
    ["JSON syntax", { "main.tf.json": WITHOUT_BLOCK.json }],
  ])("%s: import ADDR ID -no-color writes the object and the root outputs", async (_name, files) => {
    const pair = await initialisedPair(files);
    const commands = [["import", "random_string.a", "xyz"]] as const;
    const runs = await runPair(pair, commands);
    expectSameRuns(runs, commands);
    expect(runs[0]![0].code).toBe(0);
    const state = stableState(pair[0]) as { outputs: Record<string, unknown> };
    expect(state.outputs).toEqual({ c: { value: "const", type: "string" }, r: { value: "xyz", type: "string" } });
    expect(state).toEqual(stableState(pair[1]));
  }, 600_000);
});
