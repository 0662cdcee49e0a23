import { createClient, type CallOptions, type Transport } from "@connectrpc/connect";
import type { DescMessage, DescMethodUnary } from "@bufbuild/protobuf";
import { LazyProviderSchemaResponseSchema, type LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";
import * as v5 from "./gen/tfplugin5/tfplugin5_pb.js";
import * as v6 from "./gen/tfplugin6/tfplugin6_pb.js";
import type {
  ProtoAttributePath,
  ProtoDeferred,
  ProtoDiagnostic,
  ProtoDynamicValue,
  ProtoFunction,
  ProtoSchema,
  ProtoServerCapabilities,
} from "./proto-shapes.js";

/** `ClientCapabilities` as sent. @internal */
export interface ClientCapabilitiesInit {
  deferralAllowed: boolean;
  writeOnlyAttributesAllowed: boolean;
}

/** Response of Validate*, Configure: diagnostics only. @internal */
export interface DiagnosticsResponse {
  diagnostics: ProtoDiagnostic[];
}

/** @internal */
export interface PlanResponse extends DiagnosticsResponse {
  plannedState?: ProtoDynamicValue | undefined;
  requiresReplace: ProtoAttributePath[];
  plannedPrivate: Uint8Array;
  legacyTypeSystem: boolean;
  deferred?: ProtoDeferred | undefined;
}

/** @internal */
export interface ApplyResponse extends DiagnosticsResponse {
  newState?: ProtoDynamicValue | undefined;
  private: Uint8Array;
  legacyTypeSystem: boolean;
}

/** @internal */
export interface ReadResponse extends DiagnosticsResponse {
  newState?: ProtoDynamicValue | undefined;
  private: Uint8Array;
  deferred?: ProtoDeferred | undefined;
}

/** @internal */
export interface ReadDataResponse extends DiagnosticsResponse {
  state?: ProtoDynamicValue | undefined;
  deferred?: ProtoDeferred | undefined;
}

/** @internal */
export interface ImportResponse extends DiagnosticsResponse {
  importedResources: { typeName: string; state?: ProtoDynamicValue | undefined; private: Uint8Array }[];
  deferred?: ProtoDeferred | undefined;
}

/** @internal */
export interface UpgradeResponse extends DiagnosticsResponse {
  upgradedState?: ProtoDynamicValue | undefined;
}

/** @internal */
export interface MetadataResponse extends DiagnosticsResponse {
  serverCapabilities?: ProtoServerCapabilities | undefined;
  resources: { typeName: string }[];
  dataSources: { typeName: string }[];
  functions: { name: string }[];
  ephemeralResources: { typeName: string }[];
  listResources: { typeName: string }[];
  actions: { typeName: string }[];
}

/**
 * Response of GetSchema / GetProviderSchema as a server writes it (a client reads it
 * lazily, as `LazyProviderSchemaResponse`). @internal
 */
export interface SchemaResponse extends DiagnosticsResponse {
  provider?: ProtoSchema | undefined;
  providerMeta?: ProtoSchema | undefined;
  resourceSchemas: { [typeName: string]: ProtoSchema };
  dataSourceSchemas: { [typeName: string]: ProtoSchema };
  functions: { [name: string]: ProtoFunction };
  serverCapabilities?: ProtoServerCapabilities | undefined;
}

/** Response of GetFunctions (protocol 5.5/6.5 and later). @internal */
export interface GetFunctionsResponse extends DiagnosticsResponse {
  functions: { [name: string]: ProtoFunction };
}

/** Response of CallFunction (protocol 5.5/6.5 and later). @internal */
export interface CallFunctionResponse {
  result?: ProtoDynamicValue | undefined;
  error?: { text: string; functionArgument?: bigint | undefined } | undefined;
}

/**
 * The messages of a protocol version that the schema reply's lazily held bytes decode with.
 *
 * @internal
 */
export interface WireMessages {
  /** The version's `Schema` message, for decoding lazily held schema bytes. */
  readonly schemaMessage: DescMessage;
  readonly diagnosticMessage: DescMessage;
  readonly serverCapabilitiesMessage: DescMessage;
  /** The version's `Function` message, for the function signatures of the schema reply. */
  readonly functionMessage: DescMessage;
}

const V5_MESSAGES: WireMessages = {
  schemaMessage: v5.SchemaSchema,
  diagnosticMessage: v5.DiagnosticSchema,
  serverCapabilitiesMessage: v5.ServerCapabilitiesSchema,
  functionMessage: v5.FunctionSchema,
};

const V6_MESSAGES: WireMessages = {
  schemaMessage: v6.SchemaSchema,
  diagnosticMessage: v6.DiagnosticSchema,
  serverCapabilitiesMessage: v6.ServerCapabilitiesSchema,
  functionMessage: v6.FunctionSchema,
};

/**
 * The {@link WireMessages} of a protocol version (no connection needed).
 *
 * @internal
 */
export function wireMessages(version: 5 | 6): WireMessages {
  return version === 5 ? V5_MESSAGES : V6_MESSAGES;
}

/**
 * One client for both protocol versions: the RPCs the contract needs, under one set of
 * names, with the version's own messages behind them. Field names of these messages are
 * the same in tfplugin5 and tfplugin6; only RPC names and a few schema fields differ.
 *
 * @internal
 */
export interface WireClient extends WireMessages {
  readonly version: 5 | 6;
  getProviderSchema(o: CallOptions): Promise<LazyProviderSchemaResponse>;
  getMetadata(o: CallOptions): Promise<MetadataResponse>;
  validateProviderConfig(config: ProtoDynamicValue, o: CallOptions): Promise<DiagnosticsResponse>;
  configureProvider(
    req: { terraformVersion: string; config: ProtoDynamicValue; clientCapabilities: ClientCapabilitiesInit },
    o: CallOptions,
  ): Promise<DiagnosticsResponse>;
  validateResourceConfig(
    req: { typeName: string; config: ProtoDynamicValue; clientCapabilities: ClientCapabilitiesInit },
    o: CallOptions,
  ): Promise<DiagnosticsResponse>;
  validateDataResourceConfig(req: { typeName: string; config: ProtoDynamicValue }, o: CallOptions): Promise<DiagnosticsResponse>;
  planResourceChange(
    req: {
      typeName: string;
      priorState: ProtoDynamicValue;
      proposedNewState: ProtoDynamicValue;
      config: ProtoDynamicValue;
      priorPrivate: Uint8Array;
      providerMeta?: ProtoDynamicValue;
      clientCapabilities: ClientCapabilitiesInit;
    },
    o: CallOptions,
  ): Promise<PlanResponse>;
  applyResourceChange(
    req: {
      typeName: string;
      priorState: ProtoDynamicValue;
      plannedState: ProtoDynamicValue;
      config: ProtoDynamicValue;
      plannedPrivate: Uint8Array;
      providerMeta?: ProtoDynamicValue;
    },
    o: CallOptions,
  ): Promise<ApplyResponse>;
  readResource(
    req: {
      typeName: string;
      currentState: ProtoDynamicValue;
      private: Uint8Array;
      providerMeta?: ProtoDynamicValue;
      clientCapabilities: ClientCapabilitiesInit;
    },
    o: CallOptions,
  ): Promise<ReadResponse>;
  readDataSource(
    req: { typeName: string; config: ProtoDynamicValue; providerMeta?: ProtoDynamicValue; clientCapabilities: ClientCapabilitiesInit },
    o: CallOptions,
  ): Promise<ReadDataResponse>;
  importResourceState(
    req: { typeName: string; id: string; clientCapabilities: ClientCapabilitiesInit },
    o: CallOptions,
  ): Promise<ImportResponse>;
  upgradeResourceState(
    req: { typeName: string; version: bigint; rawState: { json: Uint8Array } },
    o: CallOptions,
  ): Promise<UpgradeResponse>;
  stopProvider(o: CallOptions): Promise<{ Error: string }>;
  getFunctions(o: CallOptions): Promise<GetFunctionsResponse>;
  callFunction(req: { name: string; arguments: ProtoDynamicValue[] }, o: CallOptions): Promise<CallFunctionResponse>;
}

function lazySchemaMethod(real: DescMethodUnary): DescMethodUnary<DescMessage, typeof LazyProviderSchemaResponseSchema> {
  // The same RPC (same path), read through a wire-compatible response message.
  return { ...real, output: LazyProviderSchemaResponseSchema } as DescMethodUnary<DescMessage, typeof LazyProviderSchemaResponseSchema>;
}

async function unaryLazy(
  transport: Transport,
  method: DescMethodUnary<DescMessage, typeof LazyProviderSchemaResponseSchema>,
  o: CallOptions,
): Promise<LazyProviderSchemaResponse> {
  const res = await transport.unary(method, o.signal, o.timeoutMs, o.headers, {});
  return res.message;
}

/**
 * Makes the {@link WireClient} for a negotiated protocol version over a connect transport.
 *
 * @internal
 */
export function createWireClient(version: 5 | 6, transport: Transport): WireClient {
  if (version === 5) {
    const c = createClient(v5.Provider, transport);
    const schemaMethod = lazySchemaMethod(v5.Provider.method.getSchema as DescMethodUnary);
    return {
      version,
      ...V5_MESSAGES,
      getProviderSchema: (o) => unaryLazy(transport, schemaMethod, o),
      getMetadata: (o) => c.getMetadata({}, o),
      validateProviderConfig: (config, o) => c.prepareProviderConfig({ config }, o),
      configureProvider: (req, o) => c.configure(req, o),
      validateResourceConfig: (req, o) => c.validateResourceTypeConfig(req, o),
      validateDataResourceConfig: (req, o) => c.validateDataSourceConfig(req, o),
      planResourceChange: (req, o) => c.planResourceChange(req, o),
      applyResourceChange: (req, o) => c.applyResourceChange(req, o),
      readResource: (req, o) => c.readResource(req, o),
      readDataSource: (req, o) => c.readDataSource(req, o),
      importResourceState: (req, o) => c.importResourceState(req, o),
      upgradeResourceState: (req, o) => c.upgradeResourceState(req, o),
      stopProvider: (o) => c.stop({}, o),
      getFunctions: (o) => c.getFunctions({}, o),
      callFunction: (req, o) => c.callFunction(req, o),
    };
  }
  const c = createClient(v6.Provider, transport);
  const schemaMethod = lazySchemaMethod(v6.Provider.method.getProviderSchema as DescMethodUnary);
  return {
    version,
    ...V6_MESSAGES,
    getProviderSchema: (o) => unaryLazy(transport, schemaMethod, o),
    getMetadata: (o) => c.getMetadata({}, o),
    validateProviderConfig: (config, o) => c.validateProviderConfig({ config }, o),
    configureProvider: (req, o) => c.configureProvider(req, o),
    validateResourceConfig: (req, o) => c.validateResourceConfig(req, o),
    validateDataResourceConfig: (req, o) => c.validateDataResourceConfig(req, o),
    planResourceChange: (req, o) => c.planResourceChange(req, o),
    applyResourceChange: (req, o) => c.applyResourceChange(req, o),
    readResource: (req, o) => c.readResource(req, o),
    readDataSource: (req, o) => c.readDataSource(req, o),
    importResourceState: (req, o) => c.importResourceState(req, o),
    upgradeResourceState: (req, o) => c.upgradeResourceState(req, o),
    stopProvider: (o) => c.stopProvider({}, o),
    getFunctions: (o) => c.getFunctions({}, o),
    callFunction: (req, o) => c.callFunction(req, o),
  };
}
