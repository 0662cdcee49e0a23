import type { Value } from "@magma/cty";
import { collectVariableValues, VariableSource, type Module, type VariableValue, type VariableValueOptions } from "@magma/config";
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
 * from `terraform.tfvars` or an automatic variables file ignored; one left at its default when
 * planning ({@link Plan.defaultedVariables}) is one terraform's plan has no value for: "Value for
 * undeclared variable".
 */
export function savedPlanVariables(module: Module, plan: Plan, options: VariableValueOptions): SavedPlanVariables {
  const collected = collectVariableValues(module, options);
  // Required variables not given now were given when planning: the plan holds their values.
  const diagnostics: PlanDiagnostic[] = collected.diags.filter((d) => d.summary !== "No value for required variable" && d.summary !== "Required variable not set");
  const applyTime = new Set(plan.applyTimeVariables ?? []);
  const values: Record<string, Value> = Object.create(null) as Record<string, Value>;
  const undeclared: [string, VariableValue][] = [];
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
    // Left at its default when planning: terraform's plan has no value for it, and reports it as undeclared.
    if (planned === undefined || (plan.defaultedVariables ?? []).includes(name)) {
      undeclared.push([name, v]);
      continue;
    }
    const now = (v.given ?? v.value).unmarkDeep().value;
    // terraform.tfvars and *.auto.tfvars are read whether asked for or not: ignored.
    if (planned.rawEquals(now) || v.source === VariableSource.File || v.source === VariableSource.AutoFile) continue;
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
          `The variable ${name} cannot be set using the -var and -var-file options when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. ${said} ${v.range === undefined ? "set by a CLI argument" : "set by a .tfvars file passed through -var-file argument"}. To declare an ephemeral variable which is not saved in the plan file, use ephemeral = true.`,
          subject,
        ),
      );
    }
  }
  diagnostics.push(...undeclaredVariables(undeclared));
  if (!diagnostics.some((d) => d.severity === "error")) {
    for (const name of applyTime) {
      if (values[name] !== undefined) continue;
      diagnostics.push(planError("No value for required variable", `The ephemeral input variable "${name}" was set during the plan phase, and so must also be set during the apply phase.`));
    }
  }
  return { values, diagnostics };
}

/**
 * terraform's `ParseUndeclaredVariableValues` for the variables a saved plan has no value for:
 * one from `-var` is an error, one from a file a warning (two at most, then a count), one from
 * the environment nothing.
 */
function undeclaredVariables(given: readonly [string, VariableValue][]): PlanDiagnostic[] {
  const out: PlanDiagnostic[] = [];
  let inFiles = 0;
  for (const [name, v] of given) {
    if (v.source === VariableSource.Env) continue;
    if (v.source === VariableSource.Cli && v.range === undefined) {
      out.push(planError("Value for undeclared variable", `A variable named "${name}" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`));
      continue;
    }
    if (inFiles++ < 2) {
      out.push({
        severity: "warning",
        summary: "Value for undeclared variable",
        detail: `The root module does not declare a variable named "${name}" but a value was found in file "${v.range?.filename ?? ""}". If you meant to use this value, add a "variable" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain "global" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.`,
      });
    }
  }
  if (inFiles > 2) out.push({ severity: "warning", summary: "Values for undeclared variables", detail: `In addition to the other similar warnings shown, ${inFiles - 2} other variable(s) defined without being declared.` });
  return out;
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
