import type { Value } from "@magma/cty";
import { collectVariableValues, VariableSource, type Module, type VariableValueOptions } from "@magma/config";
import type { Plan } from "../plan/plan.js";
import { planError, type PlanDiagnostic } from "../planner/plan-diagnostic.js";

/** What {@link savedPlanVariables} found: the apply-time values, and the problems. */
export interface SavedPlanVariables {
  /** The ephemeral variables' values for this apply (by name), each set again as the plan requires. */
  readonly values: Readonly<Record<string, Value>>;
  /** Errors (nothing may be applied) and warnings, as terraform reports them. */
  readonly diagnostics: readonly PlanDiagnostic[];
}

/**
 * The variable values given when applying a saved plan (`-var`, `-var-file`, `TF_VAR_*`,
 * `*.tfvars`), checked as terraform 1.11 checks them: each ephemeral variable that was set
 * when planning ({@link Plan.applyTimeVariables}) must be set again ("No value for required
 * variable"), one that was not must stay unset ("Ephemeral variable was not set during
 * planning"), one set to null is refused ("Ephemeral variable must be set for apply"); a
 * non-ephemeral variable keeps the plan's value: another value from `-var`/`-var-file` is an
 * error ("Can't change variable when applying a saved plan"), from the environment a warning,
 * from `terraform.tfvars` or an automatic variables file ignored.
 */
export function savedPlanVariables(module: Module, plan: Plan, options: VariableValueOptions): SavedPlanVariables {
  const collected = collectVariableValues(module, options);
  // Required variables not given now were given when planning: the plan holds their values.
  const diagnostics: PlanDiagnostic[] = collected.diags.filter((d) => d.summary !== "No value for required variable" && d.summary !== "Required variable not set");
  const applyTime = new Set(plan.applyTimeVariables ?? []);
  const values: Record<string, Value> = Object.create(null) as Record<string, Value>;
  for (const [name, v] of collected.values) {
    if (v.source === VariableSource.Default) continue;
    const decl = module.variables.get(name)!;
    const subject = v.range !== undefined ? { subject: v.range } : {};
    if (decl.ephemeral) {
      if (!applyTime.has(name)) {
        diagnostics.push(planError("Ephemeral variable was not set during planning", `The ephemeral input variable "${name}" was not set during the planning phase, and so must remain unset during the apply phase.`, subject));
      } else if (v.value.isNull()) {
        diagnostics.push(planError("Ephemeral variable must be set for apply", `The ephemeral input variable "${name}" was set during the planning phase, and so must be set again during the apply phase.`));
      } else values[name] = v.value;
      continue;
    }
    const planned = plan.variables?.[name];
    const now = v.value.unmarkDeep().value;
    // terraform.tfvars and *.auto.tfvars are read whether asked for or not: ignored.
    if (planned === undefined || planned.rawEquals(now) || v.source === VariableSource.File || v.source === VariableSource.AutoFile) continue;
    const said = `The saved plan specifies ${compactValue(planned)} as the value whereas during apply the value ${compactValue(now)} was`;
    if (v.source === VariableSource.Env) {
      diagnostics.push({
        severity: "warning",
        summary: "Ignoring variable when applying a saved plan",
        detail: `The variable ${name} cannot be overriden when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. ${said} set by an environment variable. To declare an ephemeral variable which is not saved in the plan file, use ephemeral = true.`,
      });
    } else {
      diagnostics.push(
        planError(
          "Can't change variable when applying a saved plan",
          `The variable ${name} cannot be set using the -var and -var-file options when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. ${said} ${v.range === undefined ? "set using -var" : `set in ${v.range.filename}`}. To declare an ephemeral variable which is not saved in the plan file, use ephemeral = true.`,
          subject,
        ),
      );
    }
  }
  if (!diagnostics.some((d) => d.severity === "error")) {
    for (const name of applyTime) {
      if (values[name] !== undefined) continue;
      diagnostics.push(planError("No value for required variable", `The ephemeral input variable "${name}" was set during the plan phase, and so must also be set during the apply phase.`));
    }
  }
  return { values, diagnostics };
}

/** A value in a few words, as terraform's `tfdiags.CompactValueStr`: a primitive as HCL writes it, a collection by its size. */
function compactValue(v: Value): string {
  if (!v.isKnown()) return "(not yet known)";
  if (v.isNull()) return "null";
  const t = v.type;
  switch (t.kind) {
    case "string":
      return JSON.stringify(v.asString());
    case "number":
      return v.asNumber().toString();
    case "bool":
      return v.asBool() ? "true" : "false";
    default: {
      const n = v.length();
      const what = t.kind === "object" ? "object" : t.kind === "tuple" ? "tuple" : t.kind;
      return t.kind === "object" ? `object with ${n} attribute${n === 1 ? "" : "s"}` : `${what} with ${n} element${n === 1 ? "" : "s"}`;
    }
  }
}
