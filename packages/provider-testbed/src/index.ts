/**
 * A deterministic native provider for differential testing (private, never published): ids
 * and computed values are hashes of the configuration, so terraform's and magma's runs of
 * the same configuration compare value for value. Served to terraform by a
 * `@magma/provider-server` launcher (export `createProvider`).
 *
 * @packageDocumentation
 */
export { createProvider, createTestbedProvider, TestbedResourceType } from "./testbed-provider.js";
export { THING_SCHEMA_VERSION } from "./testbed-thing.js";
export { stableHash } from "./stable-hash.js";
