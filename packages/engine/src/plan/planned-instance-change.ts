import type { Path, Value } from "@magma/cty";
import type { Diag } from "@magma/provider-api";
import type { PlanAction, ReplaceReason } from "./plan-action.js";

/**
 * The plan of one resource instance (Terraform's `plans.ResourceInstanceChange`): what
 * the apply will do and everything it needs to do it.
 */
export interface PlannedInstanceChange {
  /** The instance address, e.g. `aws_vpc.main` or `module.m.aws_x.y["k"]`. */
  readonly address: string;
  /** `managed` for a resource, `data` for a data source read deferred to apply. */
  readonly mode: "managed" | "data";
  /** The resource or data source type. */
  readonly typeName: string;
  /** What the apply does. */
  readonly action: PlanAction;
  /** The object before (the refreshed prior; null on create and read). */
  readonly before: Value;
  /** The object after, with unknowns where the provider will compute values (null on delete). */
  readonly after: Value;
  /** The configuration the plan was made with (null on delete); the apply re-plans with its now-known version. */
  readonly config: Value;
  /** The `requiresReplace` paths whose prior and planned values really differ (empty unless replaced for that reason). */
  readonly requiresReplace: readonly Path[];
  /** Why the instance is replaced; set exactly for the replace actions. */
  readonly replaceReason?: ReplaceReason;
  /** The private data stored with the prior object (empty when none). */
  readonly priorPrivate: Uint8Array;
  /** The provider's planned private data, for the apply (for a replace: the create half's). */
  readonly plannedPrivate: Uint8Array;
  /** Whether the prior object is tainted. */
  readonly priorTainted: boolean;
  /** The provider answered with the legacy SDK type system flag (its plans are only loosely checked). */
  readonly legacyTypeSystem: boolean;
  /** The warnings of the planning calls (and the tolerated problems of a legacy provider's plan). */
  readonly warnings: readonly Diag[];
}
