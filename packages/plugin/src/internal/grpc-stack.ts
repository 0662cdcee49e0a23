/**
 * Everything of this package that needs the gRPC stack (connect-rpc, protobuf-es and
 * `@magma/tfplugin/client`; the generated code of the one protocol version in use is loaded
 * through `loadWireVersion` once the handshake names it), gathered in one module so that it is
 * loaded only when a binary provider is launched or reattached: see {@link loadGrpcStack}.
 * Nothing else in the package's public entry may import these modules statically; native
 * providers, the schema cache's files, source resolution and the reaper never load them.
 *
 * @internal
 */
export { loadWireVersion } from "@magma/tfplugin/client";
export { CallGate } from "./call-gate.js";
export { requestShutdown, startStdioReader } from "./plugin-services.js";
export { reattachPlugin } from "./reattach-plugin.js";
export { prepareCachedSchema } from "./schema-store.js";
export { createGrpcConnection } from "./transport/grpc-connection.js";
export { WireProviderConn } from "./wire-provider-conn.js";
