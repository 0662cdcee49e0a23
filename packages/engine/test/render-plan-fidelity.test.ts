/**
 * Oracle: the engine's own plans (`engine.plan`) rendered by `planJson` and `planText` equal
 * `terraform show -json PLANFILE` (whole document, as `comparablePlanJson` leaves it) and
 * `terraform show -no-color PLANFILE` of terraform's plan of the same working directory, for
 * two things Terraform plans that are rare in everyday plans:
 *
 * - data sources scoped in `check` blocks: read at plan *and* planned for a read at apply
 *   (`read_because_check_nested`, the value read as `after`, in `planned_values` and the
 *   refreshed prior state), or, when the read fails at plan, a planned read with unknowns
 *   and only a warning; not in refresh-only or destroy plans;
 * - deposed objects: a create_before_destroy replace whose create failed part-way (the
 *   memory provider's `fail-after-create`) leaves the old object deposed and the new one
 *   tainted; the next plan destroys the deposed object ("left over from a partially-failed
 *   replacement"), and when the refresh finds it deleted outside both tools, a no-op. The
 *   engine's apply of its plan leaves a state terraform then plans no changes for.
 *
 * - the delete reasons of objects without configuration: `delete_because_no_move_target` (a
 *   `moved` block's target is not configured, "(moved from …)"), `no_resource_config` for a
 *   module call removed altogether, `no_module` for an instance of a shrunk module call.
 *
 * - a data source read at plan under an aliased provider configuration: in the refreshed
 *   prior state, and after the engine's apply of its plan in state under that configuration,
 *   as terraform's apply of its plan writes it.
 *
 * The memory provider keeps its objects in a file both tools read and write.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromJson, objectVal, stringVal, toJson, type Value } from "@magma/cty";
import { loadConfig } from "@magma/config";
import { impliedType, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { writeProviderLauncher } from "@magma/provider-server";
import { formatProviderConfig, newStateFile, readStateFile, writeStateFile, type StateFile } from "@magma/state";
import { comparablePlanJson, hasTerraform, bundleLauncherEntry } from "@magma/test-support";
import { createEngine, planJson, planText, type ProviderSource } from "../src/index.js";
import { expectExit, tempDir, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const storedMemoryProvider = join(here, "../../provider-server/test/testdata/stored-memory-provider.mjs");
const d = hasTerraform() ? describe : describe.skip;

const MEMORY = "example.com/magma/memory";
const itemType = impliedType(memoryItemBlock);

interface Store {
  serial: number;
  items: Record<string, string>;
}

const readStore = (store: string): Store => (existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as Store) : { serial: 0, items: {} });

/**
 * The memory provider for magma over the item store terraform's provider processes use:
 * what it applies is written back (with the next serial in its id prefix, as the fixture
 * provider does), so that terraform sees magma's objects.
 */
function source(store: string): ProviderSource {
  return {
    async open(src) {
      if (src !== MEMORY) throw new Error(`unknown provider ${src}`);
      const saved = readStore(store);
      const serial = saved.serial + 1;
      const items: [string, Value][] = Object.entries(saved.items).map(([id, json]) => [id, fromJson(json, itemType)]);
      const p = createMemoryProvider({ items });
      const provider = {
        ...p,
        configure(config: Value, ...rest: Parameters<typeof p.configure> extends [Value, ...infer R] ? R : never) {
          return p.configure(objectVal({ ...config.attributes(), id_prefix: stringVal(`item-${serial}-`) }), ...rest);
        },
        async applyResourceChange(...args: Parameters<typeof p.applyResourceChange>) {
          try {
            return await p.applyResourceChange(...args);
          } finally {
            const out: Record<string, string> = {};
            for (const [id, v] of p.items) out[id] = toJson(v, itemType);
            writeFileSync(`${store}.tmp`, JSON.stringify({ serial, items: out }));
            renameSync(`${store}.tmp`, store);
          }
        },
      };
      return { provider, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    },
  };
}

const REQUIRED = `terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
`;

const CHECKS = `${REQUIRED}
resource "memory_item" "a" {
  name  = "a"
  value = "one"
}
resource "memory_item" "b" {
  name  = "b"
  value = "two"
}
check "by_name" {
  data "memory_lookup" "l" { name = "a" }
  assert {
    condition     = data.memory_lookup.l.value == "one"
    error_message = "a's value is not one."
  }
}
check "by_reference" {
  data "memory_lookup" "m" { name = memory_item.b.name }
  assert {
    condition     = data.memory_lookup.m.value == "two"
    error_message = "b's value is not two."
  }
}
`;

const DEPOSED = `${REQUIRED}
resource "memory_item" "x" {
  name  = "NAME"
  value = "VALUE"
  lifecycle { create_before_destroy = true }
}
resource "memory_item" "y" {
  name  = "y"
  value = memory_item.x.id
}
`;

type Doc = Record<string, unknown> & { resource_changes?: { address: string; deposed?: string; change: { actions: string[] }; action_reason?: string }[] };

/** One working directory with its store, terraform runs and the engine's plans of it. */
function workdir(prefix: string) {
  let tmp: { dir: string; cleanup(): void } | undefined;
  const w = {
    work: "",
    store: "",
    env: {} as Record<string, string | undefined>,
    schemas: new Map<string, ProviderSchema>(),
    setup: async (): Promise<void> => {
      tmp = tempDir(prefix);
      bundleLauncherEntry(writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: storedMemoryProvider, exportName: "createProvider", protocolVersions: [6] }));
      w.work = join(tmp.dir, "work");
      mkdirSync(w.work, { recursive: true });
      w.store = join(tmp.dir, "store.json");
      w.env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: w.store });
      w.schemas = new Map([[MEMORY, await createMemoryProvider().getSchema()]]);
    },
    cleanup: (): void => tmp?.cleanup(),
    tf: (...args: string[]) => terraform(args, w.work, w.env),
    state: (): StateFile | null => {
      const statePath = join(w.work, "terraform.tfstate");
      return existsSync(statePath) ? (readStateFile(readFileSync(statePath)) ?? null) : null;
    },
    /** terraform's and magma's JSON documents and human renderings of the same plan. */
    both: async (flags: readonly string[], mode: "normal" | "destroy" | "refresh-only") => {
      expectExit(await w.tf("plan", "-no-color", ...flags, "-out=tfplan"), 0, `plan ${flags.join(" ")}`, w.env);
      const show = await w.tf("show", "-json", "tfplan");
      expectExit(show, 0, "show -json", w.env);
      const text = await w.tf("show", "-no-color", "tfplan");
      expectExit(text, 0, "show", w.env);
      const state = w.state();
      const engine = createEngine({ providers: source(w.store), cwd: w.work });
      try {
        const r = await engine.plan(w.work, state, { env: {}, ...(mode !== "normal" ? { mode } : {}) });
        expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
        const { config } = loadConfig(w.work);
        const options = { schemas: w.schemas, config, priorState: state ?? { ...newStateFile(), lineage: r.plan.prior.lineage } };
        return {
          result: r,
          magma: comparablePlanJson(JSON.parse(planJson(r.plan, options)) as Record<string, unknown>) as Doc,
          terraform: comparablePlanJson(JSON.parse(show.stdout) as Record<string, unknown>) as Doc,
          magmaText: planText(r.plan, options),
          terraformText: text.stdout,
        };
      } finally {
        await engine.close();
      }
    },
  };
  return w;
}

const MODULE = `${REQUIRED}
resource "memory_item" "i" { name = "inner" }
`;

const MOVES_BEFORE = `${REQUIRED}
resource "memory_item" "keep" { name = "keep" }
resource "memory_item" "old" { name = "old" }
module "gone" { source = "./m" }
module "cnt" {
  source = "./m"
  count  = 2
}
module "shrunk" {
  source = "./m"
  count  = 2
}
`;

const MOVES_AFTER = `${REQUIRED}
resource "memory_item" "keep" { name = "keep" }
module "cnt" {
  source = "./m"
  count  = 1
}
module "shrunk" {
  source = "./m"
  count  = 1
}
moved {
  from = memory_item.old
  to   = memory_item.new
}
moved {
  from = module.cnt[1].memory_item.i
  to   = module.cnt[1].memory_item.j
}
`;

const actions = (doc: Doc): string[] => (doc.resource_changes ?? []).map((r) => `${r.address}${r.deposed !== undefined ? ` (deposed)` : ""} ${r.change.actions.join(",")} ${r.action_reason ?? ""}`.trim());

d("check block data sources: read at plan and planned for the apply, against terraform", () => {
  const w = workdir("pcheck-");
  beforeAll(async () => {
    await w.setup();
    writeFileSync(join(w.work, "main.tf"), CHECKS);
    expectExit(await w.tf("init", "-no-color"), 0, "init", w.env);
  }, 120_000);
  afterAll(() => w.cleanup());

  test("on an empty state: one read fails (only a warning, a read planned with unknowns), one waits for a resource with changes pending", async () => {
    const p = await w.both([], "normal");
    expect(actions(p.terraform)).toEqual([
      "data.memory_lookup.l read read_because_check_nested",
      "data.memory_lookup.m read read_because_dependency_pending",
      "memory_item.a create",
      "memory_item.b create",
    ]);
    expect(p.result.diagnostics.filter((x) => x.severity === "warning").map((x) => x.address)).toContain("data.memory_lookup.l");
    expect(p.magma).toEqual(p.terraform);
    expect(p.magmaText).toBe(p.terraformText);
  }, 300_000);

  test("after terraform applied: both read now and read again at apply, with no other change", async () => {
    expectExit(await w.tf("apply", "-auto-approve", "-no-color", "tfplan"), 0, "apply", w.env);
    const p = await w.both([], "normal");
    expect(actions(p.terraform)).toEqual(["data.memory_lookup.l read read_because_check_nested", "data.memory_lookup.m read read_because_check_nested", "memory_item.a no-op", "memory_item.b no-op"]);
    expect(p.terraformText).toContain("# (config will be reloaded to verify a check block)");
    expect(p.magma).toEqual(p.terraform);
    expect(p.magmaText).toBe(p.terraformText);
  }, 300_000);

  test("with an update pending, and in refresh-only and destroy plans (no check reads there)", async () => {
    writeFileSync(join(w.work, "main.tf"), CHECKS.replace('value = "two"', 'value = "three"'));
    const p = await w.both([], "normal");
    expect(actions(p.terraform)).toContain("memory_item.b update");
    expect(p.magma).toEqual(p.terraform);
    expect(p.magmaText).toBe(p.terraformText);
    for (const mode of ["refresh-only", "destroy"] as const) {
      // The destroy plan without the update: terraform's pre-destroy refresh (a normal plan) would not read m (a dependency has changes pending), magma's does.
      if (mode === "destroy") writeFileSync(join(w.work, "main.tf"), CHECKS);
      const q = await w.both([`-${mode}`], mode);
      expect(actions(q.terraform).filter((a) => a.startsWith("data."))).toEqual([]);
      expect(q.magma).toEqual(q.terraform);
      expect(q.magmaText).toBe(q.terraformText);
    }
  }, 300_000);
});

d("deposed objects left by a failed create_before_destroy replace, against terraform", () => {
  const w = workdir("pdepo-");
  const config = (name: string, value: string): string => DEPOSED.replace("NAME", name).replace("VALUE", value);
  beforeAll(async () => {
    await w.setup();
    writeFileSync(join(w.work, "main.tf"), config("x", "one"));
    expectExit(await w.tf("init", "-no-color"), 0, "init", w.env);
    expectExit(await w.tf("apply", "-auto-approve", "-no-color"), 0, "apply", w.env);
    // The replacement's create stores the new object and then fails: the old one stays, deposed.
    writeFileSync(join(w.work, "main.tf"), config("x2", "fail-after-create"));
    expectExit(await w.tf("apply", "-auto-approve", "-no-color"), 1, "failing apply", w.env);
    writeFileSync(join(w.work, "main.tf"), config("x2", "one"));
  }, 300_000);
  afterAll(() => w.cleanup());

  test("the state holds a deposed object; the plan destroys it and replaces the tainted new object", async () => {
    const state = w.state()!;
    const x = state.resources.find((r) => r.name === "x")!;
    expect(x.instances.map((i) => [i.deposed !== undefined, i.tainted])).toEqual([
      [false, true],
      [true, false],
    ]);
    // The deposed object survives magma's state round trip as terraform wrote it.
    expect(readStateFile(writeStateFile(state))).toEqual(state);
    const p = await w.both([], "normal");
    expect(actions(p.terraform)).toEqual(["memory_item.x create,delete replace_because_tainted", "memory_item.x (deposed) delete", "memory_item.y update"]);
    expect(p.terraformText).toContain("# (left over from a partially-failed replacement of this instance)");
    expect(p.magma).toEqual(p.terraform);
    expect(p.magmaText).toBe(p.terraformText);
  }, 300_000);

  test("a deposed object deleted outside both tools: refreshed away, a no-op change", async () => {
    const state = w.state()!;
    const deposed = state.resources.find((r) => r.name === "x")!.instances.find((i) => i.deposed !== undefined)!;
    const id = (JSON.parse(deposed.attributesJson!) as { id: string }).id;
    const saved = readStore(w.store);
    const before = { ...saved, items: { ...saved.items } };
    delete saved.items[id];
    writeFileSync(w.store, JSON.stringify(saved));
    try {
      const p = await w.both([], "normal");
      expect(actions(p.terraform)).toEqual(["memory_item.x create,delete replace_because_tainted", "memory_item.x (deposed) no-op", "memory_item.y update"]);
      expect(p.magma).toEqual(p.terraform);
      expect(p.magmaText).toBe(p.terraformText);
    } finally {
      writeFileSync(w.store, JSON.stringify(before));
    }
  }, 300_000);

  test("the engine applies its plan: the deposed object is destroyed, and terraform then plans no changes", async () => {
    const state = w.state()!;
    const engine = createEngine({ providers: source(w.store), cwd: w.work });
    try {
      const planned = await engine.plan(w.work, state, { env: {} });
      expect(planned.hasErrors).toBe(false);
      let last: StateFile = state;
      const applied = await engine.apply(planned, {
        state,
        persist: (s) => {
          last = s;
          writeFileSync(join(w.work, "terraform.tfstate"), writeStateFile(s));
          return Promise.resolve();
        },
      });
      expect(applied.failed).toEqual([]);
      expect(last.resources.find((r) => r.name === "x")!.instances.map((i) => [i.deposed, i.tainted])).toEqual([[undefined, false]]);
    } finally {
      await engine.close();
    }
    const after = await w.tf("plan", "-no-color", "-detailed-exitcode");
    expectExit(after, 0, "plan after magma's apply", w.env);
  }, 300_000);
});

d("delete reasons of objects without configuration (moved blocks, module calls), against terraform", () => {
  const w = workdir("pmove-");
  beforeAll(async () => {
    await w.setup();
    mkdirSync(join(w.work, "m"));
    writeFileSync(join(w.work, "m", "main.tf"), MODULE);
    writeFileSync(join(w.work, "main.tf"), MOVES_BEFORE);
    expectExit(await w.tf("init", "-no-color"), 0, "init", w.env);
    expectExit(await w.tf("apply", "-auto-approve", "-no-color"), 0, "apply", w.env);
    writeFileSync(join(w.work, "main.tf"), MOVES_AFTER);
  }, 300_000);
  afterAll(() => w.cleanup());

  test("no_move_target, no_resource_config, no_module; the text's reasons and (moved from …)", async () => {
    const p = await w.both([], "normal");
    expect(actions(p.terraform).filter((a) => a.includes("delete"))).toEqual([
      "memory_item.new delete delete_because_no_move_target",
      "module.cnt[1].memory_item.j delete delete_because_no_move_target",
      "module.gone.memory_item.i delete delete_because_no_resource_config",
      "module.shrunk[1].memory_item.i delete delete_because_no_module",
    ]);
    expect(p.terraformText).toContain("# (moved from memory_item.old)");
    expect(p.magma).toEqual(p.terraform);
    expect(p.magmaText).toBe(p.terraformText);
    // The renderers take the reasons from the plan: the same text without the configuration (as `magma show` renders it).
    expect(planText(p.result.plan, { schemas: w.schemas, priorState: w.state()! })).toBe(p.terraformText);
  }, 300_000);
});

d("a data source read at plan under an aliased provider configuration, against terraform", () => {
  const w = workdir("palias-");
  const FIRST = `${REQUIRED}
provider "memory" {
  alias = "alt"
}
resource "memory_item" "a" { name = "a" }
`;
  const SECOND = `${FIRST}
data "memory_lookup" "l" {
  provider = memory.alt
  name     = "a"
}
resource "memory_item" "b" {
  provider = memory.alt
  name     = "b"
  value    = data.memory_lookup.l.id
}
`;
  beforeAll(async () => {
    await w.setup();
    writeFileSync(join(w.work, "main.tf"), FIRST);
    expectExit(await w.tf("init", "-no-color"), 0, "init", w.env);
    expectExit(await w.tf("apply", "-auto-approve", "-no-color"), 0, "apply", w.env);
    writeFileSync(join(w.work, "main.tf"), SECOND);
  }, 300_000);
  afterAll(() => w.cleanup());

  test("the plan as terraform's; the engine's apply stores the read under the aliased configuration, as terraform's", async () => {
    const p = await w.both([], "normal");
    expect(p.magma).toEqual(p.terraform);
    expect(p.magmaText).toBe(p.terraformText);
    const statePath = join(w.work, "terraform.tfstate");
    const before = readFileSync(statePath);
    const saved = readStore(w.store);
    // terraform's apply of its plan …
    expectExit(await w.tf("apply", "-auto-approve", "-no-color", "tfplan"), 0, "apply", w.env);
    const theirs = w.state()!.resources.filter((r) => r.mode === "data");
    // … and, from the same state and store, the engine's apply of its own.
    writeFileSync(statePath, before);
    writeFileSync(w.store, JSON.stringify(saved));
    const engine = createEngine({ providers: source(w.store), cwd: w.work });
    let mine: StateFile | undefined;
    try {
      const applied = await engine.apply(p.result, { state: readStateFile(before) ?? null, persist: (s) => Promise.resolve(void (mine = s)) });
      expect(applied.failed).toEqual([]);
    } finally {
      await engine.close();
    }
    expect(theirs.map((r) => formatProviderConfig(r.provider))).toEqual(['provider["example.com/magma/memory"].alt']);
    // The attributes as JSON values (terraform's file indents them).
    const plain = (rs: StateFile["resources"]) => rs.filter((r) => r.mode === "data").map((r) => ({ ...r, instances: r.instances.map((i) => ({ ...i, attributesJson: JSON.parse(i.attributesJson ?? "null") as unknown })) }));
    expect(plain(mine!.resources)).toEqual(plain(theirs));
  }, 300_000);
});
