// `magma test`'s mock_provider blocks against `terraform test` 1.11.4 on the same directories:
// stdout, stderr and the exit code byte for byte, with the -json timestamps blanked and the
// values a mock makes up (8 random lower-case letters and digits) masked. The providers:
// magma's random (test/testdata/random-provider.mjs) and test/testdata/mockable-provider.mjs,
// whose configuration requires an `endpoint` the tests never give and whose every resource and
// data source call throws, so that a passing run proves the mock answered, not the provider.
// - random: mock_resource defaults in the test file, in a `source` directory's .tfmock.hcl and
//   .tfmock.json files, override_during = plan on the mock_provider and = apply on a mock_resource;
// - kinds: computed strings, numbers, bools, lists, maps, objects, a nested attribute and a
//   nested block's attribute, filled from defaults or generated; a mock_data; an aliased mock
//   provider in a .tftest.json file passed by a run's providers map; with -verbose and -json;
// - invalid, nowhere, badtypes: invalid override_during values, a duplicate mock_resource, a
//   missing source directory (not read while other errors stand, as terraform's), defaults of
//   the wrong type (one attribute only: with two, terraform prints their errors in either order);
// - overrides: override_resource and override_data blocks in the file, in a run (an instance
//   address over the file's resource address), in a mock_provider, with override_during = plan
//   (a create takes the values while planning, an update keeps the prior ones); badoverrides:
//   their decoding errors (targets of the wrong kind, a values attribute that is no object, no target);
// - and, beside the mocks: -verbose with -json (terraform's test_state and test_plan messages,
//   the real provider's schema in them), and `check.NAME` in run assertions (an error terraform
//   gives when it reads the reference) in a directory on the real magma/random.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";
import { comparableTestOutput, expectSameTestRun } from "./support/test-command-runs.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const FILES: Readonly<Record<string, string>> = {
  "random/main.tf": `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

variable "n" {
  type    = number
  default = 3
}

resource "random_string" "s" {
  length  = var.n
  special = false
}

resource "random_integer" "i" {
  min = 1
  max = 5
}

output "result" {
  value = random_string.s.result
}

output "int" {
  value = random_integer.i.result
}
`,
  "random/main.tftest.hcl": `mock_provider "random" {
  mock_resource "random_string" {
    defaults = {
      result = "fixed"
    }
  }
}

run "apply" {
  assert {
    condition     = output.result == "fixed"
    error_message = "result is \${output.result}"
  }
  assert {
    condition     = output.int == 0
    error_message = "int is \${output.int}"
  }
  assert {
    condition     = length(random_integer.i.id) == 8
    error_message = "id is \${random_integer.i.id}"
  }
}

run "plan" {
  command = plan
  assert {
    condition     = output.result == "fixed"
    error_message = "plan result is \${output.result}"
  }
}
`,
  "random/plan.tftest.hcl": `mock_provider "random" {
  override_during = plan
  source = "./mocks"
}

run "plan" {
  command = plan
  variables {
    n = 5
  }
  assert {
    condition     = output.result == "frommock"
    error_message = "plan result is \${output.result}"
  }
  assert {
    condition     = output.int == 7
    error_message = "int"
  }
}
`,
  "random/mocks/r.tfmock.hcl": `mock_resource "random_string" {
  defaults = {
    result = "frommock"
  }
}
`,
  "random/mocks/i.tfmock.json": `{
  "mock_resource": {
    "random_integer": {
      "defaults": { "result": "7" },
      "override_during": "apply"
    }
  }
}
`,
  "kinds/main.tf": `terraform {
  required_providers {
    mockable = { source = "magma/mockable" }
  }
}

resource "mockable_thing" "t" {
  name = "a"
  detail = {
    size = 1
  }
  part {
    label = "x"
  }
  part {
    label = "y"
  }
}

data "mockable_info" "i" {
  query = "q"
}

output "thing" {
  value = mockable_thing.t
}

output "info_count" {
  value = data.mockable_info.i.total
}
`,
  "kinds/mock.tftest.hcl": `mock_provider "mockable" {
  mock_resource "mockable_thing" {
    defaults = {
      id     = "Thing-ID"
      owner  = { name = "Owner-A" }
      detail = { arn = "Arn-X" }
      part   = { serial = "Serial-1" }
    }
  }
  mock_data "mockable_info" {
    defaults = {
      total  = 3
      labels = { a = "B-b" }
    }
  }
}

run "create" {
  assert {
    condition     = mockable_thing.t.id == "Thing-ID" && mockable_thing.t.total == 0 && mockable_thing.t.ready == false
    error_message = "thing"
  }
  assert {
    condition     = length(mockable_thing.t.tags) == 0 && length(mockable_thing.t.labels) == 0
    error_message = "collections"
  }
  assert {
    condition     = mockable_thing.t.owner.name == "Owner-A" && mockable_thing.t.owner.uid == 0
    error_message = "owner"
  }
  assert {
    condition     = mockable_thing.t.detail.arn == "Arn-X" && mockable_thing.t.detail.size == 2
    error_message = "detail"
  }
  assert {
    condition     = length(mockable_thing.t.part[1].serial) == 8
    error_message = "serial is \${mockable_thing.t.part[1].serial}"
  }
  assert {
    condition     = data.mockable_info.i.total == 3 && data.mockable_info.i.labels["a"] == "B-b" && length(data.mockable_info.i.id) == 8
    error_message = "info"
  }
  assert {
    condition     = output.info_count == 4
    error_message = "info total is \${output.info_count}, owner \${mockable_thing.t.owner.name}"
  }
}

run "plan_update" {
  command = plan
  assert {
    condition     = mockable_thing.t.id == "Thing-ID"
    error_message = "kept"
  }
}
`,
  "kinds/alias.tftest.json": `{
  "mock_provider": {
    "mockable": {
      "alias": "fake",
      "override_during": "plan",
      "mock_resource": {
        "mockable_thing": {
          "defaults": { "id": "Json-ID", "total": 5 }
        }
      }
    }
  },
  "run": {
    "plan_json": {
      "command": "plan",
      "providers": { "mockable": "mockable.fake" },
      "assert": [
        { "condition": "\${mockable_thing.t.id == \\"Json-ID\\" && mockable_thing.t.total == 5}", "error_message": "json" },
        { "condition": "\${mockable_thing.t.ready}", "error_message": "ready is false" }
      ]
    }
  }
}
`,
  "invalid/main.tf": `terraform {
  required_providers {
    mockable = { source = "magma/mockable" }
  }
}

resource "mockable_thing" "t" {
  name = "a"
  detail = {
    size = 1
  }
  part {
    label = "x"
  }
  part {
    label = "y"
  }
}

data "mockable_info" "i" {
  query = "q"
}

output "thing" {
  value = mockable_thing.t
}

output "info_count" {
  value = data.mockable_info.i.total
}
`,
  "invalid/a.tftest.hcl": `mock_provider "mockable" {
  override_during = later
  mock_resource "mockable_thing" {}
  mock_resource "mockable_thing" {}
  mock_data "mockable_info" {
    override_during = sometime
  }
}

run "a" {}
`,
  "invalid/b.tftest.hcl": `mock_provider "mockable" {
  source = "./nowhere"
}

run "b" {}
`,
  "nowhere/main.tf": `terraform {
  required_providers {
    mockable = { source = "magma/mockable" }
  }
}

resource "mockable_thing" "t" {
  name = "a"
  detail = {
    size = 1
  }
  part {
    label = "x"
  }
  part {
    label = "y"
  }
}

data "mockable_info" "i" {
  query = "q"
}

output "thing" {
  value = mockable_thing.t
}

output "info_count" {
  value = data.mockable_info.i.total
}
`,
  "nowhere/b.tftest.hcl": `mock_provider "mockable" {
  source = "./nowhere"
}

run "b" {}
`,
  "badtypes/main.tf": `terraform {
  required_providers {
    mockable = { source = "magma/mockable" }
  }
}

resource "mockable_thing" "t" {
  name = "a"
  detail = {
    size = 1
  }
  part {
    label = "x"
  }
  part {
    label = "y"
  }
}

data "mockable_info" "i" {
  query = "q"
}

output "thing" {
  value = mockable_thing.t
}

output "info_count" {
  value = data.mockable_info.i.total
}
`,
  "badtypes/b.tftest.hcl": `mock_provider "mockable" {
  mock_resource "mockable_thing" {
    defaults = {
      owner = "x"
    }
  }
}

run "b" {}
`,
  "checks/main.tf": `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

variable "n" {
  type    = number
  default = 3
}

resource "random_string" "s" {
  length  = var.n
  special = false
}

resource "random_integer" "i" {
  min = 1
  max = 5
}

output "result" {
  value = random_string.s.result
}

output "int" {
  value = random_integer.i.result
}

check "small" {
  assert {
    condition     = var.n < 4
    error_message = "n is not small"
  }
}
`,
  "checks/a.tftest.hcl": `run "checks" {
  variables {
    n = 5
  }
  expect_failures = [check.small]
  assert {
    condition     = check.small == null
    error_message = "check is \${jsonencode(check.small)}"
  }
}

run "plan_check" {
  command = plan
  assert {
    condition     = check.small != null
    error_message = "check"
  }
}

run "nope" {
  command = plan
  assert {
    condition     = check.nope != null
    error_message = "check"
  }
}
`,
  "checks/b.tftest.hcl": `run "plan_check" {
  command = plan
  variables {
    n = 3
  }
  assert {
    condition     = check.nope != null && random_string.s.length == 3
    error_message = "check"
  }
}

run "after" {
  command = plan
  variables {
    n = 3
  }
}
`,
  "overrides/main.tf": `terraform {
  required_providers {
    random = { source = "magma/random" }
    mockable = { source = "magma/mockable" }
  }
}

resource "random_string" "s" {
  count   = 2
  length  = 4
  special = false
}

resource "random_integer" "i" {
  min = 1
  max = 5
}

resource "mockable_thing" "t" {
  name = "a"
}

data "mockable_info" "i" {
  query = "q"
}

output "s0" {
  value = random_string.s[0].result
}

output "s1" {
  value = random_string.s[1].result
}

output "i" {
  value = random_integer.i.result
}
`,
  "overrides/main.tftest.hcl": `mock_provider "mockable" {
  override_resource {
    target = mockable_thing.t
    values = {
      id = "From-Mock-Override"
    }
  }
}

override_resource {
  target = random_string.s
  values = {
    result = "File-Level"
  }
}

override_data {
  target = data.mockable_info.i
  values = {
    total = 9
  }
}

run "apply" {
  override_resource {
    target = random_string.s[1]
    values = {
      result = "Run-Level"
    }
  }
  override_resource {
    target          = random_integer.i
    override_during = plan
    values = {
      result = 42
      id     = "Int-Id"
    }
  }
  assert {
    condition     = output.s0 == "File-Level" && output.s1 == "Run-Level" && output.i == 42
    error_message = "outputs \${output.s0} \${output.s1} \${output.i}"
  }
  assert {
    condition     = mockable_thing.t.id == "From-Mock-Override" && data.mockable_info.i.total == 9
    error_message = "mockable"
  }
  assert {
    condition     = length(random_string.s[0].id) == 8
    error_message = "id"
  }
}

run "plan" {
  command = plan
  override_resource {
    target          = random_integer.i
    override_during = plan
    values = {
      result = 43
      id     = "Int-Id"
    }
  }
  assert {
    condition     = output.i == 43
    error_message = "plan i is \${output.i}"
  }
}
`,
  "badoverrides/main.tf": `terraform {
  required_providers {
    random = { source = "magma/random" }
    mockable = { source = "magma/mockable" }
  }
}

resource "random_string" "s" {
  count   = 2
  length  = 4
  special = false
}

resource "random_integer" "i" {
  min = 1
  max = 5
}

resource "mockable_thing" "t" {
  name = "a"
}

data "mockable_info" "i" {
  query = "q"
}

output "s0" {
  value = random_string.s[0].result
}

output "s1" {
  value = random_string.s[1].result
}

output "i" {
  value = random_integer.i.result
}
`,
  "badoverrides/bad.tftest.hcl": `override_resource {
  target = data.mockable_info.i
}
override_data {
  target = mockable_thing.t
  values = "x"
}
override_module {
  target = random_string.s
}
override_resource {
  values = {}
}
run "x" {}
`,
};

/** What differs from run to run: -json timestamps, the progress updates printed every 2 s, and the values a mock makes up. */
function comparable(s: string): string {
  return comparableTestOutput(s).replace(/(\\?)"[a-z0-9]{8}\\?"/g, "$1\"RANDOM$1\"");
}

function expectSame(ours: ToolRun, theirs: ToolRun, command: string): void {
  expectSameTestRun(ours, theirs, command, comparable);
}

(TERRAFORM !== undefined ? describe : describe.skip)("magma test's mock providers against terraform test", () => {
  let cliConfig: string;
  let theirs: string;
  let ours: string;

  beforeAll(async () => {
    cliConfig = testProvidersCliConfig({ random: "random-provider.mjs", mockable: "mockable-provider.mjs" });
    theirs = workdir(FILES);
    ours = workdir({});
    cpSync(theirs, ours, { recursive: true });
    // Both tools launch magma/mockable from what init installed (terraform's init, as the other test command tests do).
    const init = (d: string) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } });
    await Promise.all(["random", "kinds", "badtypes", "checks", "overrides"].flatMap((sub) => [init(join(theirs, sub)), init(join(ours, sub))]));
  }, 240_000);

  const both = async (args: readonly string[], sub: string): Promise<[ToolRun, ToolRun]> => {
    const [t, m] = await Promise.all([runTool("terraform", ["test", ...args], join(theirs, sub), { TF_CLI_CONFIG_FILE: cliConfig }), runTool("magma", ["test", ...args], join(ours, sub), {})]);
    return [m, t];
  };

  test("mock_resource defaults from the test file and a source directory (.tfmock.hcl, .tfmock.json), override_during", async () => {
    const [m, t] = await both(["-no-color"], "random");
    expectSame(m, t, "test (random)");
    expect(t.stdout).toContain('  run "apply"... pass');
    expect(t.stderr).toContain("Error: Unknown condition value");
  }, 600_000);

  test("computed values of every kind, mock_data, an aliased mock in a .tftest.json file, -verbose", async () => {
    const [m, t] = await both(["-no-color", "-verbose"], "kinds");
    expectSame(m, t, "test -verbose (kinds)");
    expect(t.stdout).toContain('  run "plan_update"... pass');
    expect(t.stderr).toContain("info total is 3, owner Owner-A");
    expect(comparable(t.stdout)).toContain('serial = "RANDOM"');
  }, 600_000);

  test("-json", async () => {
    const [m, t] = await both(["-json"], "kinds");
    expectSame(m, t, "test -json (kinds)");
    expect(t.stdout).toContain('"summary":"Test assertion failed"');
  }, 600_000);

  test("-verbose with -json: test_state and test_plan documents", async () => {
    for (const sub of ["random", "kinds"]) {
      const [m, t] = await both(["-json", "-verbose"], sub);
      expectSame(m, t, `test -json -verbose (${sub})`);
      expect(t.stdout).toContain('"type":"test_state"');
      expect(t.stdout).toContain('"type":"test_plan"');
    }
  }, 600_000);

  test("check.NAME in run assertions, human and -json", async () => {
    for (const args of [["-no-color"], ["-json"]]) {
      const [m, t] = await both(args, "checks");
      expectSame(m, t, `test ${args.join(" ")} (checks)`);
      expect(t.stdout + t.stderr).toMatch(/Reference to \\?"check\\?" in invalid context/);
    }
  }, 600_000);

  test("override_resource and override_data (file, run, mock provider), human and -json -verbose; invalid override blocks", async () => {
    for (const args of [["-no-color"], ["-json", "-verbose"]]) {
      const [m, t] = await both(args, "overrides");
      expectSame(m, t, `test ${args.join(" ")} (overrides)`);
      expect(t.stdout).toMatch(/\\?"apply\\?"\.\.\. pass/);
    }
    const [m, t] = await both(["-no-color"], "badoverrides");
    expectSame(m, t, "test (badoverrides)");
    expect(t.stderr).toContain("Error: Invalid override target");
  }, 600_000);

  test("invalid mock blocks; a missing source directory", async () => {
    for (const sub of ["invalid", "nowhere"]) {
      const [m, t] = await both(["-no-color"], sub);
      expectSame(m, t, `test (${sub})`);
    }
  }, 600_000);

  test("defaults of the wrong types", async () => {
    const [m, t] = await both(["-no-color"], "badtypes");
    expectSame(m, t, "test (badtypes)");
    expect(t.stderr).toContain("Error: Failed to compute attribute");
  }, 600_000);
});
