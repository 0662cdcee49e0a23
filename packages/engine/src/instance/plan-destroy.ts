import { nullVal } from "@magma/cty";
import { errorDiag, resourceSchema } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction } from "../plan/plan-action.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { callOptions, providerOf, type InstanceObject, type InstanceTarget } from "./instance-target.js";

/**
 * Plans the destroy of an object, as Terraform's `planDestroy`: when the provider declares
 * the `planDestroy` capability, `PlanResourceChange(prior, null, null)` with the prior
 * private data, whose planned state must be null; otherwise no call, and the prior private
 * data goes to the apply.
 *
 * @throws {@link EngineError} `invalid_plan` when the provider plans a non-null object;
 * the provider's `ProviderError` when the call fails.
 */
export async function planDestroy(target: InstanceTarget, address: string, typeName: string, prior: InstanceObject): Promise<PlannedInstanceChange> {
  const entry = resourceSchema(target.schema, typeName);
  const none = nullVal(entry.type);
  const base = { address, mode: "managed" as const, typeName, action: PlanAction.Delete, before: prior.state, after: none, config: none, requiresReplace: [], priorPrivate: prior.private, priorTainted: prior.tainted };
  if (!target.schema.serverCapabilities.planDestroy) {
    return { ...base, plannedPrivate: prior.private, legacyTypeSystem: false, warnings: [] };
  }
  const change = await providerOf(target, address).planResourceChange(typeName, prior.state, none, none, { ...callOptions(target), priorPrivate: prior.private });
  if (!change.plannedState.isNull()) {
    const summary = "Provider produced invalid plan";
    throw new EngineError(EngineErrorCode.InvalidPlan, `${summary} for ${address}: the provider planned a non-null object for a destroy`, {
      diagnostics: [errorDiag(summary, `The provider planned a non-null object for the destroy of ${address}: ${change.plannedState.toString()}.`)],
    });
  }
  return { ...base, plannedPrivate: change.plannedPrivate, legacyTypeSystem: change.legacyTypeSystem, warnings: change.warnings };
}
