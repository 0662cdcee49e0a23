import { objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { PlanAction, ReadReason, ReplaceReason, type DeleteReason } from "../plan/plan-action.js";
import { changeReason, plannedReadReason } from "./change-reason.js";

const known: Value = objectVal({ name: stringVal("a") });
const unknown: Value = objectVal({ name: unknownVal(stringType) });

describe("changeReason", () => {
  // What terraform 1.11.4's `plan -json` prints in planned_change's change.reason (seen for
  // replace_triggered_by, delete_because_no_resource_config and read_because_config_unknown;
  // the others are its views/json ChangeReason names).
  test.each([
    [ReplaceReason.Tainted, "tainted"],
    [ReplaceReason.Requested, "requested"],
    [ReplaceReason.Triggered, "replace_triggered_by"],
    [ReplaceReason.CannotUpdate, "cannot_update"],
  ] as const)("replace reason %s is %s", (replaceReason, want) => {
    expect(changeReason({ action: PlanAction.DeleteThenCreate, replaceReason, config: known })).toBe(want);
  });

  test("every replace and read reason has a name", () => {
    for (const replaceReason of Object.values(ReplaceReason)) expect(changeReason({ action: PlanAction.CreateThenDelete, replaceReason, config: known })).toMatch(/^[a-z_]+$/);
    for (const readReason of Object.values(ReadReason)) expect(changeReason({ action: PlanAction.Read, readReason, config: known })).toMatch(/^read_because_[a-z_]+$/);
  });

  test.each([
    [ReadReason.ConfigUnknown, "read_because_config_unknown"],
    [ReadReason.DependencyPending, "read_because_dependency_pending"],
    [ReadReason.CheckNested, "read_because_check_nested"],
  ] as const)("read reason %s is %s", (readReason, want) => {
    expect(changeReason({ action: PlanAction.Read, readReason, config: known })).toBe(want);
  });

  test("a read without a recorded reason: config unknown when the configuration holds unknowns, else dependency pending", () => {
    expect(changeReason({ action: PlanAction.Read, config: unknown })).toBe("read_because_config_unknown");
    expect(changeReason({ action: PlanAction.Read, config: known })).toBe("read_because_dependency_pending");
    expect(plannedReadReason({ action: PlanAction.Read, config: unknown })).toBe(ReadReason.ConfigUnknown);
    expect(plannedReadReason({ action: PlanAction.Create, config: unknown })).toBeUndefined();
  });

  test("delete reasons pass through; creates, updates and unexplained deletes have none", () => {
    const reason: DeleteReason = "delete_because_no_resource_config";
    expect(changeReason({ action: PlanAction.Delete, deleteReason: reason, config: known })).toBe(reason);
    expect(changeReason({ action: PlanAction.Delete, config: known })).toBeUndefined();
    expect(changeReason({ action: PlanAction.Create, config: unknown })).toBeUndefined();
    expect(changeReason({ action: PlanAction.Update, config: known })).toBeUndefined();
  });
});
