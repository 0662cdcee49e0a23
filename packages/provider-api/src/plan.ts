import type { Path, Value } from "@magma/cty";
import type { Diag } from "./diagnostic.js";

/** Why a provider deferred an operation (tfplugin's `Deferred.Reason`). */
export const DeferredReason = {
  /** The provider gave no reason. */
  Unknown: "unknown",
  /** The resource's configuration contains unknown values. */
  ResourceConfigUnknown: "resource_config_unknown",
  /** The provider's configuration contains unknown values. */
  ProviderConfigUnknown: "provider_config_unknown",
  /** A prerequisite of the resource does not exist yet. */
  AbsentPrereq: "absent_prereq",
} as const;

/** One of the {@link DeferredReason} values. */
export type DeferredReason = (typeof DeferredReason)[keyof typeof DeferredReason];

/**
 * A provider's answer that it cannot do the operation yet and the caller should come back
 * in a later round. Providers may defer only when the call allowed it (`deferralAllowed`
 * in the options); deferring otherwise is reported as an error by the caller.
 */
export interface Deferred {
  /** Why the operation was deferred. */
  readonly reason: DeferredReason;
}

/** The result of {@link Provider.planResourceChange}: what the provider expects the object to become. */
export interface PlannedChange {
  /**
   * The planned new state, of the resource schema's implied type: values the provider will
   * compute are unknown; null for a planned destroy.
   */
  readonly plannedState: Value;
  /**
   * Attribute paths whose change forces the object to be replaced instead of updated in
   * place. The only authority on replace vs update: a path counts when the prior and
   * planned values there differ (or their equality is unknown). Ignored on create.
   */
  readonly requiresReplace: readonly Path[];
  /** Opaque private state for the matching apply (empty when the provider has none). */
  readonly plannedPrivate: Uint8Array;
  /**
   * True when the provider uses the legacy SDK type system; Terraform then tolerates
   * plans that do not follow the configuration exactly.
   */
  readonly legacyTypeSystem: boolean;
  /** Warning diagnostics, in the provider's order. */
  readonly warnings: readonly Diag[];
  /** Set when the provider deferred the change. */
  readonly deferred?: Deferred;
}
