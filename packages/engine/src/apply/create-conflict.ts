import type { Value } from "@magma/cty";
import type { Diag } from "@magma/provider-api";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";

/** What the apply hands a {@link CreateConflictHandler} when a create failed. */
export interface CreateConflictInput {
  /** The configured provider of the instance. */
  readonly target: InstanceTarget;
  /** The planned create (or the create half of a replace). */
  readonly change: PlannedInstanceChange;
  /** The configuration the create was applied with (wholly known). */
  readonly config: Value;
  /** The create's failure, as the provider reported it (a `ProviderError`, usually `diagnostics`). */
  readonly error: unknown;
}

/** An adoption: the existing object taken into state in place of the failed create. */
export interface CreateConflictAdoption {
  /** The adopted object after the remaining update was applied: what state records. */
  readonly object: InstanceObject;
  /** The import id the object was adopted by. */
  readonly id: string;
  /** The warnings of the import, read, plan and apply calls. */
  readonly warnings: readonly Diag[];
  /**
   * Set when the object was adopted (confirmed as the configured one) but planning or
   * applying the remaining update failed: `object` is still what state records (the object
   * as adopted, or as the failed update left it), and the instance counts as failed with
   * this error. Absent on a full success.
   */
  readonly error?: unknown;
}

/**
 * magma's import on create conflict (engine.md §8): given a failed create, decide whether
 * it failed because the object already exists and, if so and only when it can be confirmed,
 * adopt it (ImportResourceState, a confirming ReadResource, a check of its identifying
 * attributes against the configuration, then the remaining update). Resolves `undefined`
 * when the failure is not such a conflict or the object cannot be adopted safely: the
 * create's failure then stands. A conflict is never routed to replace.
 */
export type CreateConflictHandler = (input: CreateConflictInput) => Promise<CreateConflictAdoption | undefined>;
