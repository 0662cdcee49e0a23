/**
 * The schema RPC read lazily: GetSchema / GetProviderSchema called through a response message
 * that is wire-compatible with the version's own but keeps each schema entry as bytes.
 *
 * @internal
 * @packageDocumentation
 */

import type { CallOptions, Transport } from "@connectrpc/connect";
import type { DescMessage, DescMethodUnary } from "@bufbuild/protobuf";
import { LazyProviderSchemaResponseSchema, type LazyProviderSchemaResponse } from "./gen/magma/lazy/lazy_schema_pb.js";

/** A unary method whose reply is read as a `LazyProviderSchemaResponse`. @internal */
export type LazySchemaMethod = DescMethodUnary<DescMessage, typeof LazyProviderSchemaResponseSchema>;

/**
 * The same RPC (same path) as `real`, read through the wire-compatible lazy response message.
 *
 * @internal
 */
export function lazySchemaMethod(real: DescMethodUnary): LazySchemaMethod {
  return { ...real, output: LazyProviderSchemaResponseSchema } as LazySchemaMethod;
}

/**
 * Calls a {@link lazySchemaMethod} over a transport.
 *
 * @internal
 */
export async function unaryLazySchema(transport: Transport, method: LazySchemaMethod, o: CallOptions): Promise<LazyProviderSchemaResponse> {
  const res = await transport.unary(method, o.signal, o.timeoutMs, o.headers, {});
  return res.message;
}
