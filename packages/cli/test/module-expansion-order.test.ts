// Creation and destruction order inside modules expanded with count and for_each (nested two
// deep), against terraform 1.11.4 on the same configuration, in native and JSON syntax. The
// provider is test/testdata/ordered-provider.mjs (provider-random whose creates and destroys
// are slowed and logged by keepers["name"]), served by @magma/provider-server from a
// filesystem mirror, so that terraform and magma run the same provider. An object's create
// must start after the creates of what it references have ended (and its destroy must end
// before theirs start): the apply graph's ordering edges, which state `dependencies` name by
// configuration address (`module.outer.module.inner.random_string.a`) while the instances are
// `module.outer["x"].module.inner[0].random_string.a`. The apply re-evaluates each instance's
// configuration with `each`/`count` of the module calls it is in. Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const REQUIRED = { random: { source: "magma/ordered" } };

/** The root calls ./outer for_each x and y; outer calls ./inner with count 2, passing its own object's result. */
const NATIVE: Readonly<Record<string, string>> = {
  "main.tf": `terraform {
  required_providers {
    random = { source = "magma/ordered" }
  }
}
module "outer" {
  source   = "./outer"
  for_each = toset(["x", "y"])
  name     = each.key
}
resource "random_string" "last" {
  length  = 4
  keepers = { name = "last", b = jsonencode(module.outer) }
}
`,
  "outer/main.tf": `terraform {
  required_providers {
    random = { source = "magma/ordered" }
  }
}
variable "name" { type = string }
resource "random_string" "a" {
  length  = 4
  keepers = { name = "\${var.name}/a" }
}
module "inner" {
  source = "../inner"
  count  = 2
  name   = "\${var.name}/\${count.index}"
  seed   = random_string.a.result
}
output "bs" { value = module.inner[*].b }
`,
  "inner/main.tf": `terraform {
  required_providers {
    random = { source = "magma/ordered" }
  }
}
variable "name" { type = string }
variable "seed" { type = string }
resource "random_string" "a" {
  length  = 4
  keepers = { name = "\${var.name}/a", seed = var.seed }
}
resource "random_string" "b" {
  length  = 4
  keepers = { name = "\${var.name}/b", a = random_string.a.result }
}
output "b" { value = random_string.b.result }
`,
};

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const JSON_SYNTAX: Readonly<Record<string, string>> = {
  "main.tf.json": json({
    terraform: { required_providers: REQUIRED },
    module: { outer: { source: "./outer", for_each: '${toset(["x", "y"])}', name: "${each.key}" } },
    resource: { random_string: { last: { length: 4, keepers: { name: "last", b: "${jsonencode(module.outer)}" } } } },
  }),
  "outer/main.tf.json": json({
    terraform: { required_providers: REQUIRED },
    variable: { name: { type: "string" } },
    resource: { random_string: { a: { length: 4, keepers: { name: "${var.name}/a" } } } },
    module: { inner: { source: "../inner", count: 2, name: "${var.name}/${count.index}", seed: "${random_string.a.result}" } },
    output: { bs: { value: "${module.inner[*].b}" } },
  }),
  "inner/main.tf.json": json({
    terraform: { required_providers: REQUIRED },
    variable: { name: { type: "string" }, seed: { type: "string" } },
    resource: {
      random_string: {
        a: { length: 4, keepers: { name: "${var.name}/a", seed: "${var.seed}" } },
        b: { length: 4, keepers: { name: "${var.name}/b", a: "${random_string.a.result}" } },
      },
    },
    output: { b: { value: "${random_string.b.result}" } },
  }),
};

const OUTER = ["x", "y"];
const INNER = ["0", "1"];
const each = <T,>(f: (o: string, i: string) => T[]): T[] => OUTER.flatMap((o) => INNER.flatMap((i) => f(o, i)));

/**
 * [dependency, dependent] pairs a create must respect: a reference waits for every instance of
 * what it names, in every instance of its module (Terraform connects references by
 * configuration address).
 */
const CREATE_EDGES: readonly (readonly [string, string])[] = [
  ...each((o, i) => OUTER.map((o2) => [`${o2}/a`, `${o}/${i}/a`] as const)),
  ...each((o, i) => each((o2, i2) => [[`${o2}/${i2}/a`, `${o}/${i}/b`] as const])),
  ...each((o, i) => [[`${o}/${i}/b`, "last"] as const]),
];
/** [dependency, dependent] pairs a destroy must respect (in reverse): never between two instances of one module. */
const DESTROY_EDGES: readonly (readonly [string, string])[] = [
  ...each((o, i) => [[`${o}/a`, `${o}/${i}/a`] as const, [`${o}/${i}/a`, `${o}/${i}/b`] as const, [`${o}/${i}/b`, "last"] as const]),
];

/** The edges a log breaks: a create started before its dependency's create ended, or a destroy started before its dependent's destroy ended. */
function violations(log: string, kind: "create" | "delete", edges: readonly (readonly [string, string])[]): string[] {
  const lines = log.trim().split("\n");
  const at = (what: string): number => {
    const i = lines.indexOf(what);
    if (i < 0) throw new Error(`no "${what}" in the log:\n${log}`);
    return i;
  };
  const out: string[] = [];
  for (const [dependency, dependent] of edges) {
    if (kind === "create" && at(`create-start ${dependent}`) < at(`create-end ${dependency}`)) out.push(`${dependent} created before ${dependency} was`);
    if (kind === "delete" && at(`delete-start ${dependency}`) < at(`delete-end ${dependent}`)) out.push(`${dependency} destroyed before ${dependent} was`);
  }
  return out;
}

/** Each state resource's module, name and every instance's key and dependencies (the random values left out). */
function stateShape(dir: string): unknown {
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { resources: { module?: string; mode: string; type: string; name: string; instances: { index_key?: unknown; dependencies?: string[] }[] }[] };
  return state.resources.map((r) => ({ module: r.module, address: `${r.mode}.${r.type}.${r.name}`, instances: r.instances.map((i) => ({ key: i.index_key, dependencies: i.dependencies })) }));
}

const lastLine = (r: ToolRun): string => r.stdout.trim().split("\n").at(-1) ?? "";

(TERRAFORM !== undefined ? describe : describe.skip)("create and destroy order inside modules expanded with count and for_each, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ ordered: "ordered-provider.mjs" });
  });

  /** One syntax's run, magma and terraform side by side on copies of the same files. */
  const scenario = async (files: Readonly<Record<string, string>>): Promise<void> => {
    const dirs = { magma: workdir(files), terraform: workdir(files) };
    await Promise.all(Object.values(dirs).map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    const tools = ["magma", "terraform"] as const;
    const logs = { magma: join(workdir(), "order.log"), terraform: join(workdir(), "order.log") };
    const run = (args: readonly string[], log?: "apply" | "destroy"): Promise<ToolRun[]> =>
      Promise.all(tools.map((t) => runTool(t, args, dirs[t], { TF_CLI_CONFIG_FILE: cliConfig, ORDERED_PROVIDER_MS: "250", ORDERED_PROVIDER_LOG: log === undefined ? "" : `${logs[t]}.${log}` })));

    const applied = await run(["apply", "-auto-approve", "-input=false", "-no-color"], "apply");
    expect(applied.map((r) => ({ code: r.code, last: lastLine(r), stderr: r.stderr }))).toEqual(tools.map(() => ({ code: 0, last: "Apply complete! Resources: 11 added, 0 changed, 0 destroyed.", stderr: "" })));
    const created = tools.map((t) => violations(readFileSync(`${logs[t]}.apply`, "utf8"), "create", CREATE_EDGES));
    expect(created).toEqual([[], []]);
    expect(stateShape(dirs.magma)).toEqual(stateShape(dirs.terraform));

    const replanned = await run(["plan", "-detailed-exitcode", "-input=false", "-no-color"]);
    expect(replanned.map((r) => r.code)).toEqual([0, 0]);

    const destroyed = await run(["destroy", "-auto-approve", "-input=false", "-no-color"], "destroy");
    expect(destroyed.map((r) => ({ code: r.code, last: lastLine(r) }))).toEqual(tools.map(() => ({ code: 0, last: "Destroy complete! Resources: 11 destroyed." })));
    const deleted = tools.map((t) => violations(readFileSync(`${logs[t]}.destroy`, "utf8"), "delete", DESTROY_EDGES));
    expect(deleted).toEqual([[], []]);
  };

  // Both syntaxes at once: the runs mostly wait for the provider's delays.
  test("native and JSON syntax: apply creates after what each object references, a re-plan is clean, destroy goes in reverse", async () => {
    await Promise.all([scenario(NATIVE), scenario(JSON_SYNTAX)]);
  }, 600_000);
});
