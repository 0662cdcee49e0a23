import type { ServerCapabilities } from "@magma/provider-api";
import type { LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";
import { serverCapabilitiesFromProto } from "./schema.js";
import type { MetadataResponse } from "./wire-client.js";

function sameNames(names: readonly string[], keys: Readonly<Record<string, unknown>>): boolean {
  const have = Object.keys(keys);
  if (have.length !== names.length) return false;
  const set = new Set(names);
  if (set.size !== names.length) return false;
  for (const k of have) if (!set.has(k)) return false;
  return true;
}

/**
 * Says why a schema reply (from a cache) no longer describes the provider that answered
 * GetMetadata, or `undefined` when it still does: the server capabilities and every set of
 * names GetMetadata lists (resources, data sources, functions, ephemeral and list
 * resources, actions) must be exactly those of the reply.
 *
 * @internal
 */
export function metadataMismatch(
  metadata: MetadataResponse,
  reply: LazyProviderSchemaResponse,
  capabilities: ServerCapabilities,
): string | undefined {
  if (metadata.diagnostics.some((d) => d.severity === 1)) return "GetMetadata returned errors";
  const now = serverCapabilitiesFromProto(metadata.serverCapabilities);
  for (const k of Object.keys(now) as (keyof ServerCapabilities)[]) {
    if (now[k] !== capabilities[k]) return `server capability ${k} changed`;
  }
  const pairs: [string, readonly string[], Readonly<Record<string, unknown>>][] = [
    ["resources", metadata.resources.map((x) => x.typeName), reply.resourceSchemas],
    ["data sources", metadata.dataSources.map((x) => x.typeName), reply.dataSourceSchemas],
    ["functions", metadata.functions.map((x) => x.name), reply.functions],
    ["ephemeral resources", metadata.ephemeralResources.map((x) => x.typeName), reply.ephemeralResourceSchemas],
    ["list resources", metadata.listResources.map((x) => x.typeName), reply.listResourceSchemas],
    ["actions", metadata.actions.map((x) => x.typeName), reply.actionSchemas],
  ];
  for (const [what, names, keys] of pairs) if (!sameNames(names, keys)) return `the set of ${what} changed`;
  return undefined;
}
