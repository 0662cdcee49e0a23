import { nullVal, type Path, type Value } from "@magma/cty";
import {
  configValue,
  dataSourceSchema,
  isProviderError,
  proposedNewState,
  resourceSchema,
  type Diag,
  type PlainConfig,
  type PlannedChange,
  type Provider,
  type ProviderSchema,
  type SchemaEntry,
} from "@magma/provider-api";
import { CliError, CliErrorCode } from "./cli-error.js";

/** What a plan does to the object, as Terraform names it. */
export const PlanAction = {
  /** Nothing changes. */
  NoOp: "no-op",
  /** A new object. */
  Create: "create",
  /** The object changes in place. */
  Update: "update",
  /** The object is destroyed and created anew (a change at a `requires_replace` path). */
  Replace: "replace",
  /** The object is destroyed. */
  Delete: "delete",
} as const;

/** One of the {@link PlanAction} values. */
export type PlanAction = (typeof PlanAction)[keyof typeof PlanAction];

/** A provider and its schema: what every operation needs. */
export interface OperationTarget {
  /** The configured provider. */
  readonly provider: Provider;
  /** Its schema. */
  readonly schema: ProviderSchema;
  /** Cancels the provider calls. */
  readonly signal?: AbortSignal;
}

/** A planned change with everything needed to apply it. */
export interface PlanOutcome {
  /** The resource type. */
  readonly typeName: string;
  /** The type's schema. */
  readonly entry: SchemaEntry;
  /** What the change does. */
  readonly action: PlanAction;
  /** The prior state (null for a create). */
  readonly prior: Value;
  /** The private state stored with the prior object. */
  readonly priorPrivate: Uint8Array;
  /** The configuration (null for a destroy). */
  readonly config: Value;
  /** The provider's answer. */
  readonly change: PlannedChange;
  /** The paths of `change.requiresReplace` whose values differ between prior and planned state. */
  readonly replacing: readonly Path[];
}

/** A new state with its private state and warnings. */
export interface StateOutcome {
  /** The new state (null when the object is gone). */
  readonly state: Value;
  /** Opaque private state. */
  readonly private: Uint8Array;
  /** Warnings of every call made. */
  readonly warnings: readonly Diag[];
}

/**
 * The configuration value of a block from plain data (see `configValue`).
 *
 * @param what Names the input in errors (`--config`).
 * @throws {@link CliError} `bad_input` naming the path and problem when it does not fit.
 */
export function buildConfig(what: string, entry: SchemaEntry, plain: PlainConfig): Value {
  try {
    return configValue(entry.block, plain);
  } catch (e) {
    if (isProviderError(e) && e.code === "schema") {
      throw new CliError(CliErrorCode.BadInput, `${what}: ${e.rawMessage}`, { hint: "see the attributes and blocks with `magma schema <provider> <type>`", cause: e });
    }
    throw e;
  }
}

/** The schema of a resource type. @throws ProviderError `unknown_type`. */
export function resourceEntry(target: OperationTarget, typeName: string): SchemaEntry {
  return resourceSchema(target.schema, typeName);
}

/** The schema of a data source. @throws ProviderError `unknown_type`. */
export function dataSourceEntry(target: OperationTarget, typeName: string): SchemaEntry {
  return dataSourceSchema(target.schema, typeName);
}

/**
 * Plans a create (`prior` null), an update or replace, or a destroy (`config` null), as
 * Terraform does: the proposed new state is ProposedNew(prior, config).
 */
export async function planResource(
  target: OperationTarget,
  typeName: string,
  input: { readonly config: Value | null; readonly prior?: Value; readonly priorPrivate?: Uint8Array },
): Promise<PlanOutcome> {
  const entry = resourceEntry(target, typeName);
  const prior = input.prior ?? nullVal(entry.type);
  const config = input.config ?? nullVal(entry.type);
  const priorPrivate = input.priorPrivate ?? new Uint8Array();
  const proposed = proposedNewState(entry.block, prior, config);
  const opts: { signal?: AbortSignal; priorPrivate: Uint8Array } = { priorPrivate };
  if (target.signal !== undefined) opts.signal = target.signal;
  let change: PlannedChange;
  if (config.isNull() && !target.schema.serverCapabilities.planDestroy) {
    // Terraform plans a destroy itself for providers that do not ask to plan it.
    change = { plannedState: nullVal(entry.type), requiresReplace: [], plannedPrivate: priorPrivate, legacyTypeSystem: false, warnings: [] };
  } else {
    change = await target.provider.planResourceChange(typeName, prior, proposed, config, opts);
  }
  const replacing = prior.isNull() || change.plannedState.isNull() ? [] : change.requiresReplace.filter((p) => differsAt(prior, change.plannedState, p));
  const action = planAction(prior, change.plannedState, replacing);
  if (action === PlanAction.Replace) {
    // As Terraform does: a replacement shows (and creates) what a plan from nothing gives.
    const fresh = nullVal(entry.type);
    const o2: { signal?: AbortSignal } = {};
    if (target.signal !== undefined) o2.signal = target.signal;
    const create = await target.provider.planResourceChange(typeName, fresh, proposedNewState(entry.block, fresh, config), config, o2);
    change = { ...create, requiresReplace: change.requiresReplace, warnings: [...change.warnings, ...create.warnings] };
  }
  return { typeName, entry, action, prior, priorPrivate, config, change, replacing };
}

/**
 * Applies a plan. A replace is applied as Terraform's default destroy-then-create: the
 * prior object is destroyed, then a create is planned from the same configuration and
 * applied. A no-op returns the prior state untouched.
 */
export async function applyPlan(target: OperationTarget, plan: PlanOutcome): Promise<StateOutcome> {
  if (plan.action === PlanAction.NoOp) return { state: plan.prior, private: plan.priorPrivate, warnings: plan.change.warnings };
  if (plan.action === PlanAction.Replace) {
    const destroyed = await destroyResource(target, plan.typeName, plan.prior, plan.priorPrivate);
    const create = await planResource(target, plan.typeName, { config: plan.config });
    const created = await applyPlan(target, create);
    return { ...created, warnings: [...plan.change.warnings, ...destroyed.warnings, ...created.warnings] };
  }
  const opts: { signal?: AbortSignal; plannedPrivate: Uint8Array } = { plannedPrivate: plan.change.plannedPrivate };
  if (target.signal !== undefined) opts.signal = target.signal;
  const r = await target.provider.applyResourceChange(plan.typeName, plan.prior, plan.change.plannedState, plan.config, opts);
  return { state: r.newState, private: r.private, warnings: [...plan.change.warnings, ...r.warnings] };
}

/** Destroys an object: plans the destroy (when the provider asks to) and applies it. */
export async function destroyResource(target: OperationTarget, typeName: string, prior: Value, priorPrivate?: Uint8Array): Promise<StateOutcome> {
  if (prior.isNull()) return { state: prior, private: new Uint8Array(), warnings: [] };
  const input: { config: null; prior: Value; priorPrivate?: Uint8Array } = { config: null, prior };
  if (priorPrivate !== undefined) input.priorPrivate = priorPrivate;
  return applyPlan(target, await planResource(target, typeName, input));
}

/** Refreshes an object; `state` is null when it no longer exists (the warnings sent with that answer are kept). */
export async function readResource(target: OperationTarget, typeName: string, state: Value, priv?: Uint8Array): Promise<StateOutcome> {
  const entry = resourceEntry(target, typeName);
  const opts: { signal?: AbortSignal; private?: Uint8Array } = {};
  if (target.signal !== undefined) opts.signal = target.signal;
  if (priv !== undefined) opts.private = priv;
  const r = await target.provider.readResource(typeName, state, opts);
  if (r.gone) return { state: nullVal(entry.type), private: new Uint8Array(), warnings: r.warnings };
  return { state: r.newState, private: r.private, warnings: r.warnings };
}

/** Reads a data source. */
export async function readData(target: OperationTarget, typeName: string, config: Value): Promise<StateOutcome> {
  const r = await target.provider.readDataSource(typeName, config, target.signal === undefined ? undefined : { signal: target.signal });
  return { state: r.state, private: new Uint8Array(), warnings: r.warnings };
}

/** One imported object, after its refresh. */
export interface ImportedObject extends StateOutcome {
  /** Its resource type. */
  readonly typeName: string;
}

/**
 * Imports an object by id and, unless `read` is false, refreshes each object found, as
 * `terraform import` does.
 *
 * @throws {@link CliError} `not_found` when nothing has that id, or the refresh finds it gone.
 */
export async function importResource(target: OperationTarget, typeName: string, id: string, read = true): Promise<{ readonly objects: readonly ImportedObject[]; readonly warnings: readonly Diag[] }> {
  resourceEntry(target, typeName);
  const r = await target.provider.importResourceState(typeName, id, target.signal === undefined ? undefined : { signal: target.signal });
  if (r === null || r.resources.length === 0) {
    throw new CliError(CliErrorCode.NotFound, `cannot import ${typeName} ${JSON.stringify(id)}: the provider found no object with that id`, {
      hint: "check the id format in the provider's documentation for this resource type",
    });
  }
  const objects: ImportedObject[] = [];
  const warnings: Diag[] = [...r.warnings];
  for (const res of r.resources) {
    if (!read) {
      objects.push({ typeName: res.typeName, state: res.state, private: res.private, warnings: [] });
      continue;
    }
    const refreshed = await readResource(target, res.typeName, res.state, res.private);
    if (refreshed.state.isNull()) {
      throw new CliError(CliErrorCode.NotFound, `cannot import ${res.typeName} ${JSON.stringify(id)}: the object does not exist (the read after the import found nothing)`);
    }
    warnings.push(...refreshed.warnings);
    objects.push({ typeName: res.typeName, ...refreshed });
  }
  return { objects, warnings };
}

/** Upgrades a stored state (JSON text written with schema version `version`) to the current schema. */
export async function upgradeResource(target: OperationTarget, typeName: string, version: number, rawJson: string): Promise<StateOutcome> {
  resourceEntry(target, typeName);
  const r = await target.provider.upgradeResourceState(typeName, version, rawJson, target.signal === undefined ? undefined : { signal: target.signal });
  return { state: r.upgradedState, private: new Uint8Array(), warnings: r.warnings };
}

/** The action Terraform would show for a planned change. */
export function planAction(prior: Value, planned: Value, replacing: readonly Path[]): PlanAction {
  if (prior.isNull()) return planned.isNull() ? PlanAction.NoOp : PlanAction.Create;
  if (planned.isNull()) return PlanAction.Delete;
  if (replacing.length > 0) return PlanAction.Replace;
  return prior.rawEquals(planned) ? PlanAction.NoOp : PlanAction.Update;
}

function differsAt(a: Value, b: Value, p: Path): boolean {
  try {
    return !a.getPath(p).rawEquals(b.getPath(p));
  } catch {
    return true;
  }
}
