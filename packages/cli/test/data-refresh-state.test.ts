// Data sources and refreshed objects in the state an apply writes, against terraform 1.11.4 on
// the same configuration, in native and JSON syntax. The provider is
// test/testdata/ordered-provider.mjs (provider-random with a data source, random_slow, whose
// `secret` is sensitive in its schema, and a refresh that can find a random_string's computed
// `id` changed outside), served by @magma/provider-server from a filesystem mirror, so that
// terraform and magma run the same provider.
//
// - A data source read during apply is written without `dependencies` (as every data source).
// - A data source read at plan is written with the schema's sensitive paths.
// - An apply writes over the refreshed prior state: an object the plan leaves alone is stored
//   as refreshed (its drifted `id`), not as it was before the refresh.
// - `refresh` writes each refreshed object with its stored and configured dependencies merged.
//
// Skipped without terraform.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const NATIVE = (extra: boolean): Record<string, string> => ({
  "main.tf": `terraform {
  required_providers {
    random = { source = "magma/ordered" }
  }
}
resource "random_string" "a" {
  length  = 3
  keepers = { name = "a" }
}
# Read during the first apply (its input is known only then).
data "random_slow" "later" {
  input = random_string.a.result
}
# Read at plan.
data "random_slow" "now" {
  input = "now"
}
resource "random_string" "b" {
  length  = 3
  keepers = { name = "b", x = data.random_slow.now.id, y = data.random_slow.later.id }
}
${extra ? 'resource "random_string" "c" {\n  length = 3\n}\n' : ""}`,
});

const JSON_SYNTAX = (extra: boolean): Record<string, string> => ({
  "main.tf.json": `${JSON.stringify(
    {
      terraform: { required_providers: { random: { source: "magma/ordered" } } },
      resource: {
        random_string: {
          a: { length: 3, keepers: { name: "a" } },
          b: { length: 3, keepers: { name: "b", x: "${data.random_slow.now.id}", y: "${data.random_slow.later.id}" } },
          ...(extra ? { c: { length: 3 } } : {}),
        },
      },
      data: { random_slow: { later: { input: "${random_string.a.result}" }, now: { input: "now" } } },
    },
    null,
    2,
  )}\n`,
});

/** What the state records of each instance, besides its (random) values: its fields, dependencies, sensitive paths, and whether its id is the drifted one. */
function stateShape(dir: string): unknown {
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { resources: { mode: string; type: string; name: string; instances: Record<string, unknown>[] }[] };
  return state.resources.map((r) => ({
    address: `${r.mode}.${r.type}.${r.name}`,
    instances: r.instances.map((i) => ({
      fields: Object.keys(i).sort(),
      dependencies: i["dependencies"],
      sensitive: i["sensitive_attributes"],
      drifted: String((i["attributes"] as Record<string, unknown>)["id"]).endsWith("-drifted"),
    })),
  }));
}

(TERRAFORM !== undefined ? describe : describe.skip)("data sources and refreshed objects in the applied state, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ ordered: "ordered-provider.mjs" });
  });

  const scenario = async (files: (extra: boolean) => Record<string, string>): Promise<void> => {
    const dirs = { magma: workdir(files(false)), terraform: workdir(files(false)) };
    await Promise.all(Object.values(dirs).map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    const tools = ["magma", "terraform"] as const;
    const apply = (env: Record<string, string>): Promise<ToolRun[]> =>
      Promise.all(tools.map((t) => runTool(t, ["apply", "-auto-approve", "-input=false", "-no-color"], dirs[t], { TF_CLI_CONFIG_FILE: cliConfig, ORDERED_PROVIDER_MS: "0", ...env })));

    const first = await apply({});
    expect(first.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(tools.map(() => ({ code: 0, stderr: "" })));
    const theirs = stateShape(dirs.terraform);
    expect(theirs).toContainEqual({ address: "data.random_slow.now", instances: [{ fields: ["attributes", "schema_version", "sensitive_attributes"], dependencies: undefined, sensitive: [[{ type: "get_attr", value: "secret" }]], drifted: false }] });
    expect(stateShape(dirs.magma)).toEqual(theirs);

    // Another change, with the refresh finding random_string ids changed outside.
    for (const t of tools) for (const [name, text] of Object.entries(files(true))) writeFileSync(join(dirs[t], name), text);
    const second = await apply({ ORDERED_PROVIDER_DRIFT: "1" });
    expect(second.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(tools.map(() => ({ code: 0, stderr: "" })));
    expect(second[1]!.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    const after = stateShape(dirs.terraform);
    expect(after).toContainEqual({ address: "managed.random_string.a", instances: [{ fields: ["attributes", "schema_version", "sensitive_attributes"], dependencies: undefined, sensitive: [], drifted: true }] });
    expect(stateShape(dirs.magma)).toEqual(after);
  };

  test("native and JSON syntax: data sources read at apply and at plan, then an apply over refreshed objects", async () => {
    await Promise.all([scenario(NATIVE), scenario(JSON_SYNTAX)]);
  }, 600_000);

  // `refresh` writes every refreshed object with its stored and configured dependencies merged.
  const refreshed = (references: boolean, json: boolean): Record<string, string> =>
    json
      ? { "main.tf.json": JSON.stringify({ terraform: { required_providers: { random: { source: "magma/ordered" } } }, resource: { random_string: { a: { length: 3 }, b: { length: 3, ...(references ? { keepers: { a: "${random_string.a.id}" } } : {}) } } } }) }
      : { "main.tf": `terraform {\n  required_providers {\n    random = { source = "magma/ordered" }\n  }\n}\nresource "random_string" "a" {\n  length = 3\n}\nresource "random_string" "b" {\n  length = 3\n${references ? "  keepers = { a = random_string.a.id }\n" : ""}}\n` };

  test("native and JSON syntax: refresh merges the configuration's dependencies into the stored ones", async () => {
    const one = async (json: boolean): Promise<void> => {
      const dirs = { magma: workdir(refreshed(false, json)), terraform: workdir(refreshed(false, json)) };
      const tools = ["magma", "terraform"] as const;
      await Promise.all(tools.map((t) => terraformAsync(["init", "-no-color", "-input=false"], dirs[t], { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
      await Promise.all(tools.map((t) => terraformAsync(["apply", "-auto-approve", "-no-color", "-input=false"], dirs[t], { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
      const serial = (d: string): number => (JSON.parse(readFileSync(join(d, "terraform.tfstate"), "utf8")) as { serial: number }).serial;
      // Terraform's own applies may persist a varying number of times: the serials are compared as steps from there.
      const before = { magma: serial(dirs.magma), terraform: serial(dirs.terraform) };
      for (const t of tools) for (const [name, text] of Object.entries(refreshed(true, json))) writeFileSync(join(dirs[t], name), text);
      const runs = await Promise.all(tools.map((t) => runTool(t, ["refresh", "-no-color", "-input=false"], dirs[t], { TF_CLI_CONFIG_FILE: cliConfig, ORDERED_PROVIDER_MS: "0" })));
      expect(runs.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(tools.map(() => ({ code: 0, stderr: "" })));
      const theirs = stateShape(dirs.terraform);
      expect(JSON.stringify(theirs)).toContain('"dependencies":["random_string.a"]');
      expect({ serial: serial(dirs.magma) - before.magma, shape: stateShape(dirs.magma) }).toEqual({ serial: serial(dirs.terraform) - before.terraform, shape: theirs });
    };
    await Promise.all([one(false), one(true)]);
  }, 600_000);
});
