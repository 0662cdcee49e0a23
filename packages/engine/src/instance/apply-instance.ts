import { nullVal, type Value } from "@magma/cty";
import {
  assertObjectCompatible,
  assertPlanValid,
  compatibilityProblems,
  errorDiag,
  formatProblemPath,
  hasErrors,
  isProviderError,
  planProblems,
  proposedNewState,
  resourceSchema,
  stripWriteOnlyAttributes,
  type Diag,
  type SchemaEntry,
} from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction } from "../plan/plan-action.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { callOptions, providerOf, checkOptions, type InstanceObject, type InstanceTarget } from "./instance-target.js";
import { toleratedProblems, type ToleratedProblems } from "./tolerated-problems.js";
import { unknownsToNull } from "./unknowns-to-null.js";
import { writeOnlyDiags } from "./write-only-diags.js";

/** Options of {@link applyInstance}. */
export interface ApplyInstanceOptions {
  /** The configuration evaluated again with the now-known values (default: the planned change's). */
  readonly config?: Value;
}

/**
 * The outcome of {@link applyInstance}. It never loses an object: whatever exists remotely
 * after the call is in `object` (or `deposed`), also when `error` is set.
 */
export interface ApplyInstanceResult {
  /** What to save as the instance's current object; null when there is none (destroyed, or a create that made nothing). */
  readonly object: InstanceObject | null;
  /** Under create-then-delete: the old object when it could not be destroyed — keep it in state as deposed. */
  readonly deposed?: InstanceObject;
  /** The failure, when the apply did not fully succeed (`object`/`deposed` are still what to save). */
  readonly error?: unknown;
  /** The warnings of every call made. */
  readonly warnings: readonly Diag[];
  /** What a provider on the legacy type system got away with (Terraform only logs it). */
  readonly tolerated?: readonly ToleratedProblems[];
}

/**
 * Applies one planned change, as Terraform's apply walk does (engine.md §5):
 *
 * - create and update: plan again with the now-known configuration and require the new
 *   plan to be compatible with the saved one ("Provider produced inconsistent final
 *   plan"), then `ApplyResourceChange` with that plan's planned state and private data,
 *   then `AssertObjectCompatible(planned, new)` ("Provider produced inconsistent result
 *   after apply" — the object is still saved; a legacy provider's problems are only
 *   `tolerated`, as Terraform only logs them); a value for a write-only attribute in the
 *   re-plan is "Provider produced invalid plan", in the result "Provider produced invalid
 *   object" (the object is saved without it, tainted if created: Terraform saves nothing);
 * - an error that came with a new state (`partially_applied`) keeps that state; a failed
 *   create (also the create half of a replace) is tainted; an error without a state keeps
 *   the prior object;
 * - delete: `ApplyResourceChange(prior, null, null)` with the planned private data; a
 *   non-null answer is an error and is kept;
 * - delete-then-create destroys, then creates from a null prior (no private data, as
 *   Terraform's apply has no prior object then); create-then-delete creates first and keeps
 *   the old object as `deposed` when its destroy fails (and as the current object when the
 *   create made nothing);
 * - no-op returns the prior object untouched;
 * - forget calls nothing and returns no object: the instance leaves state, the remote object stays.
 *
 * Provider failures do not reject: they are in `error`. It rejects only for a programming
 * error: {@link EngineError} `invalid_argument` for a `read` change (data sources are read
 * with `readDataSourceInstance`).
 */
export async function applyInstance(target: InstanceTarget, change: PlannedInstanceChange, options: ApplyInstanceOptions = {}): Promise<ApplyInstanceResult> {
  if (change.mode !== "managed" || change.action === PlanAction.Read) {
    throw new EngineError(EngineErrorCode.InvalidArgument, `${change.address}: applyInstance applies managed changes; read data sources with readDataSourceInstance`);
  }
  const entry = resourceSchema(target.schema, change.typeName);
  const config = options.config ?? change.config;
  const prior: InstanceObject | null = change.before.isNull() ? null : { state: change.before, private: change.priorPrivate, tainted: change.priorTainted };
  const ctx: Ctx = { target, entry, change };

  switch (change.action) {
    case PlanAction.NoOp:
      return { object: prior, warnings: [] };
    case PlanAction.Forget:
      return { object: null, warnings: [] };
    case PlanAction.Delete:
      return destroy(ctx, prior!, change.plannedPrivate);
    case PlanAction.Create:
      return applyChange(ctx, null, config, true);
    case PlanAction.Update:
      return applyChange(ctx, prior, config, false);
    case PlanAction.DeleteThenCreate: {
      const d = await destroy(ctx, prior!, change.priorPrivate);
      if (d.error !== undefined) return d;
      const c = await applyChange(ctx, null, config, true);
      return { ...c, warnings: [...d.warnings, ...c.warnings] };
    }
    case PlanAction.CreateThenDelete: {
      const c = await applyChange(ctx, null, config, true);
      if (c.error !== undefined) {
        // Nothing was created: the old object stays current. Something was: it is current, the old one deposed.
        return c.object === null ? { ...c, object: prior } : { ...c, deposed: prior! };
      }
      const d = await destroy(ctx, prior!, change.priorPrivate);
      const warnings = [...c.warnings, ...d.warnings];
      const t = c.tolerated === undefined ? {} : { tolerated: c.tolerated };
      if (d.error !== undefined) return d.object === null ? { object: c.object, error: d.error, warnings, ...t } : { object: c.object, deposed: d.object, error: d.error, warnings, ...t };
      return { object: c.object, warnings, ...t };
    }
  }
}

interface Ctx {
  readonly target: InstanceTarget;
  readonly entry: SchemaEntry;
  readonly change: PlannedInstanceChange;
}

/** Re-plan, check, apply, check: a create (`prior` null) or an update. */
async function applyChange(ctx: Ctx, prior: InstanceObject | null, config: Value, isCreate: boolean): Promise<ApplyInstanceResult> {
  const { target, entry, change } = ctx;
  const { address, typeName } = change;
  const priorState = prior?.state ?? nullVal(entry.type);
  const warnings: Diag[] = [];
  const tolerated: ToleratedProblems[] = [];
  const tolerate = (t: ToleratedProblems | undefined): void => void (t !== undefined && tolerated.push(t));
  const withTolerated = <T extends object>(r: T): T & { tolerated?: readonly ToleratedProblems[] } => (tolerated.length === 0 ? r : { ...r, tolerated });

  // 1. The final plan, with the now-known configuration.
  let planned: Value;
  let plannedPrivate: Uint8Array;
  try {
    const proposed = proposedNewState(entry.block, priorState, config);
    const replan = await providerOf(target, address).planResourceChange(typeName, priorState, proposed, config, { ...callOptions(target), priorPrivate: prior?.private ?? new Uint8Array() });
    warnings.push(...replan.warnings);
    const writeOnly = writeOnlyDiags(target, address, entry.block, replan.plannedState, { kind: "plan" });
    if (writeOnly.length > 0) throw new EngineError(EngineErrorCode.InvalidPlan, `Provider produced invalid plan for ${address} at apply`, { diagnostics: writeOnly });
    if (replan.legacyTypeSystem) tolerate(toleratedProblems("invalid_plan", address, planProblems(entry.block, priorState, config, replan.plannedState)));
    else {
      const valid = assertPlanValid(entry.block, priorState, config, replan.plannedState, checkOptions(target, address, false));
      if (hasErrors(valid)) throw new EngineError(EngineErrorCode.InvalidPlan, `Provider produced invalid plan for ${address} at apply`, { diagnostics: valid });
    }
    // Terraform's checkPlannedChange: an error whatever the type system.
    const finalProblems = compatibilityProblems(entry.block, change.after, replan.plannedState).map((p) =>
      errorDiag(
        "Provider produced inconsistent final plan",
        `When expanding the plan for ${address} to include new values learned so far during apply, ${target.providerAddress === undefined ? "the provider" : `provider "${target.providerAddress}"`} produced an invalid new value for ${formatProblemPath(p.steps).replace(/^\./, "")}: ${p.message}.`,
      ),
    );
    if (finalProblems.length > 0) {
      throw new EngineError(EngineErrorCode.InconsistentFinalPlan, `Provider produced inconsistent final plan for ${address}: ${finalProblems.map((d) => d.detail).join("; ")}`, { diagnostics: finalProblems });
    }
    planned = replan.plannedState;
    plannedPrivate = replan.plannedPrivate;
  } catch (error) {
    return withTolerated({ object: prior, error, warnings });
  }

  // 2. The apply.
  let newState: Value;
  let newPrivate: Uint8Array;
  let applyLegacy: boolean;
  try {
    const r = await providerOf(target, address).applyResourceChange(typeName, priorState, planned, config, { ...callOptions(target), plannedPrivate });
    warnings.push(...r.warnings);
    newState = r.newState;
    newPrivate = r.private;
    // Terraform tolerates an inconsistent result by the apply answer's own flag.
    applyLegacy = r.legacyTypeSystem;
  } catch (error) {
    if (isProviderError(error) && error.code === "partially_applied") {
      const d = error.detail as { newState: Value; private: Uint8Array };
      const state = unknownsToNull(d.newState);
      return withTolerated({ object: { state, private: d.private, tainted: isCreate || (prior?.tainted ?? false) }, error, warnings });
    }
    return withTolerated({ object: prior, error, warnings });
  }
  if (newState.isNull()) {
    const error = new EngineError(EngineErrorCode.InvalidProviderResponse, `${address}: the provider returned a null object from a ${isCreate ? "create" : "update"}`);
    return withTolerated({ object: prior, error, warnings });
  }

  // 3. The result checks: the object is saved whatever they find. A value for a write-only
  // attribute is Terraform's first error; Terraform then saves nothing (it even forgets the
  // prior object of an update). magma keeps the object, without the value, tainted as a
  // failed create is: the remote object exists and must not be lost.
  const writeOnly = writeOnlyDiags(target, address, entry.block, newState, { kind: "apply" });
  if (writeOnly.length > 0) {
    const error = new EngineError(EngineErrorCode.InvalidProviderResponse, `Provider produced invalid object for ${address}: ${writeOnly.map((d) => d.detail!).join("; ")}`, { diagnostics: writeOnly });
    return withTolerated({ object: { state: stripWriteOnlyAttributes(entry.block, unknownsToNull(newState)), private: newPrivate, tainted: isCreate }, error, warnings });
  }
  // Unknowns left are an error even for a legacy provider.
  const object: InstanceObject = { state: unknownsToNull(newState), private: newPrivate, tainted: false };
  const problems = applyLegacy && newState.isWhollyKnown() ? [] : assertObjectCompatible(entry.block, planned, newState, checkOptions(target, address, false));
  if (applyLegacy && newState.isWhollyKnown()) tolerate(toleratedProblems("unexpected_new_value", address, compatibilityProblems(entry.block, planned, newState)));
  if (hasErrors(problems)) {
    const error = new EngineError(EngineErrorCode.InconsistentResult, `Provider produced inconsistent result after apply for ${address}: ${problems.map((d) => (d.detail ?? d.summary).split("\n")[0]).join("; ")}`, { diagnostics: problems });
    return withTolerated({ object: { ...object, tainted: isCreate }, error, warnings });
  }
  return withTolerated({ object, warnings });
}

/** ApplyResourceChange of a destroy; whatever remains is kept. */
async function destroy(ctx: Ctx, prior: InstanceObject, plannedPrivate: Uint8Array): Promise<ApplyInstanceResult> {
  const { target, entry, change } = ctx;
  const none = nullVal(entry.type);
  try {
    const r = await providerOf(target, change.address).applyResourceChange(change.typeName, prior.state, none, none, { ...callOptions(target), plannedPrivate });
    if (!r.newState.isNull()) {
      const error = new EngineError(EngineErrorCode.InvalidProviderResponse, `${change.address}: the provider returned a non-null object from a destroy; it is kept in state`);
      return { object: { state: unknownsToNull(r.newState), private: r.private, tainted: prior.tainted }, error, warnings: r.warnings };
    }
    return { object: null, warnings: r.warnings };
  } catch (error) {
    if (isProviderError(error) && error.code === "partially_applied") {
      const d = error.detail as { newState: Value; private: Uint8Array };
      return { object: { state: unknownsToNull(d.newState), private: d.private, tainted: prior.tainted }, error, warnings: [] };
    }
    return { object: prior, error, warnings: [] };
  }
}
