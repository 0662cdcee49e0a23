/**
 * The tfplugin6 half of the wire client: only this module (and the code generated from
 * tfplugin6.proto) holds protocol 6's descriptors, so a client speaking one version
 * never builds the other's.
 *
 * @internal
 * @packageDocumentation
 */

import { createClient, type Transport } from "@connectrpc/connect";
import type { DescMethodUnary } from "@bufbuild/protobuf";
import * as v6 from "./gen/tfplugin6/tfplugin6_pb.js";
import { lazySchemaMethod, unaryLazySchema } from "./lazy-schema-call.js";
import type { WireClient, WireMessages } from "./wire-client.js";

/** The tfplugin6 {@link WireMessages}. @internal */
export const WIRE_MESSAGES_V6: WireMessages = {
  schemaMessage: v6.SchemaSchema,
  diagnosticMessage: v6.DiagnosticSchema,
  serverCapabilitiesMessage: v6.ServerCapabilitiesSchema,
  functionMessage: v6.FunctionSchema,
};

/**
 * Makes the tfplugin6 {@link WireClient} over a connect transport.
 *
 * @internal
 */
export function createWireClientV6(transport: Transport): WireClient {
  const c = createClient(v6.Provider, transport);
  const schemaMethod = lazySchemaMethod(v6.Provider.method.getProviderSchema as DescMethodUnary);
  return {
    version: 6,
    ...WIRE_MESSAGES_V6,
    getProviderSchema: (o) => unaryLazySchema(transport, schemaMethod, o),
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
    validateEphemeralResourceConfig: (req, o) => c.validateEphemeralResourceConfig(req, o),
    openEphemeralResource: (req, o) => c.openEphemeralResource(req, o),
    renewEphemeralResource: (req, o) => c.renewEphemeralResource(req, o),
    closeEphemeralResource: (req, o) => c.closeEphemeralResource(req, o),
  };
}
