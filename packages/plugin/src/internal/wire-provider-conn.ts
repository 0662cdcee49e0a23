import type { CallOptions } from "@connectrpc/connect";
import { isPathError, nullVal, type Type, type Value } from "@magma/cty";
import {
  classifyApplyOutcome,
  diagnosticsError,
  hasErrors,
  invalidResponseError,
  normalizeLegacyObject,
  notConfiguredError,
  schemaError,
  unknownTypeError,
  warningsOf,
  type AbortSignalLike,
  type ApplyOptions,
  type ApplyResult,
  type ConfigureOptions,
  type ConfigureResult,
  type Diag,
  type GetSchemaOptions,
  type ImportOptions,
  type ImportResult,
  type PlanOptions,
  type PlannedChange,
  type Provider,
  type ProviderSchema,
  type ReadDataSourceOptions,
  type ReadDataSourceResult,
  type ReadResourceOptions,
  type ReadResourceFound,
  type ReadResourceResult,
  type SchemaEntry,
  type UpgradeOptions,
  type UpgradeResult,
} from "@magma/provider-api";
import { checkFunctionCall, functionSignature, type CallFunctionOptions, type FunctionCaller, type FunctionSignature } from "@magma/provider-api";
import type { ConfigValidation, ConfigValidator, ValidateConfigOptions } from "@magma/provider-api";
import {
  ephemeralResourceSchema,
  type EphemeralCallOptions,
  type EphemeralWarnings,
  type OpenEphemeralOptions,
  type OpenEphemeralResult,
  type RenewEphemeralResult,
} from "@magma/provider-api";
import { errorFromCall, type CallErrorContext } from "./error-map/call-error.js";
import {
  deferredFromProto,
  diagsFromProto,
  dynamicValueFromProto,
  dynamicValueToProto,
  functionArgumentsToProto,
  functionFromProto,
  functionResultFromProto,
  pathFromProto,
  schemaFromReply,
  timestampFromProto,
  type ClientCapabilitiesInit,
  type ProtoDiagnostic,
  type ProtoDynamicValue,
  type WireClient,
} from "@magma/tfplugin/client";
import type { ProviderConn, ProviderConnOptions } from "../provider-conn.js";
import type { SchemaStore } from "./schema-store.js";
import { loadStoredSchema, saveSchemaReply } from "./schema-source.js";
import type { ValidationMemory } from "../validation-memory.js";
import { CallGate, type CallGateOptions } from "./call-gate.js";
import { ValidationCache, ValidationsByBytes } from "./validation-cache.js";

/**
 * Options of a {@link WireProviderConn}: the public ones and those only `dialProvider` sets.
 *
 * @internal
 */
export interface WireProviderConnOptions extends ProviderConnOptions {
  /**
   * The gate the calls go through, when its owner must reach it (to settle the calls on
   * close); made from `maxConcurrentCalls`, `callTimeoutMs` and `label` otherwise.
   */
  readonly callGate?: CallGate;
  /**
   * A persistent store of this binary's schema reply: used without GetSchema only when the
   * stored reply has `get_provider_schema_optional` (and, with the `metadata` check,
   * GetMetadata still lists the same capabilities and type names); otherwise GetSchema is
   * called and the store rewritten.
   */
  readonly schemaStore?: SchemaStore;
  /**
   * Provider configurations this exact binary already validated with no diagnostics (in
   * the same environment), whose validation `configure` may skip: SDKv2's
   * PrepareProviderConfig alone takes seconds for hashicorp/aws with an `endpoints` block.
   */
  readonly validationMemory?: ValidationMemory;
}

const EMPTY = new Uint8Array(0);
/**
 * The {@link Provider} contract over a tfplugin5 or tfplugin6 connection: one
 * implementation for both protocol versions.
 *
 * Values are encoded and decoded with the schema's implied types; private state is passed
 * through as given; warnings are returned on results; error diagnostics reject with
 * `diagnostics`; the apply outcome comes from the contract's shared classifier (so a
 * partial apply rejects with `partially_applied` carrying the new state); gRPC failures map
 * to `transport`, `plugin_exited`, `canceled` or `deadline_exceeded`. Every call but
 * `getSchema` rejects with `not_configured` before `configure` has succeeded, without
 * reaching the provider. Calls may run concurrently.
 *
 * It is also a {@link FunctionCaller}: `callFunction` over CallFunction (protocol 5.5/6.5
 * and later), with no `configure` needed, as in Terraform; an `EphemeralResourceOpener`
 * over the ephemeral resource RPCs (protocol 5.7/6.7 and later); and a
 * {@link ConfigValidator} over the Validate*Config RPCs, whose results the plan's own
 * validations reuse (the same configuration bytes are validated once per connection).
 *
 * @internal Made by `dialProvider` (and `providerConnOver`); exported as the {@link ProviderConn} type.
 */
export class WireProviderConn implements ProviderConn, ConfigValidator {
  readonly #wire: WireClient;
  readonly #plugin: CallErrorContext;
  readonly #options: WireProviderConnOptions;
  #schema: Promise<ProviderSchema> | undefined;
  /** The schema once {@link WireProviderConn.getSchema} has resolved (saves an await per call). */
  #resolvedSchema: ProviderSchema | undefined;
  /** The encoded null provider meta, for the schema it was encoded with. */
  #nullMeta: { readonly schema: ProviderSchema; readonly dv: ProtoDynamicValue } | undefined;
  #configured = false;
  readonly #gate: CallGate;
  readonly #validated = new ValidationCache();
  /** The same, by the encoded bytes themselves (see {@link WireProviderConn.#knownValidation}). */
  readonly #validatedBytes = new ValidationsByBytes();

  /** @internal Made by `dialProvider`; not for direct use. */
  constructor(wire: WireClient, plugin: CallErrorContext, options: WireProviderConnOptions = {}) {
    this.#wire = wire;
    this.#plugin = plugin;
    this.#options = options;
    this.#gate = options.callGate ?? new CallGate(plugin, callGateOptions(options));
  }

  /** The negotiated protocol version (5 or 6). */
  get protocolVersion(): 5 | 6 {
    return this.#wire.version;
  }

  /** Whether `configure` has succeeded. */
  get configured(): boolean {
    return this.#configured;
  }

  /** How many calls are under way: sent and not yet answered, or waiting to be sent. */
  get inflight(): number {
    return this.#gate.active + this.#gate.queued;
  }

  /** {@inheritDoc @magma/provider-api#Provider.getSchema} */
  getSchema(options?: GetSchemaOptions): Promise<ProviderSchema> {
    if (this.#schema === undefined) {
      const cached = this.#options.cachedSchema;
      const p =
        cached !== undefined && cached.serverCapabilities.getProviderSchemaOptional
          ? Promise.resolve(cached)
          : this.#fetchSchema(options?.signal);
      this.#schema = p;
      p.then(
        (schema) => {
          if (this.#schema === p) this.#resolvedSchema = schema;
        },
        () => undefined,
      );
      p.catch(() => {
        if (this.#schema === p) this.#schema = undefined; // let a later call try again
      });
    }
    return this.#schema;
  }

  /**
   * Asks the provider to stop every operation under way (StopProvider / Stop): the one
   * provider-wide cancellation, as Terraform sends it when the whole operation is
   * interrupted. Per-call signals and time limits never send it. Beware: SDKv2 providers
   * (hashicorp/aws among them) cancel every call in flight and keep their stop context
   * cancelled afterwards, so later calls on this process may fail too; close it after.
   * Not queued behind other calls. Resolves once the provider answered, with its error
   * text (empty when it stopped cleanly).
   */
  async stop(): Promise<string> {
    try {
      const r = await this.#wire.stopProvider({});
      return r.Error;
    } catch (e) {
      throw await errorFromCall(e, this.#plugin, "StopProvider");
    }
  }

  /** {@inheritDoc @magma/provider-api#Provider.configure} */
  async configure(config: Value, terraformVersion: string, options?: ConfigureOptions): Promise<ConfigureResult> {
    const schema = await this.getSchema(options);
    this.#plugin.secrets?.rememberProviderConfig(schema.provider.block, config);
    const dv = encode(config, schema.provider.type, "the provider configuration");
    const diags: Diag[] = [];
    if (this.#options.validate !== false) {
      const memory = this.#options.validationMemory;
      const known = memory !== undefined && (await memory.isKnownValid(dv.msgpack));
      if (!known) {
        const v = await this.#call("ValidateProviderConfig", options?.signal, (o) => this.#wire.validateProviderConfig(dv, o));
        diags.push(...this.#diags(v.diagnostics, "ValidateProviderConfig"));
        if (hasErrors(diags)) throw diagnosticsError(diags, "configure");
        // Only a validation with no diagnostics at all is remembered: warnings always show.
        if (memory !== undefined && v.diagnostics.length === 0) memory.rememberValid(dv.msgpack).catch(() => undefined);
      }
    }
    const r = await this.#call("ConfigureProvider", options?.signal, (o) =>
      this.#wire.configureProvider({ terraformVersion, config: dv, clientCapabilities: capabilities(options?.deferralAllowed) }, o),
    );
    diags.push(...this.#diags(r.diagnostics, "ConfigureProvider"));
    if (hasErrors(diags)) throw diagnosticsError(diags, "configure");
    this.#configured = true;
    return { warnings: warningsOf(diags) };
  }

  /** {@inheritDoc @magma/provider-api#Provider.planResourceChange} */
  async planResourceChange(
    typeName: string,
    priorState: Value,
    proposedNewState: Value,
    config: Value,
    options?: PlanOptions,
  ): Promise<PlannedChange> {
    this.#requireConfigured("planResourceChange");
    const entry = await this.#resource(typeName, options?.signal);
    this.#see(entry, priorState, proposedNewState, config);
    const t = entry.type;
    const prior = encode(priorState, t, "the prior state");
    const proposed = encode(proposedNewState, t, "the proposed new state");
    const cfg = encode(config, t, "the configuration");
    const warnings: Diag[] = [];
    if (!config.isNull()) {
      warnings.push(...(this.#knownValidation("r", typeName, cfg) ?? (await this.#validateResource(typeName, cfg, options?.signal))));
    }
    const req: Parameters<WireClient["planResourceChange"]>[0] = {
      typeName,
      priorState: prior,
      proposedNewState: proposed,
      config: cfg,
      priorPrivate: options?.priorPrivate ?? EMPTY,
      clientCapabilities: capabilities(options?.deferralAllowed),
    };
    const pending = this.#providerMeta(options?.providerMeta);
    const meta = pending instanceof Promise ? await pending : pending;
    if (meta !== undefined) req.providerMeta = meta;
    const r = await this.#call("PlanResourceChange", options?.signal, (o) => this.#wire.planResourceChange(req, o));
    const diags = [...warnings, ...this.#diags(r.diagnostics, "PlanResourceChange")];
    if (hasErrors(diags)) throw diagnosticsError(diags, `plan of ${typeName}`);
    const plannedState = decode(r.plannedState, t, "PlanResourceChange", "planned state");
    this.#see(entry, plannedState);
    const requiresReplace = r.requiresReplace.map((p, i) => {
      const path = pathFromProto(p, "PlanResourceChange");
      if (path === undefined) throw invalidResponseError(`requires_replace path ${i} is empty`, { operation: "PlanResourceChange" });
      return path;
    });
    const out: { -readonly [K in keyof PlannedChange]: PlannedChange[K] } = {
      plannedState,
      requiresReplace,
      plannedPrivate: r.plannedPrivate,
      legacyTypeSystem: r.legacyTypeSystem,
      warnings: warningsOf(diags),
    };
    const deferred = deferredFromProto(r.deferred, "PlanResourceChange");
    if (deferred !== undefined) out.deferred = deferred;
    return out;
  }

  /** {@inheritDoc @magma/provider-api#Provider.applyResourceChange} */
  async applyResourceChange(
    typeName: string,
    priorState: Value,
    plannedState: Value,
    config: Value,
    options?: ApplyOptions,
  ): Promise<ApplyResult> {
    this.#requireConfigured("applyResourceChange");
    const entry = await this.#resource(typeName, options?.signal);
    this.#see(entry, plannedState, config);
    const t = entry.type;
    const req: Parameters<WireClient["applyResourceChange"]>[0] = {
      typeName,
      priorState: encode(priorState, t, "the prior state"),
      plannedState: encode(plannedState, t, "the planned state"),
      config: encode(config, t, "the configuration"),
      plannedPrivate: options?.plannedPrivate ?? EMPTY,
    };
    const pending = this.#providerMeta(options?.providerMeta);
    const meta = pending instanceof Promise ? await pending : pending;
    if (meta !== undefined) req.providerMeta = meta;
    const r = await this.#call("ApplyResourceChange", options?.signal, (o) => this.#wire.applyResourceChange(req, o));
    const diags = this.#diags(r.diagnostics, "ApplyResourceChange");
    // Decode the new state before judging the outcome: a partial apply must carry it.
    const newState = r.newState === undefined ? undefined : decode(r.newState, t, "ApplyResourceChange", "new state");
    if (newState !== undefined) this.#see(entry, newState);
    const outcome = classifyApplyOutcome(
      { newState, private: r.private, diagnostics: diags, legacyTypeSystem: r.legacyTypeSystem },
      { typeName, type: t, isDelete: plannedState.isNull() },
    );
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  /** {@inheritDoc @magma/provider-api#Provider.readResource} */
  async readResource(typeName: string, currentState: Value, options?: ReadResourceOptions): Promise<ReadResourceResult> {
    this.#requireConfigured("readResource");
    const entry = await this.#resource(typeName, options?.signal);
    this.#see(entry, currentState);
    const t = entry.type;
    const req: Parameters<WireClient["readResource"]>[0] = {
      typeName,
      currentState: encode(currentState, t, "the current state"),
      private: options?.private ?? EMPTY,
      clientCapabilities: capabilities(options?.deferralAllowed),
    };
    const pending = this.#providerMeta(options?.providerMeta);
    const meta = pending instanceof Promise ? await pending : pending;
    if (meta !== undefined) req.providerMeta = meta;
    const r = await this.#call("ReadResource", options?.signal, (o) => this.#wire.readResource(req, o));
    const diags = this.#diags(r.diagnostics, "ReadResource");
    if (hasErrors(diags)) throw diagnosticsError(diags, `read of ${typeName}`);
    // Terraform normalises every read object (NormalizeObjectFromLegacySDK): block
    // collections are never null or unknown in the state it records.
    const read = decode(r.newState, t, "ReadResource", "new state");
    const newState = read.isNull() ? read : normalizeLegacyObject(entry.block, read);
    this.#see(entry, newState);
    const deferred = deferredFromProto(r.deferred, "ReadResource");
    // A null state is the object gone (not an error; the warnings still reach the caller) —
    // unless the read was deferred.
    if (newState.isNull() && deferred === undefined) return { gone: true, warnings: warningsOf(diags) };
    const out: { -readonly [K in keyof ReadResourceFound]: ReadResourceFound[K] } = {
      gone: false,
      newState,
      private: r.private,
      warnings: warningsOf(diags),
    };
    if (deferred !== undefined) out.deferred = deferred;
    return out;
  }

  /** {@inheritDoc @magma/provider-api#Provider.readDataSource} */
  async readDataSource(typeName: string, config: Value, options?: ReadDataSourceOptions): Promise<ReadDataSourceResult> {
    this.#requireConfigured("readDataSource");
    const schema = this.#resolvedSchema ?? (await this.getSchema(options));
    const entry = schema.dataSources.get(typeName);
    if (entry === undefined) throw unknownTypeError("data_source", typeName);
    this.#see(entry, config);
    const t = entry.type;
    const cfg = encode(config, t, "the configuration");
    const warnings = this.#knownValidation("d", typeName, cfg) ?? (await this.#validateDataSource(typeName, cfg, options?.signal));
    const req: Parameters<WireClient["readDataSource"]>[0] = {
      typeName,
      config: cfg,
      clientCapabilities: capabilities(options?.deferralAllowed),
    };
    const pending = this.#providerMeta(options?.providerMeta);
    const meta = pending instanceof Promise ? await pending : pending;
    if (meta !== undefined) req.providerMeta = meta;
    const r = await this.#call("ReadDataSource", options?.signal, (o) => this.#wire.readDataSource(req, o));
    const diags = [...warnings, ...this.#diags(r.diagnostics, "ReadDataSource")];
    if (hasErrors(diags)) throw diagnosticsError(diags, `read of data source ${typeName}`);
    const out: { -readonly [K in keyof ReadDataSourceResult]: ReadDataSourceResult[K] } = {
      state: decode(r.state, t, "ReadDataSource", "state"),
      warnings: warningsOf(diags),
    };
    this.#see(entry, out.state);
    const deferred = deferredFromProto(r.deferred, "ReadDataSource");
    if (deferred !== undefined) out.deferred = deferred;
    return out;
  }

  /** {@inheritDoc @magma/provider-api#Provider.importResourceState} */
  async importResourceState(typeName: string, id: string, options?: ImportOptions): Promise<ImportResult | null> {
    this.#requireConfigured("importResourceState");
    const schema = await this.getSchema(options);
    if (!schema.resources.has(typeName)) throw unknownTypeError("resource", typeName);
    const r = await this.#call("ImportResourceState", options?.signal, (o) =>
      this.#wire.importResourceState({ typeName, id, clientCapabilities: capabilities(options?.deferralAllowed) }, o),
    );
    const diags = this.#diags(r.diagnostics, "ImportResourceState");
    if (hasErrors(diags)) throw diagnosticsError(diags, `import of ${typeName}`);
    const deferred = deferredFromProto(r.deferred, "ImportResourceState");
    if (r.importedResources.length === 0 && deferred === undefined) return null;
    const resources = r.importedResources.map((ir, i) => {
      // Each imported object is decoded with the schema of its own type (Terraform core
      // uses the requested type's schema, which is wrong when a provider returns others).
      const own = schema.resources.get(ir.typeName);
      if (own === undefined) {
        throw invalidResponseError(`imported resource ${i} has type ${JSON.stringify(ir.typeName)}, which the schema does not have`, {
          operation: "ImportResourceState",
        });
      }
      const state = decode(ir.state, own.type, "ImportResourceState", `state of imported resource ${i}`);
      this.#see(own, state);
      if (state.isNull()) {
        throw invalidResponseError(`imported resource ${i} (${ir.typeName}) has a null state`, { operation: "ImportResourceState" });
      }
      return { typeName: ir.typeName, state, private: ir.private };
    });
    const out: { -readonly [K in keyof ImportResult]: ImportResult[K] } = { resources, warnings: warningsOf(diags) };
    if (deferred !== undefined) out.deferred = deferred;
    return out;
  }

  /** {@inheritDoc @magma/provider-api#Provider.upgradeResourceState} */
  async upgradeResourceState(typeName: string, storedVersion: number, rawJson: string, options?: UpgradeOptions): Promise<UpgradeResult> {
    this.#requireConfigured("upgradeResourceState");
    const entry = await this.#resource(typeName, options?.signal);
    if (!Number.isSafeInteger(storedVersion) || storedVersion < 0) {
      throw schemaError(`stored schema version must be a non-negative integer, got ${storedVersion}`);
    }
    if (storedVersion > entry.version) {
      // As Terraform: state written by a newer provider cannot be read by this one.
      throw schemaError(
        `the stored state of ${typeName} has schema version ${storedVersion}, newer than this provider's ${entry.version}: use a newer provider`,
      );
    }
    const json = new TextEncoder().encode(rawJson);
    const r = await this.#call("UpgradeResourceState", options?.signal, (o) =>
      this.#wire.upgradeResourceState({ typeName, version: BigInt(storedVersion), rawState: { json } }, o),
    );
    const diags = this.#diags(r.diagnostics, "UpgradeResourceState");
    if (hasErrors(diags)) throw diagnosticsError(diags, `upgrade of ${typeName}`);
    const upgradedState = decode(r.upgradedState, entry.type, "UpgradeResourceState", "upgraded state");
    this.#see(entry, upgradedState);
    return { upgradedState, warnings: warningsOf(diags) };
  }

  /**
   * {@inheritDoc @magma/provider-api#FunctionCaller.callFunction}
   *
   * Over CallFunction, with the signature from the schema's `functions`: arguments checked
   * as Terraform checks them and encoded with their parameters' types, the result decoded
   * with the return type. Needs no `configure` (Terraform calls functions on an unconfigured
   * provider).
   */
  async callFunction(name: string, args: readonly Value[], options?: CallFunctionOptions): Promise<Value> {
    const schema = this.#resolvedSchema ?? (await this.getSchema(options));
    const signature = functionSignature(schema, name);
    const skipped = checkFunctionCall(name, signature, args);
    if (skipped !== undefined) return skipped;
    const req = { name, arguments: functionArgumentsToProto(name, signature, args) };
    const r = await this.#call("CallFunction", options?.signal, (o) => this.#wire.callFunction(req, o));
    return functionResultFromProto(name, signature, r, args.length);
  }

  /**
   * The provider's function signatures as GetFunctions returns them (protocol 5.5/6.5 and
   * later), without the rest of the schema. The schema's `functions` carry the same
   * signatures, and Terraform itself never calls GetFunctions: prefer them. Beware:
   * providers built with terraform-plugin-mux (hashicorp/aws 5.x among them) register their
   * functions a second time on GetFunctions, and from then on answer every CallFunction of
   * that process with "Duplicate function" errors.
   *
   * @throws ProviderError `diagnostics` when the reply carries errors, `schema` when a
   * signature does not decode, `transport` (gRPC `unimplemented`) from an older provider.
   */
  async getFunctions(options?: CallFunctionOptions): Promise<{ readonly functions: ReadonlyMap<string, FunctionSignature>; readonly warnings: readonly Diag[] }> {
    const r = await this.#call("GetFunctions", options?.signal, (o) => this.#wire.getFunctions(o));
    const diags = this.#diags(r.diagnostics, "GetFunctions");
    if (hasErrors(diags)) throw diagnosticsError(diags, "getFunctions");
    const functions = new Map(Object.entries(r.functions).map(([name, f]) => [name, functionFromProto(f, name)] as const));
    return { functions, warnings: warningsOf(diags) };
  }

  /**
   * {@inheritDoc @magma/provider-api#ConfigValidator.validateProviderConfig}
   *
   * Over ValidateProviderConfig (PrepareProviderConfig on protocol 5); needs no `configure`.
   * A configuration the connection's validation memory knows as clean (validated with no
   * diagnostics by this binary) is not sent again. With the `validate: false` option, no call.
   */
  async validateProviderConfig(config: Value, options?: ValidateConfigOptions): Promise<ConfigValidation> {
    if (this.#options.validate === false) return { warnings: [] };
    const schema = this.#resolvedSchema ?? (await this.getSchema(options));
    const dv = encode(config, schema.provider.type, "the provider configuration");
    const memory = this.#options.validationMemory;
    if (memory !== undefined && (await memory.isKnownValid(dv.msgpack))) return { warnings: [] };
    const v = await this.#call("ValidateProviderConfig", options?.signal, (o) => this.#wire.validateProviderConfig(dv, o));
    const diags = this.#diags(v.diagnostics, "ValidateProviderConfig");
    if (hasErrors(diags)) throw diagnosticsError(diags, "validation of the provider configuration");
    if (memory !== undefined && v.diagnostics.length === 0) memory.rememberValid(dv.msgpack).catch(() => undefined);
    return { warnings: diags };
  }

  /**
   * {@inheritDoc @magma/provider-api#ConfigValidator.validateResourceConfig}
   *
   * Over ValidateResourceConfig; needs no `configure`. Remembered: a plan of the same
   * configuration (bytes) gets the same warnings without asking again.
   */
  async validateResourceConfig(typeName: string, config: Value, options?: ValidateConfigOptions): Promise<ConfigValidation> {
    const entry = await this.#resource(typeName, options?.signal);
    const cfg = encode(config, entry.type, "the configuration");
    return { warnings: this.#knownValidation("r", typeName, cfg) ?? (await this.#validateResource(typeName, cfg, options?.signal)) };
  }

  /**
   * {@inheritDoc @magma/provider-api#ConfigValidator.validateDataResourceConfig}
   *
   * Over ValidateDataResourceConfig; needs no `configure`. Remembered as
   * {@link WireProviderConn.validateResourceConfig}'s are.
   */
  async validateDataResourceConfig(typeName: string, config: Value, options?: ValidateConfigOptions): Promise<ConfigValidation> {
    const schema = this.#resolvedSchema ?? (await this.getSchema(options));
    const entry = schema.dataSources.get(typeName);
    if (entry === undefined) throw unknownTypeError("data_source", typeName);
    const cfg = encode(config, entry.type, "the configuration");
    return { warnings: this.#knownValidation("d", typeName, cfg) ?? (await this.#validateDataSource(typeName, cfg, options?.signal)) };
  }

  /**
   * {@inheritDoc @magma/provider-api#EphemeralResourceOpener.validateEphemeralResourceConfig}
   *
   * Over ValidateEphemeralResourceConfig (protocol 5.7/6.7 and later); needs no `configure`.
   */
  async validateEphemeralResourceConfig(typeName: string, config: Value, options?: EphemeralCallOptions): Promise<EphemeralWarnings> {
    const entry = ephemeralResourceSchema(this.#resolvedSchema ?? (await this.getSchema(options)), typeName);
    const cfg = encode(config, entry.type, "the configuration");
    const r = await this.#call("ValidateEphemeralResourceConfig", options?.signal, (o) => this.#wire.validateEphemeralResourceConfig({ typeName, config: cfg }, o));
    const diags = this.#diags(r.diagnostics, "ValidateEphemeralResourceConfig");
    if (hasErrors(diags)) throw diagnosticsError(diags, `validation of ephemeral resource ${typeName}`);
    return { warnings: warningsOf(diags) };
  }

  /**
   * {@inheritDoc @magma/provider-api#EphemeralResourceOpener.openEphemeralResource}
   *
   * Over OpenEphemeralResource; the result is decoded with the type's implied type, and
   * its sensitive values are kept out of crash reports like any other.
   */
  async openEphemeralResource(typeName: string, config: Value, options?: OpenEphemeralOptions): Promise<OpenEphemeralResult> {
    this.#requireConfigured("openEphemeralResource");
    const entry = ephemeralResourceSchema(this.#resolvedSchema ?? (await this.getSchema(options)), typeName);
    this.#see(entry, config);
    const cfg = encode(config, entry.type, "the configuration");
    const r = await this.#call("OpenEphemeralResource", options?.signal, (o) =>
      this.#wire.openEphemeralResource({ typeName, config: cfg, clientCapabilities: capabilities(options?.deferralAllowed) }, o),
    );
    const diags = this.#diags(r.diagnostics, "OpenEphemeralResource");
    if (hasErrors(diags)) throw diagnosticsError(diags, `open of ephemeral resource ${typeName}`);
    const deferred = deferredFromProto(r.deferred, "OpenEphemeralResource");
    const result = decode(r.result, entry.type, "OpenEphemeralResource", "result");
    this.#see(entry, result);
    if (deferred === undefined && !result.isWhollyKnown()) {
      throw invalidResponseError(`open of ephemeral resource ${typeName} returned unknown values`, { operation: "OpenEphemeralResource" });
    }
    const out: { -readonly [K in keyof OpenEphemeralResult]: OpenEphemeralResult[K] } = { result, private: r.private ?? EMPTY, warnings: warningsOf(diags) };
    const renewAt = timestampFromProto(r.renewAt);
    if (renewAt !== undefined) out.renewAt = renewAt;
    if (deferred !== undefined) out.deferred = deferred;
    return out;
  }

  /** {@inheritDoc @magma/provider-api#EphemeralResourceOpener.renewEphemeralResource} */
  async renewEphemeralResource(typeName: string, privateData: Uint8Array, options?: EphemeralCallOptions): Promise<RenewEphemeralResult> {
    this.#requireConfigured("renewEphemeralResource");
    ephemeralResourceSchema(this.#resolvedSchema ?? (await this.getSchema(options)), typeName);
    const r = await this.#call("RenewEphemeralResource", options?.signal, (o) => this.#wire.renewEphemeralResource({ typeName, private: privateData }, o));
    const diags = this.#diags(r.diagnostics, "RenewEphemeralResource");
    if (hasErrors(diags)) throw diagnosticsError(diags, `renewal of ephemeral resource ${typeName}`);
    const out: { -readonly [K in keyof RenewEphemeralResult]: RenewEphemeralResult[K] } = { private: r.private ?? privateData, warnings: warningsOf(diags) };
    const renewAt = timestampFromProto(r.renewAt);
    if (renewAt !== undefined) out.renewAt = renewAt;
    return out;
  }

  /** {@inheritDoc @magma/provider-api#EphemeralResourceOpener.closeEphemeralResource} */
  async closeEphemeralResource(typeName: string, privateData: Uint8Array, options?: EphemeralCallOptions): Promise<EphemeralWarnings> {
    this.#requireConfigured("closeEphemeralResource");
    ephemeralResourceSchema(this.#resolvedSchema ?? (await this.getSchema(options)), typeName);
    const r = await this.#call("CloseEphemeralResource", options?.signal, (o) => this.#wire.closeEphemeralResource({ typeName, private: privateData }, o));
    const diags = this.#diags(r.diagnostics, "CloseEphemeralResource");
    if (hasErrors(diags)) throw diagnosticsError(diags, `close of ephemeral resource ${typeName}`);
    return { warnings: warningsOf(diags) };
  }

  // -------------------------------------------------------------------------------------

  async #fetchSchema(signal: AbortSignalLike | undefined): Promise<ProviderSchema> {
    const store = this.#options.schemaStore;
    if (store !== undefined) {
      const cached = await this.#cachedSchema(store, signal);
      if (cached !== undefined) return cached;
    }
    const op = "GetProviderSchema";
    const r = await this.#call(op, signal, (o) => this.#wire.getProviderSchema(o));
    const schema = schemaFromReply(r, this.#wire);
    if (store !== undefined) saveSchemaReply(store, this.#wire.version, r);
    return schema;
  }

  /** The stored schema when it may be used without GetSchema (see `loadStoredSchema`). */
  #cachedSchema(store: SchemaStore, signal: AbortSignalLike | undefined): Promise<ProviderSchema | undefined> {
    return loadStoredSchema(store, this.#wire.version, () => this.#call("GetMetadata", signal, (o) => this.#wire.getMetadata(o)), signal);
  }

  /** Records the sensitive values of these values of one type, to keep them out of crash reports. */
  #see(entry: SchemaEntry, ...values: Value[]): void {
    const secrets = this.#plugin.secrets;
    if (secrets === undefined) return;
    for (const v of values) secrets.rememberSensitive(entry.block, v);
  }

  #requireConfigured(operation: string): void {
    if (!this.#configured) throw notConfiguredError(operation);
  }

  async #resource(typeName: string, signal: AbortSignalLike | undefined): Promise<SchemaEntry> {
    const schema = this.#resolvedSchema ?? (await this.getSchema(signal === undefined ? undefined : { signal }));
    const entry = schema.resources.get(typeName);
    if (entry === undefined) throw unknownTypeError("resource", typeName);
    return entry;
  }

  /** The provider meta to send: synchronous once the schema is known (no await on the hot path). */
  #providerMeta(meta: Value | undefined): ProtoDynamicValue | undefined | Promise<ProtoDynamicValue | undefined> {
    const metaFor = (schema: ProviderSchema): ProtoDynamicValue | undefined => {
      if (schema.providerMeta === undefined) return undefined; // sent only when declared, as Terraform does
      if (meta !== undefined) return encode(meta, schema.providerMeta.type, "the provider meta");
      // Most calls send no meta: its null is encoded once per schema, not per call.
      const hit = this.#nullMeta;
      if (hit !== undefined && hit.schema === schema) return hit.dv;
      const dv = encode(nullVal(schema.providerMeta.type), schema.providerMeta.type, "the provider meta");
      this.#nullMeta = { schema, dv };
      return dv;
    };
    const known = this.#resolvedSchema;
    return known !== undefined ? metaFor(known) : this.getSchema().then(metaFor);
  }

  #diags(diags: readonly ProtoDiagnostic[], operation: string): Diag[] {
    return diagsFromProto(diags, operation);
  }

  /**
   * The remembered diagnostics of a validation of exactly these bytes, found without
   * building a key (the bytes of a value sent before are the same object), or `undefined`.
   */
  #knownValidation(kind: "r" | "d", typeName: string, cfg: ProtoDynamicValue): readonly Diag[] | undefined {
    if (this.#options.validate === false) return [];
    return this.#validatedBytes.get(cfg.msgpack, `${kind}:${typeName}`);
  }

  async #validateResource(typeName: string, cfg: ProtoDynamicValue, signal: AbortSignalLike | undefined): Promise<readonly Diag[]> {
    if (this.#options.validate === false) return [];
    const key = this.#validated.keyOf("r", typeName, cfg.msgpack);
    const hit = this.#validated.get(key);
    if (hit !== undefined) return this.#rememberBytes(cfg, `r:${typeName}`, hit);
    const r = await this.#call("ValidateResourceConfig", signal, (o) =>
      this.#wire.validateResourceConfig({ typeName, config: cfg, clientCapabilities: capabilities(false) }, o),
    );
    return this.#rememberBytes(cfg, `r:${typeName}`, this.#remember(key, this.#diags(r.diagnostics, "ValidateResourceConfig"), `validation of ${typeName}`));
  }

  async #validateDataSource(typeName: string, cfg: ProtoDynamicValue, signal: AbortSignalLike | undefined): Promise<readonly Diag[]> {
    if (this.#options.validate === false) return [];
    const key = this.#validated.keyOf("d", typeName, cfg.msgpack);
    const hit = this.#validated.get(key);
    if (hit !== undefined) return this.#rememberBytes(cfg, `d:${typeName}`, hit);
    const r = await this.#call("ValidateDataResourceConfig", signal, (o) => this.#wire.validateDataResourceConfig({ typeName, config: cfg }, o));
    return this.#rememberBytes(cfg, `d:${typeName}`, this.#remember(key, this.#diags(r.diagnostics, "ValidateDataResourceConfig"), `validation of data source ${typeName}`));
  }

  #rememberBytes(cfg: ProtoDynamicValue, kind: string, diags: readonly Diag[]): readonly Diag[] {
    return this.#validatedBytes.remember(cfg.msgpack, kind, diags);
  }

  #remember(key: string, diags: Diag[], what: string): readonly Diag[] {
    if (hasErrors(diags)) throw diagnosticsError(diags, what);
    this.#validated.set(key, diags);
    return diags;
  }

  /**
   * Runs one RPC through the connection's {@link CallGate}: bounded concurrency, the
   * caller's cancellation and the optional per-call time limit (each cancels only this
   * call's stream, never the provider), error mapping, and settling when the connection ends.
   */
  #call<T>(method: string, signal: AbortSignalLike | undefined, fn: (o: CallOptions) => Promise<T>): Promise<T> {
    return this.#gate.run(method, signal, fn);
  }
}


function callGateOptions(options: WireProviderConnOptions): CallGateOptions {
  const out: { -readonly [K in keyof CallGateOptions]: CallGateOptions[K] } = {};
  if (options.maxConcurrentCalls !== undefined) out.maxConcurrentCalls = options.maxConcurrentCalls;
  if (options.callTimeoutMs !== undefined) out.callTimeoutMs = options.callTimeoutMs;
  if (options.label !== undefined) out.label = options.label;
  return out;
}

function capabilities(deferralAllowed: boolean | undefined): ClientCapabilitiesInit {
  // Terraform 1.11 always allows write-only attributes; deferral only when the caller
  // handles it (a deferred result it cannot handle would be reported as an error).
  return { deferralAllowed: deferralAllowed === true, writeOnlyAttributesAllowed: true };
}

/**
 * Encodings of values already sent, by value and type. Values are immutable, so an engine
 * that sends the same configuration or state again (a data source read in a loop, a re-plan)
 * does not pay for encoding it again; the bytes are never mutated after encoding.
 */
const encodings = new WeakMap<Value, { readonly type: Type; readonly dv: ProtoDynamicValue }>();

function encode(value: Value, type: Type, what: string): ProtoDynamicValue {
  const hit = encodings.get(value);
  if (hit !== undefined && hit.type === type) return hit.dv;
  try {
    const dv = dynamicValueToProto(value, type);
    encodings.set(value, { type, dv });
    return dv;
  } catch (e) {
    if (isPathError(e)) {
      throw schemaError(`${what} does not conform to the schema: ${e.message}`, { path: e.path, cause: e });
    }
    throw e;
  }
}

function decode(dv: ProtoDynamicValue | undefined, type: Type, operation: string, what: string): Value {
  try {
    return dynamicValueFromProto(dv, type);
  } catch (e) {
    if (isPathError(e)) {
      throw invalidResponseError(`the ${what} does not decode: ${e.message}`, { operation, path: e.path, cause: e });
    }
    throw e;
  }
}


