import type { Path, Value } from "@magma/cty";
import type { DecodedBody } from "@magma/config";
import type { Block } from "@magma/provider-api";
import { planError, PlanDiagnosticsError, type PlanDiagnostic } from "../planner/plan-diagnostic.js";
import { EPHEMERAL_MARK } from "./ephemeral-mark.js";

/** Whether `path` (from the configuration object's root) is or is inside a write-only attribute of `block`. */
function inWriteOnly(block: Block, path: Path): boolean {
  let b: Block | undefined = block;
  for (const step of path.steps) {
    if (b === undefined) return false;
    if (step.kind !== "attr") continue; // an element of a nested block collection
    const a = b.attributes?.[step.name];
    if (a !== undefined && Object.hasOwn(b.attributes!, step.name)) return a.writeOnly === true;
    const nb: { readonly block: Block } | undefined = b.blockTypes !== undefined && Object.hasOwn(b.blockTypes, step.name) ? b.blockTypes[step.name] : undefined;
    b = nb?.block;
  }
  return false;
}

/**
 * Terraform's rule for managed resources and data sources: an ephemeral value (or one
 * derived from it) is allowed only in a write-only attribute, since everything else is
 * persisted to the plan and the state. Each other attribute that holds one is an "Invalid
 * use of ephemeral value" error at the attribute's expression, as Terraform reports it.
 *
 * @throws PlanDiagnosticsError with one error per offending top-level argument.
 */
export function rejectEphemeralUse(config: Value, block: Block, body: DecodedBody, address: string): void {
  const paths = config.unmarkDeep().paths.filter((p) => p.marks.has(EPHEMERAL_MARK) && !inWriteOnly(block, p.path));
  if (paths.length === 0 && !config.isMarked(EPHEMERAL_MARK)) return;
  const names = new Set<string>();
  for (const p of paths) {
    const first = p.path.steps[0];
    if (first?.kind === "attr") names.add(first.name);
  }
  const diags: PlanDiagnostic[] = [];
  for (const name of names) {
    const attr = body.attributes.get(name);
    diags.push(
      planError(
        "Invalid use of ephemeral value",
        `Ephemeral values are not valid for "${name}", because it is not a write-only attribute and must be persisted to state.`,
        { address, ...(attr !== undefined ? { subject: attr.expr.range } : { subject: body.range }) },
      ),
    );
  }
  if (diags.length === 0) {
    diags.push(planError("Invalid use of ephemeral value", "Ephemeral values are not valid in resource arguments, because resource instances must persist between Terraform phases.", { address, subject: body.range }));
  }
  throw new PlanDiagnosticsError(diags);
}
