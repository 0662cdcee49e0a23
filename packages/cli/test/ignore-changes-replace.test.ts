// `ignore_changes` on an object that is replaced, against terraform 1.11.4 on the same
// configuration, in native and JSON syntax: the replacement is created from the configuration
// as written (there is no prior object to ignore changes against), not with the old object's
// ignored values. The object is replaced through `replace_triggered_by`. The provider is
// @magma/provider-random (magma's native one; served to terraform by @magma/provider-server
// from a filesystem mirror). Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const NATIVE = {
  "main.tf": `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "k" { type = string }
resource "random_string" "trigger" {
  length  = 3
  keepers = { k = var.k }
}
resource "random_string" "r" {
  length  = 4
  keepers = { k = var.k }
  lifecycle {
    ignore_changes       = [keepers]
    replace_triggered_by = [random_string.trigger]
  }
}
`,
};

const JSON_SYNTAX = {
  "main.tf.json": `${JSON.stringify(
    {
      terraform: { required_providers: { random: { source: "magma/random" } } },
      variable: { k: { type: "string" } },
      resource: {
        random_string: {
          trigger: { length: 3, keepers: { k: "${var.k}" } },
          r: { length: 4, keepers: { k: "${var.k}" }, lifecycle: { ignore_changes: ["keepers"], replace_triggered_by: ["random_string.trigger"] } },
        },
      },
    },
    null,
    2,
  )}\n`,
};

/** The `keepers` of each object in the state. */
function keepers(dir: string): Record<string, unknown> {
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { resources: { name: string; instances: { attributes: { keepers: unknown } }[] }[] };
  return Object.fromEntries(state.resources.map((r) => [r.name, r.instances[0]!.attributes.keepers]));
}

(TERRAFORM !== undefined ? describe : describe.skip)("ignore_changes on a replaced object, against terraform's", () => {
  const scenario = async (cliConfig: string, files: Readonly<Record<string, string>>): Promise<void> => {
    const dirs = { magma: workdir(files), terraform: workdir(files) };
    await Promise.all(Object.values(dirs).map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    const tools = ["magma", "terraform"] as const;
    const run = (args: readonly string[]): Promise<ToolRun[]> => Promise.all(tools.map((t) => runTool(t, args, dirs[t], { TF_CLI_CONFIG_FILE: cliConfig })));
    for (const k of ["one", "two"]) {
      const applied = await run(["apply", "-auto-approve", "-input=false", "-no-color", `-var=k=${k}`]);
      expect(applied.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(tools.map(() => ({ code: 0, stderr: "" })));
      expect(applied[0]!.stdout.split("\n").at(-2)).toBe(applied[1]!.stdout.split("\n").at(-2));
    }
    // Replaced through the trigger: created from the configuration (k = "two"), in both.
    expect(keepers(dirs.terraform)).toEqual({ trigger: { k: "two" }, r: { k: "two" } });
    expect(keepers(dirs.magma)).toEqual(keepers(dirs.terraform));
  };

  test("native and JSON syntax: the replacement is created with the configured value of an ignored attribute", async () => {
    const cliConfig = randomMirrorCliConfig();
    await Promise.all([scenario(cliConfig, NATIVE), scenario(cliConfig, JSON_SYNTAX)]);
  }, 600_000);
});
