// `magma test` against `terraform test` 1.11.4 on the same directories: stdout, stderr and the
// exit code byte for byte (the -json messages' timestamps blanked, and the progress updates
// both tools print every 2 s while an operation runs left out: how many there are depends on
// the machine's speed). The module under test uses magma's native random provider (served to
// terraform from a filesystem mirror), with deterministic values only (random_integer with
// min = max, string lengths), so that nothing random is compared. One directory holds:
// - main.tftest.hcl: a setup module (`module { source = "./setup" }`), an apply whose
//   variable is an earlier run's output and whose assertion fails, a plan run referring to
//   the apply's output, an expected variable validation failure;
// - tests/checks.tftest.hcl: file-level variables, a test-only variable referenced by an
//   assertion, expect_failures on an output precondition, a check block and a resource
//   postcondition (met at plan, at apply, and missing), an unexpected failed check that errors
//   the file (later runs skipped);
// - json.tftest.json: the same kind of runs in JSON syntax;
// - other.tftest.hcl: an assertion on a -var value, an expected failure that does not happen;
// - refs.tftest.hcl: assertions referring to what does not exist (a resource, an output, a
//   variable, a run not yet run and one not in the file);
// and a directory whose test file configures the provider (test/testdata/configured-provider.mjs).
// Terraform runs are slow (a provider process per operation), so each command runs once:
// the whole suite (human), two plan-only files with -json and -filter, a directory with -verbose in colour;
// and a flag terraform test does not know.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";
import { expectSameTestRun } from "./support/test-command-runs.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const REQUIRED = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
`;

const MAIN_TF = `${REQUIRED}
variable "length" {
  type    = number
  default = 4
  validation {
    condition     = var.length < 20
    error_message = "too long"
  }
}

variable "n" {
  type = number
  validation {
    condition     = var.n >= 2
    error_message = "n must be at least 2"
  }
}

resource "random_string" "s" {
  length  = var.length
  special = false
}

resource "random_integer" "i" {
  min = var.n
  max = var.n
  lifecycle {
    postcondition {
      condition     = self.result < 9
      error_message = "result too big"
    }
  }
}

output "length" {
  value = length(random_string.s.result)
}

output "double" {
  value = random_integer.i.result * 2
  precondition {
    condition     = var.n != 7
    error_message = "seven is unlucky"
  }
}

check "small" {
  assert {
    condition     = var.n < 5
    error_message = "n is not small"
  }
}
`;

const SETUP_TF = `${REQUIRED}
resource "random_integer" "n" {
  min = 3
  max = 3
}

output "n" {
  value = random_integer.n.result
}
`;

const MAIN_TEST = `variables {
  n = 3
}

run "setup" {
  module {
    source = "./setup"
  }
}

run "first" {
  variables {
    length = run.setup.n
  }

  assert {
    condition     = output.length == 3
    error_message = "wrong length"
  }

  assert {
    condition     = random_string.s.length == 4
    error_message = "length is \${random_string.s.length}"
  }
}

run "plan_again" {
  command = plan

  variables {
    length = run.first.length + 1
  }

  assert {
    condition     = random_string.s.length == 4
    error_message = "bad"
  }
}

run "bad_length" {
  command = plan

  variables {
    length = 30
  }

  expect_failures = [var.length]
}
`;

const CHECKS_TEST = `variables {
  n = 3
}

run "ok" {
  variables {
    expected = 3
  }

  assert {
    condition     = output.double == var.n * 2
    error_message = "double is \${output.double}"
  }

  assert {
    condition     = random_integer.i.result == var.expected
    error_message = "unexpected"
  }
}

run "invalid_var" {
  command = plan

  variables {
    n = 1
  }

  expect_failures = [var.n]
}

run "unlucky" {
  command = plan

  variables {
    n = 7
  }

  expect_failures = [output.double, check.small]
}

run "check_fails" {
  variables {
    n = 6
  }

  expect_failures = [check.small]
}

run "postcondition" {
  variables {
    n = 10
  }

  expect_failures = [random_integer.i]
}

run "after_error" {
  command = plan
}
`;

const JSON_TEST = JSON.stringify(
  {
    variables: { n: 4 },
    run: {
      setup: { module: { source: "./setup" } },
      apply: {
        variables: { length: "${run.setup.n + 2}" },
        assert: [
          { condition: "${output.length == 5}", error_message: "length is ${output.length}" },
          { condition: "${output.double == 8}", error_message: "double" },
        ],
      },
      plan: { command: "plan", variables: { n: 7 }, expect_failures: ["output.double", "check.small"] },
      unknown: { command: "plan", variables: { length: 9 }, assert: [{ condition: "${output.length == 9}", error_message: "unknown at plan" }] },
    },
  },
  null,
  2,
);

const OTHER_TEST = `run "from_cli" {
  command = plan

  assert {
    condition     = var.n == 4
    error_message = "n is \${var.n}"
  }
}

run "missing" {
  command         = plan
  expect_failures = [var.n]
}
`;

const VERBOSE_TEST = `variables {
  n = 3
}

run "applied" {
  assert {
    condition     = random_integer.i.result == 3
    error_message = "not 3"
  }
}

run "planned" {
  command = plan

  variables {
    n = 4
  }
}
`;

const PROVIDERS_TF = `terraform {
  required_providers {
    configured = { source = "magma/configured" }
  }
}

provider "configured" {
  prefix = "module"
}

resource "configured_thing" "t" {
  name = "t"
}

output "id" {
  value = configured_thing.t.id
}
`;

const PROVIDERS_TEST = `variables {
  p = "file"
}

provider "configured" {
  prefix = var.p
}

provider "configured" {
  alias  = "other"
  prefix = "other"
}

run "file_provider" {
  assert {
    condition     = output.id == "file-t"
    error_message = "id is \${output.id}"
  }
}

run "passed" {
  providers = {
    configured = configured.other
  }

  assert {
    condition     = output.id == "other-t"
    error_message = "id is \${output.id}"
  }
}

run "bad" {
  providers = {
    configured = configured.missing
  }
}
`;

const REFS_TEST = `variables {
  n = 3
}

run "refs" {
  command = plan

  assert {
    condition     = random_integer.nope.result == 1
    error_message = "x"
  }

  assert {
    condition     = output.doubel == 1
    error_message = "x"
  }

  assert {
    condition     = var.undeclared == 1
    error_message = "x"
  }

  assert {
    condition     = run.later.x == 1 || run.nope.x == 1
    error_message = "x"
  }
}

run "later" {
  command = plan
}
`;

const FILES: Readonly<Record<string, string>> = {
  "main.tf": MAIN_TF,
  "setup/main.tf": SETUP_TF,
  "main.tftest.hcl": MAIN_TEST,
  "tests/checks.tftest.hcl": CHECKS_TEST,
  "json.tftest.json": JSON_TEST,
  "other.tftest.hcl": OTHER_TEST,
  "refs.tftest.hcl": REFS_TEST,
};

(TERRAFORM !== undefined ? describe : describe.skip)("magma test against terraform test", () => {
  let cliConfig: string;
  let theirs: string;
  let ours: string;

  beforeAll(async () => {
    cliConfig = testProvidersCliConfig({ random: "random-provider.mjs", configured: "configured-provider.mjs" });
    theirs = workdir({ ...FILES, "providers/main.tf": PROVIDERS_TF, "providers/main.tftest.hcl": PROVIDERS_TEST, "verbose/main.tf": MAIN_TF.replace(/resource "random_string"[\s\S]*?\n}\n/, "").replace(/output "length"[\s\S]*?\n}\n/, ""), "verbose/main.tftest.hcl": VERBOSE_TEST });
    ours = workdir({});
    cpSync(theirs, ours, { recursive: true });
    // terraform needs its providers and the setup module installed; magma runs magma/random natively.
    // (magma launches magma/configured from what init installed, as terraform does.)
    const init = (d: string) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } });
    await Promise.all([init(theirs), init(join(theirs, "verbose")), init(join(theirs, "providers")), init(join(ours, "providers"))]);
  }, 240_000);

  // magma colours a pipe only with FORCE_COLOR (terraform colours unless -no-color).
  const both = async (args: readonly string[], sub = ""): Promise<[ToolRun, ToolRun]> => {
    const [t, m] = await Promise.all([runTool("terraform", ["test", ...args], join(theirs, sub), { TF_CLI_CONFIG_FILE: cliConfig }), runTool("magma", ["test", ...args], join(ours, sub), { FORCE_COLOR: "1" })]);
    return [m, t];
  };

  test("every file (HCL and JSON test files): setup module, run outputs, asserts, expect_failures, -var", async () => {
    const [m, t] = await both(["-no-color", "-var", "n=4"]);
    expectSameTestRun(m, t, "test -var n=4");
    // The comparison covers what was meant to be covered.
    expect(t.code).toBe(1);
    expect(t.stdout).toContain('  run "postcondition"... fail');
    expect(t.stdout).toContain('  run "after_error"... skip');
    expect(t.stderr).toContain("Error: Missing expected failure");
    expect(t.stderr).toContain("Error: Unknown condition value");
  }, 600_000);

  test("-json and -filter", async () => {
    const [m, t] = await both(["-json", "-filter=other.tftest.hcl", "-filter=refs.tftest.hcl", "-var", "n=4"]);
    expectSameTestRun(m, t, "test -json -filter=other.tftest.hcl -filter=refs.tftest.hcl -var n=4");
    expect(t.stdout).toContain('"summary":"Reference to undeclared output value"');
    expect(t.stdout).toContain('"type":"test_summary"');
  }, 600_000);

  test("-verbose, in colour: the state after an apply, the plan of a plan run", async () => {
    const [m, t] = await both(["-verbose"], "verbose");
    expectSameTestRun(m, t, "test -verbose");
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('resource "random_integer" "i"');
    expect(t.stdout).toContain("\x1b[");
  }, 600_000);

  test("a test file's provider blocks (with a file variable), a run's providers map, a missing provider definition", async () => {
    const [m, t] = await both(["-no-color"], "providers");
    expectSameTestRun(m, t, "test (providers)");
    expect(t.stderr).toContain("Error: Missing provider definition for configured.missing");
    expect(t.stdout).toContain('  run "file_provider"... pass');
  }, 600_000);

  test("an unknown flag", async () => {
    const [m, t] = await both(["-no-color", "-bogus"], "verbose");
    expectSameTestRun(m, t, "test -bogus");
    expect(t.code).toBe(1);
  }, 120_000);
});
