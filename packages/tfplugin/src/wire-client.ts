import type { CallOptions, Transport } from "@connectrpc/connect";
import type { DescMessage } from "@bufbuild/protobuf";
import type { LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";
import { createWireClientV5, WIRE_MESSAGES_V5 } from "./wire-client-v5.js";
import { createWireClientV6, WIRE_MESSAGES_V6 } from "./wire-client-v6.js";
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
  ephemeralResourceSchemas?: { [typeName: string]: ProtoSchema };
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

/** A `google.protobuf.Timestamp` as the generated code holds it. @internal */
export interface ProtoTimestamp {
  seconds: bigint;
  nanos: number;
}

/** Response of OpenEphemeralResource (protocol 5.7/6.7 and later). @internal */
export interface OpenEphemeralResponse extends DiagnosticsResponse {
  renewAt?: ProtoTimestamp | undefined;
  result?: ProtoDynamicValue | undefined;
  private?: Uint8Array | undefined;
  deferred?: ProtoDeferred | undefined;
}

/** Response of RenewEphemeralResource (protocol 5.7/6.7 and later). @internal */
export interface RenewEphemeralResponse extends DiagnosticsResponse {
  renewAt?: ProtoTimestamp | undefined;
  private?: Uint8Array | undefined;
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
  validateEphemeralResourceConfig(req: { typeName: string; config: ProtoDynamicValue }, o: CallOptions): Promise<DiagnosticsResponse>;
  openEphemeralResource(
    req: { typeName: string; config: ProtoDynamicValue; clientCapabilities: ClientCapabilitiesInit },
    o: CallOptions,
  ): Promise<OpenEphemeralResponse>;
  renewEphemeralResource(req: { typeName: string; private?: Uint8Array }, o: CallOptions): Promise<RenewEphemeralResponse>;
  closeEphemeralResource(req: { typeName: string; private?: Uint8Array }, o: CallOptions): Promise<DiagnosticsResponse>;
}

/**
 * The {@link WireMessages} of a protocol version (no connection needed). Loads both
 * versions' generated code; a client that knows its version before any call uses
 * `loadWireVersion` instead, which loads only that version's.
 *
 * @internal
 */
export function wireMessages(version: 5 | 6): WireMessages {
  return version === 5 ? WIRE_MESSAGES_V5 : WIRE_MESSAGES_V6;
}

/**
 * Makes the {@link WireClient} for a negotiated protocol version over a connect transport
 * (see `wireMessages` about what it loads).
 *
 * @internal
 */
export function createWireClient(version: 5 | 6, transport: Transport): WireClient {
  return version === 5 ? createWireClientV5(transport) : createWireClientV6(transport);
}
