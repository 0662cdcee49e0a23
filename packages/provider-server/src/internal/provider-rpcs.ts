import { nullVal, type Type } from "@magma/cty";
import {
  timestampToProto,
  deferredToProto,
  diagsToProto,
  pathToProto,
  schemaEntryToProto,
  type ApplyResponse,
  type DiagnosticsResponse,
  type ImportResponse,
  type MetadataResponse,
  type OpenEphemeralResponse,
  type RenewEphemeralResponse,
  type PlanResponse,
  type ProtoDynamicValue,
  type ProtoSchema,
  type ReadDataResponse,
  type ReadResponse,
  type SchemaResponse,
  type UpgradeResponse,
} from "@magma/tfplugin";
import { errorDiag, isProviderError, type SchemaEntry } from "@magma/provider-api";
import {
  RequestProblem,
  SERVER_CAPABILITIES,
  servedEphemeralResources,
  decode,
  encode,
  type ClientCaps,
  type DynamicValueIn,
  type RpcContext,
} from "./rpc-context.js";

// One function per RPC of tfplugin5.Provider / tfplugin6.Provider (the version-neutral
// names); createProviderHandlers binds them to a context under each version's names.

const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder();

/** GetMetadata: see {@link createProviderHandlers}. */
export function getMetadata(c: RpcContext): Promise<Partial<MetadataResponse>> {
  c.trace("GetMetadata");
  return c.guard(
    "GetMetadata",
    async () => {
      const s = await c.schema();
      return {
        serverCapabilities: SERVER_CAPABILITIES,
        resources: [...s.resources.keys()].map((typeName) => ({ typeName })),
        dataSources: [...s.dataSources.keys()].map((typeName) => ({ typeName })),
        functions: [...c.functions.served(s).keys()].map((name) => ({ name })),
        ephemeralResources: [...servedEphemeralResources(s, c.provider).keys()].map((typeName) => ({ typeName })),
        diagnostics: diagsToProto(s.warnings),
      };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** GetProviderSchema: see {@link createProviderHandlers}. */
export function getProviderSchema(c: RpcContext, version: 5 | 6): Promise<Partial<SchemaResponse>> {
  c.trace("GetProviderSchema");
  return c.guard(
    "GetProviderSchema",
    async () => {
      const s = await c.schema();
      // Ephemeral resources are served only by a provider that can open them (an
      // EphemeralResourceOpener), functions only by one that can call them (a
      // FunctionCaller): advertising them otherwise would have Terraform send RPCs this
      // server cannot answer.
      const map = (m: ReadonlyMap<string, SchemaEntry>): Record<string, ProtoSchema> => {
        const out: Record<string, ProtoSchema> = {};
        for (const [k, e] of m) out[k] = schemaEntryToProto(e, version);
        return out;
      };
      const out: SchemaResponse = {
        provider: schemaEntryToProto(s.provider, version),
        resourceSchemas: map(s.resources),
        dataSourceSchemas: map(s.dataSources),
        functions: c.functions.toProto(s),
        serverCapabilities: SERVER_CAPABILITIES,
        diagnostics: diagsToProto(s.warnings),
      };
      if (s.providerMeta !== undefined)
        out.providerMeta = schemaEntryToProto(s.providerMeta, version);
      const ephemeral = servedEphemeralResources(s, c.provider);
      if (ephemeral.size > 0) out.ephemeralResourceSchemas = map(ephemeral);
      return out;
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** ValidateProviderConfig: see {@link createProviderHandlers}. */
export async function validateProviderConfig(
  c: RpcContext,
  req: { config?: DynamicValueIn | undefined },
): Promise<DiagnosticsResponse> {
  c.trace("ValidateProviderConfig");
  return c.guard(
    "ValidateProviderConfig",
    async () => {
      const s = await c.schema();
      decode(req.config, s.provider.type, "provider configuration");
      return { diagnostics: [] };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** PrepareProviderConfig: see {@link createProviderHandlers}. */
export async function prepareProviderConfig(
  c: RpcContext,
  req: { config?: DynamicValueIn | undefined },
): Promise<DiagnosticsResponse & { preparedConfig?: ProtoDynamicValue }> {
  const r = await validateProviderConfig(c, req);
  // Terraform ignores prepared_config (it only warns when it differs): hand the config back unchanged.
  return r.diagnostics.length === 0 && req.config !== undefined
    ? { preparedConfig: { msgpack: req.config.msgpack, json: req.config.json }, diagnostics: [] }
    : r;
}

/** ValidateResourceConfig: see {@link createProviderHandlers}. */
export function validateResourceConfig(
  c: RpcContext,
  req: { typeName: string; config?: DynamicValueIn | undefined },
): Promise<DiagnosticsResponse> {
  c.trace("ValidateResourceConfig", { tf_resource_type: req.typeName });
  return c.guard(
    "ValidateResourceConfig",
    async () => {
      decode(req.config, (await c.resourceEntry(req.typeName)).type, "configuration");
      return { diagnostics: [] };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** ValidateDataResourceConfig: see {@link createProviderHandlers}. */
export function validateDataResourceConfig(
  c: RpcContext,
  req: { typeName: string; config?: DynamicValueIn | undefined },
): Promise<DiagnosticsResponse> {
  c.trace("ValidateDataResourceConfig", { tf_data_source_type: req.typeName });
  return c.guard(
    "ValidateDataResourceConfig",
    async () => {
      decode(req.config, (await c.dataSourceEntry(req.typeName)).type, "configuration");
      return { diagnostics: [] };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** ConfigureProvider: see {@link createProviderHandlers}. */
export function configureProvider(
  c: RpcContext,
  req: {
    terraformVersion: string;
    config?: DynamicValueIn | undefined;
    clientCapabilities?: ClientCaps | undefined;
  },
  ctx: { signal: AbortSignal },
): Promise<DiagnosticsResponse> {
  c.trace("ConfigureProvider", { tf_version: req.terraformVersion });
  return c.guard(
    "ConfigureProvider",
    async () => {
      const s = await c.schema();
      const config = decode(req.config, s.provider.type, "provider configuration");
      const r = await c.provider.configure(config, req.terraformVersion, {
        signal: c.callSignal(ctx.signal),
        deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
      });
      return { diagnostics: diagsToProto(r.warnings) };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** ReadResource: see {@link createProviderHandlers}. */
export function readResource(
  c: RpcContext,
  req: {
    typeName: string;
    currentState?: DynamicValueIn | undefined;
    private: Uint8Array;
    providerMeta?: DynamicValueIn | undefined;
    clientCapabilities?: ClientCaps | undefined;
  },
  ctx: { signal: AbortSignal },
): Promise<Partial<ReadResponse>> {
  c.trace("ReadResource", { tf_resource_type: req.typeName });
  return c.guard(
    "ReadResource",
    async () => {
      const entry = await c.resourceEntry(req.typeName);
      const current = decode(req.currentState, entry.type, "current state");
      const r = await c.provider.readResource(req.typeName, current, {
        signal: c.callSignal(ctx.signal),
        private: req.private,
        deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
        ...(await c.meta(req.providerMeta)),
      });
      if (r.gone)
        return {
          newState: encode(nullVal(entry.type), entry.type),
          private: EMPTY,
          diagnostics: diagsToProto(r.warnings),
        };
      const out: Partial<ReadResponse> = {
        newState: encode(r.newState, entry.type),
        private: r.private,
        diagnostics: diagsToProto(r.warnings),
      };
      if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
      return out;
    },
    // No new_state on errors: Terraform keeps what it had.
    (diagnostics) => ({ diagnostics, private: req.private }),
  );
}

/** PlanResourceChange: see {@link createProviderHandlers}. */
export function planResourceChange(
  c: RpcContext,
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
): Promise<Partial<PlanResponse>> {
  c.trace("PlanResourceChange", { tf_resource_type: req.typeName });
  return c.guard(
    "PlanResourceChange",
    async () => {
      const entry = await c.resourceEntry(req.typeName);
      const prior = decode(req.priorState, entry.type, "prior state");
      const proposed = decode(req.proposedNewState, entry.type, "proposed new state");
      const config = decode(req.config, entry.type, "configuration");
      const r = await c.provider.planResourceChange(req.typeName, prior, proposed, config, {
        signal: c.callSignal(ctx.signal),
        priorPrivate: req.priorPrivate,
        deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
        ...(await c.meta(req.providerMeta)),
      });
      if (proposed.isNull() && !r.plannedState.isNull()) {
        throw new RequestProblem(
          errorDiag(
            "Provider produced invalid plan",
            `The provider planned a non-null state for a destroy of ${req.typeName}.`,
          ),
        );
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
}

/** ApplyResourceChange: see {@link createProviderHandlers}. */
export function applyResourceChange(
  c: RpcContext,
  req: {
    typeName: string;
    priorState?: DynamicValueIn | undefined;
    plannedState?: DynamicValueIn | undefined;
    config?: DynamicValueIn | undefined;
    plannedPrivate: Uint8Array;
    providerMeta?: DynamicValueIn | undefined;
  },
  ctx: { signal: AbortSignal },
): Promise<Partial<ApplyResponse>> {
  c.trace("ApplyResourceChange", { tf_resource_type: req.typeName });
  let type: Type | undefined;
  return c.guard(
    "ApplyResourceChange",
    async () => {
      const entry = await c.resourceEntry(req.typeName);
      type = entry.type;
      const prior = decode(req.priorState, entry.type, "prior state");
      const planned = decode(req.plannedState, entry.type, "planned state");
      const config = decode(req.config, entry.type, "configuration");
      const r = await c.provider.applyResourceChange(req.typeName, prior, planned, config, {
        signal: c.callSignal(ctx.signal),
        plannedPrivate: req.plannedPrivate,
        ...(await c.meta(req.providerMeta)),
      });
      return {
        newState: encode(r.newState, entry.type),
        private: r.private,
        legacyTypeSystem: r.legacyTypeSystem,
        diagnostics: diagsToProto(r.warnings),
      };
    },
    (diagnostics, e) => {
      // A partial apply: the object exists; send its state with the errors so that
      // Terraform saves it (a create becomes tainted).
      if (isProviderError(e) && e.code === "partially_applied" && type !== undefined) {
        return {
          newState: encode(e.detail.newState, type),
          private: e.detail.private,
          diagnostics,
        };
      }
      // Otherwise no new_state: Terraform keeps the prior object (nothing for a create).
      return { diagnostics };
    },
  );
}

/** ImportResourceState: see {@link createProviderHandlers}. */
export function importResourceState(
  c: RpcContext,
  req: { typeName: string; id: string; clientCapabilities?: ClientCaps | undefined },
  ctx: { signal: AbortSignal },
): Promise<Partial<ImportResponse>> {
  c.trace("ImportResourceState", { tf_resource_type: req.typeName });
  return c.guard(
    "ImportResourceState",
    async () => {
      const s = await c.schema();
      await c.resourceEntry(req.typeName);
      const r = await c.provider.importResourceState(req.typeName, req.id, {
        signal: c.callSignal(ctx.signal),
        deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
      });
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
          if (e === undefined)
            throw new RequestProblem(
              errorDiag(
                "Unknown resource type",
                `The import returned an object of unknown type ${JSON.stringify(x.typeName)}.`,
              ),
            );
          return { typeName: x.typeName, state: encode(x.state, e.type), private: x.private };
        }),
        diagnostics: diagsToProto(r.warnings),
      };
      if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
      return out;
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** ReadDataSource: see {@link createProviderHandlers}. */
export function readDataSource(
  c: RpcContext,
  req: {
    typeName: string;
    config?: DynamicValueIn | undefined;
    providerMeta?: DynamicValueIn | undefined;
    clientCapabilities?: ClientCaps | undefined;
  },
  ctx: { signal: AbortSignal },
): Promise<Partial<ReadDataResponse>> {
  c.trace("ReadDataSource", { tf_data_source_type: req.typeName });
  return c.guard(
    "ReadDataSource",
    async () => {
      const entry = await c.dataSourceEntry(req.typeName);
      const config = decode(req.config, entry.type, "configuration");
      const r = await c.provider.readDataSource(req.typeName, config, {
        signal: c.callSignal(ctx.signal),
        deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
        ...(await c.meta(req.providerMeta)),
      });
      const out: Partial<ReadDataResponse> = {
        state: encode(r.state, entry.type),
        diagnostics: diagsToProto(r.warnings),
      };
      if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
      return out;
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** UpgradeResourceState: see {@link createProviderHandlers}. */
export function upgradeResourceState(
  c: RpcContext,
  req: {
    typeName: string;
    version: bigint;
    rawState?: { json: Uint8Array; flatmap: { [k: string]: string } } | undefined;
  },
  ctx: { signal: AbortSignal },
): Promise<Partial<UpgradeResponse>> {
  c.trace("UpgradeResourceState", { tf_resource_type: req.typeName });
  return c.guard(
    "UpgradeResourceState",
    async () => {
      const entry = await c.resourceEntry(req.typeName);
      const raw = req.rawState;
      if (raw === undefined || (raw.json.length === 0 && Object.keys(raw.flatmap).length > 0)) {
        throw new RequestProblem(
          errorDiag(
            "Unsupported state format",
            "The stored state is in the legacy flatmap format (Terraform 0.11), which this provider cannot read.",
          ),
        );
      }
      if (req.version < 0n || req.version > BigInt(Number.MAX_SAFE_INTEGER))
        throw new RequestProblem(
          errorDiag(
            "Invalid schema version",
            `The stored schema version ${req.version} is out of range.`,
          ),
        );
      const r = await c.provider.upgradeResourceState(
        req.typeName,
        Number(req.version),
        utf8.decode(raw.json),
        { signal: c.callSignal(ctx.signal) },
      );
      return {
        upgradedState: encode(r.upgradedState, entry.type),
        diagnostics: diagsToProto(r.warnings),
      };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** ValidateEphemeralResourceConfig: see {@link createProviderHandlers}. */
export function validateEphemeralResourceConfig(
  c: RpcContext,
  req: { typeName: string; config?: DynamicValueIn | undefined },
  ctx: { signal: AbortSignal },
): Promise<DiagnosticsResponse> {
  c.trace("ValidateEphemeralResourceConfig", { tf_ephemeral_resource_type: req.typeName });
  return c.guard(
    "ValidateEphemeralResourceConfig",
    async () => {
      const { opener, entry } = await c.ephemeralEntry(req.typeName);
      const config = decode(req.config, entry.type, "configuration");
      const r = await opener.validateEphemeralResourceConfig(req.typeName, config, { signal: c.callSignal(ctx.signal) });
      return { diagnostics: diagsToProto(r.warnings) };
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** OpenEphemeralResource: see {@link createProviderHandlers}. */
export function openEphemeralResource(
  c: RpcContext,
  req: { typeName: string; config?: DynamicValueIn | undefined; clientCapabilities?: ClientCaps | undefined },
  ctx: { signal: AbortSignal },
): Promise<Partial<OpenEphemeralResponse>> {
  c.trace("OpenEphemeralResource", { tf_ephemeral_resource_type: req.typeName });
  return c.guard(
    "OpenEphemeralResource",
    async () => {
      const { opener, entry } = await c.ephemeralEntry(req.typeName);
      const config = decode(req.config, entry.type, "configuration");
      const r = await opener.openEphemeralResource(req.typeName, config, {
        signal: c.callSignal(ctx.signal),
        deferralAllowed: req.clientCapabilities?.deferralAllowed === true,
      });
      const out: Partial<OpenEphemeralResponse> = {
        result: encode(r.result, entry.type),
        private: r.private,
        diagnostics: diagsToProto(r.warnings),
      };
      if (r.renewAt !== undefined) out.renewAt = timestampToProto(r.renewAt);
      if (r.deferred !== undefined) out.deferred = deferredToProto(r.deferred);
      return out;
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** RenewEphemeralResource: see {@link createProviderHandlers}. */
export function renewEphemeralResource(
  c: RpcContext,
  req: { typeName: string; private?: Uint8Array | undefined },
  ctx: { signal: AbortSignal },
): Promise<Partial<RenewEphemeralResponse>> {
  c.trace("RenewEphemeralResource", { tf_ephemeral_resource_type: req.typeName });
  return c.guard(
    "RenewEphemeralResource",
    async () => {
      const { opener } = await c.ephemeralEntry(req.typeName);
      const r = await opener.renewEphemeralResource(req.typeName, req.private ?? EMPTY, { signal: c.callSignal(ctx.signal) });
      const out: Partial<RenewEphemeralResponse> = { private: r.private, diagnostics: diagsToProto(r.warnings) };
      if (r.renewAt !== undefined) out.renewAt = timestampToProto(r.renewAt);
      return out;
    },
    (diagnostics) => ({ diagnostics }),
  );
}

/** CloseEphemeralResource: see {@link createProviderHandlers}. */
export function closeEphemeralResource(
  c: RpcContext,
  req: { typeName: string; private?: Uint8Array | undefined },
  ctx: { signal: AbortSignal },
): Promise<DiagnosticsResponse> {
  c.trace("CloseEphemeralResource", { tf_ephemeral_resource_type: req.typeName });
  return c.guard(
    "CloseEphemeralResource",
    async () => {
      const { opener } = await c.ephemeralEntry(req.typeName);
      const r = await opener.closeEphemeralResource(req.typeName, req.private ?? EMPTY, { signal: c.callSignal(ctx.signal) });
      return { diagnostics: diagsToProto(r.warnings) };
    },
    (diagnostics) => ({ diagnostics }),
  );
}
