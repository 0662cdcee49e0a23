/** What a plan does to one instance, as Terraform's `plans.Action` names it. */
export const PlanAction = {
  /** Nothing changes. */
  NoOp: "no-op",
  /** A new object is created. */
  Create: "create",
  /** A data source is read during apply (its configuration was not known at plan). */
  Read: "read",
  /** The object changes in place. */
  Update: "update",
  /** Replace: the old object is destroyed first, then the new one created (the default). */
  DeleteThenCreate: "delete-then-create",
  /** Replace under `create_before_destroy`: the new object is created first, then the old one destroyed. */
  CreateThenDelete: "create-then-delete",
  /** The object is destroyed. */
  Delete: "delete",
  /** The object leaves state but is not destroyed (a `removed` block with `destroy = false`). */
  Forget: "forget",
} as const;

/** One of the {@link PlanAction} values. */
export type PlanAction = (typeof PlanAction)[keyof typeof PlanAction];

/** Whether an action is one of the two replace actions. */
export function isReplace(action: PlanAction): action is "delete-then-create" | "create-then-delete" {
  return action === PlanAction.DeleteThenCreate || action === PlanAction.CreateThenDelete;
}

/** Why an instance is replaced, as Terraform's `ActionReason` for replaces. */
export const ReplaceReason = {
  /** The prior object is tainted (e.g. a create that failed part-way). */
  Tainted: "tainted",
  /** The user asked for it (`-replace=ADDR`). */
  Requested: "requested",
  /** A `replace_triggered_by` reference changed. */
  Triggered: "triggered",
  /** A `requiresReplace` path of the provider's plan really changed: the object cannot be updated in place. */
  CannotUpdate: "cannot-update",
} as const;

/** One of the {@link ReplaceReason} values. */
export type ReplaceReason = (typeof ReplaceReason)[keyof typeof ReplaceReason];

/** Why a data source is read during apply, as Terraform's `ActionReason` for reads. */
export const ReadReason = {
  /** Its configuration refers to values known only after apply. */
  ConfigUnknown: "config-unknown",
  /** A managed resource it depends on has changes pending. */
  DependencyPending: "dependency-pending",
  /** It is scoped in a `check` block: read at plan and read again at apply, so that the check's assertions see current data. */
  CheckNested: "check-nested",
} as const;

/** One of the {@link ReadReason} values. */
export type ReadReason = (typeof ReadReason)[keyof typeof ReadReason];

/**
 * Why a managed instance is deleted, as Terraform's `ActionReason` for deletes names it in
 * `terraform show -json` (`action_reason`).
 */
export type DeleteReason =
  | "delete_because_no_resource_config"
  | "delete_because_wrong_repetition"
  | "delete_because_count_index"
  | "delete_because_each_key"
  | "delete_because_no_module"
  | "delete_because_no_move_target";
