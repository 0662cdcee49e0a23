/**
 * Oracle: `planJson` of the engine's own plans (`engine.plan`) equals `terraform show -json`
 * of terraform's saved plan, as a whole document (only `timestamp` left out, and
 * `relevant_attributes` compared as a set: Terraform's order comes from a map), on one
 * working directory through its life: a first plan on an empty state (check blocks passing
 * and failing, preconditions and postconditions, an output precondition, a variable
 * validation, relevant attributes through a module's variable and output, a data source
 * read deferred); after terraform applied
 * it, a `-destroy` plan; then, after drift outside both tools (an attribute another resource
 * and an output refer to changed, an object deleted), a plan with a `moved` block and an
 * `import` block, and a `-refresh-only` plan (the data source read into the prior state).
 * The memory provider keeps its objects in a file both tools read.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromJson, type Value } from "@magma/cty";
import { loadConfig } from "@magma/config";
import { impliedType, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { writeProviderLauncher } from "@magma/provider-server";
import { newStateFile, readStateFile } from "@magma/state";
import { comparablePlanJson, hasTerraform, bundleLauncherEntry } from "@magma/test-support";
import { createEngine, planJson, type ProviderSource } from "../src/index.js";
import { expectExit, tempDir, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const storedMemoryProvider = join(here, "../../provider-server/test/testdata/stored-memory-provider.mjs");
const d = hasTerraform() ? describe : describe.skip;

const MEMORY = "example.com/magma/memory";
const itemType = impliedType(memoryItemBlock);

/** The memory provider for magma over terraform's item store. */
function source(store: string): ProviderSource {
  return {
    async open(src) {
      if (src !== MEMORY) throw new Error(`unknown provider ${src}`);
      const saved = existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, string> }) : { items: {} };
      const items: [string, Value][] = Object.entries(saved.items).map(([id, json]) => [id, fromJson(json, itemType)]);
      const p = createMemoryProvider({ items });
      return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    },
  };
}

const V1 = `terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
variable "n" {
  type    = number
  default = 3
  validation {
    condition     = var.n < 10
    error_message = "n must be below 10."
  }
}
resource "memory_item" "a" {
  name  = "a"
  value = "one"
  tags  = { k = "v" }
}
resource "memory_item" "b" {
  name  = "b"
  value = memory_item.a.value
}
resource "memory_item" "gone" { name = "gone" }
resource "memory_item" "old" { name = "old" }
resource "memory_item" "cond" {
  count = 2
  name  = "cond\${count.index}"
  tags  = { of = memory_item.gone.name }
  lifecycle {
    precondition {
      condition     = var.n > 0
      error_message = "n must be positive."
    }
    postcondition {
      condition     = self.size > 0
      error_message = "size must be positive."
    }
  }
}
data "memory_lookup" "l" { name = memory_item.a.name }
module "m" {
  source = "./m"
  v      = memory_item.a.value
}
output "mx" { value = module.m.x }
check "ok" {
  assert {
    condition     = memory_item.a.name == "a"
    error_message = "a is misnamed."
  }
}
check "bad" {
  assert {
    condition     = memory_item.a.value == "nope"
    error_message = "a's value is not nope."
  }
}
output "o" {
  value = memory_item.a.value
  precondition {
    condition     = memory_item.a.value != ""
    error_message = "empty"
  }
}
`;

/** A module: a variable from the root's memory_item.a, an output of its own resource (relevant attributes across modules). */
const MODULE = `terraform {
  required_providers {
    memory = { source = "${MEMORY}" }
  }
}
variable "v" { type = string }
resource "memory_item" "i" {
  name  = "inner"
  value = var.v
}
output "x" { value = memory_item.i.id }
`;

const V2 = V1.replace(
  'resource "memory_item" "old" { name = "old" }',
  `resource "memory_item" "new" { name = "old" }
moved {
  from = memory_item.old
  to   = memory_item.new
}
import {
  to = memory_item.imp
  id = "imp-1"
}
resource "memory_item" "imp" {
  name  = "imp"
  value = "x"
}`,
);

type Doc = Record<string, unknown> & { relevant_attributes?: { resource: string; attribute: unknown[] }[] };

/** The document as `comparablePlanJson` leaves it (no timestamp, relevant_attributes in a fixed order). */
function normalised(text: string): Doc {
  return comparablePlanJson(JSON.parse(text) as Record<string, unknown>) as Doc;
}

d("planJson of engine plans against terraform show -json, whole documents", () => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let store: string;
  let env: Record<string, string | undefined>;
  let schemas: Map<string, ProviderSchema>;

  beforeAll(async () => {
    tmp = tempDir("pjson-");
    bundleLauncherEntry(writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: storedMemoryProvider, exportName: "createProvider", protocolVersions: [6] }));
    work = join(tmp.dir, "work");
    mkdirSync(join(work, "m"), { recursive: true });
    writeFileSync(join(work, "m", "main.tf"), MODULE);
    store = join(tmp.dir, "store.json");
    env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store });
    schemas = new Map([[MEMORY, await createMemoryProvider().getSchema()]]);
  });
  afterAll(() => tmp?.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);

  /** terraform's and magma's documents of the same plan. */
  async function both(flags: readonly string[], mode: "normal" | "destroy" | "refresh-only"): Promise<{ magma: Doc; terraform: Doc }> {
    expectExit(await tf("plan", "-no-color", ...flags, "-out=tfplan"), 0, `plan ${flags.join(" ")}`, env);
    const show = await tf("show", "-json", "tfplan");
    expectExit(show, 0, "show -json", env);
    const statePath = join(work, "terraform.tfstate");
    const state = existsSync(statePath) ? (readStateFile(readFileSync(statePath)) ?? null) : null;
    const engine = createEngine({ providers: source(store), cwd: work });
    try {
      const r = await engine.plan(work, state, { env: {}, ...(mode !== "normal" ? { mode } : {}) });
      expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      const { config } = loadConfig(work);
      // As `magma show -json` does: no state yet is an empty one.
      const text = planJson(r.plan, { schemas, config, priorState: state ?? { ...newStateFile(), lineage: r.plan.prior.lineage } });
      return { magma: normalised(text), terraform: normalised(show.stdout) };
    } finally {
      await engine.close();
    }
  }

  test("a plan on an empty state: checks passing and failing, conditions, a validation, relevant attributes", async () => {
    writeFileSync(join(work, "main.tf"), V1);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    const { magma, terraform: expected } = await both([], "normal");
    // What the comparison covers.
    expect(expected["checks"]).toEqual(expect.arrayContaining([expect.objectContaining({ status: "fail", address: expect.objectContaining({ to_display: "check.bad" }) })]));
    expect(expected.relevant_attributes).toEqual(expect.arrayContaining([{ resource: "memory_item.a", attribute: ["value"] }]));
    expect(magma).toEqual(expected);
  }, 300_000);

  test("a destroy plan, after terraform applied the first plan", async () => {
    expectExit(await tf("apply", "-auto-approve", "-no-color", "tfplan"), 0, "apply", env);
    const { magma, terraform: expected } = await both(["-destroy"], "destroy");
    expect(magma).toEqual(expected);
  }, 300_000);

  test("after drift outside both tools, with a moved block and an import block", async () => {
    const saved = JSON.parse(readFileSync(store, "utf8")) as { serial: number; items: Record<string, string> };
    for (const [id, text] of Object.entries(saved.items)) {
      const v = JSON.parse(text) as { name: string };
      if (v.name === "a") saved.items[id] = JSON.stringify({ ...v, value: "drifted", tags: { k: "w" } });
      if (v.name === "gone") delete saved.items[id];
    }
    saved.items["imp-1"] = JSON.stringify({ id: "imp-1", name: "imp", rule: [], size: 3, tags: null, value: "x" });
    writeFileSync(store, JSON.stringify(saved));
    writeFileSync(join(work, "main.tf"), V2);
    const { magma, terraform: expected } = await both([], "normal");
    expect((expected["resource_drift"] as { address: string }[]).map((r) => r.address)).toEqual(["memory_item.a", "memory_item.gone"]);
    expect(magma).toEqual(expected);
  }, 300_000);

  test("a refresh-only plan", async () => {
    const { magma, terraform: expected } = await both(["-refresh-only"], "refresh-only");
    expect(magma).toEqual(expected);
  }, 300_000);
});
