/**
 * Internal to magma: the client's entry of the wire layer (`@magma/tfplugin/client`), for
 * `@magma/plugin`. It holds what a client needs before and around its calls — the
 * conversions, the lazily read schema reply, go-plugin's controller and stdio services, and
 * {@link loadWireVersion} — and none of the protocol's generated code: a client loads only
 * the version its provider's handshake names, and never the server-only services (health,
 * reflection, broker). The package's main entry exports all of this too.
 *
 * Not covered by semantic versioning (see the main entry).
 *
 * @packageDocumentation
 */

export { GRPCController } from "./gen/plugin/grpc_controller_pb.js";
export { GRPCStdio, StdioData_Channel } from "./gen/plugin/grpc_stdio_pb.js";
export { LazyProviderSchemaResponseSchema } from "./gen/magma/lazy/lazy_schema_pb.js";
export type { LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";

export { dynamicValueFromProto, dynamicValueToProto } from "./dynamic-value.js";
export { deferredFromProto, deferredToProto } from "./deferred.js";
export { pathFromProto, pathToProto } from "./attribute-path.js";
export { diagsFromProto, diagsToProto } from "./diagnostic.js";
export { functionFromProto, functionToProto } from "./function.js";
export { functionArgumentsToProto, functionResultFromProto } from "./function-call.js";
export { timestampFromProto, timestampToProto } from "./timestamp.js";
export { blockFromProto, schemaEntryFromProto, serverCapabilitiesFromProto, typeFromProto } from "./schema.js";
export { metadataMismatch } from "./schema-metadata.js";
export { schemaFromReply } from "./schema-reply.js";
export type { ProtoAttribute, ProtoBlock, ProtoDiagnostic, ProtoDynamicValue } from "./proto-shapes.js";

export { loadWireVersion } from "./load-wire-version.js";
export type { WireVersion } from "./load-wire-version.js";
export type {
  ClientCapabilitiesInit,
  DiagnosticsResponse,
  MetadataResponse,
  OpenEphemeralResponse,
  ProtoTimestamp,
  RenewEphemeralResponse,
  WireClient,
  WireMessages,
} from "./wire-client.js";
