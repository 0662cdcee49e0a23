import type { Value } from "@magma/cty";
import type { AbortSignalLike, Provider, ProviderSchema } from "@magma/provider-api";

/**
 * The provider an instance operation talks to: a configured {@link Provider} with its
 * schema, plus what Terraform sends with every call.
 */
export interface InstanceTarget {
  /** The provider, already configured (`configure` precedes every other call). */
  readonly provider: Provider;
  /** Its schema (from `getSchema`). */
  readonly schema: ProviderSchema;
  /** The provider's address for messages, as Terraform prints it (e.g. `registry.terraform.io/hashicorp/aws`). */
  readonly providerAddress?: string;
  /**
   * The provider configuration's absolute address for messages, as state writes it (e.g.
   * `provider["registry.terraform.io/hashicorp/aws"]`, `module.m.provider["…"].west`);
   * default: the default configuration of `providerAddress` in the root module.
   */
  readonly providerConfig?: string;
  /** The module's `provider_meta` value, when the provider declares a provider meta schema. */
  readonly providerMeta?: Value;
  /** Cancels the provider calls. */
  readonly signal?: AbortSignalLike;
  /**
   * The provider one instance's calls go to, when it is not {@link provider} (`magma test`'s
   * overrides answer for the instances they name); default `provider`.
   */
  readonly providerFor?: (address: string) => Provider;
}

/** The provider an instance's calls go to (see {@link InstanceTarget.providerFor}). */
export function providerOf(target: InstanceTarget, address: string): Provider {
  return target.providerFor?.(address) ?? target.provider;
}

/** One remote object as the engine holds it between operations: decoded, never null. */
export interface InstanceObject {
  /** The object's state, of the resource type's implied type, wholly known. */
  readonly state: Value;
  /** The provider's private data stored with it (empty when none). */
  readonly private: Uint8Array;
  /** Whether the object is tainted (to be replaced on the next plan). */
  readonly tainted: boolean;
}

/** The options every provider call of the instance operations shares. */
export function callOptions(target: InstanceTarget): { signal?: AbortSignalLike; providerMeta?: Value } {
  const o: { signal?: AbortSignalLike; providerMeta?: Value } = {};
  if (target.signal !== undefined) o.signal = target.signal;
  if (target.providerMeta !== undefined) o.providerMeta = target.providerMeta;
  return o;
}

/** The options of the result checks (`assertPlanValid`, `assertObjectCompatible`) for one instance. */
export function checkOptions(target: InstanceTarget, address: string, legacyTypeSystem: boolean): { address: string; provider?: string; legacyTypeSystem: boolean } {
  const o: { address: string; provider?: string; legacyTypeSystem: boolean } = { address, legacyTypeSystem };
  if (target.providerAddress !== undefined) o.provider = target.providerAddress;
  return o;
}
