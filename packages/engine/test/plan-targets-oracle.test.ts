/**
 * `-target` against terraform 1.11.4: on the state terraform applied from one configuration,
 * a changed configuration is planned with resource, instance and module targets, in normal
 * and destroy mode; magma's actions (resources and root outputs) must be the ones
 * `terraform show -json` reports for the same targets, and the plan's warning is terraform's.
 * The native memory and random providers are served to terraform through
 * @magma/provider-server and given to magma's engine in-process (as plan-oracle.test.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
import { expectExit, findTerraform, tempDir, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const storedMemoryProvider = join(here, "../../provider-server/test/testdata/stored-memory-provider.mjs");
const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");
const d = findTerraform() !== undefined ? describe : describe.skip;


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


d("magma's targeted plans equal terraform's", () => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let env: Record<string, string | undefined>;
  let store: string;

  beforeAll(() => {
    tmp = tempDir("etarget-");
    writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: storedMemoryProvider, exportName: "createProvider", protocolVersions: [6] });
    writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: randomModule, exportName: "createRandomProvider", protocolVersions: [6] });
    work = join(tmp.dir, "work");
    mkdirSync(join(work, "mod"), { recursive: true });
    writeFileSync(join(work, "mod", "main.tf"), MOD_TF);
    store = join(tmp.dir, "store.json");
    env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store });
  });
  afterAll(() => tmp.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);

  async function bothPlans(targets: string[], destroy: boolean): Promise<{ magma: Record<string, string[]>; terraform: Record<string, string[]>; result: EnginePlanResult; warning: { summary: string; detail: string } | undefined }> {
    const flags = [...targets.map((t) => `-target=${t}`), ...(destroy ? ["-destroy"] : [])];
    const planRun = await tf("plan", "-no-color", "-json", ...flags, "-out=tfplan");
    expectExit(planRun, 0, "plan", env);
    const warning = planRun.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { type: string; diagnostic?: { severity: string; summary: string; detail: string } })
      .find((m) => m.type === "diagnostic" && m.diagnostic?.severity === "warning")?.diagnostic;
    const show = await tf("show", "-json", "tfplan");
    expectExit(show, 0, "show -json", env);
    const state = readStateFile(readFileSync(join(work, "terraform.tfstate"))) ?? null;
    const engine = createEngine({ providers: source(store), cwd: work });
    try {
      const r = await engine.plan(work, state, { env: {}, targets, ...(destroy ? { mode: "destroy" as const } : {}) });
      return {
        magma: { ...magmaActions(r), ...magmaOutputActions(r) },
        terraform: { ...terraformActions(show.stdout), ...terraformOutputActions(show.stdout) },
        result: r,
        warning: warning === undefined ? undefined : { summary: warning.summary, detail: warning.detail },
      };
    } finally {
      await engine.close();
    }
  }

  test("resource, instance and module targets, normal and destroy, on terraform's state", async () => {
    writeFileSync(join(work, "main.tf"), V1_TF);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply", env);
    writeFileSync(join(work, "main.tf"), V2_TF);

    const cases: [string[], boolean][] = [
      [["memory_item.counted"], false],
      [['memory_item.env["dev"]', "memory_item.from_module"], false],
      [["module.m[1]"], false],
      [["memory_item.a"], true],
      [["module.m"], true],
    ];
    for (const [targets, destroy] of cases) {
      const r = await bothPlans(targets, destroy);
      expect({ targets, destroy, actions: r.magma }).toEqual({ targets, destroy, actions: r.terraform });
      expect(r.result.plan.targets).toEqual(targets);
      const w = r.result.diagnostics.find((x) => x.severity === "warning" && x.summary === r.warning?.summary);
      expect(w === undefined ? undefined : { summary: w.summary, detail: w.detail }).toEqual(r.warning);
    }
  }, 600_000);
});
