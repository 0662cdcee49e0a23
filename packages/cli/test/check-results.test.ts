// Checks after apply against terraform 1.11.4 on the same files, in both syntaxes: the state's
// `check_results` (variable validations, resource pre/postconditions, output preconditions and
// check blocks, in a root module and in a module expanded with for_each) after an apply with
// changes, an apply without changes and a refresh-only apply; and the warnings printed: a
// check block's assertion "known after apply" at plan is left out of the auto-approved apply,
// which evaluates it again and warns that it failed. Terraform writes `check_results` in its
// maps' random order: both states are compared with them sorted. And a postcondition that
// fails only at apply: the instance is created and saved, the apply fails with terraform's
// error, its dependent is not created; a resource with `count = 0` passes. And data sources
// scoped in check blocks (test/testdata/failing-provider.mjs's random_refusal): read again after
// the managed resources at apply; one that cannot be read (at plan, or only at apply) warns
// with the provider's words in its block and fails its check with the read's error, which is
// what `failure_messages` holds; the state keeps one read at plan as terraform's refreshed
// state holds it (unknown values null). Skipped without terraform.
import { expectSameRuns, initialisedPair, runPair, stableState, type Pair } from "./support/lang-pair.js";
import { stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

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

const ROOT = `${REQUIRED}variable "n" {
  type    = number
  default = 3
  validation {
    condition     = var.n > 0
    error_message = "n must be positive"
  }
}
resource "random_string" "a" {
  count   = 2
  length  = var.n
  special = false
  lifecycle {
    precondition {
      condition     = var.n < 10
      error_message = "too long"
    }
    postcondition {
      condition     = length(self.result) == var.n
      error_message = "wrong length"
    }
  }
}
resource "random_string" "b" {
  length  = 4
  special = false
}
output "o" {
  value = length(random_string.b.result)
  precondition {
    condition     = length(random_string.b.result) == 4
    error_message = "bad o"
  }
}
check "c" {
  assert {
    condition     = length(random_string.b.result) == 5
    error_message = "b is not 5 long"
  }
  assert {
    condition     = var.n == 3
    error_message = "n is not 3"
  }
}
module "m" {
  source   = "./m"
  for_each = toset(["p", "q"])
  v        = each.key
}
`;

const MODULE = `${REQUIRED}variable "v" {
  type = string
  validation {
    condition     = length(var.v) == 1
    error_message = "one char"
  }
}
resource "random_id" "i" {
  byte_length = 2
  lifecycle {
    postcondition {
      condition     = self.hex != ""
      error_message = "empty"
    }
  }
}
output "x" {
  value = random_id.i.hex
  precondition {
    condition     = var.v != "z"
    error_message = "v is z"
  }
}
check "inner" {
  assert {
    condition     = var.v == "p"
    error_message = "v is not p"
  }
}
`;

const REQUIRED_JSON = { required_providers: { random: { source: "magma/random" } } };
const ROOT_JSON = JSON.stringify({
  terraform: REQUIRED_JSON,
  variable: { n: { type: "number", default: 3, validation: [{ condition: "${var.n > 0}", error_message: "n must be positive" }] } },
  resource: {
    random_string: {
      a: {
        count: 2,
        length: "${var.n}",
        special: false,
        lifecycle: { precondition: [{ condition: "${var.n < 10}", error_message: "too long" }], postcondition: [{ condition: "${length(self.result) == var.n}", error_message: "wrong length" }] },
      },
      b: { length: 4, special: false },
    },
  },
  output: { o: { value: "${length(random_string.b.result)}", precondition: [{ condition: "${length(random_string.b.result) == 4}", error_message: "bad o" }] } },
  check: {
    c: {
      assert: [
        { condition: "${length(random_string.b.result) == 5}", error_message: "b is not 5 long" },
        { condition: "${var.n == 3}", error_message: "n is not 3" },
      ],
    },
  },
  module: { m: { source: "./m", for_each: '${toset(["p", "q"])}', v: "${each.key}" } },
});
const MODULE_JSON = JSON.stringify({
  terraform: REQUIRED_JSON,
  variable: { v: { type: "string", validation: [{ condition: "${length(var.v) == 1}", error_message: "one char" }] } },
  resource: { random_id: { i: { byte_length: 2, lifecycle: { postcondition: [{ condition: '${self.hex != ""}', error_message: "empty" }] } } } },
  output: { x: { value: "${random_id.i.hex}", precondition: [{ condition: '${var.v != "z"}', error_message: "v is z" }] } },
  check: { inner: { assert: [{ condition: '${var.v == "p"}', error_message: "v is not p" }] } },
});

/** A working directory's state as {@link stableState} gives it, with `check_results` and their objects sorted (terraform writes them in random order). */
function comparableState(dir: string): unknown {
  const doc = stableState(dir) as { check_results: { config_addr: string; objects: { object_addr: string }[] | null }[] | null };
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  doc.check_results?.sort((a, b) => byText(a.config_addr, b.config_addr));
  for (const c of doc.check_results ?? []) c.objects?.sort((a, b) => byText(a.object_addr, b.object_addr));
  return doc;
}

/**
 * A run with the random result a failed assertion's values show blanked, and the context of a
 * diagnostic in a JSON file (`on m/main.tf.json line 1, in check.inner.assert[0]:`, which
 * magma does not name yet: issue 31 item 10) left out.
 */
const blank = (r: ToolRun): ToolRun => ({ ...r, stdout: r.stdout.replace(/(random_string\.b\.result is )"[^"]*"/g, '$1"R"').replace(/^( {2}on \S+\.tf\.json line \d+), in [^\n]*:$/gm, "$1:") });

async function compareSteps(pair: Pair, commands: readonly (readonly string[])[]): Promise<ToolRun[]> {
  const runs = await runPair(pair, commands);
  expectSameRuns(
    runs.map(([o, t]) => [blank(o), blank(t)] as const),
    commands,
  );
  expect(comparableState(pair[0])).toEqual(comparableState(pair[1]));
  return runs.map(([o]) => o);
}

(TERRAFORM !== undefined ? describe : describe.skip)("check results after apply, against terraform's", () => {
  test.each([
    ["native syntax", { "main.tf": ROOT, "m/main.tf": MODULE }],
    ["JSON syntax", { "main.tf.json": ROOT_JSON, "m/main.tf.json": MODULE_JSON }],
  ])(
    "%s: check_results in state after an apply, an apply without changes and a refresh-only apply; check block warnings",
    async (_name, files) => {
      const pair = await initialisedPair(files);
      const [applied] = await compareSteps(pair, [["apply", "-auto-approve"]]);
      // The plan's "known after apply" is left out; the apply's failure is printed.
      expect(applied!.stdout).not.toContain("Check block assertion known after apply");
      expect(applied!.stdout).toContain("Warning: Check block assertion failed");
      const state = comparableState(pair[0]) as { check_results: { config_addr: string; status: string }[] };
      expect(state.check_results.map((c) => `${c.config_addr}=${c.status}`)).toEqual([
        "check.c=fail",
        "module.m.check.inner=fail",
        "module.m.output.x=pass",
        "module.m.random_id.i=pass",
        "module.m.var.v=pass",
        "output.o=pass",
        "random_string.a=pass",
        "var.n=pass",
      ]);
      await compareSteps(pair, [["apply", "-auto-approve"], ["apply", "-refresh-only", "-auto-approve"]]);
    },
    600_000,
  );
});

const FAILING = `${REQUIRED}resource "random_string" "p" {
  length  = 3
  special = false
  lifecycle {
    postcondition {
      condition     = length(self.result) == 4
      error_message = "not 4: \${self.length}"
    }
  }
}
resource "random_string" "d" {
  length  = 2
  special = false
  keepers = { p = random_string.p.id }
}
resource "random_string" "z" {
  count  = 0
  length = 2
  lifecycle {
    precondition {
      condition     = random_string.p.length > 0
      error_message = "x"
    }
  }
}
`;
const FAILING_JSON = JSON.stringify({
  terraform: REQUIRED_JSON,
  resource: {
    random_string: {
      p: { length: 3, special: false, lifecycle: { postcondition: [{ condition: "${length(self.result) == 4}", error_message: "not 4: ${self.length}" }] } },
      d: { length: 2, special: false, keepers: { p: "${random_string.p.id}" } },
      z: { count: 0, length: 2, lifecycle: { precondition: [{ condition: "${random_string.p.length > 0}", error_message: "x" }] } },
    },
  },
});

/** A run with the random result a failed postcondition's values show blanked. */
const blankSelf = (r: ToolRun): ToolRun => ({ ...r, stderr: r.stderr.replace(/(self\.result is )"[^"]*"/g, '$1"R"').replace(/^( {2}on \S+\.tf\.json line \d+), in [^\n]*:$/gm, "$1:") });

(TERRAFORM !== undefined ? describe : describe.skip)("a postcondition failing at apply, against terraform's", () => {
  test.each([
    ["native syntax", { "main.tf": FAILING }],
    ["JSON syntax", { "main.tf.json": FAILING_JSON }],
  ])(
    "%s: the instance is saved, the apply fails, its dependent is not created; count = 0 passes",
    async (_name, files) => {
      const pair = await initialisedPair(files);
      const commands = [["apply", "-auto-approve"]] as const;
      const runs = await runPair(pair, commands);
      expectSameRuns(
        runs.map(([o, t]) => [blankSelf(o), blankSelf(t)] as const),
        commands,
      );
      expect(runs[0]![0].code).toBe(1);
      expect(runs[0]![0].stderr).toContain("Error: Resource postcondition failed");
      const state = comparableState(pair[0]) as { resources: { name: string }[]; check_results: unknown };
      expect(state.resources.map((r) => r.name)).toEqual(["p"]);
      expect(state).toEqual(comparableState(pair[1]));
    },
    600_000,
  );
});

const DATA = `terraform {
  required_providers {
    failing = { source = "magma/failing" }
  }
}
resource "random_string" "s" {
  provider = failing
  length   = 3
  special  = false
}
check "ok" {
  data "random_refusal" "r" {
    provider = failing
    input    = "ok"
  }
  assert {
    condition     = data.random_refusal.r.id == "refusal-ok"
    error_message = "not ok"
  }
}
check "refused" {
  data "random_refusal" "f" {
    provider = failing
    input    = "fail"
  }
  assert {
    condition     = data.random_refusal.f.id != ""
    error_message = "empty"
  }
}
check "later" {
  data "random_refusal" "l" {
    provider = failing
    input    = length(random_string.s.result) == 3 ? "fail-body" : "x"
  }
  assert {
    condition     = data.random_refusal.l.id != ""
    error_message = "empty"
  }
}
`;
const DATA_JSON = JSON.stringify({
  terraform: { required_providers: { failing: { source: "magma/failing" } } },
  resource: { random_string: { s: { provider: "failing", length: 3, special: false } } },
  check: {
    ok: { data: { random_refusal: { r: { provider: "failing", input: "ok" } } }, assert: [{ condition: '${data.random_refusal.r.id == "refusal-ok"}', error_message: "not ok" }] },
    refused: { data: { random_refusal: { f: { provider: "failing", input: "fail" } } }, assert: [{ condition: '${data.random_refusal.f.id != ""}', error_message: "empty" }] },
    later: {
      data: { random_refusal: { l: { provider: "failing", input: '${length(random_string.s.result) == 3 ? "fail-body" : "x"}' } } },
      assert: [{ condition: '${data.random_refusal.l.id != ""}', error_message: "empty" }],
    },
  },
});

(TERRAFORM !== undefined ? describe : describe.skip)("data sources scoped in check blocks at apply, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs" });
  });

  test.each([
    ["native syntax", { "main.tf": DATA }],
    ["JSON syntax", { "main.tf.json": DATA_JSON }],
  ])(
    "%s: read after the resources; a failed read warns and fails its check",
    async (_name, files) => {
      const pair = await initialisedPair(files, cliConfig);
      const commands = [["apply", "-auto-approve"], ["apply", "-auto-approve"]] as const;
      const runs = await runPair(pair, commands, cliConfig);
      expectSameRuns(
        runs.map(([o, t]) => [blank(o), blank(t)] as const),
        commands,
      );
      expect(runs[1]![0].stdout).toContain("Warning: reading random_refusal: the read is refused");
      const state = comparableState(pair[0]) as { resources: { name: string }[]; check_results: { config_addr: string; status: string }[] };
      expect(state.check_results.map((c) => `${c.config_addr}=${c.status}`)).toEqual(["check.later=fail", "check.ok=pass", "check.refused=fail"]);
      expect(state).toEqual(comparableState(pair[1]));
    },
    600_000,
  );
});
