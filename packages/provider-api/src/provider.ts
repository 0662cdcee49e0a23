import type { Value } from "@magma/cty";
import type { Diag } from "./diagnostic.js";
import type { Deferred, PlannedChange } from "./plan.js";
import type { ProviderSchema } from "./schema.js";

/**
 * The part of the standard `AbortSignal` that providers use. Any `AbortSignal` (Node,
 * browsers, `AbortSignal.timeout(ms)`) fits; this package is platform-neutral and does
 * not depend on the DOM or Node type libraries.
 */
export interface AbortSignalLike {
  /** True once the signal has fired. */
  readonly aborted: boolean;
  /** Why it fired (a `TimeoutError` DOMException for `AbortSignal.timeout`). */
  readonly reason?: unknown;
  /** Registers a listener for the `abort` event. */
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  /** Removes a listener registered with `addEventListener`. */
  removeEventListener(type: "abort", listener: () => void): void;
}

/** Options every operation takes. */
export interface CallOptions {
  /**
   * Cancels the call: it rejects with `ProviderError` `canceled`, or `deadline_exceeded`
   * when the signal's reason is a `TimeoutError` (as from `AbortSignal.timeout(ms)`).
   */
  readonly signal?: AbortSignalLike;
}

/** Options of {@link Provider.configure}. */
export interface ConfigureOptions extends CallOptions {
  /** Tell the provider it may defer operations (tfplugin's `ClientCapabilities.deferral_allowed`; default false). */
  readonly deferralAllowed?: boolean;
}

/** Options of {@link Provider.planResourceChange}. */
export interface PlanOptions extends CallOptions {
  /** The private state stored with the prior object (or the import's, or the first plan's on replace); default empty. */
  readonly priorPrivate?: Uint8Array;
  /** The module's provider meta value, when the provider declares a provider meta schema. */
  readonly providerMeta?: Value;
  /** The provider may answer with a deferral (default false). */
  readonly deferralAllowed?: boolean;
}

/** Options of {@link Provider.applyResourceChange}. */
export interface ApplyOptions extends CallOptions {
  /** The `plannedPrivate` of the matching plan; default empty. */
  readonly plannedPrivate?: Uint8Array;
  /** The module's provider meta value, when the provider declares a provider meta schema. */
  readonly providerMeta?: Value;
}

/** Options of {@link Provider.readResource}. */
export interface ReadResourceOptions extends CallOptions {
  /** The private state stored with the object (or returned by import); default empty. */
  readonly private?: Uint8Array;
  /** The module's provider meta value, when the provider declares a provider meta schema. */
  readonly providerMeta?: Value;
  /** The provider may answer with a deferral (default false). */
  readonly deferralAllowed?: boolean;
}

/** Options of {@link Provider.readDataSource}. */
export interface ReadDataSourceOptions extends CallOptions {
  /** The module's provider meta value, when the provider declares a provider meta schema. */
  readonly providerMeta?: Value;
  /** The provider may answer with a deferral (default false). */
  readonly deferralAllowed?: boolean;
}

/** Options of {@link Provider.importResourceState}. */
export interface ImportOptions extends CallOptions {
  /** The provider may answer with a deferral (default false). */
  readonly deferralAllowed?: boolean;
}

/** Options of {@link Provider.upgradeResourceState}. */
export type UpgradeOptions = CallOptions;

/** Options of {@link Provider.getSchema}. */
export type GetSchemaOptions = CallOptions;

/** The result of {@link Provider.configure}. */
export interface ConfigureResult {
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
}

/** The result of {@link Provider.applyResourceChange}. */
export interface ApplyResult {
  /** The new state: the object as it now exists; null after a destroy. */
  readonly newState: Value;
  /** Opaque private state to store with the object (empty when none). */
  readonly private: Uint8Array;
  /** True when the provider uses the legacy SDK type system. */
  readonly legacyTypeSystem: boolean;
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
}

/** The result of {@link Provider.readResource} when the object still exists (`gone: false`). */
export interface ReadResourceFound {
  /** False: the object exists and `newState` is its current state. */
  readonly gone: false;
  /** The current state of the object; null only together with `deferred` (a deferred read may send no state). */
  readonly newState: Value;
  /** Opaque private state that replaces the stored one. */
  readonly private: Uint8Array;
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
  /** Set when the provider deferred the read. */
  readonly deferred?: Deferred;
}

/**
 * The result of {@link Provider.readResource} when the object no longer exists
 * (`gone: true`; on the wire, a null new state). Not an error: the caller drops the
 * object from its state. The warnings sent with that answer travel here.
 */
export interface ReadResourceGone {
  /** True: the object no longer exists. */
  readonly gone: true;
  /** Warning diagnostics sent with the answer. */
  readonly warnings: readonly Diag[];
}

/**
 * The result of {@link Provider.readResource}: the object found, or gone — told apart by
 * `gone`, and both carrying the warnings.
 */
export type ReadResourceResult = ReadResourceFound | ReadResourceGone;

/** The result of {@link Provider.readDataSource}. */
export interface ReadDataSourceResult {
  /** The value read, of the data source schema's implied type. */
  readonly state: Value;
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
  /** Set when the provider deferred the read. */
  readonly deferred?: Deferred;
}

/** One object found by {@link Provider.importResourceState}. */
export interface ImportedResource {
  /** Its resource type (usually the one asked for; legacy imports may return others). */
  readonly typeName: string;
  /** Its state, non-null, of the resource type's implied type. */
  readonly state: Value;
  /** Opaque private state for the read that follows the import. */
  readonly private: Uint8Array;
}

/** The result of {@link Provider.importResourceState} when something was found (or the import was deferred). */
export interface ImportResult {
  /** The imported objects: at least one, unless `deferred` is set. */
  readonly resources: readonly ImportedResource[];
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
  /** Set when the provider deferred the import. */
  readonly deferred?: Deferred;
}

/** The result of {@link Provider.upgradeResourceState}. */
export interface UpgradeResult {
  /** The state in the current schema version, wholly known, of the resource type's implied type. */
  readonly upgradedState: Value;
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
}

/**
 * The provider contract of magma: the 8 operations that Terraform uses to manage
 * resources, over cty {@link Value}s typed by the provider's schema. The same interface
 * fronts a real Terraform provider binary (through `@magma/plugin`, which does the bytes)
 * and a native TypeScript provider (through {@link createNativeProvider}).
 *
 * Rules every implementation follows:
 *
 * - **Ordering.** `configure` precedes every operation but `getSchema`; an earlier call
 *   rejects with `ProviderError` `not_configured` naming the operation.
 * - **Type names.** A type name that is not in the schema rejects with `unknown_type`.
 * - **Diagnostics.** Warnings come back on the result and are never dropped;
 *   error-severity diagnostics reject with `diagnostics` carrying all of them (warnings
 *   included). Apply's outcome follows {@link classifyApplyOutcome}.
 * - **Failures of the call itself** (transport, a crashed process, cancellation) reject
 *   with the other {@link ProviderErrorCode}s; {@link isRetryable} tells which are worth
 *   retrying.
 * - Values are of the implied type of the relevant {@link SchemaEntry}; nulls and
 *   unknowns are typed. Marks never cross the contract.
 */
export interface Provider {
  /** The provider's schemas and capabilities. Allowed before `configure`. */
  getSchema(options?: GetSchemaOptions): Promise<ProviderSchema>;

  /**
   * Configures the provider with the value of its `provider` block (of the provider
   * schema's implied type, possibly with unknowns during plan).
   *
   * @param terraformVersion The Terraform version to report, e.g. `"1.11.4"`.
   */
  configure(config: Value, terraformVersion: string, options?: ConfigureOptions): Promise<ConfigureResult>;

  /**
   * Plans a create (prior null), update, or destroy (config and proposed null).
   *
   * @param proposedNewState Terraform's proposal: {@link proposedNewState}(block, prior, config).
   * @param config The configuration value ({@link configValue} builds it from plain data).
   */
  planResourceChange(typeName: string, priorState: Value, proposedNewState: Value, config: Value, options?: PlanOptions): Promise<PlannedChange>;

  /**
   * Applies a planned change.
   *
   * @throws {@link ProviderError} `partially_applied` when errors came back with a new
   * state (keep it), `diagnostics` for errors without one, `no_new_state` when a create or
   * update returned neither.
   */
  applyResourceChange(typeName: string, priorState: Value, plannedState: Value, config: Value, options?: ApplyOptions): Promise<ApplyResult>;

  /**
   * Refreshes an object. Resolves to `{ gone: true, warnings }` when the object no longer
   * exists, which is not an error (the caller drops it from its state); otherwise to
   * `{ gone: false, newState, … }`. Warnings come back in both cases.
   */
  readResource(typeName: string, currentState: Value, options?: ReadResourceOptions): Promise<ReadResourceResult>;

  /** Reads a data source with its configuration. */
  readDataSource(typeName: string, config: Value, options?: ReadDataSourceOptions): Promise<ReadDataSourceResult>;

  /**
   * Imports an existing object by its id. Resolves to `null` when nothing with that id
   * exists (and the provider did not defer).
   */
  importResourceState(typeName: string, id: string, options?: ImportOptions): Promise<ImportResult | null>;

  /**
   * Upgrades a stored state to the current schema version.
   *
   * @param storedVersion The schema version the state was written with.
   * @param rawJson The stored state as JSON text (the state file's `attributes`).
   */
  upgradeResourceState(typeName: string, storedVersion: number, rawJson: string, options?: UpgradeOptions): Promise<UpgradeResult>;
}

/** The names of the {@link Provider} operations. */
export type ProviderOperation = keyof Provider;
