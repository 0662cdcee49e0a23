/**
 * Test helpers for code that uses the provider contract: a working in-memory
 * {@link Provider} (`memory_item` resource, `memory_lookup` data source) that keeps its
 * objects in a `Map`, built with `createNativeProvider` like any native provider.
 *
 * ```ts
 * import { createMemoryProvider } from "@magma/provider-api/testing";
 * const p = createMemoryProvider();
 * ```
 *
 * @packageDocumentation
 */

export { createMemoryProvider, memoryItemBlock, memoryLookupBlock, memoryProviderBlock } from "./memory-provider.js";
export type { MemoryProvider, MemoryProviderOptions } from "./memory-provider.js";
