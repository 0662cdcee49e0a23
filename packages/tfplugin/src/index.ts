/**
 * Internal to magma: the one wire layer of the tfplugin5 / tfplugin6 protocols, shared by
 * `@magma/plugin` (the client) and `@magma/provider-server` (the server). It holds the
 * `.proto` files (under `proto/`), the code generated from them, and every conversion
 * between wire messages and the `@magma/provider-api` contract: DynamicValue, Deferred,
 * diagnostics, attribute paths, schemas (functions included), function calls and errors,
 * and the response shapes of each operation.
 *
 * Not covered by semantic versioning: magma's packages depend on the exact version they
 * were released with. Nothing from here may appear in a public `.d.ts` of another package.
 *
 * @packageDocumentation
 */

import * as grpcControllerPb from "./gen/plugin/grpc_controller_pb.js";
import * as grpcStdioPb from "./gen/plugin/grpc_stdio_pb.js";
import * as grpcBrokerPb from "./gen/plugin/grpc_broker_pb.js";
import * as healthPb from "./gen/grpc/health/v1/health_pb.js";
import * as reflectionPb from "./gen/grpc/reflection/v1/reflection_pb.js";
import * as lazySchemaPb from "./gen/magma/lazy/lazy_schema_pb.js";
import * as tfplugin5 from "./gen/tfplugin5/tfplugin5_pb.js";
import * as tfplugin6 from "./gen/tfplugin6/tfplugin6_pb.js";

// ---- Generated code (protoc-gen-es), one namespace per .proto file -------------------------

export { tfplugin5, tfplugin6, lazySchemaPb, grpcControllerPb, grpcStdioPb, grpcBrokerPb, healthPb, reflectionPb };
// The service descriptors under the names both sides use.
export { Provider as Tfplugin5Provider } from "./gen/tfplugin5/tfplugin5_pb.js";
export { Provider as Tfplugin6Provider } from "./gen/tfplugin6/tfplugin6_pb.js";
export { GRPCController } from "./gen/plugin/grpc_controller_pb.js";
export { GRPCStdio, StdioData_Channel } from "./gen/plugin/grpc_stdio_pb.js";
export { Health, HealthCheckResponse_ServingStatus } from "./gen/grpc/health/v1/health_pb.js";
export { LazyProviderSchemaResponseSchema } from "./gen/magma/lazy/lazy_schema_pb.js";
export type { LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";

// ---- Conversions between wire messages and the contract -----------------------------------

export { dynamicValueFromProto, dynamicValueToProto } from "./dynamic-value.js";
export { deferredFromProto, deferredToProto } from "./deferred.js";
export { pathFromProto, pathToProto } from "./attribute-path.js";
export { diagsFromProto, diagsToProto } from "./diagnostic.js";
export { functionFromProto, functionToProto } from "./function.js";
export { functionArgumentsToProto, functionResultFromProto } from "./function-call.js";
export {
  LazySchemaMap,
  blockFromProto,
  blockToProto,
  schemaEntryFromProto,
  schemaEntryToProto,
  serverCapabilitiesFromProto,
  stringKindFromProto,
  typeFromProto,
} from "./schema.js";
export { metadataMismatch } from "./schema-metadata.js";
export { schemaFromReply } from "./schema-reply.js";
export type {
  ProtoAttribute,
  ProtoAttributePath,
  ProtoBlock,
  ProtoDeferred,
  ProtoDiagnostic,
  ProtoDynamicValue,
  ProtoFunction,
  ProtoFunctionParameter,
  ProtoFunctionReturn,
  ProtoNestedBlock,
  ProtoObject,
  ProtoPathStep,
  ProtoSchema,
  ProtoServerCapabilities,
} from "./proto-shapes.js";

// ---- The client, and each operation's response as both sides see it ----------------------

export { createWireClient, wireMessages } from "./wire-client.js";
export { timestampFromProto, timestampToProto } from "./timestamp.js";
export { loadWireVersion } from "./load-wire-version.js";
export type { WireVersion } from "./load-wire-version.js";
export type {
  ApplyResponse,
  CallFunctionResponse,
  ClientCapabilitiesInit,
  DiagnosticsResponse,
  GetFunctionsResponse,
  ImportResponse,
  MetadataResponse,
  OpenEphemeralResponse,
  PlanResponse,
  ProtoTimestamp,
  ReadDataResponse,
  ReadResponse,
  RenewEphemeralResponse,
  SchemaResponse,
  UpgradeResponse,
  WireClient,
  WireMessages,
} from "./wire-client.js";
