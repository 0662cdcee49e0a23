import { PlanAction, ReadReason, type DeleteReason, type ReplaceReason } from "../plan/plan-action.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";

/**
 * Why a change is planned, as Terraform's `-json` UI names it in a `planned_change`
 * message's `change.reason` (its `views/json.ChangeReason`). The replace reasons differ
 * from the plan file's and `terraform show -json`'s `action_reason` (`tainted`, not
 * `replace_because_tainted`); the delete and read reasons are the same.
 */
export type ChangeReason =
  | "tainted"
  | "requested"
  | "replace_triggered_by"
  | "cannot_update"
  | DeleteReason
  | "read_because_config_unknown"
  | "read_because_dependency_pending"
  | "read_because_check_nested";

const REPLACE_CHANGE_REASONS: Readonly<Record<ReplaceReason, ChangeReason>> = {
  tainted: "tainted",
  requested: "requested",
  triggered: "replace_triggered_by",
  "cannot-update": "cannot_update",
};

/**
 * @internal Terraform's name of each read reason: the same in the `-json` UI's `planned_change`
 * and in `terraform show -json`'s `action_reason`.
 */
export const READ_REASON_NAMES: Readonly<Record<ReadReason, ChangeReason>> = {
  "config-unknown": "read_because_config_unknown",
  "dependency-pending": "read_because_dependency_pending",
  "check-nested": "read_because_check_nested",
};

/**
 * @internal Why a data source read is deferred to apply: the reason the planner recorded,
 * else derived as Terraform decides it — the configuration holds unknown values, or (all
 * known) a dependency has changes pending. Undefined for any action but `read`.
 */
export function plannedReadReason(c: Pick<PlannedInstanceChange, "action" | "readReason" | "config">): ReadReason | undefined {
  if (c.action !== PlanAction.Read) return undefined;
  return c.readReason ?? (c.config.isWhollyKnown() ? ReadReason.DependencyPending : ReadReason.ConfigUnknown);
}

/**
 * The `-json` UI reason of a planned change (see {@link ChangeReason}): its replace reason,
 * else its delete reason (as the planner recorded it), else — for a deferred data source
 * read — its read reason. Undefined when the change has none (a create, an update, a
 * delete of a deposed object).
 */
export function changeReason(c: Pick<PlannedInstanceChange, "action" | "replaceReason" | "deleteReason" | "readReason" | "config">): ChangeReason | undefined {
  if (c.replaceReason !== undefined) return REPLACE_CHANGE_REASONS[c.replaceReason];
  if (c.deleteReason !== undefined) return c.deleteReason;
  const read = plannedReadReason(c);
  return read === undefined ? undefined : READ_REASON_NAMES[read];
}
