// planText of an errored plan (one planned before an error), as terraform 1.11.4's renderer:
// the changes under "Terraform planned the following actions, but then encountered a problem:",
// and only "Planning failed." when no change shows (compared with terraform in
// packages/cli/test/plan-errors.test.ts).
import { nullVal, objectVal, stringVal, unknownVal, type Value } from "@magma/cty";
import { impliedType, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { PlanAction } from "../plan/plan-action.js";
import { createPlan, type Plan } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { planText } from "./plan-text.js";

const itemType = impliedType(memoryItemBlock);
function item(fields: Record<string, Value>): Value {
  const base: Record<string, Value> = {};
  for (const [k, t] of Object.entries(itemType.attributes)) base[k] = nullVal(t);
  return objectVal({ ...base, ...fields });
}
function change(address: string, action: PlanAction, before: Value, after: Value): PlannedInstanceChange {
  return { address, mode: "managed", typeName: "memory_item", action, before, after, config: nullVal(itemType), requiresReplace: [], priorPrivate: new Uint8Array(), plannedPrivate: new Uint8Array(), priorTainted: false, legacyTypeSystem: false, warnings: [] };
}
function plan(changes: PlannedInstanceChange[], extra: Partial<Plan> = {}): Plan {
  return { ...createPlan({ changes, prior: { lineage: "l", serial: 1 }, configDigest: "c" }), ...extra };
}

let schemas: Map<string, ProviderSchema>;
beforeAll(async () => {
  schemas = new Map([["example.com/magma/memory", await createMemoryProvider().getSchema()]]);
});

describe("planText of an errored plan", () => {
  test("the changes planned before the error, under terraform's heading for them", () => {
    const created = change("memory_item.a", PlanAction.Create, nullVal(itemType), item({ id: unknownVal(itemType.attributes["id"]!), name: stringVal("a") }));
    const text = planText(plan([created]), { schemas, errored: true });
    expect(text).toContain("\nTerraform planned the following actions, but then encountered a problem:\n\n  # memory_item.a will be created\n");
    expect(text).not.toContain("Terraform will perform the following actions:");
    expect(text).toContain("\nPlan: 1 to add, 0 to change, 0 to destroy.\n");
    expect(planText(plan([created]), { schemas })).toContain("\nTerraform will perform the following actions:\n");
  });

  test("no change to show: only 'Planning failed.' (red and bold in colour), with no no-changes explanation", () => {
    const kept = item({ id: stringVal("i-1"), name: stringVal("k") });
    const p = plan([change("memory_item.k", PlanAction.NoOp, kept, kept)]);
    expect(planText(p, { schemas, errored: true })).toBe("\nPlanning failed. Terraform encountered an error while generating this plan.\n\n");
    expect(planText(p, { schemas, errored: true, color: true })).toBe("\n\u001b[0m\u001b[1m\u001b[31mPlanning failed.\u001b[0m\u001b[1m Terraform encountered an error while generating this plan.\u001b[0m\n\n\u001b[0m");
    expect(planText(p, { schemas })).toContain("No changes. Your infrastructure matches the configuration.");
  });
});
