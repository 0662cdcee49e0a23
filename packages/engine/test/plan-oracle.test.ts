/**
 * magma's plan against terraform 1.11.4's on the same configuration and state: the native
 * memory and random providers are served to terraform through @magma/provider-server, and
 * given to magma's engine in-process. For each syntax (.tf and .tf.json): plan on an empty
 * state, apply with terraform, then plan a changed configuration on terraform's state —
 * the actions of every resource change must be the ones `terraform show -json` reports
 * (references, count/for_each, a local module with count, data sources read or deferred,
 * orphans, create_before_destroy, moved/removed/import blocks, ignore_changes, outputs),
 * a destroy plan, and a refresh-only plan's drift; and the state dependencies terraform
 * records are the ones magma planned.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasTerraform } from "@magma/test-support";
import type { EnginePlanResult } from "../src/index.js";
import { expectExit } from "../../provider-server/test/support/harness.js";
import { bothPlans, MEMORY, planOracleDir, RANDOM, writeFiles, type OracleMode, type PlanOracleDir } from "./support/plan-oracle.js";
import { MOD_TF, V1_TF, V2_TF } from "./support/plan-oracle-configs.js";

const d = hasTerraform() ? describe : describe.skip;


// ---- the configurations, written once as data and rendered in both syntaxes.

const required = { memory: { source: MEMORY, version: "1.0.0" }, random: { source: RANDOM, version: "1.0.0" } };


const V1_JSON = {
  terraform: { required_providers: required },
  variable: { prefix: { type: "string", default: "app" } },
  locals: { envs: { dev: "d", prod: "p" } },
  resource: {
    random_integer: { n: { min: 1, max: 9, seed: "magma" } },
    memory_item: {
      a: { name: "a", value: "one" },
      counted: { count: 3, name: "${var.prefix}-${count.index}", value: "${memory_item.a.id}" },
      env: { for_each: "${local.envs}", name: "env-${each.key}", value: "${each.value}-${random_integer.n.result}" },
      gone: { name: "gone" },
      from_module: { name: "from-${module.m[1].name}" },
    },
  },
  data: { memory_lookup: { after_a: { name: '${memory_item.a.id == "" ? "none" : memory_item.a.name}' } } },
  output: { ids: { value: "${memory_item.counted[*].id}" }, secret: { value: "${var.prefix}", sensitive: true }, static: { value: "same" } },
  module: { m: { source: "./mod", count: 2, prefix: "m${count.index}" } },
};


const V2_JSON = {
  terraform: { required_providers: required },
  variable: { prefix: { type: "string", default: "app" } },
  locals: { envs: { dev: "d", test: "t" } },
  resource: {
    random_integer: { n: { min: 1, max: 9, seed: "magma" } },
    memory_item: {
      a: { name: "a", value: "two" },
      counted: { count: 2, name: "${var.prefix}-${count.index}", value: "${memory_item.a.id}" },
      env: { for_each: "${local.envs}", name: '${each.key == "dev" ? "env-dev-renamed" : "env-${each.key}"}', value: "${each.value}-${random_integer.n.result}", lifecycle: { create_before_destroy: true } },
      copy: { name: "copy", value: "${data.memory_lookup.known.id}" },
      from_module: { name: "from-${module.m[0].name}" },
    },
  },
  data: {
    memory_lookup: {
      known: { name: "a" },
      pending: { name: "${memory_item.copy.id}" },
      via_ref: { name: "${memory_item.a.name}" },
      via_depends_on: { name: "a", depends_on: ["memory_item.a"] },
      via_data: { name: "${data.memory_lookup.via_depends_on.name}" },
    },
  },
  output: { ids: { value: "${memory_item.counted[*].id}" } },
  module: { m: { source: "./mod", count: 1, prefix: "m${count.index}" } },
};


const MOD_JSON = {
  terraform: { required_providers: { memory: { source: MEMORY, version: "1.0.0" } } },
  variable: { prefix: { type: "string" } },
  resource: { memory_item: { x: { name: "${var.prefix}-x", value: "${var.prefix}" } } },
  output: { name: { value: "${memory_item.x.name}" } },
};

/**
 * Version 3 on version 1's state (after `terraform state rm 'memory_item.env["prod"]'`):
 * a moved resource, a module removed with destroy = false (forget), ignore_changes hiding
 * an update, an import block re-adopting the removed object.
 */
function v3Tf(importId: string): string {
  return V1_TF.replace('resource "memory_item" "gone" {', 'resource "memory_item" "kept" {')
    .replace('module "m" {\n  source = "./mod"\n  count  = 2\n  prefix = "m\${count.index}"\n}\n', "")
    .replace('resource "memory_item" "from_module" {\n  name = "from-\${module.m[1].name}"\n}\n', 'resource "memory_item" "from_module" {\n  name = "from-m1-x"\n}\n')
    .replace('resource "memory_item" "a" {\n  name  = "a"\n  value = "one"\n}', 'resource "memory_item" "a" {\n  name  = "a"\n  value = "ignored"\n  lifecycle {\n    ignore_changes = [value]\n  }\n}')
    .concat(`
moved {
  from = memory_item.gone
  to   = memory_item.kept
}
removed {
  from = module.m
  lifecycle {
    destroy = false
  }
}
import {
  to = memory_item.env["prod"]
  id = "${importId}"
}
`);
}

function v3Json(importId: string): string {
  const j = JSON.parse(JSON.stringify(V1_JSON)) as { resource: { memory_item: Record<string, unknown> }; module?: unknown } & Record<string, unknown>;
  const items = j.resource.memory_item;
  items["kept"] = items["gone"];
  delete items["gone"];
  items["from_module"] = { name: "from-m1-x" };
  items["a"] = { name: "a", value: "ignored", lifecycle: { ignore_changes: ["value"] } };
  delete j.module;
  j["moved"] = [{ from: "memory_item.gone", to: "memory_item.kept" }];
  j["removed"] = [{ from: "module.m", lifecycle: { destroy: false } }];
  j["import"] = [{ to: 'memory_item.env["prod"]', id: importId }];
  return JSON.stringify(j, null, 2);
}

d.each([
  ["native syntax", "main.tf", V1_TF, V2_TF, MOD_TF, v3Tf],
  ["JSON syntax", "main.tf.json", JSON.stringify(V1_JSON, null, 2), JSON.stringify(V2_JSON, null, 2), JSON.stringify(MOD_JSON, null, 2), v3Json],
] as const)("magma's plan equals terraform's (%s)", (_name, file, v1, v2, mod, v3) => {
  let dir: PlanOracleDir;

  beforeAll(() => {
    dir = planOracleDir("eplan-");
    writeFiles(dir, { [`mod/${file}`]: mod });
  });
  afterAll(() => dir.cleanup());

  const tf = (...args: string[]) => dir.tf(...args);

  /** The state dependencies terraform recorded after its apply, per managed instance. */
  function recordedDependencies(): Record<string, string[]> {
    const applied = JSON.parse(readFileSync(join(dir.work, "terraform.tfstate"), "utf8")) as { resources: { module?: string; mode: string; type: string; name: string; instances: { index_key?: string | number; dependencies?: string[] }[] }[] };
    const recorded: Record<string, string[]> = {};
    for (const r of applied.resources) {
      if (r.mode !== "managed") continue;
      for (const i of r.instances) {
        const key = i.index_key === undefined ? "" : typeof i.index_key === "number" ? `[${i.index_key}]` : `[${JSON.stringify(i.index_key)}]`;
        recorded[`${r.module !== undefined ? `${r.module}.` : ""}${r.type}.${r.name}${key}`] = [...(i.dependencies ?? [])].sort();
      }
    }
    return recorded;
  }

  /** One plan compared with terraform's, in order on the same working directory and state. */
  interface Stage {
    readonly name: string;
    /** What happens first (terraform applies, edits the state, drift outside both tools). */
    readonly before?: (previous: EnginePlanResult["plan"] | undefined) => Promise<void>;
    /** The configuration to write, if it changes. */
    readonly config?: () => string;
    readonly mode: OracleMode;
    /** Actions (or drift) of some addresses, beyond magma's and terraform's being equal; `undefined`: no change planned. */
    readonly expect: Readonly<Record<string, readonly string[] | undefined>>;
  }

  let prodId = "";
  const stages: readonly Stage[] = [
    {
      name: "v1 on an empty state",
      config: () => v1,
      mode: "normal",
      expect: { "data.memory_lookup.after_a": ["read"], 'memory_item.env["prod"]': ["create"] },
    },
    {
      name: "destroy, after terraform applied v1",
      before: async (previous) => {
        expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply", dir.env);
        rmSync(join(dir.work, "tfplan"));
        // The state dependencies terraform recorded are the ones magma planned.
        const planned = Object.fromEntries(previous!.changes.filter((c) => c.mode === "managed").map((c) => [c.address, [...(c.dependencies ?? [])]]));
        expect(planned).toEqual(recordedDependencies());
      },
      mode: "destroy",
      expect: { "module.m[1].memory_item.x": ["delete"] },
    },
    {
      name: "v2 on v1's state",
      config: () => v2,
      mode: "normal",
      expect: {
        "memory_item.a": ["update"],
        'memory_item.env["dev"]': ["create", "delete"],
        "memory_item.gone": ["delete"],
        "data.memory_lookup.pending": ["read"],
        "data.memory_lookup.known": undefined,
        "data.memory_lookup.via_depends_on": ["read"],
        "data.memory_lookup.via_ref": ["read"],
        "data.memory_lookup.via_data": undefined,
        "module.m[1].memory_item.x": ["delete"],
        "memory_item.from_module": ["delete", "create"],
      },
    },
    {
      name: 'v3 on v1\'s state without memory_item.env["prod"]',
      before: async () => {
        const tfState = JSON.parse(readFileSync(join(dir.work, "terraform.tfstate"), "utf8")) as { resources: { name: string; instances: { index_key?: string; attributes: { id: string } }[] }[] };
        prodId = tfState.resources.find((r) => r.name === "env")!.instances.find((i) => i.index_key === "prod")!.attributes.id;
        expectExit(await tf("state", "rm", 'memory_item.env["prod"]'), 0, "state rm", dir.env);
      },
      config: () => v3(prodId),
      mode: "normal",
      // A getter: the imported id is known only once `before` has run.
      get expect() {
        return {
          "memory_item.kept": ["no-op", "moved from memory_item.gone"],
          "module.m[0].memory_item.x": ["forget"],
          "memory_item.a": ["no-op"],
          'memory_item.env["prod"]': ["no-op", `import ${prodId}`],
        };
      },
    },
    {
      name: "refresh-only after drift outside both tools (an item changed, another deleted)",
      before: async () => {
        const saved = JSON.parse(readFileSync(dir.store, "utf8")) as { serial: number; items: Record<string, string> };
        for (const [id, text] of Object.entries(saved.items)) {
          const v = JSON.parse(text) as { name: string; value: string | null };
          if (v.name === "a") saved.items[id] = JSON.stringify({ ...v, value: "drifted" });
          if (v.name === "app-2") delete saved.items[id];
        }
        writeFileSync(dir.store, JSON.stringify(saved));
      },
      config: () => v1,
      mode: "refresh-only",
      expect: { "memory_item.a": ["update"], "memory_item.counted[2]": ["delete"] },
    },
  ];

  test("plans on an empty state, then on terraform's state: changed configurations, destroy, refresh-only drift", async () => {
    let previous: EnginePlanResult["plan"] | undefined;
    for (const stage of stages) {
      await stage.before?.(previous);
      if (stage.config !== undefined) writeFileSync(join(dir.work, file), stage.config());
      if (previous === undefined) expectExit(await tf("init", "-no-color"), 0, "init", dir.env);
      const both = await bothPlans(dir, { mode: stage.mode });
      if (stage.mode === "refresh-only") expect({ stage: stage.name, changes: both.result.plan.changes }).toEqual({ stage: stage.name, changes: [] });
      expect({ stage: stage.name, actions: both.magma }).toEqual({ stage: stage.name, actions: both.terraform });
      for (const [address, actions] of Object.entries(stage.expect)) expect({ stage: stage.name, address, actions: both.magma[address] }).toEqual({ stage: stage.name, address, actions });
      if (stage.mode === "refresh-only") expect({ stage: stage.name, drift: both.terraform }).toEqual({ stage: stage.name, drift: stage.expect });
      previous = both.result.plan;
    }
  }, 600_000);
});
