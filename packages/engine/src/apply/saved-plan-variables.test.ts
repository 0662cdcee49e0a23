import { stringVal } from "@magma/cty";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPlan, type Plan } from "../plan/plan.js";
import { formatPlan, parsePlan } from "../plan/plan-file.js";
import { configOf } from "../planner/test-support.js";
import { savedPlanVariables } from "./saved-plan-variables.js";

const MAIN = `
variable "tok" {
  type      = string
  ephemeral = true
}
variable "other" {
  type      = string
  ephemeral = true
  default   = "d"
}
variable "name" {
  type = string
}
variable "dflt" {
  type    = string
  default = "d"
}
`;

/** A saved plan made with name = "a" and the ephemeral tok set (read back from its file). */
const plan: Plan = parsePlan(formatPlan({ ...createPlan({ changes: [], prior: { lineage: "", serial: 0 }, configDigest: "x" }), variables: { name: stringVal("a"), dflt: stringVal("d") }, applyTimeVariables: ["tok"], defaultedVariables: ["dflt"] }));

function check(args: readonly string[], env: Record<string, string> = {}, tfvars?: string) {
  const c = configOf({ "main.tf": MAIN });
  try {
    if (tfvars !== undefined) writeFileSync(join(c.dir, "terraform.tfvars"), tfvars);
    const r = savedPlanVariables(c.config.module, plan, { dir: c.dir, args: args.map((arg) => ({ kind: "var" as const, arg })), env });
    return { values: Object.fromEntries(Object.entries(r.values).map(([k, v]) => [k, v.asString()])), diags: r.diagnostics.map((d) => `${d.severity} ${d.summary}: ${d.detail}`) };
  } finally {
    c.cleanup();
  }
}

describe("savedPlanVariables (the variables given when applying a saved plan, as terraform 1.11 checks them)", () => {
  test("the plan file keeps the names of the ephemeral variables set, not their values", () => {
    expect(plan.applyTimeVariables).toEqual(["tok"]);
    expect(Object.keys(plan.variables ?? {})).toEqual(["name", "dflt"]);
    expect(plan.defaultedVariables).toEqual(["dflt"]);
  });

  test("an ephemeral variable set when planning must be set again; its value is this apply's", () => {
    expect(check([])).toEqual({ values: {}, diags: ['error No value for required variable: The ephemeral input variable "tok" was set during the plan phase, and so must also be set during the apply phase.'] });
    expect(check(["tok=s3cret"])).toEqual({ values: { tok: "s3cret" }, diags: [] });
    expect(check([], { TF_VAR_tok: "from-env" })).toEqual({ values: { tok: "from-env" }, diags: [] });
  });

  test("one not set when planning must stay unset; a non-ephemeral one keeps the plan's value", () => {
    expect(check(["tok=s", "other=x"]).diags).toEqual(['error Ephemeral variable was not set during planning: The ephemeral input variable "other" was not set during the planning phase, and so must remain unset during the apply phase.']);
    expect(check(["tok=s", "name=a"])).toEqual({ values: { tok: "s" }, diags: [] });
    expect(check(["tok=s", "name=b"]).diags).toEqual([
      'error Can\'t change variable when applying a saved plan: The variable name cannot be set using the -var and -var-file options when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. The saved plan specifies "a" as the value whereas during apply the value "b" was set by a CLI argument. To declare an ephemeral variable which is not saved in the plan file, use ephemeral = true.',
    ]);
    expect(check(["tok=s"], { TF_VAR_name: "b" }).diags).toEqual([expect.stringMatching(/^warning Ignoring variable when applying a saved plan: The variable name cannot be overriden/)]);
    expect(check(["tok=s"], {}, 'name = "b"\n').diags).toEqual([]);
  });

  test("one left at its default when planning is not in terraform's plan: a value for it is one for an undeclared variable", () => {
    // Even the default's own value: the plan has none.
    expect(check(["tok=s", "dflt=d"]).diags).toEqual([
      'error Value for undeclared variable: A variable named "dflt" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.',
    ]);
    // From the environment: ignored; from a file: a warning.
    expect(check(["tok=s"], { TF_VAR_dflt: "e" })).toEqual({ values: { tok: "s" }, diags: [] });
    expect(check(["tok=s"], {}, 'dflt = "f"\n').diags).toEqual([expect.stringMatching(/^warning Value for undeclared variable: The root module does not declare a variable named "dflt" but a value was found in file "terraform.tfvars"/)]);
  });
});
