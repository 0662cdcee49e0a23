/**
 * Where a connection's schema comes from besides GetProviderSchema: a {@link SchemaStore}
 * (the on-disk schema cache), read back when Terraform would skip GetSchema too, and written
 * after a fetched reply.
 * @internal
 */
import { toBinary } from "@bufbuild/protobuf";
import type { AbortSignalLike, ProviderSchema } from "@magma/provider-api";
import { LazyProviderSchemaResponseSchema, metadataMismatch, type LazyProviderSchemaResponse, type MetadataResponse } from "@magma/tfplugin/client";
import type { PreparedSchema, SchemaStore } from "./schema-store.js";

/**
 * The stored schema when it may be used without GetSchema: stored for the negotiated
 * protocol, decodable, from a provider whose GetProviderSchema is optional, and (unless the
 * store checks by binary identity) matching the provider's GetMetadata. Reports each outcome
 * to the store; `undefined` means "call GetProviderSchema".
 * @internal
 */
export async function loadStoredSchema(
  store: SchemaStore,
  protocolVersion: 5 | 6,
  getMetadata: () => Promise<MetadataResponse>,
  signal: AbortSignalLike | undefined,
): Promise<ProviderSchema | undefined> {
  let prepared: PreparedSchema | undefined;
  try {
    prepared = await store.load();
  } catch {
    prepared = undefined;
  }
  if (prepared === undefined) {
    store.report?.("miss");
    return undefined;
  }
  const { entry, decoded } = prepared;
  if (entry.protocolVersion !== protocolVersion) {
    store.report?.("stale", `stored for protocol ${entry.protocolVersion}, negotiated ${protocolVersion}`);
    return undefined;
  }
  if ("error" in decoded) {
    store.report?.("stale", `the stored reply does not decode: ${decoded.error}`);
    return undefined;
  }
  const { reply, schema } = decoded;
  if (!schema.serverCapabilities.getProviderSchemaOptional) {
    store.report?.("not_optional");
    return undefined; // Terraform calls GetSchema first in every process then.
  }
  if (store.check === "identity") {
    store.report?.("hit");
    return schema;
  }
  let mismatch: string | undefined;
  try {
    const metadata = await getMetadata();
    mismatch = metadataMismatch(metadata, reply, schema.serverCapabilities);
  } catch (e) {
    if (signal?.aborted === true) throw e;
    mismatch = `GetMetadata failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (mismatch !== undefined) {
    store.report?.("stale", mismatch);
    return undefined;
  }
  store.report?.("hit");
  return schema;
}

/**
 * Stores a fetched GetProviderSchema reply, off the caller's path: re-encodes the reply (the
 * wire bytes of the same message) and writes it once the current work has yielded.
 * @internal
 */
export function saveSchemaReply(store: SchemaStore, protocolVersion: 5 | 6, r: LazyProviderSchemaResponse): void {
  setImmediate(() => {
    let reply: Uint8Array;
    try {
      reply = toBinary(LazyProviderSchemaResponseSchema, r);
    } catch (e) {
      store.report?.("store_failed", String(e));
      return;
    }
    store.save({ protocolVersion, reply }).then(
      () => store.report?.("stored"),
      (e: unknown) => store.report?.("store_failed", e instanceof Error ? e.message : String(e)),
    );
  });
}
