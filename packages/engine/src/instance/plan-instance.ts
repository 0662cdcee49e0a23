import { nullVal, type Value } from "@magma/cty";
import { assertPlanValid, hasErrors, planProblems, proposedNewState, resourceSchema, type Diag, type PlannedChange, type SchemaEntry } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction, ReplaceReason } from "../plan/plan-action.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { callOptions, providerOf, checkOptions, type InstanceObject, type InstanceTarget } from "./instance-target.js";
import { replacePaths } from "./replace-paths.js";
import { writeOnlyDiags } from "./write-only-diags.js";
import { toleratedProblems, type ToleratedProblems } from "./tolerated-problems.js";

/** The input of {@link planInstance}. */
export interface PlanInstanceInput {
  /** The instance address, e.g. `aws_vpc.main`. */
  readonly address: string;
  /** The resource type. */
  readonly typeName: string;
  /** The prior object after upgrade and refresh; null when there is none (or it is gone). */
  readonly prior: InstanceObject | null;
  /** The evaluated configuration (unknowns where references are not yet known; `ignore_changes` applied). */
  readonly config: Value;
  /** Replace under `create_before_destroy` (create the new object first). Default false. */
  readonly createBeforeDestroy?: boolean;
  /** The user asked to replace this instance (`-replace=ADDR`). */
  readonly replaceRequested?: boolean;
  /** A `replace_triggered_by` reference of this instance changed. */
  readonly replaceTriggered?: boolean;
  /**
   * The configuration as evaluated, before `ignore_changes` (default: `config`). A replace's
   * create half is planned from it: with no prior object there is nothing to ignore changes
   * against (Terraform plans it from the original configuration).
   */
  readonly unignoredConfig?: Value;
}

/**
 * Plans one managed instance as Terraform's `node_resource_abstract_instance.plan` does:
 *
 * 1. `proposed = ProposedNew(prior, config)`;
 * 2. `PlanResourceChange(prior, proposed, config)` with the prior private data and the
 *    provider meta;
 * 3. a planned value for a write-only attribute rejects (Terraform's "Provider produced
 *    invalid plan … returned a value for the write-only attribute"); then `AssertPlanValid`
 *    — an invalid plan rejects ("Provider produced invalid plan"), except from a provider on
 *    the legacy type system, whose problems Terraform only logs (they come back as
 *    `tolerated`, not as warnings);
 * 4. the action: no prior → create; a tainted prior, a requested or triggered replace, or a
 *    `requiresReplace` path whose value really differs → replace (delete-then-create, or
 *    create-then-delete under `create_before_destroy`); planned equal to prior → no-op;
 *    else update;
 * 5. a replace is planned a second time from a null prior, as Terraform does, sending the
 *    first plan's planned private data, from the configuration without `ignore_changes`
 *    (`unignoredConfig`); the change shows that create plan.
 *
 * @throws {@link EngineError} `invalid_plan` (with the diagnostics), `unexpected_deferral`;
 * the provider's `ProviderError` when a call fails.
 */
export async function planInstance(target: InstanceTarget, input: PlanInstanceInput): Promise<PlannedInstanceChange> {
  const { address, typeName, config } = input;
  const entry = resourceSchema(target.schema, typeName);
  const priorState = input.prior?.state ?? nullVal(entry.type);
  const priorPrivate = input.prior?.private ?? new Uint8Array();
  const priorTainted = input.prior?.tainted ?? false;

  const first = await planOnce(target, entry, address, typeName, priorState, config, priorPrivate);
  const warnings: Diag[] = [...first.change.warnings];
  const base = { address, mode: "managed" as const, typeName, before: priorState, config, priorPrivate, priorTainted, legacyTypeSystem: first.change.legacyTypeSystem, ...(first.tolerated === undefined ? {} : { tolerated: [first.tolerated] }) };

  if (input.prior === null) {
    return { ...base, action: PlanAction.Create, after: first.change.plannedState, requiresReplace: [], plannedPrivate: first.change.plannedPrivate, warnings };
  }
  const planned = first.change.plannedState;
  if (planned.isNull()) {
    throw invalidPlan(address, target, "the provider planned a null object for a non-null configuration", []);
  }
  const reqRep = replacePaths(address, priorState, planned, first.change.requiresReplace);
  const reason: ReplaceReason | undefined = priorTainted
    ? ReplaceReason.Tainted
    : input.replaceRequested === true
      ? ReplaceReason.Requested
      : input.replaceTriggered === true
        ? ReplaceReason.Triggered
        : reqRep.length > 0
          ? ReplaceReason.CannotUpdate
          : undefined;

  if (reason === undefined) {
    const eq = planned.equals(priorState);
    const action = eq.isKnown() && eq.asBool() ? PlanAction.NoOp : PlanAction.Update;
    return { ...base, action, after: planned, requiresReplace: [], plannedPrivate: first.change.plannedPrivate, warnings };
  }

  // The create half: planned again from nothing, with the first plan's private data (as
  // Terraform sends it); its warnings repeat the first call's, so only errors count.
  const fresh = nullVal(entry.type);
  const createConfig = input.unignoredConfig ?? config;
  const second = await planOnce(target, entry, address, typeName, fresh, createConfig, first.change.plannedPrivate);
  const action = input.createBeforeDestroy === true ? PlanAction.CreateThenDelete : PlanAction.DeleteThenCreate;
  const tolerated = [...(base.tolerated ?? []), ...(second.tolerated === undefined ? [] : [second.tolerated])];
  return { ...base, config: createConfig, action, after: second.change.plannedState, requiresReplace: reqRep, replaceReason: reason, plannedPrivate: second.change.plannedPrivate, warnings, ...(tolerated.length === 0 ? {} : { tolerated }) };
}

/** One PlanResourceChange with its checks; the problems a legacy provider is forgiven come back as `tolerated` (Terraform only logs them). */
async function planOnce(target: InstanceTarget, entry: SchemaEntry, address: string, typeName: string, prior: Value, config: Value, priorPrivate: Uint8Array): Promise<{ change: PlannedChange; tolerated: ToleratedProblems | undefined }> {
  const proposed = proposedNewState(entry.block, prior, config);
  const change = await providerOf(target, address).planResourceChange(typeName, prior, proposed, config, { ...callOptions(target), priorPrivate });
  if (change.deferred !== undefined) {
    throw new EngineError(EngineErrorCode.UnexpectedDeferral, `${address}: the provider deferred the plan (${change.deferred.reason}) though deferral was not allowed`);
  }
  // Terraform's first check: a provider answers null for every write-only attribute.
  const writeOnly = writeOnlyDiags(target, address, entry.block, change.plannedState, { kind: "plan" });
  if (writeOnly.length > 0) throw invalidPlan(address, target, writeOnly.map((d) => d.detail!).join("; "), writeOnly);
  if (change.legacyTypeSystem) return { change, tolerated: toleratedProblems("invalid_plan", address, planProblems(entry.block, prior, config, change.plannedState)) };
  const diags = assertPlanValid(entry.block, prior, config, change.plannedState, checkOptions(target, address, false));
  if (hasErrors(diags)) throw invalidPlan(address, target, diags.map((d) => (d.detail ?? d.summary).split("\n")[0]).join("; "), diags);
  return { change, tolerated: undefined };
}

function invalidPlan(address: string, target: InstanceTarget, detail: string, diagnostics: readonly Diag[]): EngineError {
  const who = target.providerAddress === undefined ? "the provider" : `provider ${target.providerAddress}`;
  return new EngineError(EngineErrorCode.InvalidPlan, `Provider produced invalid plan for ${address} (${who}): ${detail}`, { diagnostics });
}

