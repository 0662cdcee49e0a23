import { CtyNumber, nullVal, numberVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { PlanAction } from "../plan/plan-action.js";
import { createPlan, type Plan } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { countPlanChanges, isOutputChangeShown, planSummary } from "./plan-summary.js";

const none = nullVal(stringType);
function change(address: string, action: PlanAction, extra: Partial<PlannedInstanceChange> = {}): PlannedInstanceChange {
  return { address, mode: "managed", typeName: "memory_item", action, before: none, after: none, config: none, requiresReplace: [], priorPrivate: new Uint8Array(), plannedPrivate: new Uint8Array(), priorTainted: false, legacyTypeSystem: false, warnings: [], ...extra };
}
function plan(changes: PlannedInstanceChange[], extra: Partial<Plan> = {}): Plan {
  return { ...createPlan({ changes, prior: { lineage: "l", serial: 1 }, configDigest: "c" }), ...extra };
}

describe("planSummary", () => {
  test("counts a replace as one add and one destroy, updates as changes", () => {
    const p = plan([
      change("a.b", PlanAction.Create),
      change("a.c", PlanAction.Update),
      change("a.d", PlanAction.DeleteThenCreate),
      change("a.e", PlanAction.CreateThenDelete),
      change("a.f", PlanAction.Delete),
      change("a.g", PlanAction.NoOp),
    ]);
    expect(planSummary(p)).toBe("Plan: 3 to add, 1 to change, 3 to destroy.");
  });

  test("no changes, per plan mode and when errored", () => {
    const p = plan([change("a.g", PlanAction.NoOp)]);
    expect(planSummary(p)).toBe("No changes. Your infrastructure matches the configuration.");
    expect(planSummary({ ...p, mode: "destroy" })).toBe("No changes. No objects need to be destroyed.");
    expect(planSummary({ ...p, mode: "refresh-only" })).toBe("No changes. Your infrastructure still matches the configuration.");
    expect(planSummary(p, { errored: true })).toBe("Planning failed. Terraform encountered an error while generating this plan.");
  });

  test("imports are counted even as no-ops; forget and reads are not in the line; data deletes are hidden", () => {
    const p = plan([
      change("a.i", PlanAction.NoOp, { importId: "x" }),
      change("a.j", PlanAction.Update, { importId: "y" }),
      change("a.k", PlanAction.Forget),
      change("data.a.l", PlanAction.Read, { mode: "data" }),
      change("data.a.m", PlanAction.Delete, { mode: "data" }),
    ]);
    expect(planSummary(p)).toBe("Plan: 2 to import, 0 to add, 1 to change, 0 to destroy.");
    expect(countPlanChanges(p)).toEqual({ import: 2, add: 0, change: 1, destroy: 0, forget: 1, read: 1, shown: 4, outputs: 0 });
  });

  test("a move alone is shown with zero counts", () => {
    expect(planSummary(plan([change("a.n", PlanAction.NoOp, { previousAddress: "a.o" })]))).toBe("Plan: 0 to add, 0 to change, 0 to destroy.");
  });

  test("only outputs change", () => {
    const p = plan([change("a.g", PlanAction.NoOp)], { outputs: [{ name: "o", action: "update", before: stringVal("a"), after: unknownVal(stringType), sensitive: false }] });
    expect(planSummary(p)).toBe("You can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure.");
  });

  // Terraform plans pow(2, 64) (exact at 53 bits) as an update of the 18446744073709550000 its
  // state holds; its renderer compares the values as the plan gives them back: no change shown.
  test("an update between values equal as planned is not shown", () => {
    const stored = numberVal(CtyNumber.parse("18446744073709550000"));
    const same = { name: "p", action: "update", before: stored, after: stored, sensitive: false } as const;
    expect(isOutputChangeShown(same)).toBe(false);
    expect(isOutputChangeShown({ ...same, after: numberVal(1) })).toBe(true);
    expect(isOutputChangeShown({ ...same, action: "create" })).toBe(true);
    // A sensitive output's stored sensitivity is not in the plan: shown, as terraform shows a flip.
    expect(isOutputChangeShown({ ...same, sensitive: true })).toBe(true);
    const p = plan([change("a.g", PlanAction.NoOp)], { outputs: [same] });
    expect(countPlanChanges(p).outputs).toBe(0);
    expect(planSummary(p)).toBe("No changes. Your infrastructure matches the configuration.");
  });
});
