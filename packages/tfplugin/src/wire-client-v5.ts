/**
 * The tfplugin5 half of the wire client: only this module (and the code generated from
 * tfplugin5.proto) holds protocol 5's descriptors, so a client speaking one version
 * never builds the other's.
 *
 * @internal
 * @packageDocumentation
 */

import { createClient, type Transport } from "@connectrpc/connect";
import type { DescMethodUnary } from "@bufbuild/protobuf";
import * as v5 from "./gen/tfplugin5/tfplugin5_pb.js";
import { lazySchemaMethod, unaryLazySchema } from "./lazy-schema-call.js";
import type { WireClient, WireMessages } from "./wire-client.js";

/** The tfplugin5 {@link WireMessages}. @internal */
export const WIRE_MESSAGES_V5: WireMessages = {
  schemaMessage: v5.SchemaSchema,
  diagnosticMessage: v5.DiagnosticSchema,
  serverCapabilitiesMessage: v5.ServerCapabilitiesSchema,
  functionMessage: v5.FunctionSchema,
};

/**
 * Makes the tfplugin5 {@link WireClient} over a connect transport.
 *
 * @internal
 */
export function createWireClientV5(transport: Transport): WireClient {
  const c = createClient(v5.Provider, transport);
  const schemaMethod = lazySchemaMethod(v5.Provider.method.getSchema as DescMethodUnary);
  return {
    version: 5,
    ...WIRE_MESSAGES_V5,
    getProviderSchema: (o) => unaryLazySchema(transport, schemaMethod, o),
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
    validateEphemeralResourceConfig: (req, o) => c.validateEphemeralResourceConfig(req, o),
    openEphemeralResource: (req, o) => c.openEphemeralResource(req, o),
    renewEphemeralResource: (req, o) => c.renewEphemeralResource(req, o),
    closeEphemeralResource: (req, o) => c.closeEphemeralResource(req, o),
  };
}
