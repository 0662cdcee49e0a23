import { fromBinary } from "@bufbuild/protobuf";
import type { ProviderSchema } from "@magma/provider-api";
import { LazyProviderSchemaResponseSchema, schemaFromReply, type LazyProviderSchemaResponse, type WireMessages } from "@magma/tfplugin/client";
import type { CachedSchemaReply } from "../schema-cache.js";

/**
 * Where a provider connection keeps the schema reply of its exact binary between processes
 * (see `schemaCacheDir` of `dialProvider`).
 *
 * @internal
 */
export interface SchemaStore {
  /**
   * The stored reply decoded with {@link prepareCachedSchema}, or `undefined` (also when
   * unreadable). A store may start reading and decoding early, e.g. while the provider
   * process starts.
   */
  load(): Promise<PreparedSchema | undefined>;
  /** Stores a reply (replacing any earlier one). */
  save(entry: CachedSchemaReply): Promise<void>;
  /**
   * How a stored reply is confirmed before use: `identity` (the store is keyed to the exact
   * binary; no RPC) or `metadata` (also a GetMetadata call whose capabilities and type names
   * must match the stored reply).
   */
  readonly check: "identity" | "metadata";
  /** Told what happened: `hit`, `stale` (with the reason), `miss`, `not_optional`, `stored`, `store_failed`. */
  report?(event: string, detail?: string): void;
}

/**
 * A stored schema reply decoded with its protocol version's messages, or why it does not
 * decode.
 *
 * @internal
 */
export interface PreparedSchema {
  readonly entry: CachedSchemaReply;
  readonly decoded: { readonly reply: LazyProviderSchemaResponse; readonly schema: ProviderSchema } | { readonly error: string };
}

/**
 * Decodes a stored schema reply with the messages of the protocol version it was stored
 * for (`entry.protocolVersion`; see `loadWireVersion` of `@magma/tfplugin/client`). Never
 * throws: a reply that does not decode gives `{ error }`.
 *
 * @param messages - the messages of `entry.protocolVersion`
 * @internal
 */
export function prepareCachedSchema(entry: CachedSchemaReply, messages: WireMessages): PreparedSchema {
  try {
    const reply = fromBinary(LazyProviderSchemaResponseSchema, entry.reply);
    return { entry, decoded: { reply, schema: schemaFromReply(reply, messages) } };
  } catch (e) {
    return { entry, decoded: { error: e instanceof Error ? e.message : String(e) } };
  }
}
