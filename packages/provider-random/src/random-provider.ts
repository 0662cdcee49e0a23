import type { Value } from "@magma/cty";
import {
  createNativeProvider,
  createSchemaEntry,
  errorDiag,
  type EphemeralResourceOpener,
  type Provider,
} from "@magma/provider-api";
import { randomIdResource } from "./random-id.js";
import { randomIntegerResource } from "./random-integer.js";
import { randomPetResource } from "./random-pet.js";
import { randomShuffleResource } from "./random-shuffle.js";
import { randomPasswordResource, randomStringResource } from "./random-string.js";
import { randomUuidResource } from "./random-uuid.js";
import { ephemeralPassword, ephemeralPasswordEntry } from "./ephemeral-password.js";
import { planResource, upgradeResource, type RandomResource } from "./resource-kit.js";

/** The resource types of the random provider. */
export const RandomResourceType = {
  Id: "random_id",
  Integer: "random_integer",
  Password: "random_password",
  Pet: "random_pet",
  Shuffle: "random_shuffle",
  String: "random_string",
  Uuid: "random_uuid",
} as const;

/** One of the {@link RandomResourceType} names. */
export type RandomResourceType = (typeof RandomResourceType)[keyof typeof RandomResourceType];

/**
 * The schema version of each resource type, as in hashicorp/random 3.6/3.7: stored states of
 * older versions go through `upgradeResourceState`.
 */
export const randomSchemaVersion: Readonly<Record<RandomResourceType, number>> = Object.freeze({
  random_id: 0,
  random_integer: 0,
  random_password: 3,
  random_pet: 0,
  random_shuffle: 0,
  random_string: 2,
  random_uuid: 0,
});

const RESOURCES: readonly RandomResource[] = [
  randomIdResource,
  randomIntegerResource,
  randomPasswordResource,
  randomPetResource,
  randomShuffleResource,
  randomStringResource,
  randomUuidResource,
];

/**
 * Creates a native provider with the schemas and semantics of hashicorp/random: the
 * resources random_id, random_integer, random_password, random_pet, random_shuffle,
 * random_string and random_uuid, the ephemeral resource random_password (3.7's), and an empty provider
 * configuration.
 *
 * Behaviour follows hashicorp/random 3.6/3.7 on terraform-plugin-framework: defaults and
 * `number`/`numeric` synchronisation are planned, computed values are unknown on create and
 * kept from the prior state otherwise, every configurable attribute forces replacement
 * (`keepers` only when a non-null value changes, `override_special` not from `""` to null),
 * reads return the state unchanged, updates store the plan, destroys store nothing, imports
 * take the formats hashicorp/random takes, and older schema versions are upgraded. Values are
 * generated with WebCrypto's `crypto.getRandomValues` except where a `seed` is set, which
 * makes random_integer and random_shuffle deterministic (with magma's own seeded generator,
 * not Go's — see the README). Configuration problems are error diagnostics naming the
 * attribute's path, so the calls reject with `ProviderError` code `diagnostics`.
 *
 * The contract itself (configure first, known type names, value types) is enforced by
 * `createNativeProvider`.
 */
export function createRandomProvider(): Provider & EphemeralResourceOpener {
  const byName = new Map(RESOURCES.map((r) => [r.typeName, r]));
  const resource = (typeName: string): RandomResource => {
    const r = byName.get(typeName);
    if (r === undefined) throw new Error(`random: no resource type ${JSON.stringify(typeName)}`); // unreachable: the wrapper checks type names
    return r;
  };
  return createNativeProvider({
    getSchema: () => ({
      provider: createSchemaEntry({ attributes: {} }),
      resources: new Map(RESOURCES.map((r) => [r.typeName, r.entry])),
      dataSources: new Map(),
      ephemeralResources: new Map([["random_password", ephemeralPasswordEntry]]),
    }),
    configure: () => undefined,
    planResourceChange: (typeName, prior, proposed, config) =>
      planResource(resource(typeName), prior, proposed, config),
    applyResourceChange(typeName, prior, planned) {
      if (planned.isNull()) return { newState: planned };
      if (!prior.isNull()) return { newState: planned }; // an in-place update stores the plan
      return resource(typeName).create(planned);
    },
    readResource: (_typeName, current: Value) => ({ newState: current }),
    readDataSource: (typeName) => ({
      diagnostics: [errorDiag(`random has no data source ${JSON.stringify(typeName)}`)],
    }),
    importResourceState(typeName, id) {
      const r = resource(typeName);
      if (r.importState === undefined) {
        return {
          diagnostics: [
            errorDiag("Resource Import Not Implemented", `${typeName} does not support import.`),
          ],
        };
      }
      return r.importState(id);
    },
    upgradeResourceState: (typeName, storedVersion, rawJson) =>
      upgradeResource(resource(typeName), storedVersion, rawJson),
    ephemeralResources: { random_password: ephemeralPassword },
  });
}
