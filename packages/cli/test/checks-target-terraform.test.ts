// Checks (check blocks, pre/postconditions, output preconditions, variable validations) under
// -target and in a module called with count = 0, against terraform 1.11.4 on the same files,
// native and JSON syntax: apply, apply -target of a resource, apply -target of the empty
// module, plan -target; exit code, stdout, stderr, and the state's check_results (sorted by
// address: terraform's order varies from run to run). The checkable objects of a module
// expanded to none pass; those a targeted apply leaves out stay as the last apply left them
// or unknown. Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { expectSameRuns, initialisedPair, runPair, stableState } from "./support/lang-pair.js";
import { stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const ROOT = `resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = "y"
  lifecycle {
    postcondition {
      condition     = self.output == "y"
      error_message = "b"
    }
  }
}
check "c" {
  assert {
    condition     = terraform_data.a.output == "nope"
    error_message = "a is not nope"
  }
}
module "m" {
  source = "./m"
  count  = 0
}
output "o" {
  value = terraform_data.b.output
  precondition {
    condition     = terraform_data.b.output == "y"
    error_message = "o"
  }
}
`;

const CHILD = `resource "terraform_data" "x" {
  input = 1
}
check "mc" {
  assert {
    condition     = terraform_data.x.output == 2
    error_message = "module check"
  }
}
variable "v" {
  default = "a"
  validation {
    condition     = var.v != ""
    error_message = "empty"
  }
}
output "mo" {
  value = terraform_data.x.output
  precondition {
    condition     = terraform_data.x.output != null
    error_message = "null"
  }
}
`;

function checkResults(dir: string): unknown {
  const doc = stableState(dir) as { check_results?: { config_addr: string }[] | null } | undefined;
  return [...(doc?.check_results ?? [])].sort((x, y) => (x.config_addr < y.config_addr ? -1 : 1));
}

(TERRAFORM !== undefined ? describe : describe.skip)("checks under -target and in a module with count = 0, against terraform's", () => {
  test.each([
    ["native", { "main.tf": ROOT, "m/main.tf": CHILD }],
    ["JSON", { "main.tf.json": tfToJson(ROOT), "m/main.tf.json": tfToJson(CHILD, "m/main.tf") }],
  ])("%s syntax", async (_syntax, files) => {
    // Two directory pairs: a targeted apply first, and a full apply followed by targeted ones.
    // (Not in sequence after an apply that leaves an object unchanged: magma then rewrites
    // terraform_data's dynamic `input` without its type wrapper, which a later plan refuses —
    // reported, not fixed here.)
    const sequences = [
      [["apply", "-auto-approve", "-target=terraform_data.b"], ["plan", "-target=terraform_data.a"]],
      [["apply", "-auto-approve"], ["apply", "-auto-approve", "-target=module.m"]],
    ];
    let pair = await initialisedPair(files);
    for (const [i, steps] of sequences.entries()) {
      if (i > 0) pair = await initialisedPair(files);
      for (const step of steps) {
        const runs = await runPair(pair, [step]);
        expectSameRuns(runs, [step]);
        expect({ step: step.join(" "), checks: checkResults(pair[0]) }).toEqual({ step: step.join(" "), checks: checkResults(pair[1]) });
        // A full apply: the checkable objects of the module expanded to none pass.
        if (step.join(" ") === "apply -auto-approve") expect(JSON.stringify(checkResults(pair[0]))).toContain('"config_addr":"module.m.check.mc","status":"pass"');
      }
    }
  }, 300_000);
});
