import { nullVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { impliedType, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock, memoryLookupBlock } from "@magma/provider-api/testing";
import { PlanAction } from "../plan/plan-action.js";
import { createPlan, type Plan } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { planJson } from "./plan-json.js";
import { isRenderError } from "./render-error.js";

const itemType = impliedType(memoryItemBlock);
const lookupType = impliedType(memoryLookupBlock);
const none = nullVal(itemType);
function obj(name: string): Value {
  return objectVal({ id: stringVal(`id-${name}`), name: stringVal(name), value: nullVal(stringType), size: nullVal(itemType.attributes["size"]!), tags: nullVal(itemType.attributes["tags"]!), rule: nullVal(itemType.attributes["rule"]!) });
}
function change(address: string, action: PlanAction, extra: Partial<PlannedInstanceChange> = {}): PlannedInstanceChange {
  const del = action === PlanAction.Delete;
  return { address, mode: "managed", typeName: "memory_item", action, before: action === PlanAction.Create ? none : obj("b"), after: del ? none : obj("a"), config: none, requiresReplace: [], priorPrivate: new Uint8Array(), plannedPrivate: new Uint8Array(), priorTainted: false, legacyTypeSystem: false, warnings: [], ...extra };
}
function plan(changes: PlannedInstanceChange[], extra: Partial<Plan> = {}): Plan {
  return { ...createPlan({ changes, prior: { lineage: "l", serial: 1 }, configDigest: "c" }), ...extra };
}

interface Doc {
  resource_changes: { address: string; module_address?: string; index?: unknown; previous_address?: string; action_reason?: string; change: { actions: string[]; importing?: { id?: string } } }[];
  planned_values: { root_module: { resources?: { address: string }[]; child_modules?: { address: string; resources: { address: string }[] }[] } };
  applyable: boolean;
  prior_state?: unknown;
  timestamp?: string;
}

let schemas: Map<string, ProviderSchema>;
beforeAll(async () => {
  schemas = new Map([["example.com/magma/memory", await createMemoryProvider().getSchema()]]);
});
const render = (p: Plan, extra: Partial<Parameters<typeof planJson>[1]> = {}): Doc => JSON.parse(planJson(p, { schemas, ...extra })) as Doc;

describe("planJson", () => {
  test("module address, index and sort order are taken from the addresses; planned values nest modules", () => {
    const doc = render(plan([change('module.m["k"].memory_item.x[1]', PlanAction.Create), change("memory_item.x[10]", PlanAction.Create), change("memory_item.x[2]", PlanAction.Create), change('memory_item.x["a"]', PlanAction.Create)]));
    expect(doc.resource_changes.map((r) => [r.address, r.module_address, r.index])).toEqual([
      ["memory_item.x[2]", undefined, 2],
      ["memory_item.x[10]", undefined, 10],
      ['memory_item.x["a"]', undefined, "a"],
      ['module.m["k"].memory_item.x[1]', 'module.m["k"]', 1],
    ]);
    // planned_values sorts by the address string, as Terraform does.
    expect(doc.planned_values.root_module.resources!.map((r) => r.address)).toEqual(['memory_item.x["a"]', "memory_item.x[10]", "memory_item.x[2]"]);
    expect(doc.planned_values.root_module.child_modules!.map((m) => m.address)).toEqual(['module.m["k"]']);
  });

  test("delete reasons derived from the other instances, given explicitly, or from the expansion; none in destroy mode", () => {
    const p = plan([
      change("memory_item.c[0]", PlanAction.NoOp),
      change("memory_item.c[1]", PlanAction.Delete),
      change('memory_item.e["a"]', PlanAction.NoOp),
      change('memory_item.e["b"]', PlanAction.Delete),
      change("memory_item.w[0]", PlanAction.NoOp),
      change('memory_item.w["x"]', PlanAction.Delete),
      change("memory_item.gone", PlanAction.Delete),
      change("module.old.memory_item.i", PlanAction.Delete),
    ]);
    const reasons = (d: Doc) => Object.fromEntries(d.resource_changes.map((r) => [r.address, r.action_reason]));
    expect(reasons(render(p))).toEqual({
      "memory_item.c[0]": undefined,
      "memory_item.c[1]": "delete_because_count_index",
      'memory_item.e["a"]': undefined,
      'memory_item.e["b"]': "delete_because_each_key",
      'memory_item.w["x"]': "delete_because_wrong_repetition",
      "memory_item.w[0]": undefined,
      "memory_item.gone": "delete_because_no_resource_config",
      "module.old.memory_item.i": "delete_because_no_module",
    });
    const withExpansion = reasons(render(p, { expansion: { resources: new Map([["memory_item.c", "count"], ["memory_item.gone", "none"]]), modules: new Set() }, deleteReasons: new Map([["memory_item.c[1]", "delete_because_no_move_target"]]) }));
    expect(withExpansion["memory_item.c[1]"]).toBe("delete_because_no_move_target");
    expect(withExpansion["memory_item.gone"]).toBe("delete_because_wrong_repetition");
    expect(withExpansion['memory_item.e["b"]']).toBe("delete_because_no_resource_config");
    // No configuration of the resource at all (its module call gone): Terraform's orphan has no config, so no_resource_config.
    expect(withExpansion["module.old.memory_item.i"]).toBe("delete_because_no_resource_config");
    expect(reasons(render({ ...p, mode: "destroy" }))["memory_item.gone"]).toBeUndefined();
    // Moved by a `moved` block to an address without configuration.
    const moved = plan([change("memory_item.new", PlanAction.Delete, { previousAddress: "memory_item.old" })]);
    expect(reasons(render(moved))["memory_item.new"]).toBe("delete_because_no_move_target");
    expect(reasons(render(moved, { expansion: { resources: new Map(), modules: new Set() } }))["memory_item.new"]).toBe("delete_because_no_move_target");
  });

  test("imports, moves, replace reasons, reads, applyable, timestamp", () => {
    const read: PlannedInstanceChange = { ...change("data.memory_lookup.l", PlanAction.Read), mode: "data", typeName: "memory_lookup", before: nullVal(lookupType), after: unknownVal(lookupType), config: objectVal({ name: stringVal("n"), id: nullVal(stringType), value: nullVal(stringType), tags: nullVal(lookupType.attributes["tags"]!) }) };
    const doc = render(
      plan([
        change("memory_item.i", PlanAction.NoOp, { importId: "id-1" }),
        change("memory_item.m", PlanAction.NoOp, { previousAddress: "memory_item.old" }),
        change("memory_item.t", PlanAction.DeleteThenCreate, { replaceReason: "tainted" }),
        change("memory_item.r", PlanAction.CreateThenDelete, { replaceReason: "requested" }),
        read,
      ]),
      { timestamp: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)) },
    );
    const by = Object.fromEntries(doc.resource_changes.map((r) => [r.address, r]));
    expect(by["memory_item.i"]!.change.importing).toEqual({ id: "id-1" });
    expect(by["memory_item.m"]!.previous_address).toBe("memory_item.old");
    expect(by["memory_item.t"]!.action_reason).toBe("replace_because_tainted");
    expect(by["memory_item.r"]!.change.actions).toEqual(["create", "delete"]);
    expect(by["memory_item.r"]!.action_reason).toBe("replace_by_request");
    expect(by["data.memory_lookup.l"]!.action_reason).toBe("read_because_dependency_pending");
    expect(doc.applyable).toBe(true);
    expect(doc.timestamp).toBe("2026-01-02T03:04:05Z");
    expect(render(plan([change("memory_item.n", PlanAction.NoOp)])).applyable).toBe(false);
  });

  test("a provider that cannot be determined is an invalid_plan error", async () => {
    const two = new Map([...schemas, ["example.com/other/memory", await createMemoryProvider().getSchema()]]);
    let err: unknown;
    try {
      planJson(plan([change("memory_item.x", PlanAction.Create)]), { schemas: two });
    } catch (e) {
      err = e;
    }
    expect(isRenderError(err) && err.code === "invalid_plan" && err.message.includes("memory_item.x")).toBe(true);
    // The change's provider configuration settles it.
    expect(() => planJson(plan([change("memory_item.x", PlanAction.Create, { providerConfig: 'provider["example.com/other/memory"]' })]), { schemas: two })).not.toThrow();
  });
});

describe("planJson with the configuration", () => {
  test("delete reasons follow the configuration's repetition and module calls", async () => {
    const { mkdtempSync, writeFileSync, mkdirSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { loadConfig } = await import("@magma/config");
    const dir = mkdtempSync(join(tmpdir(), "render-cfg-"));
    try {
      const req = 'terraform {\n  required_providers {\n    memory = { source = "example.com/magma/memory" }\n  }\n}\n';
      writeFileSync(join(dir, "main.tf"), `${req}resource "memory_item" "zero" {\n  count = 0\n  name  = "z"\n}\nresource "memory_item" "one" { name = "o" }\nmodule "m" {\n  source = "./m"\n  count  = 1\n}\n`);
      mkdirSync(join(dir, "m"));
      writeFileSync(join(dir, "m", "main.tf"), `${req}resource "memory_item" "i" { name = "i" }\n`);
      const { config } = loadConfig(dir);
      const doc = render(
        plan([
          change("memory_item.zero[0]", PlanAction.Delete),
          change("memory_item.one[0]", PlanAction.Delete),
          change("module.m[0].memory_item.i", PlanAction.NoOp),
          change("module.m[1].memory_item.i", PlanAction.Delete),
          change("module.gone.memory_item.i", PlanAction.Delete),
        ]),
        { config },
      );
      expect(Object.fromEntries(doc.resource_changes.map((r) => [r.address, r.action_reason]))).toEqual({
        "memory_item.zero[0]": "delete_because_count_index",
        "memory_item.one[0]": "delete_because_wrong_repetition",
        "module.m[0].memory_item.i": undefined,
        "module.m[1].memory_item.i": "delete_because_no_module",
        "module.gone.memory_item.i": "delete_because_no_resource_config",
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
