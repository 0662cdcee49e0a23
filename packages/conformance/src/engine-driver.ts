import { nullVal, toJson, type Path, type Value } from "@magma/cty";
import { configValue, proposedNewState, type PlainConfig, type PlannedChange, type Provider, type ProviderSchema, type SchemaEntry } from "@magma/provider-api";

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
  /** The proposed new state sent to the provider. */
  readonly proposed: Value;
  /** The provider's plan (for a replace: the first, update-shaped plan that asked for it). */
  readonly change: PlannedChange | null;
  /** For a replace: the second plan, a create from null with the first plan's private (C5). */
  readonly replaceCreate?: PlannedChange;
  /** The `requiresReplace` paths whose values differ between prior and planned. */
  readonly replacePaths: readonly Path[];
}

/** Options of {@link EngineDriver.plan}. */
export interface PlanResourceOptions {
  /** Refresh (ReadResource) the prior object before planning, as `terraform plan` does by default (default true). */
  readonly refresh?: boolean;
}

/**
 * A small engine that drives a {@link Provider} in the order Terraform 1.11.4 does
 * (protocol notes C1–C10), for one resource instance at a time:
 *
 * - **plan**: an existing object is upgraded (UpgradeResourceState, always) and refreshed
 *   (ReadResource with its private); then PlanResourceChange with Terraform's proposed new
 *   state; `requiresReplace` paths whose prior and planned values differ make a replace,
 *   planned a second time as a create from null with the first plan's private (C5); a null
 *   config plans a destroy (config and proposal null);
 * - **apply**: PlanResourceChange again (Terraform re-plans at apply, C7), then
 *   ApplyResourceChange with the re-plan's planned state and private; a replace destroys
 *   first, then creates;
 * - **import**: ImportResourceState, then ReadResource with the import's private (C10).
 */
export class EngineDriver {
  readonly #provider: Provider;
  readonly #schema: ProviderSchema;

  /** Drives `provider`, whose schema is `schema`; `configure` must have been called. */
  constructor(provider: Provider, schema: ProviderSchema) {
    this.#provider = provider;
    this.#schema = schema;
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
    const read = await this.#provider.readResource(obj.typeName, upgraded.state, { private: upgraded.private });
    if (read.gone) return null;
    return { typeName: obj.typeName, state: read.newState, private: read.private, schemaVersion: upgraded.schemaVersion };
  }

  /** UpgradeResourceState of a stored object to the current schema version. */
  async upgrade(obj: ManagedObject): Promise<ManagedObject> {
    const entry = this.entry(obj.typeName);
    const r = await this.#provider.upgradeResourceState(obj.typeName, obj.schemaVersion, toJson(obj.state, entry.type));
    return { typeName: obj.typeName, state: r.upgradedState, private: obj.private, schemaVersion: entry.version };
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
    const priorState = prior?.state ?? nullVal(t);
    const priorPrivate = prior?.private ?? new Uint8Array(0);
    if (config === null) {
      if (prior === null) return { typeName, action: PlanAction.NoOp, prior, config: cfg, proposed: nullVal(t), change: null, replacePaths: [] };
      const change = await this.#provider.planResourceChange(typeName, priorState, nullVal(t), cfg, { priorPrivate });
      if (!change.plannedState.isNull()) throw new Error(`the destroy plan of ${typeName} is not null`);
      return { typeName, action: PlanAction.Delete, prior, config: cfg, proposed: nullVal(t), change, replacePaths: [] };
    }
    const proposed = proposedNewState(entry.block, priorState, cfg);
    const change = await this.#provider.planResourceChange(typeName, priorState, proposed, cfg, { priorPrivate });
    if (prior === null) return { typeName, action: PlanAction.Create, prior, config: cfg, proposed, change, replacePaths: [] };
    const replacePaths = change.requiresReplace.filter((p) => !sameAt(priorState, change.plannedState, p));
    if (replacePaths.length > 0) {
      const proposedCreate = proposedNewState(entry.block, nullVal(t), cfg);
      const replaceCreate = await this.#provider.planResourceChange(typeName, nullVal(t), proposedCreate, cfg, { priorPrivate: change.plannedPrivate });
      return { typeName, action: PlanAction.Replace, prior, config: cfg, proposed, change, replaceCreate, replacePaths };
    }
    const action = change.plannedState.rawEquals(priorState) ? PlanAction.NoOp : PlanAction.Update;
    return { typeName, action, prior, config: cfg, proposed, change, replacePaths: [] };
  }

  /**
   * Applies a plan as Terraform's apply walk does and resolves to the resulting object
   * (null after a delete). A failed apply rejects with the provider's error (for a partial
   * apply, `partially_applied` carrying the state to keep).
   */
  async apply(plan: ResourcePlan): Promise<ManagedObject | null> {
    const { typeName } = plan;
    const entry = this.entry(typeName);
    const t = entry.type;
    switch (plan.action) {
      case PlanAction.NoOp:
        return plan.prior;
      case PlanAction.Delete:
        return this.#destroy(plan.prior!, plan.change!.plannedPrivate);
      case PlanAction.Create:
      case PlanAction.Update:
        return this.#applyChange(typeName, plan.prior, plan.config);
      case PlanAction.Replace: {
        // Destroy then create (create_before_destroy is off by default).
        const prior = plan.prior!;
        const destroyPlan = await this.#provider.planResourceChange(typeName, prior.state, nullVal(t), nullVal(t), { priorPrivate: prior.private });
        await this.#destroy(prior, destroyPlan.plannedPrivate);
        return this.#applyChange(typeName, null, plan.config, plan.change!.plannedPrivate);
      }
    }
  }

  /** Plans and applies in one go (`terraform apply -auto-approve` for one instance). */
  async converge(typeName: string, obj: ManagedObject | null, config: PlainConfig | Value | null): Promise<{ plan: ResourcePlan; result: ManagedObject | null }> {
    const plan = await this.plan(typeName, obj, config);
    return { plan, result: await this.apply(plan) };
  }

  /** ImportResourceState by id, then ReadResource with the import's private (C10). Rejects when nothing was found. */
  async import(typeName: string, id: string): Promise<ManagedObject> {
    const imported = await this.#provider.importResourceState(typeName, id);
    if (imported === null) throw new Error(`Import returned no resources (${typeName} ${JSON.stringify(id)})`);
    if (imported.resources.length !== 1) throw new Error(`Multiple import states not supported (${imported.resources.length} for ${typeName})`);
    const [r] = imported.resources as [(typeof imported.resources)[number]];
    const read = await this.#provider.readResource(typeName, r.state, { private: r.private });
    if (read.gone) throw new Error(`Cannot import non-existent remote object (${typeName} ${JSON.stringify(id)})`);
    return { typeName, state: read.newState, private: read.private, schemaVersion: this.entry(typeName).version };
  }

  async #applyChange(typeName: string, prior: ManagedObject | null, cfg: Value, priorPrivateOverride?: Uint8Array): Promise<ManagedObject> {
    const entry = this.entry(typeName);
    const t = entry.type;
    const priorState = prior?.state ?? nullVal(t);
    const priorPrivate = priorPrivateOverride ?? prior?.private ?? new Uint8Array(0);
    // Terraform plans again at apply time with the now-known config (C7).
    const replan = await this.#provider.planResourceChange(typeName, priorState, proposedNewState(entry.block, priorState, cfg), cfg, { priorPrivate });
    const r = await this.#provider.applyResourceChange(typeName, priorState, replan.plannedState, cfg, { plannedPrivate: replan.plannedPrivate });
    return { typeName, state: r.newState, private: r.private, schemaVersion: entry.version };
  }

  async #destroy(prior: ManagedObject, plannedPrivate: Uint8Array): Promise<null> {
    const t = this.entry(prior.typeName).type;
    const r = await this.#provider.applyResourceChange(prior.typeName, prior.state, nullVal(t), nullVal(t), { plannedPrivate });
    if (!r.newState.isNull()) throw new Error(`the destroy of ${prior.typeName} returned a non-null state`);
    return null;
  }
}

function isValue(x: unknown): x is Value {
  return typeof x === "object" && x !== null && typeof (x as { isNull?: unknown }).isNull === "function" && "type" in x;
}

/** Whether prior and planned hold equal, known values at `path` (a missing step counts as null). */
function sameAt(prior: Value, planned: Value, path: Path): boolean {
  const a = valueAt(prior, path);
  const b = valueAt(planned, path);
  if (a === undefined || b === undefined) return a === b;
  if (!a.isWhollyKnown() || !b.isWhollyKnown()) return false;
  return a.rawEquals(b);
}

function valueAt(v: Value, path: Path): Value | undefined {
  try {
    return v.getPath(path);
  } catch {
    return undefined;
  }
}
