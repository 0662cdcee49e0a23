/**
 * Sibling-only entry point (`@magma/plugin/internal`): the wire conversions, the go-plugin
 * certificate generator and the generated service descriptors that a provider *server*
 * (`@magma/provider-server`) shares with this package's client.
 *
 * @internal Not covered by semantic versioning: for magma's own sibling packages only.
 * Nothing from here may appear in a public `.d.ts` of another package.
 * @packageDocumentation
 */

export { pathFromProto, pathToProto } from "./internal/wire/attribute-path.js";
export { diagsFromProto, diagsToProto } from "./internal/wire/diagnostic.js";
export { blockFromProto, blockToProto, schemaEntryFromProto, schemaEntryToProto, serverCapabilitiesFromProto } from "./internal/wire/schema.js";
export { functionFromProto, functionToProto } from "./internal/wire/function.js";
export type {
  ProtoAttribute,
  ProtoAttributePath,
  ProtoBlock,
  ProtoDeferred,
  ProtoDiagnostic,
  ProtoDynamicValue,
  ProtoFunction,
  ProtoFunctionParameter,
  ProtoNestedBlock,
  ProtoObject,
  ProtoPathStep,
  ProtoSchema,
  ProtoServerCapabilities,
} from "./internal/wire/proto-shapes.js";
export type {
  ApplyResponse,
  CallFunctionResponse,
  DiagnosticsResponse,
  GetFunctionsResponse,
  ImportResponse,
  MetadataResponse,
  PlanResponse,
  ReadDataResponse,
  ReadResponse,
  SchemaResponse,
  UpgradeResponse,
} from "./internal/wire/wire-client.js";
export { createClientCertificate, toPem } from "./internal/auto-mtls/client-certificate.js";
export type { ClientCertificate } from "./internal/auto-mtls/client-certificate.js";
export { TF_PLUGIN_MAGIC_COOKIE_KEY, TF_PLUGIN_MAGIC_COOKIE_VALUE } from "./launch.js";
export { parseHandshakeLine } from "./handshake.js";

// Generated service descriptors (the servers' side of the same .proto files).
export { Provider as Tfplugin5Provider } from "./gen/tfplugin5/tfplugin5_pb.js";
export { Provider as Tfplugin6Provider } from "./gen/tfplugin6/tfplugin6_pb.js";
export { GRPCController } from "./gen/plugin/grpc_controller_pb.js";
export { GRPCStdio, StdioData_Channel } from "./gen/plugin/grpc_stdio_pb.js";
export { Health, HealthCheckResponse_ServingStatus } from "./gen/grpc/health/v1/health_pb.js";

// The client over a supplied transport (in-memory protocol tests).
export { providerConnOver } from "./internal/provider-conn-over.js";
