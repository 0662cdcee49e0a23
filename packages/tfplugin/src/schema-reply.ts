import { fromBinary } from "@bufbuild/protobuf";
import { diagnosticsError, hasErrors, invalidResponseError, warningsOf, type ProviderSchema } from "@magma/provider-api";
import { diagsFromProto } from "./diagnostic.js";
import { functionFromProto } from "./function.js";
import type { LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";
import type { ProtoDiagnostic, ProtoFunction, ProtoSchema, ProtoServerCapabilities } from "./proto-shapes.js";
import { LazySchemaMap, schemaEntryFromProto, serverCapabilitiesFromProto } from "./schema.js";
import type { WireMessages } from "./wire-client.js";

/**
 * The {@link ProviderSchema} of a GetSchema reply held lazily: each resource and data
 * source type is decoded on first use.
 *
 * @throws ProviderError `diagnostics` when the reply carries errors, `invalid_response`
 * when it does not decode.
 */
export function schemaFromReply(r: LazyProviderSchemaResponse, m: WireMessages): ProviderSchema {
  const op = "GetProviderSchema";
  const diags = diagsFromProto(
    r.diagnostics.map((b) => decodeMessage<ProtoDiagnostic>(m.diagnosticMessage, b, op, "a diagnostic")),
    op,
  );
  if (hasErrors(diags)) throw diagnosticsError(diags, "getSchema");
  if (r.provider.length === 0) throw invalidResponseError("the provider schema is missing", { operation: op });
  const provider = schemaEntryFromProto(decodeMessage<ProtoSchema>(m.schemaMessage, r.provider, op, "the provider schema"), "provider");
  const out: { -readonly [K in keyof ProviderSchema]: ProviderSchema[K] } = {
    provider,
    resources: new LazySchemaMap(new Map(Object.entries(r.resourceSchemas)), m.schemaMessage, "resource"),
    dataSources: new LazySchemaMap(new Map(Object.entries(r.dataSourceSchemas)), m.schemaMessage, "data source"),
    ephemeralResources: new LazySchemaMap(new Map(Object.entries(r.ephemeralResourceSchemas)), m.schemaMessage, "ephemeral resource"),
    functions: new Map(
      Object.entries(r.functions).map(([name, bytes]) => [
        name,
        functionFromProto(decodeMessage<ProtoFunction>(m.functionMessage, bytes, op, `function ${JSON.stringify(name)}`), name),
      ]),
    ),
    serverCapabilities: serverCapabilitiesFromProto(
      r.serverCapabilities.length === 0
        ? undefined
        : decodeMessage<ProtoServerCapabilities>(m.serverCapabilitiesMessage, r.serverCapabilities, op, "the server capabilities"),
    ),
    warnings: warningsOf(diags),
  };
  if (r.providerMeta.length > 0) {
    const meta = decodeMessage<ProtoSchema>(m.schemaMessage, r.providerMeta, op, "the provider_meta schema");
    if (meta.block !== undefined) out.providerMeta = schemaEntryFromProto(meta, "provider_meta");
  }
  return out;
}

function decodeMessage<T>(schema: Parameters<typeof fromBinary>[0], bytes: Uint8Array, operation: string, what: string): T {
  try {
    return fromBinary(schema, bytes) as unknown as T;
  } catch (cause) {
    throw invalidResponseError(`${what} does not decode`, { operation, cause });
  }
}
