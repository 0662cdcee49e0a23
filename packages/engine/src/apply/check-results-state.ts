import type { CheckResultState } from "@magma/state";
import type { PlannedCheck } from "../plan/planned-check.js";

const OBJECT_KIND: Readonly<Record<PlannedCheck["kind"], CheckResultState["objectKind"]>> = { resource: "resource", output_value: "output", check: "check", var: "var" };

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The `check_results` a state records for checks (Terraform's `states.NewCheckResults`): per
 * checkable object its kind, configuration address, aggregate status and each instance's
 * status with its failure messages; undefined when there are none. Terraform writes them in
 * its maps' (random) order; here sorted by address, objects too.
 */
export function checkResultsState(checks: readonly PlannedCheck[]): CheckResultState[] | undefined {
  if (checks.length === 0) return undefined;
  return [...checks]
    .sort((a, b) => byText(a.address, b.address))
    .map((c) => ({
      objectKind: OBJECT_KIND[c.kind],
      configAddr: c.address,
      status: c.status,
      objects: [...c.instances].sort((a, b) => byText(a.address, b.address)).map((i) => ({ objectAddr: i.address, status: i.status, failureMessages: [...i.problems] })),
    }));
}
