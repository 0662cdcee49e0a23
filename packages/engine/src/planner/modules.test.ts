import { listVal, objectVal, stringVal, toJson, type Value } from "@magma/cty";
import { formatModuleInstance } from "@magma/state";
import { createEngine, type EnginePlanResult } from "../engine.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { configOf, item, stateOf, testSource } from "./test-support.js";

const ROOT = `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
provider "memory" {
  alias     = "other"
  id_prefix = "o-"
}
variable "envs" {
  default = ["a", "b"]
}
module "net" {
  source   = "./mod"
  for_each = toset(var.envs)
  prefix   = each.key
  n        = 2
}
module "single" {
  source = "./mod"
  prefix = "s"
  providers = {
    memory = memory.other
  }
}
resource "memory_item" "uses" {
  name  = "uses"
  value = join(",", module.net["a"].names)
}
output "single_names" {
  value = module.single.names
}
`;

const MOD = `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
variable "prefix" {
  type = string
}
variable "n" {
  type    = number
  default = 1
}
locals {
  base = "\${var.prefix}-\${path.module}"
}
resource "memory_item" "x" {
  count = var.n
  name  = "\${local.base}-\${count.index}"
}
output "names" {
  value = memory_item.x[*].name
}
`;

async function planOf(state: Parameters<ReturnType<typeof createEngine>["plan"]>[1], items = new Map<string, Value>()): Promise<EnginePlanResult> {
  const c = configOf({ "main.tf": ROOT, "mod/main.tf": MOD });
  const engine = createEngine({ providers: testSource(items), cwd: c.dir });
  try {
    return await engine.plan(c.config, state, { env: {} });
  } finally {
    await engine.close();
    c.cleanup();
  }
}

function byAddress(r: EnginePlanResult): Map<string, PlannedInstanceChange> {
  const errs = r.diagnostics.filter((d) => d.severity === "error");
  expect(errs.map((d) => `${d.address ?? ""} ${d.summary}: ${d.detail}`)).toEqual([]);
  return new Map(r.plan.changes.map((c) => [c.address, c]));
}

describe("modules", () => {
  test("module calls with for_each and passed providers expand to module instances; outputs flow back", async () => {
    const r = await planOf(null);
    const m = byAddress(r);
    expect([...m.keys()]).toEqual([
      'memory_item.uses',
      'module.net["a"].memory_item.x[0]',
      'module.net["a"].memory_item.x[1]',
      'module.net["b"].memory_item.x[0]',
      'module.net["b"].memory_item.x[1]',
      "module.single.memory_item.x[0]",
    ]);
    const x = m.get('module.net["b"].memory_item.x[1]')!;
    expect(JSON.parse(toJson(x.after.getAttr("name"), x.after.getAttr("name").type))).toBe("b-mod-1");
    expect(x.moduleAddress).toBe('module.net["b"]');
    expect(x.providerConfig).toBe('provider["registry.terraform.io/hashicorp/memory"]');
    expect(x.dependencies).toEqual([]);
    expect(m.get("module.single.memory_item.x[0]")!.providerConfig).toBe('provider["registry.terraform.io/hashicorp/memory"].other');
    const uses = m.get("memory_item.uses")!;
    expect(uses.after.getAttr("value").asString()).toBe("a-mod-0,a-mod-1");
    expect(uses.dependencies).toEqual(['module.net.memory_item.x']);
    const out = r.plan.outputs!.find((o) => o.name === "single_names")!;
    expect(JSON.parse(toJson(out.after, out.after.type))).toEqual(["s-mod-0"]);
  });

  test("objects of module instances and resources no longer in the configuration are destroyed", async () => {
    const a0 = item({ id: "i-1", name: "a-mod-0", size: 7 });
    const c0 = item({ id: "i-2", name: "c-mod-0", size: 7 });
    const st = stateOf([['module.net["a"].memory_item.x[0]', a0], ['module.net["c"].memory_item.x[0]', c0], ['module.gone.memory_item.y', c0]]);
    const r = await planOf(st, new Map([["i-1", a0], ["i-2", c0]]));
    const m = byAddress(r);
    expect(m.get('module.net["a"].memory_item.x[0]')!.action).toBe("no-op");
    expect(m.get('module.net["c"].memory_item.x[0]')!.action).toBe("delete");
    expect(m.get('module.net["c"].memory_item.x[0]')!.moduleAddress).toBe('module.net["c"]');
    expect(m.get("module.gone.memory_item.y")!.action).toBe("delete");
    expect(m.get('module.net["a"].memory_item.x[1]')!.action).toBe("create");
  });

  test("a module's moved and removed blocks apply within each of its instances", async () => {
    const a0 = item({ id: "i-1", name: "a-mod-0", size: 7 });
    const st = stateOf([['module.net["a"].memory_item.old[0]', a0], ['module.net["b"].memory_item.legacy', a0]]);
    const c = configOf({ "main.tf": ROOT, "mod/main.tf": `${MOD}\nmoved {\n  from = memory_item.old\n  to   = memory_item.x\n}\nremoved {\n  from = memory_item.legacy\n  lifecycle {\n    destroy = false\n  }\n}\n` });
    const engine = createEngine({ providers: testSource(new Map([["i-1", a0]])), cwd: c.dir });
    try {
      const m = byAddress(await engine.plan(c.config, st, { env: {} }));
      expect(m.get('module.net["a"].memory_item.x[0]')).toMatchObject({ action: "no-op", previousAddress: 'module.net["a"].memory_item.old[0]' });
      expect(m.get('module.net["b"].memory_item.legacy')).toMatchObject({ action: "forget", moduleAddress: 'module.net["b"]' });
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("moduleOverride: an overridden module instance (or call) is neither planned nor applied, its own provider not configured; its outputs are the values given, null when not given", async () => {
    const c = configOf({
      "main.tf": `${ROOT}\nmodule "own" {\n  source = "./own"\n}\noutput "own" {\n  value = module.own.id\n}\n`,
      "mod/main.tf": MOD,
      "own/main.tf": `terraform {\n  required_providers {\n    memory = { source = "hashicorp/memory" }\n  }\n}\nprovider "memory" {\n  id_prefix = var.missing_at_plan\n}\nvariable "missing_at_plan" {\n  type = string\n}\nresource "memory_item" "o" {\n  name = "o"\n}\noutput "id" {\n  value = memory_item.o.id\n}\n`,
    });
    const given = new Map<string, Value>([
      ['module.net["a"]', objectVal({ names: listVal([stringVal("o1"), stringVal("o2")]), unused: stringVal("x") })],
      ["module.single", objectVal({})],
      ["module.own", objectVal({ id: stringVal("own-id") })],
    ]);
    const engine = createEngine({ providers: testSource(), cwd: c.dir });
    try {
      // The validate walk has no overrides (as terraform's): module.own's variable is given there as unknown.
      const planned = await engine.plan(c.config, null, { env: {}, validate: false, moduleOverride: (mi) => given.get(mi) });
      const m = byAddress(planned);
      expect([...m.keys()]).toEqual(["memory_item.uses", 'module.net["b"].memory_item.x[0]', 'module.net["b"].memory_item.x[1]']);
      expect(m.get("memory_item.uses")!.after.getAttr("value").asString()).toBe("o1,o2");
      const outputs = new Map(planned.plan.outputs!.map((o) => [o.name, o.after]));
      expect(outputs.get("single_names")!.isNull()).toBe(true);
      expect(outputs.get("own")!.asString()).toBe("own-id");
      const applied = await engine.apply(planned, { persist: async () => undefined });
      expect(applied.failed).toEqual([]);
      expect(applied.state.resources.map((r) => `${formatModuleInstance(r.module)}|${r.name}`).sort()).toEqual(['module.net["b"]|x', "|uses"]);
      expect(applied.state.outputs.get("own")).toBeDefined();
      expect(applied.state.outputs.has("single_names")).toBe(false);
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("apply inside modules expanded with for_each and count re-evaluates instance configuration with each.* and count.index of the calls", async () => {
    const provider = `terraform {\n  required_providers {\n    memory = { source = "hashicorp/memory" }\n  }\n}\n`;
    const c = configOf({
      "main.tf": `${provider}module "m" {\n  source   = "./outer"\n  for_each = toset(["x"])\n  name     = each.key\n}\n`,
      "outer/main.tf": `${provider}variable "name" {}\nmodule "inner" {\n  source = "../inner"\n  count  = 1\n  name   = "\${var.name}-\${count.index}"\n}\n`,
      "inner/main.tf": `${provider}variable "name" {}\nresource "memory_item" "a" {\n  name = "a-\${var.name}"\n}\nresource "memory_item" "b" {\n  name  = "b-\${var.name}"\n  value = memory_item.a.id\n}\n`,
    });
    const engine = createEngine({ providers: testSource(), cwd: c.dir });
    try {
      const planned = await engine.plan(c.config, null, { env: {} });
      byAddress(planned);
      const applied = await engine.apply(planned, { persist: async () => undefined });
      expect(applied.failed.map((f) => f.diagnostics.map((d) => d.summary))).toEqual([]);
      const b = applied.state.resources.find((r) => r.name === "b")!;
      const a = applied.state.resources.find((r) => r.name === "a")!;
      const attrs = (r: typeof a): Record<string, unknown> => JSON.parse(r.instances[0]!.attributesJson ?? "{}") as Record<string, unknown>;
      expect(attrs(b)).toMatchObject({ name: "b-x-0", value: attrs(a)["id"] });
      expect(b.instances[0]!.dependencies).toEqual(["module.m.module.inner.memory_item.a"]);
    } finally {
      await engine.close();
      c.cleanup();
    }
  });
});
