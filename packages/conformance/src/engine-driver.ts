import { nullVal, toJson, type Path, type Value } from "@magma/cty";
import {
  applyInstance,
  importInstance,
  isReplace,
  planDestroy,
  planInstance,
  refreshInstance,
  upgradeInstance,
  type InstanceObject,
  type InstanceTarget,
  type PlannedInstanceChange,
} from "@magma/engine";
import { configValue, type PlainConfig, type PlannedChange, type Provider, type ProviderSchema, type SchemaEntry } from "@magma/provider-api";

/** One managed object as an engine stores it: what Terraform keeps per resource instance. */
export interface ManagedObject {
  /** The resource type. */
  readonly typeName: string;
  /** The object's state (never null). */
  readonly state: Value;
  /** The private state stored with it (empty when none). */
  readonly private: Uint8Array;
  /** The schema version the state was written with. */
  readonly schemaVersion: number;
}

/** What a plan decided, as Terraform names the actions. */
export const PlanAction = {
  NoOp: "no-op",
  Create: "create",
  Update: "update",
  Replace: "replace",
  Delete: "delete",
} as const;

/** One of the {@link PlanAction} values. */
export type PlanAction = (typeof PlanAction)[keyof typeof PlanAction];

/** The plan for one resource instance, made by {@link EngineDriver.plan}. */
export interface ResourcePlan {
  /** The resource type. */
  readonly typeName: string;
  /** The decided action. */
  readonly action: PlanAction;
  /** The object after the refresh (upgrade + read), or null when there was none or it is gone. */
  readonly prior: ManagedObject | null;
  /** The configuration value (null for a delete). */
  readonly config: Value;
  /**
   * The plan the apply follows, as the provider answered it (for a replace: the create
   * half, planned again from a null prior with the first plan's planned private, C5);
   * null when nothing was planned.
   */
  readonly change: PlannedChange | null;
  /** The `requiresReplace` paths whose values differ between prior and planned. */
  readonly replacePaths: readonly Path[];
  /** The engine's planned change (null when nothing was planned). */
  readonly instance: PlannedInstanceChange | null;
}

/** Options of {@link EngineDriver.plan}. */
export interface PlanResourceOptions {
  /** Refresh (ReadResource) the prior object before planning, as `terraform plan` does by default (default true). */
  readonly refresh?: boolean;
}

/**
 * A small driver over `@magma/engine`'s per-instance steps that calls a {@link Provider}
 * in the order Terraform 1.11.4 does (protocol notes C1–C10), for one resource instance
 * at a time:
 *
 * - **plan**: an existing object is upgraded (UpgradeResourceState, always) and refreshed
 *   (ReadResource with its private); then `planInstance` (PlanResourceChange with
 *   Terraform's proposed new state, the validity checks, a replace only when a
 *   `requiresReplace` path really changed, its create half planned again from null with the
 *   first plan's private, C5); a null config is `planDestroy` (a PlanResourceChange only
 *   when the provider declares `planDestroy`);
 * - **apply**: `applyInstance` — PlanResourceChange again (Terraform re-plans at apply, C7;
 *   from a null prior and no private for the create half of a replace, as Terraform has no
 *   prior object then), ApplyResourceChange with the re-plan's planned state and private,
 *   the result checks; a replace destroys first, then creates;
 * - **import**: ImportResourceState, then ReadResource with the import's private (C10).
 */
export class EngineDriver {
  readonly #schema: ProviderSchema;
  readonly #target: InstanceTarget;

  /** Drives `provider`, whose schema is `schema`; `configure` must have been called. */
  constructor(provider: Provider, schema: ProviderSchema) {
    this.#schema = schema;
    this.#target = { provider, schema };
  }

  /** The schema entry of a resource type. @throws Error for a type the schema does not have. */
  entry(typeName: string): SchemaEntry {
    const e = this.#schema.resources.get(typeName);
    if (e === undefined) throw new Error(`the provider has no resource type ${JSON.stringify(typeName)}`);
    return e;
  }

  /** Builds the configuration value of a resource type from plain data, as Terraform would from HCL. */
  config(typeName: string, plain: PlainConfig): Value {
    return configValue(this.entry(typeName).block, plain);
  }

  /**
   * Refreshes a stored object as Terraform's plan walk does: UpgradeResourceState with the
   * stored JSON (even when the version is current), then ReadResource with the stored
   * private. Resolves to null when the object is gone.
   */
  async refresh(obj: ManagedObject): Promise<ManagedObject | null> {
    const upgraded = await this.upgrade(obj);
    const read = await refreshInstance(this.#target, obj.typeName, obj.typeName, instanceObject(upgraded));
    return read.object === null ? null : managed(obj.typeName, read.object, upgraded.schemaVersion);
  }

  /** UpgradeResourceState of a stored object to the current schema version. */
  async upgrade(obj: ManagedObject): Promise<ManagedObject> {
    const entry = this.entry(obj.typeName);
    const r = await upgradeInstance(this.#target, obj.typeName, obj.typeName, { schemaVersion: obj.schemaVersion, attributesJson: toJson(obj.state, entry.type), private: obj.private, tainted: false });
    return managed(obj.typeName, r.object, entry.version);
  }

  /**
   * Plans one resource instance: `obj` is the stored object (null when there is none),
   * `config` its configuration (null to destroy it).
   */
  async plan(typeName: string, obj: ManagedObject | null, config: PlainConfig | Value | null, options: PlanResourceOptions = {}): Promise<ResourcePlan> {
    const entry = this.entry(typeName);
    const t = entry.type;
    let prior = obj;
    if (obj !== null && options.refresh !== false) prior = await this.refresh(obj);
    else if (obj !== null) prior = await this.upgrade(obj);
    const cfg = config === null ? nullVal(t) : isValue(config) ? config : configValue(entry.block, config);
    if (config === null) {
      if (prior === null) return { typeName, action: PlanAction.NoOp, prior, config: cfg, change: null, replacePaths: [], instance: null };
      const instance = await planDestroy(this.#target, typeName, typeName, instanceObject(prior));
      return { typeName, action: PlanAction.Delete, prior, config: cfg, change: plannedChange(instance), replacePaths: [], instance };
    }
    const instance = await planInstance(this.#target, { address: typeName, typeName, prior: prior === null ? null : instanceObject(prior), config: cfg });
    const action: PlanAction = isReplace(instance.action) ? PlanAction.Replace : (instance.action as PlanAction);
    return { typeName, action, prior, config: cfg, change: plannedChange(instance), replacePaths: instance.requiresReplace, instance };
  }

  /**
   * Applies a plan as Terraform's apply walk does and resolves to the resulting object
   * (null after a delete). A failed apply rejects with its error (for a partial apply, the
   * provider's `partially_applied` carrying the state to keep).
   */
  async apply(plan: ResourcePlan): Promise<ManagedObject | null> {
    if (plan.action === PlanAction.NoOp || plan.instance === null) return plan.prior;
    const r = await applyInstance(this.#target, plan.instance);
    if (r.error !== undefined) throw r.error;
    return r.object === null ? null : managed(plan.typeName, r.object, this.entry(plan.typeName).version);
  }

  /** Plans and applies in one go (`terraform apply -auto-approve` for one instance). */
  async converge(typeName: string, obj: ManagedObject | null, config: PlainConfig | Value | null): Promise<{ plan: ResourcePlan; result: ManagedObject | null }> {
    const plan = await this.plan(typeName, obj, config);
    return { plan, result: await this.apply(plan) };
  }

  /** ImportResourceState by id, then ReadResource with the import's private (C10). Rejects when nothing was found. */
  async import(typeName: string, id: string): Promise<ManagedObject> {
    const r = await importInstance(this.#target, typeName, typeName, id);
    if (r.objects.length !== 1) throw new Error(`Multiple import states not supported (${r.objects.length} for ${typeName})`);
    return managed(typeName, r.objects[0]!.object, this.entry(typeName).version);
  }
}

function instanceObject(obj: ManagedObject): InstanceObject {
  return { state: obj.state, private: obj.private, tainted: false };
}

function managed(typeName: string, obj: InstanceObject, schemaVersion: number): ManagedObject {
  return { typeName, state: obj.state, private: obj.private, schemaVersion };
}

function plannedChange(c: PlannedInstanceChange): PlannedChange {
  return { plannedState: c.after, requiresReplace: c.requiresReplace, plannedPrivate: c.plannedPrivate, legacyTypeSystem: c.legacyTypeSystem, warnings: c.warnings };
}

function isValue(x: unknown): x is Value {
  return typeof x === "object" && x !== null && typeof (x as { isNull?: unknown }).isNull === "function" && "type" in x;
}
