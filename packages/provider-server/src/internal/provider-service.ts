import type { ServiceImpl } from "@connectrpc/connect";
import { formatErrorPath, isPathError, nullVal, type Path, type Type, type Value } from "@magma/cty";
import {
  deferredToProto,
  diagsToProto,
  dynamicValueFromProto,
  dynamicValueToProto,
  pathToProto,
  schemaEntryToProto,
  type ApplyResponse,
  type DiagnosticsResponse,
  type ImportResponse,
  type MetadataResponse,
  type PlanResponse,
  type ProtoDiagnostic,
  type ProtoDynamicValue,
  type ProtoSchema,
  type ReadDataResponse,
  type ReadResponse,
  type SchemaResponse,
  type Tfplugin5Provider,
  type Tfplugin6Provider,
  type UpgradeResponse,
} from "@magma/tfplugin";
import { errorDiag, isProviderError, type Diag, type Provider, type ProviderSchema, type SchemaEntry } from "@magma/provider-api";
import { createFunctionHandlers } from "./function-service.js";
import type { HclogLogger } from "./hclog.js";

const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder();

/** Request shapes read by the handlers (the same field names in tfplugin5 and tfplugin6). */
interface ClientCaps {
  deferralAllowed: boolean;
}
interface DynamicValueIn {
  msgpack: Uint8Array;
  json: Uint8Array;
}


/** A problem with a request value: becomes one error diagnostic. */
class RequestProblem extends Error {
  readonly diag: Diag;
  constructor(diag: Diag) {
    super(diag.summary);
    this.diag = diag;
  }
}

/**
 * The handlers of `tfplugin5.Provider` and `tfplugin6.Provider` over a {@link Provider}:
 * values decoded and encoded with the provider's own schema, the contract's outcomes turned
 * into diagnostics, StopProvider cancelling calls in flight. RPCs not listed here are left
 * to the router, which answers UNIMPLEMENTED.
 *
 * @internal
 */
export interface ProviderHandlers {
  readonly v5: Partial<ServiceImpl<typeof Tfplugin5Provider>>;
  readonly v6: Partial<ServiceImpl<typeof Tfplugin6Provider>>;
}

/** @internal */
export function createProviderHandlers(provider: Provider, logger: HclogLogger): ProviderHandlers {
  let schemaPromise: Promise<ProviderSchema> | undefined;
  let stop = new AbortController();

  const schema = (): Promise<ProviderSchema> => {
    schemaPromise ??= provider.getSchema();
    const p = schemaPromise;
    p.catch(() => {
      if (schemaPromise === p) schemaPromise = undefined;
    });
    return p;
  };

  /** The signal of one call: the client's cancellation or StopProvider, whichever fires first. */
  const callSignal = (client: AbortSignal): AbortSignal => AbortSignal.any([client, stop.signal]);

  const trace = (rpc: string, fields: Record<string, unknown> = {}): void => logger.log("debug", `Received request`, { tf_rpc: rpc, ...fields });
  const functions = createFunctionHandlers(provider, schema, callSignal, trace, logger);

  /** Runs a handler body; any thrown error becomes diagnostics on the response built by `onError`. */
  async function guard<R>(rpc: string, body: () => Promise<R>, onError: (diags: ProtoDiagnostic[], e: unknown) => R): Promise<R> {
    try {
      return await body();
    } catch (e) {
      const diags = diagsFromError(e);
      logger.log(hasError(diags) ? "warn" : "debug", `${rpc} returned errors`, { tf_rpc: rpc, error: e instanceof Error ? e.message : String(e) });
      return onError(diagsToProto(diags), e);
    }
  }

  const resourceEntry = async (typeName: string): Promise<SchemaEntry> => {
    const s = await schema();
    const e = s.resources.get(typeName);
    if (e === undefined) throw new RequestProblem(errorDiag("Unknown resource type", `The provider has no resource type ${JSON.stringify(typeName)}.`));
    return e;
  };
  const dataSourceEntry = async (typeName: string): Promise<SchemaEntry> => {
    const s = await schema();
    const e = s.dataSources.get(typeName);
    if (e === undefined) throw new RequestProblem(errorDiag("Unknown data source", `The provider has no data source ${JSON.stringify(typeName)}.`));
    return e;
  };
  const meta = async (dv: DynamicValueIn | undefined): Promise<{ providerMeta?: Value }> => {
    const s = await schema();
    if (s.providerMeta === undefined || dv === undefined) return {};
    return { providerMeta: decode(dv, s.providerMeta.type, "provider_meta") };
  };

  // ---- the version-neutral handlers -----------------------------------------------------

  const getMetadata = (): Promise<Partial<MetadataResponse>> => {
    trace("GetMetadata");
    return guard(
      "GetMetadata",
      async () => {
        const s = await schema();
        return {
          serverCapabilities: SERVER_CAPABILITIES,
          resources: [...s.resources.keys()].map((typeName) => ({ typeName })),
          dataSources: [...s.dataSources.keys()].map((typeName) => ({ typeName })),
          functions: [...functions.served(s).keys()].map((name) => ({ name })),
          diagnostics: diagsToProto(s.warnings),
        };
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const getProviderSchema = (version: 5 | 6) => (): Promise<Partial<SchemaResponse>> => {
    trace("GetProviderSchema");
    return guard(
      "GetProviderSchema",
      async () => {
        const s = await schema();
        // Ephemeral resources, which a ProviderSchema may describe, are left out on purpose:
        // the contract has no operations to open, renew or close them, so advertising them
        // would have Terraform send RPCs this server cannot answer. Functions are served
        // only by a provider that can call them (a FunctionCaller).
        const map = (m: ReadonlyMap<string, SchemaEntry>): Record<string, ProtoSchema> => {
          const out: Record<string, ProtoSchema> = {};
          for (const [k, e] of m) out[k] = schemaEntryToProto(e, version);
          return out;
        };
        const out: SchemaResponse = {
          provider: schemaEntryToProto(s.provider, version),
          resourceSchemas: map(s.resources),
          dataSourceSchemas: map(s.dataSources),
          functions: functions.toProto(s),
          serverCapabilities: SERVER_CAPABILITIES,
          diagnostics: diagsToProto(s.warnings),
        };
        if (s.providerMeta !== undefined) out.providerMeta = schemaEntryToProto(s.providerMeta, version);
        return out;
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const validateProviderConfig = async (req: { config?: DynamicValueIn | undefined }): Promise<DiagnosticsResponse> => {
    trace("ValidateProviderConfig");
    return guard(
      "ValidateProviderConfig",
      async () => {
        const s = await schema();
        decode(req.config, s.provider.type, "provider configuration");
        return { diagnostics: [] };
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const prepareProviderConfig = async (req: { config?: DynamicValueIn | undefined }): Promise<DiagnosticsResponse & { preparedConfig?: ProtoDynamicValue }> => {
    const r = await validateProviderConfig(req);
    // Terraform ignores prepared_config (it only warns when it differs): hand the config back unchanged.
    return r.diagnostics.length === 0 && req.config !== undefined ? { preparedConfig: { msgpack: req.config.msgpack, json: req.config.json }, diagnostics: [] } : r;
  };

  const validateResourceConfig = (req: { typeName: string; config?: DynamicValueIn | undefined }): Promise<DiagnosticsResponse> => {
    trace("ValidateResourceConfig", { tf_resource_type: req.typeName });
    return guard(
      "ValidateResourceConfig",
      async () => {
        decode(req.config, (await resourceEntry(req.typeName)).type, "configuration");
        return { diagnostics: [] };
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const validateDataResourceConfig = (req: { typeName: string; config?: DynamicValueIn | undefined }): Promise<DiagnosticsResponse> => {
    trace("ValidateDataResourceConfig", { tf_data_source_type: req.typeName });
    return guard(
      "ValidateDataResourceConfig",
      async () => {
        decode(req.config, (await dataSourceEntry(req.typeName)).type, "configuration");
        return { diagnostics: [] };
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const configureProvider = (
    req: { terraformVersion: string; config?: DynamicValueIn | undefined; clientCapabilities?: ClientCaps | undefined },
    ctx: { signal: AbortSignal },
  ): Promise<DiagnosticsResponse> => {
    trace("ConfigureProvider", { tf_version: req.terraformVersion });
    return guard(
      "ConfigureProvider",
      async () => {
        const s = await schema();
        const config = decode(req.config, s.provider.type, "provider configuration");
        const r = await provider.configure(config, req.terraformVersion, { signal: callSignal(ctx.signal), deferralAllowed: req.clientCapabilities?.deferralAllowed === true });
        return { diagnostics: diagsToProto(r.warnings) };
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const readResource = (
    req: { typeName: string; currentState?: DynamicValueIn | undefined; private: Uint8Array; providerMeta?: DynamicValueIn | undefined; clientCapabilities?: ClientCaps | undefined },
    ctx: { signal: AbortSignal },
  ): Promise<Partial<ReadResponse>> => {
    trace("ReadResource", { tf_resource_type: req.typeName });
    return guard(
      "ReadResource",
      async () => {
        const entry = await resourceEntry(req.typeName);
        const current = decode(req.currentState, entry.type, "current state");
        const r = await provider.readResource(req.typeName, current, {
          signal: callSignal(ctx.signal),
          private: req.private,
          deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
          ...(await meta(req.providerMeta)),
        });
        if (r.gone) return { newState: encode(nullVal(entry.type), entry.type), private: EMPTY, diagnostics: diagsToProto(r.warnings) };
        const out: Partial<ReadResponse> = { newState: encode(r.newState, entry.type), private: r.private, diagnostics: diagsToProto(r.warnings) };
        if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
        return out;
      },
      // No new_state on errors: Terraform keeps what it had.
      (diagnostics) => ({ diagnostics, private: req.private }),
    );
  };

  const planResourceChange = (
    req: {
      typeName: string;
      priorState?: DynamicValueIn | undefined;
      proposedNewState?: DynamicValueIn | undefined;
      config?: DynamicValueIn | undefined;
      priorPrivate: Uint8Array;
      providerMeta?: DynamicValueIn | undefined;
      clientCapabilities?: ClientCaps | undefined;
    },
    ctx: { signal: AbortSignal },
  ): Promise<Partial<PlanResponse>> => {
    trace("PlanResourceChange", { tf_resource_type: req.typeName });
    return guard(
      "PlanResourceChange",
      async () => {
        const entry = await resourceEntry(req.typeName);
        const prior = decode(req.priorState, entry.type, "prior state");
        const proposed = decode(req.proposedNewState, entry.type, "proposed new state");
        const config = decode(req.config, entry.type, "configuration");
        const r = await provider.planResourceChange(req.typeName, prior, proposed, config, {
          signal: callSignal(ctx.signal),
          priorPrivate: req.priorPrivate,
          deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
          ...(await meta(req.providerMeta)),
        });
        if (proposed.isNull() && !r.plannedState.isNull()) {
          throw new RequestProblem(errorDiag("Provider produced invalid plan", `The provider planned a non-null state for a destroy of ${req.typeName}.`));
        }
        const out: Partial<PlanResponse> = {
          plannedState: encode(r.plannedState, entry.type),
          requiresReplace: r.requiresReplace.map(pathToProto),
          plannedPrivate: r.plannedPrivate,
          legacyTypeSystem: r.legacyTypeSystem,
          diagnostics: diagsToProto(r.warnings),
        };
        if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
        return out;
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const applyResourceChange = (
    req: {
      typeName: string;
      priorState?: DynamicValueIn | undefined;
      plannedState?: DynamicValueIn | undefined;
      config?: DynamicValueIn | undefined;
      plannedPrivate: Uint8Array;
      providerMeta?: DynamicValueIn | undefined;
    },
    ctx: { signal: AbortSignal },
  ): Promise<Partial<ApplyResponse>> => {
    trace("ApplyResourceChange", { tf_resource_type: req.typeName });
    let type: Type | undefined;
    return guard(
      "ApplyResourceChange",
      async () => {
        const entry = await resourceEntry(req.typeName);
        type = entry.type;
        const prior = decode(req.priorState, entry.type, "prior state");
        const planned = decode(req.plannedState, entry.type, "planned state");
        const config = decode(req.config, entry.type, "configuration");
        const r = await provider.applyResourceChange(req.typeName, prior, planned, config, {
          signal: callSignal(ctx.signal),
          plannedPrivate: req.plannedPrivate,
          ...(await meta(req.providerMeta)),
        });
        return { newState: encode(r.newState, entry.type), private: r.private, legacyTypeSystem: r.legacyTypeSystem, diagnostics: diagsToProto(r.warnings) };
      },
      (diagnostics, e) => {
        // A partial apply: the object exists; send its state with the errors so that
        // Terraform saves it (a create becomes tainted).
        if (isProviderError(e) && e.code === "partially_applied" && type !== undefined) {
          return { newState: encode(e.detail.newState, type), private: e.detail.private, diagnostics };
        }
        // Otherwise no new_state: Terraform keeps the prior object (nothing for a create).
        return { diagnostics };
      },
    );
  };

  const importResourceState = (req: { typeName: string; id: string; clientCapabilities?: ClientCaps | undefined }, ctx: { signal: AbortSignal }): Promise<Partial<ImportResponse>> => {
    trace("ImportResourceState", { tf_resource_type: req.typeName });
    return guard(
      "ImportResourceState",
      async () => {
        const s = await schema();
        await resourceEntry(req.typeName);
        const r = await provider.importResourceState(req.typeName, req.id, { signal: callSignal(ctx.signal), deferralAllowed: req.clientCapabilities?.deferralAllowed === true });
        if (r === null) {
          // What Terraform itself reports when an imported object reads back as null.
          throw new RequestProblem(
            errorDiag(
              "Cannot import non-existent remote object",
              `While attempting to import an existing object of type ${req.typeName} with id ${JSON.stringify(req.id)}, the provider detected that no object exists with that id. Only pre-existing objects can be imported.`,
            ),
          );
        }
        const out: Partial<ImportResponse> = {
          importedResources: r.resources.map((x) => {
            const e = s.resources.get(x.typeName);
            if (e === undefined) throw new RequestProblem(errorDiag("Unknown resource type", `The import returned an object of unknown type ${JSON.stringify(x.typeName)}.`));
            return { typeName: x.typeName, state: encode(x.state, e.type), private: x.private };
          }),
          diagnostics: diagsToProto(r.warnings),
        };
        if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
        return out;
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const readDataSource = (
    req: { typeName: string; config?: DynamicValueIn | undefined; providerMeta?: DynamicValueIn | undefined; clientCapabilities?: ClientCaps | undefined },
    ctx: { signal: AbortSignal },
  ): Promise<Partial<ReadDataResponse>> => {
    trace("ReadDataSource", { tf_data_source_type: req.typeName });
    return guard(
      "ReadDataSource",
      async () => {
        const entry = await dataSourceEntry(req.typeName);
        const config = decode(req.config, entry.type, "configuration");
        const r = await provider.readDataSource(req.typeName, config, {
          signal: callSignal(ctx.signal),
          deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
          ...(await meta(req.providerMeta)),
        });
        const out: Partial<ReadDataResponse> = { state: encode(r.state, entry.type), diagnostics: diagsToProto(r.warnings) };
        if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
        return out;
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const upgradeResourceState = (
    req: { typeName: string; version: bigint; rawState?: { json: Uint8Array; flatmap: { [k: string]: string } } | undefined },
    ctx: { signal: AbortSignal },
  ): Promise<Partial<UpgradeResponse>> => {
    trace("UpgradeResourceState", { tf_resource_type: req.typeName });
    return guard(
      "UpgradeResourceState",
      async () => {
        const entry = await resourceEntry(req.typeName);
        const raw = req.rawState;
        if (raw === undefined || (raw.json.length === 0 && Object.keys(raw.flatmap).length > 0)) {
          throw new RequestProblem(errorDiag("Unsupported state format", "The stored state is in the legacy flatmap format (Terraform 0.11), which this provider cannot read."));
        }
        if (req.version < 0n || req.version > BigInt(Number.MAX_SAFE_INTEGER)) throw new RequestProblem(errorDiag("Invalid schema version", `The stored schema version ${req.version} is out of range.`));
        const r = await provider.upgradeResourceState(req.typeName, Number(req.version), utf8.decode(raw.json), { signal: callSignal(ctx.signal) });
        return { upgradedState: encode(r.upgradedState, entry.type), diagnostics: diagsToProto(r.warnings) };
      },
      (diagnostics) => ({ diagnostics }),
    );
  };

  const stopProvider = (): { Error: string } => {
    trace("StopProvider");
    const old = stop;
    stop = new AbortController();
    old.abort(new Error("the provider was asked to stop (StopProvider)"));
    return { Error: "" };
  };

  const common = {
    getMetadata,
    getFunctions: functions.getFunctions,
    callFunction: functions.callFunction,
    readResource,
    planResourceChange,
    applyResourceChange,
    importResourceState,
    readDataSource,
    upgradeResourceState,
  };
  const v6: ProviderHandlers["v6"] = {
    ...common,
    getProviderSchema: getProviderSchema(6),
    validateProviderConfig,
    validateResourceConfig,
    validateDataResourceConfig,
    configureProvider,
    stopProvider,
  };
  const v5: ProviderHandlers["v5"] = {
    ...common,
    getSchema: getProviderSchema(5),
    prepareProviderConfig,
    validateResourceTypeConfig: validateResourceConfig,
    validateDataSourceConfig: validateDataResourceConfig,
    configure: configureProvider,
    stop: stopProvider,
  };
  return { v5, v6 };
}

/** What the server supports: destroys are planned (the contract plans them), and the schema is static. */
const SERVER_CAPABILITIES = { planDestroy: true, getProviderSchemaOptional: true, moveResourceState: false, generateResourceConfig: false };

function hasError(diags: readonly Diag[]): boolean {
  return diags.some((d) => d.severity === "error");
}

/**
 * Decodes a request value with its schema type: msgpack when present, else JSON, else null
 * (as Terraform reads `DynamicValue`).
 *
 * @throws RequestProblem naming the value and the path when it does not decode.
 */
function decode(dv: DynamicValueIn | undefined, type: Type, what: string): Value {
  try {
    return dynamicValueFromProto(dv, type);
  } catch (e) {
    if (isPathError(e)) {
      const path: Path = e.path;
      throw new RequestProblem(errorDiag(`Invalid ${what}`, `The ${what} does not fit the schema at ${what}${formatErrorPath(path)}: ${e.reason}`, path.isRoot() ? undefined : path));
    }
    throw e;
  }
}

function encode(v: Value, type: Type): ProtoDynamicValue {
  return dynamicValueToProto(v, type);
}

const SUMMARY: Record<string, string> = {
  not_configured: "Provider not configured",
  unknown_type: "Unknown type",
  schema: "Invalid value",
  no_new_state: "Provider returned no new state",
  canceled: "Operation canceled",
  deadline_exceeded: "Operation timed out",
  invalid_response: "Provider error",
  transport: "Provider error",
};

/**
 * The diagnostics a failed contract call becomes: a `diagnostics` or `partially_applied`
 * error gives its own diagnostics; any other `ProviderError` one error diagnostic with its
 * message (and path, for `schema`); anything else an internal-error diagnostic.
 */
function diagsFromError(e: unknown): Diag[] {
  if (e instanceof RequestProblem) return [e.diag];
  if (isProviderError(e)) {
    switch (e.code) {
      case "diagnostics":
      case "partially_applied":
        return [...e.detail.diagnostics];
      case "schema": {
        const p = e.detail.path;
        return [errorDiag(SUMMARY["schema"]!, e.rawMessage, p !== undefined && !p.isRoot() ? p : undefined)];
      }
      default:
        return [errorDiag(SUMMARY[e.code] ?? "Provider error", e.rawMessage)];
    }
  }
  const message = e instanceof Error ? e.message : String(e);
  return [errorDiag("Unexpected error in the provider", message)];
}
