// `magma test`'s override_module blocks against `terraform test` 1.11.4 on the same directories:
// stdout, stderr and the exit code byte for byte (-json timestamps blanked, the random
// provider's strings masked), human and -json, a .tftest.hcl and a .tftest.json file.
// - modules: a module called once, with count and with for_each, each instance holding a
//   nested module call; an output precondition that fails unless its module is overridden
//   (the for_each call, overridden in both files). main.tftest.hcl: the whole call overridden
//   in the file and in runs (an output not given is null, an output the module lacks is
//   ignored), values known while planning (`command = plan`) where the module's own would be
//   unknown, a nested module instance overridden, an assertion failing on an override and
//   `module.NAME.OUTPUT` in assertions. instances.tftest.json: one instance of a count and of
//   a for_each call overridden (a run's instance override over the file's call override);
//   overrides of targets the configuration does not declare (terraform's warnings, file and run);
// - badmodules: decoding errors (outputs no object, a resource target, no target, a duplicate).
import { cpSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";
import { expectSameTestRun } from "./support/test-command-runs.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const ROOT = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

variable "n" {
  type    = number
  default = 2
}

module "single" {
  source = "./child"
  length = 3
}

module "counted" {
  source = "./child"
  count  = var.n
  length = 4
}

module "each" {
  source   = "./child"
  for_each = toset(["a", "b"])
  length   = 9
}

resource "random_string" "root" {
  length  = length(module.single.result) + 1
  special = false
}

output "single" {
  value = module.single.result
}

output "extra" {
  value = module.single.extra
}

output "counted" {
  value = module.counted[*].result
}

output "each" {
  value = { for k, m in module.each : k => m.result }
}

output "inner" {
  value = module.counted[0].inner
}

output "root_length" {
  value = random_string.root.length
}
`;

const CHILD = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

variable "length" {
  type = number
}

resource "random_string" "s" {
  length  = var.length
  special = false
}

module "inner" {
  source = "./inner"
}

output "result" {
  value = random_string.s.result
  precondition {
    condition     = var.length < 9
    error_message = "length \${var.length} is too long"
  }
}

output "extra" {
  value = "x-\${var.length}"
}

output "inner" {
  value = module.inner.result
}
`;

const INNER = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

resource "random_string" "i" {
  length  = 2
  special = false
}

output "result" {
  value = random_string.i.result
}
`;

const FILES: Readonly<Record<string, string>> = {
  "modules/main.tf": ROOT,
  "modules/child/main.tf": CHILD,
  "modules/child/inner/main.tf": INNER,
  "modules/main.tftest.hcl": `override_module {
  target = module.each
  outputs = {
    result = "each-file"
  }
}

override_module {
  target = module.nowhere
}

run "plan" {
  command = plan
  override_module {
    target = module.single
    outputs = {
      result = "at-plan"
    }
  }
  assert {
    condition     = output.single == "at-plan" && output.root_length == 8
    error_message = "plan single is \${output.single}"
  }
  assert {
    condition     = module.single.result == "at-plan" && output.extra == null
    error_message = "module.single"
  }
}

run "whole" {
  override_module {
    target = module.single
    outputs = {
      result = "overridden"
      unused = 1
    }
  }
  assert {
    condition     = output.single == "overridden" && output.root_length == 11
    error_message = "single is \${output.single}"
  }
  assert {
    condition     = output.extra == null && module.single.extra == null
    error_message = "extra"
  }
  assert {
    condition     = output.each == { a = "each-file", b = "each-file" }
    error_message = "each"
  }
  assert {
    condition     = length(output.counted[0]) == 4 && length(output.counted[1]) == 4 && length(output.inner) == 2
    error_message = "counted"
  }
}

run "nested" {
  command = plan
  override_module {
    target = module.counted[0].module.inner
    outputs = {
      result = "deep"
    }
  }
  assert {
    condition     = output.inner == "deep"
    error_message = "inner"
  }
}

run "fails" {
  command = plan
  override_module {
    target  = module.single
    outputs = {}
  }
  assert {
    condition     = output.single != null
    error_message = "single is null"
  }
}
`,
  "modules/instances.tftest.json": `{
  "override_module": [
    {
      "target": "module.each",
      "outputs": { "result": "each-file" }
    }
  ],
  "run": {
    "instance": {
      "override_module": [
        {
          "target": "module.counted[1]",
          "outputs": { "result": "second", "extra": "e" }
        },
        {
          "target": "module.each[\\"b\\"]",
          "outputs": { "result": "b-run" }
        }
      ],
      "assert": [
        {
          "condition": "\${output.counted[1] == \\"second\\" && length(output.counted[0]) == 4}",
          "error_message": "counted"
        },
        {
          "condition": "\${output.each.a == \\"each-file\\" && output.each.b == \\"b-run\\"}",
          "error_message": "each"
        },
        {
          "condition": "\${module.counted[1].extra == \\"e\\" && module.counted[0].extra == \\"x-4\\"}",
          "error_message": "extra"
        }
      ]
    },
    "plan": {
      "command": "plan",
      "override_module": [
        {
          "target": "module.single.module.nowhere"
        }
      ],
      "assert": [
        {
          "condition": "\${output.each.a == \\"each-file\\"}",
          "error_message": "plan each"
        }
      ]
    }
  }
}
`,
  "badmodules/main.tf": `locals {
  x = 1
}
`,
  "badmodules/bad.tftest.hcl": `override_module {
  target  = module.single
  outputs = "x"
}
override_module {
  target = local.x
}
override_module {
  outputs = {}
}
override_module {
  target = module.counted
}
override_module {
  target = module.counted
}
run "x" {}
`,
};

(TERRAFORM !== undefined ? describe : describe.skip)("magma test's override_module against terraform test", () => {
  let cliConfig: string;
  let theirs: string;
  let ours: string;

  beforeAll(async () => {
    cliConfig = testProvidersCliConfig({ random: "random-provider.mjs" });
    theirs = workdir(FILES);
    ours = workdir({});
    cpSync(theirs, ours, { recursive: true });
    const init = (d: string) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } });
    await Promise.all(["modules"].flatMap((sub) => [init(join(theirs, sub)), init(join(ours, sub))]));
  }, 240_000);

  const both = async (args: readonly string[], sub: string): Promise<[ToolRun, ToolRun]> => {
    const [t, m] = await Promise.all([runTool("terraform", ["test", ...args], join(theirs, sub), { TF_CLI_CONFIG_FILE: cliConfig }), runTool("magma", ["test", ...args], join(ours, sub), {})]);
    return [m, t];
  };

  test("override_module on module calls and instances (count, for_each, nested), plan and apply, .tftest.hcl and .tftest.json, human and -json", async () => {
    for (const args of [["-no-color"], ["-json"]]) {
      const [m, t] = await both(args, "modules");
      expectSameTestRun(m, t, `test ${args.join(" ")} (modules)`);
      expect(t.stdout).toMatch(/\\?"whole\\?"\.\.\. pass|"run":"whole".*"status":"pass"/);
    }
  }, 600_000);

  test("invalid override_module blocks", async () => {
    const [m, t] = await both(["-no-color"], "badmodules");
    expectSameTestRun(m, t, "test (badmodules)");
    expect(t.stderr).toContain("Error: Duplicate override_module block");
  }, 600_000);
});
