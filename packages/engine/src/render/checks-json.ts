import type { PlannedCheck } from "../plan/planned-check.js";
import { compareUtf8, jsonArray, jsonString, jsonStruct } from "./go-json.js";

/**
 * `terraform show -json`'s `checks` (Terraform's `jsonchecks.MarshalCheckStates`): every
 * checkable object with its status and instances, sorted by address; each instance's
 * problems sorted by message. Undefined (the field is left out) when there is none.
 */
export function checksJson(checks: readonly PlannedCheck[] | undefined): string | undefined {
  if (checks === undefined || checks.length === 0) return undefined;
  const sorted = [...checks].sort((a, b) => compareUtf8(a.address, b.address));
  return jsonArray(
    sorted.map((c) => {
      // Go marshals the address maps with sorted keys.
      const address = jsonStruct([
        ["kind", jsonString(c.kind)],
        ["mode", c.mode === undefined ? undefined : jsonString(c.mode)],
        ["module", c.module === undefined ? undefined : jsonString(c.module)],
        ["name", jsonString(c.name)],
        ["to_display", jsonString(c.address)],
        ["type", c.type === undefined ? undefined : jsonString(c.type)],
      ]);
      const instances = [...c.instances].sort((a, b) => compareUtf8(a.address, b.address));
      return jsonStruct([
        ["address", address],
        ["status", jsonString(c.status)],
        [
          "instances",
          instances.length === 0
            ? undefined
            : jsonArray(
                instances.map((i) =>
                  jsonStruct([
                    [
                      "address",
                      jsonStruct([
                        ["instance_key", i.instanceKey === undefined ? undefined : typeof i.instanceKey === "number" ? String(i.instanceKey) : jsonString(i.instanceKey)],
                        ["module", i.module === undefined ? undefined : jsonString(i.module)],
                        ["to_display", jsonString(i.address)],
                      ]),
                    ],
                    ["status", jsonString(i.status)],
                    ["problems", i.problems.length === 0 ? undefined : jsonArray([...i.problems].sort(compareUtf8).map((m) => jsonStruct([["message", jsonString(m)]])))],
                  ]),
                ),
              ),
        ],
      ]);
    }),
  );
}
