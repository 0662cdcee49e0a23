/**
 * A native TypeScript provider with the schemas and semantics of hashicorp/random 3.6/3.7:
 * random_id, random_integer, random_password, random_pet, random_shuffle, random_string and
 * random_uuid, behind magma's {@link Provider} contract.
 *
 * - {@link createRandomProvider}: the provider.
 * - {@link RandomResourceType} and {@link randomSchemaVersion}: its resource types and their
 *   schema versions.
 *
 * Platform-neutral: randomness comes from WebCrypto (`crypto.getRandomValues`,
 * `crypto.randomUUID`), present in Node 20+ and browsers.
 *
 * @packageDocumentation
 */

export {
  createRandomProvider,
  RandomResourceType,
  randomSchemaVersion,
} from "./random-provider.js";
