import { stringType, typeEquals, type Value } from "@magma/cty";
import { PlanAction } from "../plan/plan-action.js";
import type { Plan, PlannedOutput } from "../plan/plan.js";

/** What a plan's summary counts, as Terraform 1.11's human plan renderer counts it. */
export interface PlanCounts {
  /** Changes that import an object (`import` blocks), no-ops included. */
  readonly import: number;
  /** Creates, and the create half of every replace. */
  readonly add: number;
  /** In-place updates. */
  readonly change: number;
  /** Deletes of managed objects, and the delete half of every replace. */
  readonly destroy: number;
  /** Objects that leave state without being destroyed (`removed` with `destroy = false`); not part of the summary line. */
  readonly forget: number;
  /** Data sources read during apply; not part of the summary line. */
  readonly read: number;
  /** Changes shown at all: anything but a no-op that neither moves nor imports (and never a data source's delete). */
  readonly shown: number;
  /** Root module outputs whose change the plan shows (see {@link isOutputChangeShown}). */
  readonly outputs: number;
}

/** Counts a plan's changes as Terraform's plan renderer does (see {@link PlanCounts}). */
export function countPlanChanges(plan: Plan): PlanCounts {
  let imports = 0;
  let add = 0;
  let change = 0;
  let destroy = 0;
  let forget = 0;
  let read = 0;
  let shown = 0;
  for (const c of plan.changes) {
    const moved = c.previousAddress !== undefined && c.previousAddress !== c.address;
    const importing = c.importId !== undefined;
    if (c.action === PlanAction.NoOp && !moved && !importing) continue;
    if (c.action === PlanAction.Delete && c.mode !== "managed") continue;
    shown++;
    if (importing) imports++;
    switch (c.action) {
      case PlanAction.Create:
        add++;
        break;
      case PlanAction.Update:
        change++;
        break;
      case PlanAction.Delete:
        destroy++;
        break;
      case PlanAction.DeleteThenCreate:
      case PlanAction.CreateThenDelete:
        add++;
        destroy++;
        break;
      case PlanAction.Forget:
        forget++;
        break;
      case PlanAction.Read:
        read++;
        break;
      case PlanAction.NoOp:
        break;
    }
  }
  const outputs = (plan.outputs ?? []).filter(isOutputChangeShown).length;
  return { import: imports, add, change, destroy, forget, read, shown, outputs };
}

/**
 * Whether Terraform's plan renderer shows a root output's change: any action but a no-op,
 * except an update between equal values. Terraform plans an update when the evaluated value
 * differs from the stored one (`pow(2, 64)`, exact at a float64's precision, is not the
 * 18446744073709550000 its state holds), while its renderer compares the values as the plan
 * gives them back, which are the same: it shows no change (yet the plan stays applyable).
 */
export function isOutputChangeShown(o: PlannedOutput): boolean {
  return outputRenderAction(o) !== "no-op";
}

/** A known null, or (as terraform's renderer reads a sensitive output) a known empty string. */
function nullOrEmpty(v: Value): boolean {
  const u = v.unmarkDeep().value;
  return u.isKnown() && (u.isNull() || (typeEquals(u.type, stringType) && u.asString() === ""));
}

/**
 * The action Terraform's plan renderer gives a root output's change (its symbol, and whether it
 * is shown at all: not a no-op). As {@link isOutputChangeShown} says, an update between equal
 * values is a no-op. A sensitive output's values go through the renderer's legacy-SDK rule
 * (`differ.ComputeDiffForType`: an empty string is null, the change built for a sensitive value
 * not being marked as of a non-legacy schema): `""` planned for a new sensitive output is no
 * change (not shown), `""` to `"x"` a create, `"x"` to `""` a delete; show -json keeps the plan's action.
 */
export function outputRenderAction(o: PlannedOutput): "create" | "update" | "delete" | "no-op" {
  if (o.action === "no-op") return "no-op";
  if (o.sensitive || o.sensitiveBefore === true) {
    if (!o.after.unmarkDeep().value.isKnown()) return o.action;
    const before = nullOrEmpty(o.before);
    const after = nullOrEmpty(o.after);
    if (before && after) return "no-op";
    if (before) return "create";
    if (after) return "delete";
  }
  if (o.action !== "update" || o.sensitive || !o.after.isWhollyKnown() || !o.before.isWhollyKnown() || !typeEquals(o.after.type, o.before.type)) return o.action;
  const eq = o.after.equals(o.before);
  return eq.isKnown() && eq.asBool() ? "no-op" : o.action;
}

/** Options of {@link planSummary}. */
export interface PlanSummaryOptions {
  /** Planning failed (Terraform then says so instead of "No changes"). */
  readonly errored?: boolean;
}

/**
 * Terraform 1.11's plan summary line (without colour):
 *
 * - `Plan: 2 to add, 1 to change, 1 to destroy.`, or with imports
 *   `Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.` (forgotten objects and data
 *   reads are not counted; a replace counts once as add and once as destroy);
 * - when nothing is shown: `No changes. Your infrastructure matches the configuration.`
 *   (`… No objects need to be destroyed.` in destroy mode, `… Your infrastructure still
 *   matches the configuration.` in refresh-only mode, `Planning failed. Terraform
 *   encountered an error while generating this plan.` when errored);
 * - when only outputs change: Terraform prints no summary line but says `You can apply this
 *   plan to save these new output values to the Terraform state, without changing any real
 *   infrastructure.`, which is returned.
 */
export function planSummary(plan: Plan, options: PlanSummaryOptions = {}): string {
  const n = countPlanChanges(plan);
  if (n.shown === 0 && n.outputs === 0) {
    if (options.errored === true) return "Planning failed. Terraform encountered an error while generating this plan.";
    if (plan.mode === "destroy") return "No changes. No objects need to be destroyed.";
    if (plan.mode === "refresh-only") return "No changes. Your infrastructure still matches the configuration.";
    return "No changes. Your infrastructure matches the configuration.";
  }
  if (n.shown === 0) return "You can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure.";
  return `Plan: ${n.import > 0 ? `${n.import} to import, ` : ""}${n.add} to add, ${n.change} to change, ${n.destroy} to destroy.`;
}
