import { nullVal, type Path, type Value } from "@magma/cty";
import {
  applyInstance,
  EngineErrorCode,
  importInstance,
  isEngineError,
  isReplace,
  PlanAction as EnginePlanAction,
  planDestroy,
  planInstance,
  readDataSourceInstance,
  refreshInstance,
  ReplaceReason,
  upgradeInstance,
  type InstanceTarget,
  type PlannedInstanceChange,
} from "@magma/engine";
import {
  configValue,
  dataSourceSchema,
  isProviderError,
  resourceSchema,
  type Diag,
  type PlainConfig,
  type PlannedChange,
  type Provider,
  type ProviderSchema,
  type SchemaEntry,
} from "@magma/provider-api";
import { CliError, CliErrorCode } from "./cli-error.js";

/**
 * What a single-resource plan does to the object, as Terraform names it (not
 * `@magma/engine`'s `PlanAction`, whose replace comes in two orders).
 */
export const ResourcePlanAction = {
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

/** One of the {@link ResourcePlanAction} values. */
export type ResourcePlanAction = (typeof ResourcePlanAction)[keyof typeof ResourcePlanAction];

/**
 * @deprecated Renamed {@link ResourcePlanAction} (`@magma/engine` exports a different
 * `PlanAction`); this alias goes in the next minor release.
 */
export const PlanAction = ResourcePlanAction;
/** @deprecated Renamed {@link ResourcePlanAction}; this alias goes in the next minor release. */
export type PlanAction = ResourcePlanAction;

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
  readonly action: ResourcePlanAction;
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

/** The engine's target for a CLI operation. */
function engineTarget(target: OperationTarget): InstanceTarget {
  return target.signal === undefined ? { provider: target.provider, schema: target.schema } : { provider: target.provider, schema: target.schema, signal: target.signal };
}

/**
 * Plans a create (`prior` null), an update or replace, or a destroy (`config` null), with
 * `@magma/engine`'s `planInstance` / `planDestroy`: ProposedNew, PlanResourceChange with
 * the prior private data, Terraform's plan validity checks, a replace only when a
 * `requiresReplace` path really changed (its create half planned again from a null prior),
 * and a destroy planned by the provider only when it declares `planDestroy`.
 */
export async function planResource(
  target: OperationTarget,
  typeName: string,
  input: { readonly config: Value | null; readonly prior?: Value; readonly priorPrivate?: Uint8Array },
): Promise<PlanOutcome> {
  const entry = resourceEntry(target, typeName);
  const prior = input.prior ?? nullVal(entry.type);
  const priorPrivate = input.priorPrivate ?? new Uint8Array();
  const t = engineTarget(target);
  const priorObject = prior.isNull() ? null : { state: prior, private: priorPrivate, tainted: false };
  let planned: PlannedInstanceChange;
  if (input.config === null) {
    if (priorObject === null) {
      const none = nullVal(entry.type);
      return { typeName, entry, action: ResourcePlanAction.NoOp, prior, priorPrivate, config: none, change: { plannedState: none, requiresReplace: [], plannedPrivate: priorPrivate, legacyTypeSystem: false, warnings: [] }, replacing: [] };
    }
    planned = await planDestroy(t, typeName, typeName, priorObject);
  } else {
    planned = await planInstance(t, { address: typeName, typeName, prior: priorObject, config: input.config });
  }
  const action = isReplace(planned.action) ? ResourcePlanAction.Replace : (planned.action as Exclude<EnginePlanAction, "read" | "forget" | "delete-then-create" | "create-then-delete">);
  const change: PlannedChange = { plannedState: planned.after, requiresReplace: planned.requiresReplace, plannedPrivate: planned.plannedPrivate, legacyTypeSystem: planned.legacyTypeSystem, warnings: planned.warnings };
  return { typeName, entry, action, prior, priorPrivate, config: planned.config, change, replacing: planned.requiresReplace };
}

/** The engine's planned change for a CLI plan (also one read back from `magma plan` JSON). */
function instanceChange(plan: PlanOutcome): PlannedInstanceChange {
  const action: EnginePlanAction = plan.action === ResourcePlanAction.Replace ? EnginePlanAction.DeleteThenCreate : plan.action;
  const base: PlannedInstanceChange = {
    address: plan.typeName,
    mode: "managed",
    typeName: plan.typeName,
    action,
    before: plan.prior,
    after: plan.change.plannedState,
    config: plan.config,
    requiresReplace: plan.replacing,
    priorPrivate: plan.priorPrivate,
    plannedPrivate: plan.change.plannedPrivate,
    priorTainted: false,
    legacyTypeSystem: plan.change.legacyTypeSystem,
    warnings: plan.change.warnings,
  };
  return plan.action === ResourcePlanAction.Replace ? { ...base, replaceReason: ReplaceReason.CannotUpdate } : base;
}

/**
 * Applies a plan with `@magma/engine`'s `applyInstance`: a create or update is planned
 * again and must match the saved plan, then applied and its result checked; a replace is
 * Terraform's default destroy-then-create; a no-op returns the prior state untouched.
 *
 * @throws the failure of the apply: the provider's `ProviderError` (`partially_applied`
 * carries the state to keep) or an `EngineError` (an inconsistent plan or result).
 */
export async function applyResourcePlan(target: OperationTarget, plan: PlanOutcome): Promise<StateOutcome> {
  if (plan.action === ResourcePlanAction.NoOp) return { state: plan.prior, private: plan.priorPrivate, warnings: plan.change.warnings };
  const r = await applyInstance(engineTarget(target), instanceChange(plan));
  if (r.error !== undefined) throw r.error;
  const state = r.object?.state ?? nullVal(plan.entry.type);
  return { state, private: r.object?.private ?? new Uint8Array(), warnings: [...plan.change.warnings, ...r.warnings] };
}

/** Destroys an object: plans the destroy (when the provider asks to) and applies it. */
export async function destroyResource(target: OperationTarget, typeName: string, prior: Value, priorPrivate?: Uint8Array): Promise<StateOutcome> {
  if (prior.isNull()) return { state: prior, private: new Uint8Array(), warnings: [] };
  const input: { config: null; prior: Value; priorPrivate?: Uint8Array } = { config: null, prior };
  if (priorPrivate !== undefined) input.priorPrivate = priorPrivate;
  return applyResourcePlan(target, await planResource(target, typeName, input));
}

/** Refreshes an object; `state` is null when it no longer exists (the warnings sent with that answer are kept). */
export async function readResource(target: OperationTarget, typeName: string, state: Value, priv?: Uint8Array): Promise<StateOutcome> {
  const entry = resourceEntry(target, typeName);
  const r = await refreshInstance(engineTarget(target), typeName, typeName, { state, private: priv ?? new Uint8Array(), tainted: false });
  if (r.object === null) return { state: nullVal(entry.type), private: new Uint8Array(), warnings: r.warnings };
  return { state: r.object.state, private: r.object.private, warnings: r.warnings };
}

/** Reads a data source. @throws {@link CliError} `bad_input` when the configuration has unknown values. */
export async function readData(target: OperationTarget, typeName: string, config: Value): Promise<StateOutcome> {
  const r = await readDataSourceInstance(engineTarget(target), { address: `data.${typeName}`, typeName, config });
  if (r.kind === "deferred") throw new CliError(CliErrorCode.BadInput, `cannot read data source ${typeName}: its configuration has unknown values`);
  return { state: r.state, private: new Uint8Array(), warnings: r.warnings };
}

/** One imported object, after its refresh. */
export interface ImportedObject extends StateOutcome {
  /** Its resource type. */
  readonly typeName: string;
}

/**
 * Imports an object by id and, unless `read` is false, refreshes each object found, as
 * `terraform import` does (`@magma/engine`'s `importInstance`).
 *
 * @throws {@link CliError} `not_found` when nothing has that id, or the refresh finds it gone.
 */
export async function importResourceById(target: OperationTarget, typeName: string, id: string, read = true): Promise<{ readonly objects: readonly ImportedObject[]; readonly warnings: readonly Diag[] }> {
  resourceEntry(target, typeName);
  if (read) {
    try {
      const r = await importInstance(engineTarget(target), typeName, typeName, id);
      return { objects: r.objects.map((o) => ({ typeName: o.typeName, state: o.object.state, private: o.object.private, warnings: [] })), warnings: r.warnings };
    } catch (e) {
      if (isEngineError(e) && e.code === EngineErrorCode.ImportNotFound) throw notFound(typeName, id, /read after/.test(e.message));
      throw e;
    }
  }
  const r = await target.provider.importResourceState(typeName, id, target.signal === undefined ? undefined : { signal: target.signal });
  if (r === null || r.resources.length === 0) throw notFound(typeName, id, false);
  return { objects: r.resources.map((res) => ({ typeName: res.typeName, state: res.state, private: res.private, warnings: [] })), warnings: r.warnings };
}

function notFound(typeName: string, id: string, afterRead: boolean): CliError {
  if (afterRead) return new CliError(CliErrorCode.NotFound, `cannot import ${typeName} ${JSON.stringify(id)}: the object does not exist (the read after the import found nothing)`);
  return new CliError(CliErrorCode.NotFound, `cannot import ${typeName} ${JSON.stringify(id)}: the provider found no object with that id`, {
    hint: "check the id format in the provider's documentation for this resource type",
  });
}

/** Upgrades a stored state (JSON text written with schema version `version`) to the current schema. */
export async function upgradeResource(target: OperationTarget, typeName: string, version: number, rawJson: string): Promise<StateOutcome> {
  const r = await upgradeInstance(engineTarget(target), typeName, typeName, { schemaVersion: version, attributesJson: rawJson, private: undefined, tainted: false });
  return { state: r.object.state, private: new Uint8Array(), warnings: r.warnings };
}

/** The action Terraform would show for a planned change. */
export function planAction(prior: Value, planned: Value, replacing: readonly Path[]): ResourcePlanAction {
  if (prior.isNull()) return planned.isNull() ? ResourcePlanAction.NoOp : ResourcePlanAction.Create;
  if (planned.isNull()) return ResourcePlanAction.Delete;
  if (replacing.length > 0) return ResourcePlanAction.Replace;
  return prior.rawEquals(planned) ? ResourcePlanAction.NoOp : ResourcePlanAction.Update;
}

/**
 * @deprecated Renamed {@link applyResourcePlan} (`@magma/engine`'s `applyPlan` applies a whole
 * plan); this alias goes in the next minor release.
 */
export const applyPlan: typeof applyResourcePlan = applyResourcePlan;

/**
 * @deprecated Renamed {@link importResourceById} (`@magma/engine`'s `importResource` imports
 * through the configuration); this alias goes in the next minor release.
 */
export const importResource: typeof importResourceById = importResourceById;
