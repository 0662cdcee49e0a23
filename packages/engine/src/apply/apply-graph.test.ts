import { nullVal, stringVal } from "@magma/cty";
import { createPlan } from "../plan/plan.js";
import type { PlanAction } from "../plan/plan-action.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { buildApplyGraph, providerNodeId } from "./apply-graph.js";

const P = 'provider["registry.terraform.io/magma/memory"]';

function change(address: string, action: PlanAction, dependencies: string[] | undefined, extra: Partial<PlannedInstanceChange> = {}): PlannedInstanceChange {
  const empty = new Uint8Array();
  return {
    address,
    mode: "managed",
    typeName: "memory_item",
    action,
    before: stringVal("x"),
    after: nullVal(stringVal("x").type),
    config: nullVal(stringVal("x").type),
    requiresReplace: [],
    priorPrivate: empty,
    plannedPrivate: empty,
    priorTainted: false,
    legacyTypeSystem: false,
    warnings: [],
    providerConfig: P,
    ...(dependencies === undefined ? {} : { dependencies }),
    ...extra,
  };
}

function graphOf(changes: PlannedInstanceChange[], state: Record<string, string[]> = {}) {
  const plan = createPlan({ changes, prior: { lineage: "l", serial: 1 }, configDigest: "" });
  return buildApplyGraph(plan, (address) => state[address]);
}

describe("buildApplyGraph", () => {
  it("orders creates after their dependencies' instances, with count keys, and after the provider", () => {
    const g = graphOf([change("memory_item.a[0]", "create", []), change("memory_item.a[1]", "create", []), change("memory_item.b", "create", ["memory_item.a"])]);
    expect(g.dependencies("memory_item.b").sort()).toEqual(["memory_item.a[0]", "memory_item.a[1]", providerNodeId(P)]);
    expect(g.dependencies("memory_item.a[0]")).toEqual([providerNodeId(P)]);
  });

  it("orders destroys in reverse, from state dependencies when a change has none", () => {
    const g = graphOf([change("memory_item.a", "delete", undefined), change("memory_item.b", "delete", undefined)], { "memory_item.b": ["memory_item.a"] });
    expect(g.dependencies("memory_item.a (destroy)").sort()).toEqual(["memory_item.b (destroy)", providerNodeId(P)]);
    expect(g.dependencies("memory_item.b (destroy)")).toEqual([providerNodeId(P)]);
  });

  it("splits replaces: delete-then-create creates after destroying; create-then-delete destroys the deposed object after the dependents' updates", () => {
    const g = graphOf([change("memory_item.a", "delete-then-create", []), change("memory_item.b", "update", ["memory_item.a"])]);
    expect(g.dependencies("memory_item.a")).toContain("memory_item.a (destroy)");
    expect(g.dependencies("memory_item.b").sort()).toEqual(["memory_item.a", "memory_item.a (destroy)", providerNodeId(P)]);

    const cbd = graphOf([change("memory_item.a", "create-then-delete", []), change("memory_item.b", "update", ["memory_item.a"])]);
    expect(cbd.dependencies("memory_item.a (destroy)").sort()).toEqual(["memory_item.a", "memory_item.b", providerNodeId(P)]);
    expect(cbd.dependencies("memory_item.b").sort()).toEqual(["memory_item.a", providerNodeId(P)]);
  });

  it("configures a provider after the resources its configuration depends on, and only providers in use", () => {
    const plan = {
      ...createPlan({ changes: [change("memory_item.a", "create", []), change("memory_item.n", "no-op", [])], prior: { lineage: "l", serial: 1 }, configDigest: "" }),
      providers: [
        { address: P, source: "registry.terraform.io/magma/memory", dependencies: [] },
        { address: 'provider["registry.terraform.io/magma/memory"].b', source: "registry.terraform.io/magma/memory", dependencies: ["memory_item.a"] },
        { address: 'provider["registry.terraform.io/hashicorp/unused"]', source: "registry.terraform.io/hashicorp/unused", dependencies: [] },
      ],
    };
    const withB = { ...plan, changes: [...plan.changes, change("memory_item.c", "create", [], { providerConfig: 'provider["registry.terraform.io/magma/memory"].b' })] };
    const g = buildApplyGraph(withB, () => undefined);
    expect(g.ids().filter((id) => id.startsWith("provider:"))).toEqual([providerNodeId(P), providerNodeId('provider["registry.terraform.io/magma/memory"].b')]);
    expect(g.dependencies(providerNodeId('provider["registry.terraform.io/magma/memory"].b'))).toEqual(["memory_item.a"]);
    expect(g.has("memory_item.n")).toBe(false);
  });

  it("orders instances of expanded modules by the configuration addresses dependencies hold; destroys only within one module instance", () => {
    const a = (m: string): string => `module.m[${m}].module.n["k"].memory_item.a`;
    const b = (m: string): string => `module.m[${m}].module.n["k"].memory_item.b`;
    const deps = ["module.m.module.n.memory_item.a"];
    const g = graphOf([change(a("0"), "create", []), change(a("1"), "create", []), change(b("0"), "create", deps), change(b("1"), "create", deps)]);
    // A reference waits for every instance of what it names, in every instance of its module.
    expect(g.dependencies(b("0")).sort()).toEqual([a("0"), a("1"), providerNodeId(P)]);
    const d = graphOf([change(a("0"), "delete", undefined), change(a("1"), "delete", undefined), change(b("0"), "delete", undefined), change(b("1"), "delete", undefined)], { [b("0")]: deps, [b("1")]: deps });
    expect(d.dependencies(`${a("0")} (destroy)`).sort()).toEqual([`${b("0")} (destroy)`, providerNodeId(P)]);
    expect(d.dependencies(`${a("1")} (destroy)`).sort()).toEqual([`${b("1")} (destroy)`, providerNodeId(P)]);
  });

  it("creates and updates what a destroyed object depended on after its destroy, before it when that object goes create-before-destroy", () => {
    // b (removed from the configuration) was stored as depending on a, which is updated: b goes first (Terraform's DestroyEdgeTransformer).
    const g = graphOf([change("memory_item.a", "update", []), change("memory_item.b", "delete", undefined)], { "memory_item.b": ["memory_item.a"] });
    expect(g.dependencies("memory_item.a").sort()).toEqual(["memory_item.b (destroy)", providerNodeId(P)]);
    expect(g.dependencies("memory_item.b (destroy)")).toEqual([providerNodeId(P)]);
    // Stored with create_before_destroy, or deposed: the edge is reversed (CBDEdgeTransformer).
    const cbd = graphOf([change("memory_item.a", "update", []), change("memory_item.b", "delete", undefined, { createBeforeDestroy: true })], { "memory_item.b": ["memory_item.a"] });
    expect(cbd.dependencies("memory_item.b (destroy)").sort()).toEqual(["memory_item.a", providerNodeId(P)]);
    expect(cbd.dependencies("memory_item.a")).toEqual([providerNodeId(P)]);
    const deposed = graphOf([change("memory_item.a", "update", []), change("memory_item.b", "delete", undefined, { deposedKey: "00000001" })], { "memory_item.b": ["memory_item.a"] });
    expect(deposed.dependencies("memory_item.b (deposed object 00000001)").sort()).toEqual(["memory_item.a", providerNodeId(P)]);
    // A no-op dependency gets no edge; instances of another instance of the same module neither.
    const noop = graphOf([change("memory_item.a", "no-op", [], { importId: "i" }), change("memory_item.b", "delete", undefined)], { "memory_item.b": ["memory_item.a"] });
    expect(noop.dependencies("memory_item.a")).toEqual([providerNodeId(P)]);
    const a = (m: string): string => `module.m[${m}].memory_item.a`;
    const mod = graphOf([change(a("0"), "update", []), change(a("1"), "update", []), change("module.m[0].memory_item.b", "delete", undefined)], { "module.m[0].memory_item.b": ["module.m.memory_item.a"] });
    expect(mod.dependencies(a("0")).sort()).toEqual(["module.m[0].memory_item.b (destroy)", providerNodeId(P)]);
    expect(mod.dependencies(a("1"))).toEqual([providerNodeId(P)]);
  });

  it("leaves out a destroy edge between two providers' nodes that would close a cycle", () => {
    // b's destroy waits for its provider, configured from c, whose update waits for a's update.
    const Q = 'provider["registry.terraform.io/magma/other"]';
    const plan = {
      ...createPlan({
        changes: [change("memory_item.a", "update", []), change("other_item.c", "update", ["memory_item.a"], { typeName: "other_item", providerConfig: Q }), change("memory_item.b", "delete", undefined, { providerConfig: `${P}.x` })],
        prior: { lineage: "l", serial: 1 },
        configDigest: "",
      }),
      providers: [
        { address: P, source: "registry.terraform.io/magma/memory", dependencies: [] },
        { address: `${P}.x`, source: "registry.terraform.io/magma/memory", dependencies: ["other_item.c"] },
        { address: Q, source: "registry.terraform.io/magma/other", dependencies: [] },
      ],
    };
    const g = buildApplyGraph(plan, (address) => (address === "memory_item.b" ? ["memory_item.a"] : undefined));
    // a → b (destroy) would close a → b (destroy) → provider .x → c → a: left out, as b's provider differs from a's.
    expect(g.dependencies("memory_item.a")).toEqual([providerNodeId(P)]);
    expect(g.findCycle()).toBeUndefined();
  });

  it("refuses two changes for one instance", () => {
    expect(() => graphOf([change("memory_item.a", "create", []), change("memory_item.a", "update", [])])).toThrow(expect.objectContaining({ code: "invalid_argument" }));
  });
});
