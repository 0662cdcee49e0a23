// What a plan evaluates when, against terraform 1.11.4 on the same configuration, in native
// and JSON syntax. The provider is test/testdata/ordered-provider.mjs (provider-random with a
// data source, random_slow, whose reads are slowed to 1.5 s), served by @magma/provider-server
// from a filesystem mirror, so that terraform and magma run the same provider.
//
// - A module output is a value of its own in the walk: the root reads `module.app.x` (static)
//   while `module.app.y` (a resource's result planned later) and `module.app.id` (a slow data
//   read) are not ready. Neither may be evaluated then and kept: `id` must be the value read
//   at plan, and after the apply a re-plan must show no changes (no `y -> (known after apply)`).
// - Every evaluation waits for the data sources it references, directly or through a module
//   output (a plan-time race on data reads).
// - Module calls are not nodes; their variables and outputs are: two calls reading each
//   other's outputs plan (no "Cycle").
// - A plan in a directory without state leaves no terraform.tfstate.
//
// Skipped without terraform.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const REQUIRED = { random: { source: "magma/ordered" } };
const TERRAFORM_BLOCK = `terraform {
  required_providers {
    random = { source = "magma/ordered" }
  }
}
`;

const NATIVE: Readonly<Record<string, string>> = {
  "main.tf": `${TERRAFORM_BLOCK}module "app" {
  source = "./app"
}
# Reads app's static output while app's other outputs are not ready.
resource "random_string" "early" {
  length  = 3
  keepers = { name = "early", x = module.app.x }
}
resource "random_string" "late" {
  length  = 3
  keepers = { name = "late", id = module.app.id, direct = data.random_slow.root.id }
}
data "random_slow" "root" {
  input = "root"
}
output "y" { value = module.app.y }
output "id" { value = module.app.id }
output "direct" { value = data.random_slow.root.id }
# Two calls reading each other's outputs.
module "a" {
  source = "./peer"
  in     = module.b.x
}
module "b" {
  source = "./peer"
  in     = module.a.y
}
output "ab" { value = [module.a.x, module.a.y, module.b.x, module.b.y] }
`,
  "app/main.tf": `${TERRAFORM_BLOCK}resource "random_string" "first" {
  length  = 2
  keepers = { name = "first" }
}
resource "random_string" "later" {
  length  = 3
  keepers = { name = "later", f = random_string.first.result }
}
data "random_slow" "d" {
  input = "hello"
}
output "x" { value = "static" }
output "y" { value = random_string.later.result }
output "id" { value = data.random_slow.d.id }
`,
  "peer/main.tf": `variable "in" { type = string }
output "x" { value = "x" }
output "y" { value = "y-\${var.in}" }
`,
};

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const JSON_SYNTAX: Readonly<Record<string, string>> = {
  "main.tf.json": json({
    terraform: { required_providers: REQUIRED },
    module: { app: { source: "./app" }, a: { source: "./peer", in: "${module.b.x}" }, b: { source: "./peer", in: "${module.a.y}" } },
    resource: {
      random_string: {
        early: { length: 3, keepers: { name: "early", x: "${module.app.x}" } },
        late: { length: 3, keepers: { name: "late", id: "${module.app.id}", direct: "${data.random_slow.root.id}" } },
      },
    },
    data: { random_slow: { root: { input: "root" } } },
    output: {
      y: { value: "${module.app.y}" },
      id: { value: "${module.app.id}" },
      direct: { value: "${data.random_slow.root.id}" },
      ab: { value: "${[module.a.x, module.a.y, module.b.x, module.b.y]}" },
    },
  }),
  "app/main.tf.json": json({
    terraform: { required_providers: REQUIRED },
    resource: {
      random_string: {
        first: { length: 2, keepers: { name: "first" } },
        later: { length: 3, keepers: { name: "later", f: "${random_string.first.result}" } },
      },
    },
    data: { random_slow: { d: { input: "hello" } } },
    output: { x: { value: "static" }, y: { value: "${random_string.later.result}" }, id: { value: "${data.random_slow.d.id}" } },
  }),
  "peer/main.tf.json": json({ variable: { in: { type: "string" } }, output: { x: { value: "x" }, y: { value: "y-${var.in}" } } }),
};

/**
 * A run's output with the data reads' elapsed seconds left out (a loaded machine may take
 * longer) and their lines sorted (the two reads run at once, in either order).
 */
const shown = (r: ToolRun): { code: number | null; reads: string[]; rest: string; stderr: string } => {
  const lines = r.stdout.replace(/Read complete after \d+s/g, "Read complete after Ns").split("\n");
  const isRead = (l: string): boolean => /^(module\.app\.)?data\.random_slow\.\w+: (Reading\.\.\.|Read complete)/.test(l);
  return { code: r.code, reads: lines.filter(isRead).sort(), rest: lines.filter((l) => !isRead(l)).join("\n"), stderr: r.stderr };
};

(TERRAFORM !== undefined ? describe : describe.skip)("plan evaluation order (module outputs, slow data reads, calls reading each other), against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ ordered: "ordered-provider.mjs" });
  });

  const scenario = async (files: Readonly<Record<string, string>>): Promise<void> => {
    const dirs = { magma: workdir(files), terraform: workdir(files) };
    await Promise.all(Object.values(dirs).map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    const tools = ["magma", "terraform"] as const;
    const run = (args: readonly string[]): Promise<ToolRun[]> => Promise.all(tools.map((t) => runTool(t, args, dirs[t], { TF_CLI_CONFIG_FILE: cliConfig, ORDERED_PROVIDER_MS: "0", ORDERED_PROVIDER_READ_MS: "1500" })));

    const [ours, theirs] = await run(["plan", "-input=false", "-no-color"]);
    // A plan writes no state: the state file its lock created is removed.
    expect(tools.map((t) => existsSync(join(dirs[t], "terraform.tfstate")))).toEqual([false, false]);
    expect(theirs!.stdout).toContain('+ id     = "slow-hello"');
    expect(theirs!.stdout).toContain('+ ab     = [\n      + "x",\n      + "y-x",\n      + "x",\n      + "y-y-x",\n    ]');
    expect(shown(ours!)).toEqual(shown(theirs!));

    const applied = await run(["apply", "-auto-approve", "-input=false", "-no-color"]);
    expect(applied.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(tools.map(() => ({ code: 0, stderr: "" })));

    // Nothing was evaluated before what it reads: the re-plan has no changes.
    const replanned = await run(["plan", "-detailed-exitcode", "-input=false", "-no-color"]);
    expect(replanned.map((r) => ({ code: r.code, last: r.stdout.trim().split("\n").at(-1) }))).toEqual(
      tools.map(() => ({ code: 0, last: "and found no differences, so no changes are needed." })),
    );
  };

  test("native and JSON syntax: plan, apply, then a re-plan without changes", async () => {
    await Promise.all([scenario(NATIVE), scenario(JSON_SYNTAX)]);
  }, 600_000);
});
