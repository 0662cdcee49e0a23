// The human plan beside terraform 1.11.4's on the same files, in native and JSON syntax:
// empty nested blocks (single, list, set, map; created, deleted, and a list of blocks going
// from one element to none and back) print as `one {}`, where a block holding an empty list
// of blocks still opens and closes on two lines; an updated attribute holding a JSON string
// prints as terraform's structural diff inside `jsonencode(` … `)` (changed, added and hidden
// keys, a list element changed in place). Each step is planned by both tools, then applied.
// Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { expectSameRuns, initialisedPair, runPair } from "./support/lang-pair.js";
import { stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const HEADER = `terraform {
  required_providers {
    blocks = { source = "magma/blocks" }
  }
}
`;

const STEPS: readonly string[] = [
  `resource "blocks_thing" "a" {
  name = "a"
  one {}
  step {}
  step {
    arg {}
  }
  many {}
  rule "x" {}
}
resource "terraform_data" "j" {
  input = jsonencode({ a = 1, b = 2, c = [1, 2] })
}
`,
  `resource "blocks_thing" "a" {
  name = "a"
  step {
    arg {}
  }
}
resource "terraform_data" "j" {
  input = jsonencode({ a = 1, b = 3, c = [1, 3] })
}
`,
  `resource "blocks_thing" "a" {
  name = "a"
  one {}
  step {
    arg {}
    arg {}
  }
  step {}
  many {}
  rule "y" {}
}
resource "terraform_data" "j" {
  input = jsonencode({ a = 1, b = 3, c = [1, 3], d = { e = "x" } })
}
`,
];

/** terraform_data's random ids blanked. */
function blank(r: ToolRun): ToolRun {
  return { code: r.code, stdout: r.stdout.replace(/"[0-9a-f]{8}-[0-9a-f-]{27}"/g, '"ID"'), stderr: r.stderr };
}

(TERRAFORM !== undefined ? describe : describe.skip)("empty nested blocks and JSON string updates in the plan, beside terraform's", () => {
  test.each([
    ["native syntax", "main.tf", (s: string) => s],
    ["JSON syntax", "main.tf.json", tfToJson],
  ])("%s", async (_name, file, syntax) => {
    const pair = await initialisedPair({ [file]: syntax(HEADER + STEPS[0]!) });
    const plans: ToolRun[] = [];
    for (const step of STEPS) {
      for (const dir of pair) writeFileSync(join(dir, file), syntax(HEADER + step));
      const commands = [["plan"], ["apply", "-auto-approve"]];
      const runs = await runPair(pair, commands);
      expectSameRuns([[blank(runs[0]![0]), blank(runs[0]![1])]], commands.slice(0, 1));
      for (const [o, t] of runs) expect([o.code, t.code]).toEqual([0, 0]);
      plans.push(runs[0]![1]);
    }
    // What the comparison covers, in terraform's own words.
    expect(plans[0]!.stdout).toContain("      + one {}\n");
    expect(plans[0]!.stdout).toContain("      + step {\n        }\n");
    expect(plans[1]!.stdout).toContain("      - many {}\n");
    expect(plans[1]!.stdout).toContain("      ~ input  = jsonencode(\n          ~ {\n              ~ b = 2 -> 3\n");
  }, 300_000);
});
