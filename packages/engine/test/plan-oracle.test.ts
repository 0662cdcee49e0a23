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
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromJson, type Value } from "@magma/cty";
import { impliedType } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { writeProviderLauncher } from "@magma/provider-server";
import { readStateFile } from "@magma/state";
import { createEngine, type EnginePlanResult, type ProviderSource } from "../src/index.js";
import { hasTerraform } from "@magma/test-support";
import { expectExit, tempDir, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const storedMemoryProvider = join(here, "../../provider-server/test/testdata/stored-memory-provider.mjs");
const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");
const d = hasTerraform() ? describe : describe.skip;


const MEMORY = "example.com/magma/memory";
const RANDOM = "example.com/magma/random";
const itemType = impliedType(memoryItemBlock);

/** The providers for magma: the same native providers, the memory one over terraform's item store. */
function source(store: string): ProviderSource {
  return {
    async open(src) {
      if (src === MEMORY) {
        const saved = existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, string> }) : { items: {} };
        const items: [string, Value][] = Object.entries(saved.items).map(([id, json]) => [id, fromJson(json, itemType)]);
        const p = createMemoryProvider({ items });
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      }
      if (src === RANDOM) {
        const p = createRandomProvider();
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      }
      throw new Error(`unknown provider ${src}`);
    },
  };
}

// ---- the configurations, written once as data and rendered in both syntaxes.

const required = { memory: { source: MEMORY, version: "1.0.0" }, random: { source: RANDOM, version: "1.0.0" } };

/** Version 1: count, for_each, references with unknowns, a deferred data source, outputs. */
const V1_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
    random = { source = "${RANDOM}", version = "1.0.0" }
  }
}
variable "prefix" {
  type    = string
  default = "app"
}
locals {
  envs = { dev = "d", prod = "p" }
}
resource "random_integer" "n" {
  min  = 1
  max  = 9
  seed = "magma"
}
resource "memory_item" "a" {
  name  = "a"
  value = "one"
}
resource "memory_item" "counted" {
  count = 3
  name  = "\${var.prefix}-\${count.index}"
  value = memory_item.a.id
}
resource "memory_item" "env" {
  for_each = local.envs
  name     = "env-\${each.key}"
  value    = "\${each.value}-\${random_integer.n.result}"
}
resource "memory_item" "gone" {
  name = "gone"
}
data "memory_lookup" "after_a" {
  name = memory_item.a.id == "" ? "none" : memory_item.a.name
}
output "ids" {
  value = memory_item.counted[*].id
}
output "secret" {
  value     = var.prefix
  sensitive = true
}
output "static" {
  value = "same"
}
module "m" {
  source = "./mod"
  count  = 2
  prefix = "m\${count.index}"
}
resource "memory_item" "from_module" {
  name = "from-\${module.m[1].name}"
}
`;

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

/**
 * Version 2 on version 1's state: an update (a.value), a count shrink (counted[2] deleted),
 * a for_each key removed and one added, an orphan (gone), a requires-replace rename under
 * create_before_destroy, a data source read at plan (known config) feeding a new resource,
 * a deferred one.
 */
const V2_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
    random = { source = "${RANDOM}", version = "1.0.0" }
  }
}
variable "prefix" {
  type    = string
  default = "app"
}
locals {
  envs = { dev = "d", test = "t" }
}
resource "random_integer" "n" {
  min  = 1
  max  = 9
  seed = "magma"
}
resource "memory_item" "a" {
  name  = "a"
  value = "two"
}
resource "memory_item" "counted" {
  count = 2
  name  = "\${var.prefix}-\${count.index}"
  value = memory_item.a.id
}
resource "memory_item" "env" {
  for_each = local.envs
  name     = each.key == "dev" ? "env-dev-renamed" : "env-\${each.key}"
  value    = "\${each.value}-\${random_integer.n.result}"
  lifecycle {
    create_before_destroy = true
  }
}
data "memory_lookup" "known" {
  name = "a"
}
resource "memory_item" "copy" {
  name  = "copy"
  value = data.memory_lookup.known.id
}
data "memory_lookup" "pending" {
  name = memory_item.copy.id
}
data "memory_lookup" "via_ref" {
  name = memory_item.a.name
}
data "memory_lookup" "via_depends_on" {
  name       = "a"
  depends_on = [memory_item.a]
}
data "memory_lookup" "via_data" {
  name = data.memory_lookup.via_depends_on.name
}
output "ids" {
  value = memory_item.counted[*].id
}
module "m" {
  source = "./mod"
  count  = 1
  prefix = "m\${count.index}"
}
resource "memory_item" "from_module" {
  name = "from-\${module.m[0].name}"
}
`;

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

/** The local module both versions call (count 2, then 1). */
const MOD_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
variable "prefix" {
  type = string
}
resource "memory_item" "x" {
  name  = "\${var.prefix}-x"
  value = var.prefix
}
output "name" {
  value = memory_item.x.name
}
`;

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

const ACTIONS: Record<string, string[]> = {
  "no-op": ["no-op"],
  create: ["create"],
  read: ["read"],
  update: ["update"],
  "delete-then-create": ["delete", "create"],
  "create-then-delete": ["create", "delete"],
  delete: ["delete"],
  forget: ["forget"],
};

/** Per address: the actions, then `moved from …` and `import …` when the change has them. */
function magmaActions(r: EnginePlanResult): Record<string, string[]> {
  const errs = r.diagnostics.filter((x) => x.severity === "error");
  if (errs.length > 0) throw new Error(errs.map((x) => `${x.address ?? ""} ${x.summary}: ${x.detail}`).join("\n"));
  return Object.fromEntries(
    r.plan.changes.map((c) => [c.address, [...ACTIONS[c.action]!, ...(c.previousAddress !== undefined ? [`moved from ${c.previousAddress}`] : []), ...(c.importId !== undefined ? [`import ${c.importId}`] : [])]]),
  );
}

/** The root outputs' actions, as `output.<name>` keys. */
function magmaOutputActions(r: EnginePlanResult): Record<string, string[]> {
  return Object.fromEntries((r.plan.outputs ?? []).map((o) => [`output.${o.name}`, [o.action]]));
}

function terraformOutputActions(showJson: string): Record<string, string[]> {
  const plan = JSON.parse(showJson) as { output_changes?: Record<string, { actions: string[] }> };
  return Object.fromEntries(Object.entries(plan.output_changes ?? {}).map(([k, v]) => [`output.${k}`, v.actions]));
}

function terraformActions(showJson: string): Record<string, string[]> {
  const plan = JSON.parse(showJson) as { resource_changes?: { address: string; previous_address?: string; change: { actions: string[]; importing?: { id: string } } }[] };
  return Object.fromEntries(
    (plan.resource_changes ?? []).map((c) => [
      c.address,
      [...c.change.actions, ...(c.previous_address !== undefined ? [`moved from ${c.previous_address}`] : []), ...(c.change.importing !== undefined ? [`import ${c.change.importing.id}`] : [])],
    ]),
  );
}

d.each([
  ["native syntax", "main.tf", V1_TF, V2_TF, MOD_TF, v3Tf],
  ["JSON syntax", "main.tf.json", JSON.stringify(V1_JSON, null, 2), JSON.stringify(V2_JSON, null, 2), JSON.stringify(MOD_JSON, null, 2), v3Json],
] as const)("magma's plan equals terraform's (%s)", (_name, file, v1, v2, mod, v3) => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let env: Record<string, string | undefined>;
  let store: string;

  beforeAll(() => {
    tmp = tempDir("eplan-");
    writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: storedMemoryProvider, exportName: "createProvider", protocolVersions: [6] });
    writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: randomModule, exportName: "createRandomProvider", protocolVersions: [6] });
    work = join(tmp.dir, "work");
    mkdirSync(join(work, "mod"), { recursive: true });
    writeFileSync(join(work, "mod", file), mod);
    store = join(tmp.dir, "store.json");
    env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store });
  });
  afterAll(() => tmp.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);

  type Mode = "normal" | "destroy" | "refresh-only";

  /**
   * terraform's plan (`plan -out`, `show -json`) and magma's on the same configuration and
   * state: per address, the resource changes and root output actions — or, for a
   * refresh-only plan, the drift (magma must then plan no changes).
   */
  async function bothPlans(mode: Mode): Promise<{ magma: Record<string, string[]>; terraform: Record<string, string[]>; plan: EnginePlanResult["plan"] }> {
    const flag = { normal: [], destroy: ["-destroy"], "refresh-only": ["-refresh-only"] }[mode];
    expectExit(await tf("plan", "-no-color", ...flag, "-out=tfplan"), 0, `plan ${flag.join(" ")}`, env);
    const show = await tf("show", "-json", "tfplan");
    expectExit(show, 0, "show -json", env);
    const statePath = join(work, "terraform.tfstate");
    const state = existsSync(statePath) ? (readStateFile(readFileSync(statePath)) ?? null) : null;
    const engine = createEngine({ providers: source(store), cwd: work });
    try {
      const r = await engine.plan(work, state, { env: {}, ...(mode !== "normal" ? { mode } : {}) });
      if (mode === "refresh-only") {
        expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
        expect(r.plan.changes).toEqual([]);
        const tfDrift = (JSON.parse(show.stdout) as { resource_drift?: { address: string; change: { actions: string[] } }[] }).resource_drift ?? [];
        return {
          magma: Object.fromEntries((r.plan.drift ?? []).map((c) => [c.address, ACTIONS[c.action]!])),
          terraform: Object.fromEntries(tfDrift.map((c) => [c.address, c.change.actions])),
          plan: r.plan,
        };
      }
      return { magma: { ...magmaActions(r), ...magmaOutputActions(r) }, terraform: { ...terraformActions(show.stdout), ...terraformOutputActions(show.stdout) }, plan: r.plan };
    } finally {
      await engine.close();
    }
  }

  /** The state dependencies terraform recorded after its apply, per managed instance. */
  function recordedDependencies(): Record<string, string[]> {
    const applied = JSON.parse(readFileSync(join(work, "terraform.tfstate"), "utf8")) as { resources: { module?: string; mode: string; type: string; name: string; instances: { index_key?: string | number; dependencies?: string[] }[] }[] };
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
    readonly mode: Mode;
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
        expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply", env);
        rmSync(join(work, "tfplan"));
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
        const tfState = JSON.parse(readFileSync(join(work, "terraform.tfstate"), "utf8")) as { resources: { name: string; instances: { index_key?: string; attributes: { id: string } }[] }[] };
        prodId = tfState.resources.find((r) => r.name === "env")!.instances.find((i) => i.index_key === "prod")!.attributes.id;
        expectExit(await tf("state", "rm", 'memory_item.env["prod"]'), 0, "state rm", env);
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
        const saved = JSON.parse(readFileSync(store, "utf8")) as { serial: number; items: Record<string, string> };
        for (const [id, text] of Object.entries(saved.items)) {
          const v = JSON.parse(text) as { name: string; value: string | null };
          if (v.name === "a") saved.items[id] = JSON.stringify({ ...v, value: "drifted" });
          if (v.name === "app-2") delete saved.items[id];
        }
        writeFileSync(store, JSON.stringify(saved));
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
      if (stage.config !== undefined) writeFileSync(join(work, file), stage.config());
      if (previous === undefined) expectExit(await tf("init", "-no-color"), 0, "init", env);
      const both = await bothPlans(stage.mode);
      expect({ stage: stage.name, actions: both.magma }).toEqual({ stage: stage.name, actions: both.terraform });
      for (const [address, actions] of Object.entries(stage.expect)) expect({ stage: stage.name, address, actions: both.magma[address] }).toEqual({ stage: stage.name, address, actions });
      if (stage.mode === "refresh-only") expect({ stage: stage.name, drift: both.terraform }).toEqual({ stage: stage.name, drift: stage.expect });
      previous = both.plan;
    }
  }, 600_000);
});
