/**
 * End to end, magma and terraform 1.11.4 on the same configuration (both syntaxes): magma
 * plans and applies it, then plans again with no changes, and terraform plans no changes on
 * magma's state (`-detailed-exitcode` 0); terraform applies it in a fresh directory, and
 * magma plans no changes on terraform's state. The configuration has references, count and
 * for_each, a local module, a data source depending on a resource, create_before_destroy
 * and a sensitive output. The native memory and random providers are served to terraform
 * through @magma/provider-server (the memory provider keeps its objects in a file, shared by
 * terraform's provider processes and magma's in-process instance).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Provider } from "@magma/provider-api";
import { createRandomProvider } from "@magma/provider-random";
import { createLocalBackend, loadState, type StateFile } from "@magma/state";
import { createEngine, type EnginePlanResult, type ProviderSource } from "../src/index.js";
import { hasTerraform } from "@magma/test-support";
import { memoryOracle } from "./support/memory-oracle.js";
import { expectExit, storedMemoryProvider, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const d = hasTerraform() ? describe : describe.skip;

const MEMORY = "example.com/magma/memory";
const RANDOM = "example.com/magma/random";

/** magma's providers: the same native modules terraform is served, the memory one over the same item file. */
function source(store: string): ProviderSource {
  return {
    async open(src) {
      if (src === MEMORY) {
        // The fixture reads its item file from the environment when created.
        process.env["MEMORY_PROVIDER_STORE"] = store;
        const mod = (await import(storedMemoryProvider)) as { createProvider(): Provider };
        const p = mod.createProvider();
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

const MAIN_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
    random = { source = "${RANDOM}", version = "1.0.0" }
  }
}
variable "envs" {
  type    = set(string)
  default = ["dev", "prod"]
}
resource "random_integer" "n" {
  min  = 1
  max  = 9
  seed = "e2e"
}
resource "random_password" "pw" {
  length = 12
}
resource "memory_item" "base" {
  name  = "base"
  value = tostring(random_integer.n.result)
  lifecycle {
    create_before_destroy = true
  }
}
resource "memory_item" "env" {
  for_each = var.envs
  name     = "env-\${each.key}"
  value    = memory_item.base.id
}
resource "memory_item" "copy" {
  count = 2
  name  = "copy-\${count.index}"
  value = memory_item.env["dev"].value
}
data "memory_lookup" "base" {
  name       = memory_item.base.name
  depends_on = [memory_item.base]
}
module "child" {
  source = "./child"
  prefix = data.memory_lookup.base.value
}
output "child_id" {
  value = module.child.id
}
output "pw" {
  value     = random_password.pw.result
  sensitive = true
}
`;

const CHILD_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}" }
  }
}
variable "prefix" {
  type = string
}
resource "memory_item" "c" {
  name  = "child"
  value = "\${var.prefix}-c"
}
output "id" {
  value = memory_item.c.id
}
`;

const MAIN_JSON = JSON.stringify(
  {
    terraform: { required_providers: { memory: { source: MEMORY, version: "1.0.0" }, random: { source: RANDOM, version: "1.0.0" } } },
    variable: { envs: { type: "set(string)", default: ["dev", "prod"] } },
    resource: {
      random_integer: { n: { min: 1, max: 9, seed: "e2e" } },
      random_password: { pw: { length: 12 } },
      memory_item: {
        base: { name: "base", value: "${tostring(random_integer.n.result)}", lifecycle: { create_before_destroy: true } },
        env: { for_each: "${var.envs}", name: "env-${each.key}", value: "${memory_item.base.id}" },
        copy: { count: 2, name: "copy-${count.index}", value: '${memory_item.env["dev"].value}' },
      },
    },
    data: { memory_lookup: { base: { name: "${memory_item.base.name}", depends_on: ["memory_item.base"] } } },
    module: { child: { source: "./child", prefix: "${data.memory_lookup.base.value}" } },
    output: { child_id: { value: "${module.child.id}" }, pw: { value: "${random_password.pw.result}", sensitive: true } },
  },
  null,
  2,
);

const CHILD_JSON = JSON.stringify(
  {
    terraform: { required_providers: { memory: { source: MEMORY } } },
    variable: { prefix: { type: "string" } },
    resource: { memory_item: { c: { name: "child", value: "${var.prefix}-c" } } },
    output: { id: { value: "${memory_item.c.id}" } },
  },
  null,
  2,
);

const ADDRESSES = [
  "memory_item.base",
  'memory_item.env["dev"]',
  'memory_item.env["prod"]',
  "memory_item.copy[0]",
  "memory_item.copy[1]",
  "module.child.memory_item.c",
  "random_integer.n",
  "random_password.pw",
].sort();

function changed(r: EnginePlanResult): string[] {
  return r.plan.changes.filter((c) => c.action !== "no-op").map((c) => `${c.address} ${c.action}`);
}

function errorsOf(r: EnginePlanResult): string[] {
  return r.diagnostics.filter((x) => x.severity === "error").map((x) => `${x.summary}: ${x.detail}`);
}

function addressesOf(state: StateFile): string[] {
  const out: string[] = [];
  for (const r of state.resources) {
    if (r.mode !== "managed") continue;
    const mod = r.module.map((m) => `module.${m.name}${m.key === undefined ? "" : typeof m.key === "number" ? `[${m.key}]` : `[${JSON.stringify(m.key)}]`}.`).join("");
    for (const i of r.instances) {
      if (i.deposed !== undefined) continue;
      const key = i.indexKey === undefined ? "" : typeof i.indexKey === "number" ? `[${i.indexKey}]` : `[${JSON.stringify(i.indexKey)}]`;
      out.push(`${mod}${r.type}.${r.name}${key}`);
    }
  }
  return out.sort();
}

d.each([
  ["native syntax", "main.tf", MAIN_TF, CHILD_TF],
  ["JSON syntax", "main.tf.json", MAIN_JSON, CHILD_JSON],
] as const)("magma and terraform converge on each other's state (%s)", (_name, file, main, child) => {
  const tmp = memoryOracle("e2e-tf-", storedMemoryProvider, { random: true, processEnv: ["MEMORY_PROVIDER_STORE"] });

  /** A working directory with the configuration and its own item file. */
  function workDir(name: string): { work: string; store: string; env: Record<string, string | undefined> } {
    const work = join(tmp.dir, name);
    mkdirSync(join(work, "child"), { recursive: true });
    writeFileSync(join(work, file), main);
    writeFileSync(join(work, "child", file), child);
    const store = join(tmp.dir, `${name}-items.json`);
    return { work, store, env: terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store }) };
  }

  test("magma applies, then plans no changes; terraform plans no changes on magma's state", async () => {
    const { work, store, env } = workDir("magma");
    const engine = createEngine({ providers: source(store), cwd: work });
    const backend = createLocalBackend({ dir: work }).store("default");
    try {
      const first = await engine.plan(work, null, { env: {} });
      expect(errorsOf(first)).toEqual([]);
      expect(changed(first)).toEqual(expect.arrayContaining(["memory_item.base create", "data.memory_lookup.base read", "module.child.memory_item.c create"]));
      const applied = await engine.apply(first, { store: backend });
      expect(applied.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      expect(applied.success).toBe(true);
      const state = (await loadState(backend))!;
      expect(addressesOf(state)).toEqual(ADDRESSES);
      expect(state.outputs.get("pw")?.sensitive).toBe(true);
      expect(state.outputs.get("child_id")?.valueJson).toMatch(/^"item-\d+-\d+"$/);
      const items = JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, string> };
      expect(Object.keys(items.items)).toHaveLength(6);

      const again = await engine.plan(work, state, { env: {} });
      expect(errorsOf(again)).toEqual([]);
      expect(changed(again)).toEqual([]);
    } finally {
      await engine.close();
    }
    expectExit(await terraform(["init", "-no-color"], work, env), 0, "init", env);
    const plan = await terraform(["plan", "-no-color", "-detailed-exitcode"], work, env);
    expectExit(plan, 0, "plan -detailed-exitcode on magma's state", env);
  }, 300_000);

  test("terraform applies; magma plans no changes on terraform's state", async () => {
    const { work, store, env } = workDir("terraform");
    expectExit(await terraform(["init", "-no-color"], work, env), 0, "init", env);
    expectExit(await terraform(["apply", "-auto-approve", "-no-color"], work, env), 0, "apply", env);
    const state = (await loadState(createLocalBackend({ dir: work }).store("default")))!;
    expect(addressesOf(state)).toEqual(ADDRESSES);
    const engine = createEngine({ providers: source(store), cwd: work });
    try {
      const r = await engine.plan(work, state, { env: {} });
      expect(errorsOf(r)).toEqual([]);
      expect(changed(r)).toEqual([]);
      expect(r.refreshOutcomes.filter((o) => o.result !== "in-sync")).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 300_000);
});
