import { formatErrorPath, nullVal, type Path, type Type, type Value } from "@magma/cty";
import { msgpackNormalForm } from "@magma/cty/msgpack";
import { classifyApplyOutcome } from "./apply-outcome.js";
import { hasErrors, warningsOf, type Diag } from "./diagnostic.js";
import type { Deferred, PlannedChange } from "./plan.js";
import type { ConfigValidation, ConfigValidator, ValidateConfigOptions } from "./config-validator.js";
import type {
  AbortSignalLike,
  ApplyOptions,
  ApplyResult,
  ConfigureOptions,
  ConfigureResult,
  GetSchemaOptions,
  ImportOptions,
  ImportResult,
  PlanOptions,
  Provider,
  ReadDataSourceOptions,
  ReadDataSourceResult,
  ReadResourceOptions,
  ReadResourceFound,
  ReadResourceResult,
  UpgradeOptions,
  UpgradeResult,
} from "./provider.js";
import {
  canceledError,
  deadlineExceededError,
  diagnosticsError,
  invalidResponseError,
  isProviderError,
  notConfiguredError,
  schemaError,
  transportError,
} from "./provider-error.js";
import { assertObjectCompatible } from "./object-compatible.js";
import { assertPlanValid } from "./plan-valid.js";
import { dataSourceSchema, noServerCapabilities, resourceSchema, type ProviderSchema, type SchemaEntry, type ServerCapabilities } from "./schema.js";
import { valueConformance } from "./value-conformance.js";
import { nonNullWriteOnlyPaths } from "./write-only.js";
import { functionSignature, type CallFunctionOptions, type FunctionCaller } from "./function-caller.js";
import { callNativeFunction, checkNativeFunctions, type NativeFunctions } from "./native-function.js";
import {
  ephemeralResourceSchema,
  type EphemeralCallOptions,
  type EphemeralResourceOpener,
  type EphemeralWarnings,
  type OpenEphemeralOptions,
  type OpenEphemeralResult,
  type RenewEphemeralResult,
} from "./ephemeral-resource-opener.js";

/**
 * What a native provider's `getSchema` returns: a {@link ProviderSchema} whose capabilities
 * and warnings may be left out. It may declare `functions`, each implemented in
 * {@link NativeProviderImpl.functions}, and `ephemeralResources`, each implemented in
 * {@link NativeProviderImpl.ephemeralResources}.
 */
export type NativeSchema = Omit<ProviderSchema, "serverCapabilities" | "warnings"> & {
  readonly serverCapabilities?: Partial<ServerCapabilities>;
  readonly warnings?: readonly Diag[];
};

/** Diagnostics of any severity, as a native operation returns them. */
export interface NativeDiagnostics {
  /** Errors and warnings; errors make the call reject with `diagnostics`. */
  readonly diagnostics?: readonly Diag[];
}

/** What a native `planResourceChange` returns. */
export interface NativePlan extends NativeDiagnostics {
  /** The planned state (null for a destroy). May be absent only together with error diagnostics. */
  readonly plannedState?: Value;
  /** Paths whose change forces replacement (default none). */
  readonly requiresReplace?: readonly Path[];
  /** Private state for the apply (default empty). */
  readonly plannedPrivate?: Uint8Array;
  /** Default false. */
  readonly legacyTypeSystem?: boolean;
  /** Set to defer (only when the call allowed it). */
  readonly deferred?: Deferred;
}

/** What a native `applyResourceChange` returns (see {@link classifyApplyOutcome}). */
export interface NativeApply extends NativeDiagnostics {
  /** The new state; absent or null for a destroy, or with errors when nothing was created. */
  readonly newState?: Value;
  /** Private state to store (default empty). */
  readonly private?: Uint8Array;
  /** Default false. */
  readonly legacyTypeSystem?: boolean;
}

/** What a native `readResource` returns. */
export interface NativeRead extends NativeDiagnostics {
  /** The current state, or null (or absent) when the object is gone (warnings still reach the caller). */
  readonly newState?: Value | null;
  /** Private state that replaces the stored one (default: the one passed in). */
  readonly private?: Uint8Array;
  /** Set to defer (only when the call allowed it). */
  readonly deferred?: Deferred;
}

/** What a native `readDataSource` returns. */
export interface NativeReadDataSource extends NativeDiagnostics {
  /** The value read. May be absent only together with error diagnostics. */
  readonly state?: Value;
  /** Set to defer (only when the call allowed it). */
  readonly deferred?: Deferred;
}

/** What a native `importResourceState` returns. */
export interface NativeImport extends NativeDiagnostics {
  /** The objects found (none: nothing exists). `typeName` defaults to the type asked for, `private` to empty. */
  readonly resources?: readonly { readonly typeName?: string; readonly state: Value; readonly private?: Uint8Array }[];
  /** Set to defer (only when the call allowed it). */
  readonly deferred?: Deferred;
}

/** What a native `upgradeResourceState` returns. */
export interface NativeUpgrade extends NativeDiagnostics {
  /** The upgraded state. May be absent only together with error diagnostics. */
  readonly upgradedState?: Value;
}

/** What a native ephemeral resource's `open` returns. */
export interface NativeEphemeralOpen extends NativeDiagnostics {
  /** The ephemeral object. May be absent only together with error diagnostics. */
  readonly result?: Value;
  /** Private data for renew and close (default empty). */
  readonly private?: Uint8Array;
  /** When to renew; absent: never. Needs a `renew` implementation. */
  readonly renewAt?: Date;
  /** Set to defer (only when the call allowed it). */
  readonly deferred?: Deferred;
}

/** What a native ephemeral resource's `renew` returns. */
export interface NativeEphemeralRenew extends NativeDiagnostics {
  /** Private data for the next renew or the close (default: the one passed in). */
  readonly private?: Uint8Array;
  /** When to renew next; absent: never again. */
  readonly renewAt?: Date;
}

/**
 * The implementation of one ephemeral resource type of a native provider (see
 * {@link EphemeralResourceOpener} for the rules the wrapper enforces). `open` is called
 * only with a configuration that fits the type and is wholly known; the wrapper checks the
 * result. Each may return synchronously.
 */
export interface NativeEphemeralResource {
  /** Extra validation of a configuration (no `configure` needed); default: none. */
  validate?(config: Value, ctx: NativeContext): NativeDiagnostics | void | Promise<NativeDiagnostics | void>;
  /** Opens the resource. */
  open(config: Value, options: OpenEphemeralOptions, ctx: NativeContext): NativeEphemeralOpen | Promise<NativeEphemeralOpen>;
  /** Renews it; required when `open` or `renew` return a `renewAt`. */
  renew?(privateData: Uint8Array, options: EphemeralCallOptions, ctx: NativeContext): NativeEphemeralRenew | Promise<NativeEphemeralRenew>;
  /** Closes it; default: nothing to release. */
  close?(privateData: Uint8Array, options: EphemeralCallOptions, ctx: NativeContext): NativeDiagnostics | void | Promise<NativeDiagnostics | void>;
}

/** The ephemeral resource implementations of a native provider, by the type names its schema's `ephemeralResources` declares. */
export type NativeEphemeralResources = Readonly<Record<string, NativeEphemeralResource>>;

/** What every native operation is told besides its arguments. */
export interface NativeContext {
  /** The schema entry of the type named in the call (the provider's own for `configure`). */
  readonly entry: SchemaEntry;
  /** The caller's abort signal, to pass on to I/O. */
  readonly signal: AbortSignalLike | undefined;
}

/**
 * A provider written in TypeScript, before {@link createNativeProvider} wraps it. The
 * operations mirror {@link Provider} but return diagnostics of any severity instead of
 * rejecting, and may return synchronously. The wrapper checks type names, order, value
 * types and outcomes, so the implementation only does the domain work.
 */
export interface NativeProviderImpl {
  /** The schemas; called once, on first need. */
  getSchema(): NativeSchema | Promise<NativeSchema>;
  /** Configures the provider. */
  configure(config: Value, terraformVersion: string, options: ConfigureOptions, ctx: NativeContext): NativeDiagnostics | void | Promise<NativeDiagnostics | void>;
  /** Plans a change of a resource of a type from the schema. */
  planResourceChange(typeName: string, priorState: Value, proposedNewState: Value, config: Value, options: PlanOptions, ctx: NativeContext): NativePlan | Promise<NativePlan>;
  /** Applies a planned change. */
  applyResourceChange(typeName: string, priorState: Value, plannedState: Value, config: Value, options: ApplyOptions, ctx: NativeContext): NativeApply | Promise<NativeApply>;
  /** Reads an object's current state. */
  readResource(typeName: string, currentState: Value, options: ReadResourceOptions, ctx: NativeContext): NativeRead | Promise<NativeRead>;
  /** Reads a data source. */
  readDataSource(typeName: string, config: Value, options: ReadDataSourceOptions, ctx: NativeContext): NativeReadDataSource | Promise<NativeReadDataSource>;
  /** Imports objects by id. */
  importResourceState(typeName: string, id: string, options: ImportOptions, ctx: NativeContext): NativeImport | Promise<NativeImport>;
  /** Upgrades a stored state; the wrapper passes the stored version and JSON text as given. */
  upgradeResourceState(typeName: string, storedVersion: number, rawJson: string, options: UpgradeOptions, ctx: NativeContext): NativeUpgrade | Promise<NativeUpgrade>;
  /**
   * The provider-defined functions, one per name in the schema's `functions` (and no
   * others): called through {@link FunctionCaller.callFunction}, without `configure`.
   */
  readonly functions?: NativeFunctions;
  /**
   * The ephemeral resource types, one per name in the schema's `ephemeralResources` (and
   * no others): opened through {@link EphemeralResourceOpener}.
   */
  readonly ephemeralResources?: NativeEphemeralResources;
  /**
   * Validates the provider configuration (Terraform's ValidateProviderConfig; no `configure`
   * needed; the value may hold unknowns). Offered through {@link ConfigValidator}, and run
   * before `configure` as Terraform's configure runs it.
   */
  validateProviderConfig?(config: Value, ctx: NativeContext): NativeDiagnostics | void | Promise<NativeDiagnostics | void>;
  /**
   * Validates a resource type's configuration (ValidateResourceConfig): offered through
   * {@link ConfigValidator}, and run before each plan of a configuration, as Terraform does.
   */
  validateResourceConfig?(typeName: string, config: Value, ctx: NativeContext): NativeDiagnostics | void | Promise<NativeDiagnostics | void>;
  /** Validates a data source's configuration (ValidateDataResourceConfig): offered and run before each read likewise. */
  validateDataResourceConfig?(typeName: string, config: Value, ctx: NativeContext): NativeDiagnostics | void | Promise<NativeDiagnostics | void>;
}

const EMPTY = new Uint8Array(0);

/**
 * Wraps a native implementation into a {@link Provider} that enforces the contract:
 *
 * - **Ordering:** every operation but `getSchema` rejects with `not_configured` (naming
 *   the operation) until `configure` has succeeded (a failed `configure` leaves it unconfigured).
 * - **Type names** not in the schema reject with `unknown_type`, before the
 *   implementation is called.
 * - **Inputs** that do not fit the schema's implied type reject with `schema` (naming the
 *   argument and path); **outputs** that do not fit reject with `invalid_response`.
 * - **Plans and apply results** that Terraform would reject reject with
 *   `invalid_response` carrying the path of the first problem and Terraform's wording:
 *   a plan that fails {@link assertPlanValid} (a configured value changed, an unknown
 *   where the configuration is known, …), and a create's or update's new state that
 *   fails {@link assertObjectCompatible} (unknowns left, a planned value changed). As in
 *   Terraform, a provider that sets `legacyTypeSystem` is let through (except for
 *   unknowns left after apply). A plan, apply, read, import or upgrade result that holds a
 *   value for a write-only attribute rejects too ({@link nonNullWriteOnlyPaths}), as
 *   Terraform rejects it before any other check.
 * - **Diagnostics:** error diagnostics reject with `diagnostics` (all diagnostics
 *   attached); warnings are returned on the result. Apply's outcome is
 *   {@link classifyApplyOutcome}'s.
 * - **Cancellation:** an aborted `signal` rejects with `canceled` (`deadline_exceeded`
 *   for a `TimeoutError` reason) without waiting for the implementation.
 * - **Exceptions** thrown by the implementation: a `ProviderError` passes through; an
 *   error carrying a network errno (`ECONNRESET`, `ETIMEDOUT`, …) becomes `transport`;
 *   anything else becomes `invalid_response` with the original as `cause`.
 * - **Functions** ({@link FunctionCaller}): the schema's `functions` and the
 *   implementation's `functions` must name the same functions (else `getSchema` rejects
 *   with `schema`); `callFunction` needs no `configure`, checks the arguments as Terraform
 *   does before calling ({@link checkFunctionCall}), and the result against the return type
 *   (`invalid_response` when it does not fit). A provider without functions answers every
 *   name with `unknown_type`.
 * - **Ephemeral resources** ({@link EphemeralResourceOpener}): the schema's
 *   `ephemeralResources` and the implementation's must name the same types (else
 *   `getSchema` rejects with `schema`); validation needs no `configure`, open/renew/close
 *   do; the configuration is checked against the type, and `open`'s result must fit it and
 *   be wholly known unless deferred (`invalid_response`); a `renewAt` without a `renew`
 *   implementation is `invalid_response`.
 * - **Validation** ({@link ConfigValidator}): always offered, with no `configure` needed; a
 *   configuration is validated by the implementation's `validate*Config` when it has one
 *   (no warnings otherwise), also before each `configure`, plan of a configuration and data
 *   source read, whose results then carry the validation's warnings first (as Terraform's).
 */
export function createNativeProvider(impl: NativeProviderImpl): Provider & FunctionCaller & EphemeralResourceOpener & ConfigValidator {
  let schemaPromise: Promise<ProviderSchema> | undefined;
  let configured = false;

  const loadSchema = (): Promise<ProviderSchema> => {
    schemaPromise ??= Promise.resolve()
      .then(() => impl.getSchema())
      .then((s) => {
        checkNativeFunctions(s.functions, impl.functions);
        checkNativeEphemeralResources(s.ephemeralResources, impl.ephemeralResources);
        return completeSchema(s);
      });
    const p = schemaPromise;
    p.catch(() => {
      if (schemaPromise === p) schemaPromise = undefined; // let a later call retry
    });
    return p;
  };

  /**
   * A value as it would arrive over the plugin protocol (go-cty's msgpack): -0 as 0, a whole
   * float64-precision number as an integer (`pow(2, 60)` exact, `pow(2, 64)` as the number its
   * text denotes), so that a native provider sees and returns what a plugin would.
   */
  const wire = (v: Value): Value => msgpackNormalForm(v);

  async function guarded<T>(operation: string, signal: AbortSignalLike | undefined, run: () => Promise<T>): Promise<T> {
    if (signal?.aborted === true) throw abortError(signal, operation);
    const work = run().catch((e: unknown) => {
      throw translateThrown(e, operation);
    });
    if (signal === undefined) return work;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(signal, operation));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort!);
      work.catch(() => undefined); // a late failure after an abort is not unhandled
    }
  }

  async function entryFor(operation: string, kind: "resource" | "data_source" | "ephemeral_resource", typeName: string): Promise<SchemaEntry> {
    if (!configured) throw notConfiguredError(operation);
    const schema = await loadSchema();
    if (kind === "ephemeral_resource") return ephemeralResourceSchema(schema, typeName);
    return kind === "resource" ? resourceSchema(schema, typeName) : dataSourceSchema(schema, typeName);
  }

  /** The diagnostics of the implementation's validation of a configuration (none without one). */
  async function validation(kind: "provider" | "resource" | "data_source", typeName: string, config: Value, entry: SchemaEntry, signal: AbortSignalLike | undefined): Promise<readonly Diag[]> {
    const ctx = { entry, signal };
    const r =
      kind === "provider"
        ? await impl.validateProviderConfig?.(wire(config), ctx)
        : kind === "resource"
          ? await impl.validateResourceConfig?.(typeName, wire(config), ctx)
          : await impl.validateDataResourceConfig?.(typeName, wire(config), ctx);
    return r === undefined ? [] : (r.diagnostics ?? []);
  }

  /** A {@link ConfigValidator} call: the configuration checked against its type, then validated. */
  function validateCall(op: string, kind: "provider" | "resource" | "data_source", typeName: string, config: Value, options: ValidateConfigOptions): Promise<ConfigValidation> {
    return guarded(op, options.signal, async () => {
      const schema = await loadSchema();
      const entry = kind === "provider" ? schema.provider : kind === "resource" ? resourceSchema(schema, typeName) : dataSourceSchema(schema, typeName);
      expectInput(op, "config", config, entry.type);
      const diags = await validation(kind, typeName, config, entry, options.signal);
      if (hasErrors(diags)) throw diagnosticsError(diags, `${op}${kind === "provider" ? "" : ` of ${typeName}`}`);
      return { warnings: warningsOf(diags) };
    });
  }

  /** The implementation of a type the schema declares (checked against the schema when it loaded). */
  function ephemeralImpl(typeName: string): NativeEphemeralResource {
    return impl.ephemeralResources![typeName]!;
  }

  return {
    getSchema(options?: GetSchemaOptions): Promise<ProviderSchema> {
      return guarded("getSchema", options?.signal, loadSchema);
    },

    configure(config, terraformVersion, options = {}): Promise<ConfigureResult> {
      return guarded("configure", options.signal, async () => {
        const schema = await loadSchema();
        expectInput("configure", "config", config, schema.provider.type);
        const validated = await validation("provider", "", config, schema.provider, options.signal);
        if (hasErrors(validated)) throw diagnosticsError(validated, "configure");
        const r = await impl.configure(wire(config), terraformVersion, options, { entry: schema.provider, signal: options.signal });
        const diags = [...validated, ...(r === undefined ? [] : (r.diagnostics ?? []))];
        if (hasErrors(diags)) throw diagnosticsError(diags, "configure");
        configured = true;
        return { warnings: warningsOf(diags) };
      });
    },

    planResourceChange(typeName, priorState, proposedNewState, config, options = {}): Promise<PlannedChange> {
      const op = "planResourceChange";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "resource", typeName);
        expectInput(op, "priorState", priorState, entry.type);
        expectInput(op, "proposedNewState", proposedNewState, entry.type);
        expectInput(op, "config", config, entry.type);
        const validated = config.isNull() ? [] : await validation("resource", typeName, config, entry, options.signal);
        if (hasErrors(validated)) throw diagnosticsError(validated, `${op} of ${typeName}`);
        const r = await impl.planResourceChange(typeName, wire(priorState), wire(proposedNewState), wire(config), options, { entry, signal: options.signal });
        const diags = [...validated, ...(r.diagnostics ?? [])];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        if (r.plannedState === undefined) throw invalidResponseError(`${op} of ${typeName} returned no planned state`, { operation: op });
        expectOutput(op, "plannedState", r.plannedState, entry.type);
        rejectWriteOnly(op, typeName, entry, r.plannedState, "during planning");
        rejectInvalid(op, typeName, assertPlanValid(entry.block, priorState, config, r.plannedState, { legacyTypeSystem: r.legacyTypeSystem ?? false, address: typeName }));
        checkDeferral(op, r.deferred, options.deferralAllowed);
        const out: { -readonly [K in keyof PlannedChange]: PlannedChange[K] } = {
          plannedState: wire(r.plannedState),
          requiresReplace: Object.freeze((r.requiresReplace ?? []).slice()),
          plannedPrivate: r.plannedPrivate ?? EMPTY,
          legacyTypeSystem: r.legacyTypeSystem ?? false,
          warnings: warningsOf(diags),
        };
        if (r.deferred !== undefined) out.deferred = r.deferred;
        return out;
      });
    },

    applyResourceChange(typeName, priorState, plannedState, config, options = {}): Promise<ApplyResult> {
      const op = "applyResourceChange";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "resource", typeName);
        expectInput(op, "priorState", priorState, entry.type);
        expectInput(op, "plannedState", plannedState, entry.type);
        expectInput(op, "config", config, entry.type);
        const r = await impl.applyResourceChange(typeName, wire(priorState), wire(plannedState), wire(config), options, { entry, signal: options.signal });
        if (r.newState !== undefined) expectOutput(op, "newState", r.newState, entry.type);
        const outcome = classifyApplyOutcome(
          { newState: r.newState === undefined ? undefined : wire(r.newState), private: r.private ?? EMPTY, diagnostics: r.diagnostics ?? [], legacyTypeSystem: r.legacyTypeSystem ?? false },
          { typeName, type: entry.type, isDelete: plannedState.isNull() },
        );
        if (!outcome.ok) throw outcome.error;
        rejectWriteOnly(op, typeName, entry, outcome.result.newState, "after apply");
        if (!plannedState.isNull()) {
          rejectInvalid(op, typeName, assertObjectCompatible(entry.block, plannedState, outcome.result.newState, { legacyTypeSystem: outcome.result.legacyTypeSystem, address: typeName }));
        }
        return outcome.result;
      });
    },

    readResource(typeName, currentState, options = {}): Promise<ReadResourceResult> {
      const op = "readResource";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "resource", typeName);
        expectInput(op, "currentState", currentState, entry.type);
        const r = await impl.readResource(typeName, wire(currentState), options, { entry, signal: options.signal });
        const diags = r.diagnostics ?? [];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        checkDeferral(op, r.deferred, options.deferralAllowed);
        const newState = r.newState ?? nullVal(entry.type);
        // A null state is the object gone — unless the read was deferred (it may send no state).
        if (newState.isNull() && r.deferred === undefined) return { gone: true, warnings: warningsOf(diags) };
        expectOutput(op, "newState", newState, entry.type);
        rejectWriteOnly(op, typeName, entry, newState, "during refresh");
        const out: { -readonly [K in keyof ReadResourceFound]: ReadResourceFound[K] } = {
          gone: false,
          newState: wire(newState),
          private: r.private ?? options.private ?? EMPTY,
          warnings: warningsOf(diags),
        };
        if (r.deferred !== undefined) out.deferred = r.deferred;
        return out;
      });
    },

    readDataSource(typeName, config, options = {}): Promise<ReadDataSourceResult> {
      const op = "readDataSource";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "data_source", typeName);
        expectInput(op, "config", config, entry.type);
        const validated = await validation("data_source", typeName, config, entry, options.signal);
        if (hasErrors(validated)) throw diagnosticsError(validated, `${op} of ${typeName}`);
        const r = await impl.readDataSource(typeName, wire(config), options, { entry, signal: options.signal });
        const diags = [...validated, ...(r.diagnostics ?? [])];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        if (r.state === undefined) throw invalidResponseError(`${op} of ${typeName} returned no state`, { operation: op });
        expectOutput(op, "state", r.state, entry.type);
        checkDeferral(op, r.deferred, options.deferralAllowed);
        const out: { -readonly [K in keyof ReadDataSourceResult]: ReadDataSourceResult[K] } = { state: wire(r.state), warnings: warningsOf(diags) };
        if (r.deferred !== undefined) out.deferred = r.deferred;
        return out;
      });
    },

    importResourceState(typeName, id, options = {}): Promise<ImportResult | null> {
      const op = "importResourceState";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "resource", typeName);
        const schema = await loadSchema();
        const r = await impl.importResourceState(typeName, id, options, { entry, signal: options.signal });
        const diags = r.diagnostics ?? [];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        checkDeferral(op, r.deferred, options.deferralAllowed);
        const resources = (r.resources ?? []).map((x, i) => {
          const tn = x.typeName ?? typeName;
          const e = schema.resources.get(tn);
          if (e === undefined) throw invalidResponseError(`${op} returned resource ${i} of unknown type ${JSON.stringify(tn)}`, { operation: op });
          if (x.state.isNull()) throw invalidResponseError(`${op} returned a null state for resource ${i}`, { operation: op });
          expectOutput(op, `resources[${i}].state`, x.state, e.type);
          rejectWriteOnly(op, tn, e, x.state, "during import");
          return Object.freeze({ typeName: tn, state: x.state, private: x.private ?? EMPTY });
        });
        if (resources.length === 0 && r.deferred === undefined) return null;
        const out: { -readonly [K in keyof ImportResult]: ImportResult[K] } = { resources: Object.freeze(resources), warnings: warningsOf(diags) };
        if (r.deferred !== undefined) out.deferred = r.deferred;
        return out;
      });
    },

    upgradeResourceState(typeName, storedVersion, rawJson, options = {}): Promise<UpgradeResult> {
      const op = "upgradeResourceState";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "resource", typeName);
        if (!Number.isSafeInteger(storedVersion) || storedVersion < 0) throw schemaError(`${op}: stored version must be a non-negative integer, got ${storedVersion}`);
        if (storedVersion > entry.version) {
          throw schemaError(`${op}: the stored state of ${typeName} has schema version ${storedVersion}, newer than the provider's ${entry.version}`);
        }
        const r = await impl.upgradeResourceState(typeName, storedVersion, rawJson, options, { entry, signal: options.signal });
        const diags = r.diagnostics ?? [];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        if (r.upgradedState === undefined) throw invalidResponseError(`${op} of ${typeName} returned no state`, { operation: op });
        expectOutput(op, "upgradedState", r.upgradedState, entry.type);
        if (!r.upgradedState.isWhollyKnown()) throw invalidResponseError(`${op} of ${typeName} returned unknown values`, { operation: op });
        rejectWriteOnly(op, typeName, entry, r.upgradedState, "during upgrade");
        return { upgradedState: r.upgradedState, warnings: warningsOf(diags) };
      });
    },

    validateProviderConfig(config, options = {}): Promise<ConfigValidation> {
      return validateCall("validateProviderConfig", "provider", "", config, options);
    },

    validateResourceConfig(typeName, config, options = {}): Promise<ConfigValidation> {
      return validateCall("validateResourceConfig", "resource", typeName, config, options);
    },

    validateDataResourceConfig(typeName, config, options = {}): Promise<ConfigValidation> {
      return validateCall("validateDataResourceConfig", "data_source", typeName, config, options);
    },

    validateEphemeralResourceConfig(typeName, config, options = {}): Promise<EphemeralWarnings> {
      const op = "validateEphemeralResourceConfig";
      return guarded(op, options.signal, async () => {
        const entry = ephemeralResourceSchema(await loadSchema(), typeName);
        expectInput(op, "config", config, entry.type);
        const r = await ephemeralImpl(typeName).validate?.(config, { entry, signal: options.signal });
        const diags = r === undefined ? [] : (r.diagnostics ?? []);
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        return { warnings: warningsOf(diags) };
      });
    },

    openEphemeralResource(typeName, config, options = {}): Promise<OpenEphemeralResult> {
      const op = "openEphemeralResource";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "ephemeral_resource", typeName);
        expectInput(op, "config", config, entry.type);
        const impl1 = ephemeralImpl(typeName);
        const r = await impl1.open(config, options, { entry, signal: options.signal });
        const diags = r.diagnostics ?? [];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        if (r.result === undefined) throw invalidResponseError(`${op} of ${typeName} returned no result`, { operation: op });
        expectOutput(op, "result", r.result, entry.type);
        checkDeferral(op, r.deferred, options.deferralAllowed);
        if (r.deferred === undefined && !r.result.isWhollyKnown()) throw invalidResponseError(`${op} of ${typeName} returned unknown values`, { operation: op });
        if (r.renewAt !== undefined && impl1.renew === undefined) throw invalidResponseError(`${op} of ${typeName} asked to be renewed, but the type has no renew`, { operation: op });
        const out: { -readonly [K in keyof OpenEphemeralResult]: OpenEphemeralResult[K] } = { result: r.result, private: r.private ?? EMPTY, warnings: warningsOf(diags) };
        if (r.renewAt !== undefined) out.renewAt = r.renewAt;
        if (r.deferred !== undefined) out.deferred = r.deferred;
        return out;
      });
    },

    renewEphemeralResource(typeName, privateData, options = {}): Promise<RenewEphemeralResult> {
      const op = "renewEphemeralResource";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "ephemeral_resource", typeName);
        const impl1 = ephemeralImpl(typeName);
        if (impl1.renew === undefined) return { private: privateData, warnings: [] };
        const r = await impl1.renew(privateData, options, { entry, signal: options.signal });
        const diags = r.diagnostics ?? [];
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        const out: { -readonly [K in keyof RenewEphemeralResult]: RenewEphemeralResult[K] } = { private: r.private ?? privateData, warnings: warningsOf(diags) };
        if (r.renewAt !== undefined) out.renewAt = r.renewAt;
        return out;
      });
    },

    closeEphemeralResource(typeName, privateData, options = {}): Promise<EphemeralWarnings> {
      const op = "closeEphemeralResource";
      return guarded(op, options.signal, async () => {
        const entry = await entryFor(op, "ephemeral_resource", typeName);
        const r = await ephemeralImpl(typeName).close?.(privateData, options, { entry, signal: options.signal });
        const diags = r === undefined ? [] : (r.diagnostics ?? []);
        if (hasErrors(diags)) throw diagnosticsError(diags, `${op} of ${typeName}`);
        return { warnings: warningsOf(diags) };
      });
    },

    callFunction(name: string, args: readonly Value[], options: CallFunctionOptions = {}): Promise<Value> {
      return guarded("callFunction", options.signal, async () => {
        const signature = functionSignature(await loadSchema(), name);
        return callNativeFunction(name, signature, impl.functions![name]!, args, options.signal);
      });
    },
  };
}

function completeSchema(s: NativeSchema): ProviderSchema {
  const out: { -readonly [K in keyof ProviderSchema]: ProviderSchema[K] } = {
    provider: s.provider,
    resources: s.resources,
    dataSources: s.dataSources,
    serverCapabilities: { ...noServerCapabilities, ...s.serverCapabilities },
    warnings: s.warnings ?? [],
  };
  if (s.providerMeta !== undefined) out.providerMeta = s.providerMeta;
  if (s.functions !== undefined) out.functions = s.functions;
  if (s.ephemeralResources !== undefined && s.ephemeralResources.size > 0) out.ephemeralResources = s.ephemeralResources;
  return Object.freeze(out);
}

/**
 * Checks that the declared ephemeral resource types and the implementations name the same types.
 *
 * @throws {@link ProviderError} `schema` naming the first type declared without an
 * implementation, or implemented without a declaration.
 */
function checkNativeEphemeralResources(declared: ReadonlyMap<string, SchemaEntry> | undefined, impls: NativeEphemeralResources | undefined): void {
  const names = new Set(declared?.keys() ?? []);
  for (const name of names) {
    const i = impls !== undefined && Object.hasOwn(impls, name) ? impls[name] : undefined;
    if (i === undefined || typeof i.open !== "function") throw schemaError(`the schema declares ephemeral resource type ${JSON.stringify(name)} but the provider has no implementation of it`);
  }
  for (const name of Object.keys(impls ?? {})) {
    if (!names.has(name)) throw schemaError(`the provider implements ephemeral resource type ${JSON.stringify(name)} but its schema does not declare it`);
  }
}

function expectInput(operation: string, argument: string, value: Value, type: Type): void {
  const p = valueConformance(value, type);
  if (p !== undefined) throw schemaError(`${operation}: ${argument}${formatErrorPath(p.path)} does not fit the schema: ${p.reason}`, { path: p.path });
}

function expectOutput(operation: string, what: string, value: Value, type: Type): void {
  const p = valueConformance(value, type);
  if (p !== undefined) throw invalidResponseError(`${operation} returned a ${what} that does not fit the schema at ${what}${formatErrorPath(p.path)}: ${p.reason}`, { operation, path: p.path });
}

/** Rejects with `invalid_response` (at its path) when a result holds a value for a write-only attribute, as Terraform does. */
function rejectWriteOnly(operation: string, typeName: string, entry: SchemaEntry, value: Value, during: string): void {
  const paths = nonNullWriteOnlyPaths(entry.block, value);
  if (paths.length === 0) return;
  throw invalidResponseError(
    `${operation} of ${typeName} returned a value for the write-only attribute "${typeName}${formatErrorPath(paths[0]!)}" ${during}. Write-only attributes cannot be read back from the provider.`,
    { operation, path: paths[0]! },
  );
}

/** Rejects with `invalid_response` (at the first problem's path) when Terraform would reject the answer. */
function rejectInvalid(operation: string, typeName: string, diags: readonly Diag[]): void {
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length === 0) return;
  const details = errors.map((d) => (d.detail ?? "").split("\n\n")[0]).join(" ");
  const options: { operation: string; path?: Path } = { operation };
  if (errors[0]!.attribute !== undefined) options.path = errors[0]!.attribute;
  throw invalidResponseError(`${operation} of ${typeName}: ${errors[0]!.summary}: ${details}`, options);
}

function checkDeferral(operation: string, deferred: Deferred | undefined, allowed: boolean | undefined): void {
  if (deferred !== undefined && allowed !== true) throw invalidResponseError(`${operation} deferred although the call did not allow deferral`, { operation });
}

function abortError(signal: AbortSignalLike, operation: string): Error {
  const reason = signal.reason as { name?: unknown } | undefined;
  if (typeof reason === "object" && reason !== null && reason.name === "TimeoutError") {
    return deadlineExceededError(`${operation} ran out of time`, { cause: reason });
  }
  return canceledError(`${operation} was canceled`, { cause: reason });
}

const NETWORK_ERRNOS: ReadonlySet<string> = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

function translateThrown(e: unknown, operation: string): Error {
  if (isProviderError(e)) return e;
  let x: unknown = e;
  for (let depth = 0; depth < 8 && typeof x === "object" && x !== null; depth++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_ERRNOS.has(code)) return transportError(`${operation} failed: ${describe(e)}`, { cause: e });
    if ((x as { name?: unknown }).name === "AbortError") return canceledError(`${operation} was canceled`, { cause: e });
    x = (x as { cause?: unknown }).cause;
  }
  return invalidResponseError(`the native provider threw during ${operation}: ${describe(e)}`, { operation, cause: e });
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
