// The sensitivity of a replaced object's unknown attributes, beside terraform 1.11.4 on the
// same files in native and JSON syntax. Terraform plans a replacement again as a create and
// marks that planned value with the configuration's sensitive paths only, not the schema's:
// what refers to a random_password being replaced (a resource's argument, directly, inside an
// object and a list, through a module) sees its unknown `result` unmarked. Compared: the plan
// as printed, and `show -json PLANFILE`'s planned_values (values, sensitive_values) and
// resource_changes (after, after_unknown, after_sensitive, before_sensitive), random results
// and ids left out. The plan's text prints terraform's warning above a value whose sensitivity
// changes. Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { expectSameRuns, initialisedPair, pairCliConfig, runPair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const main = (length: number): string => `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "s" {
  default   = "x"
  sensitive = true
}
resource "random_password" "x" {
  count   = 2
  length  = ${length}
  keepers = { k = var.s }
}
resource "terraform_data" "d" {
  input = { p = random_password.x[0].result, l = [random_password.x[1].result, "a"], s = var.s, n = 1 }
}
resource "terraform_data" "e" {
  input = random_password.x[0].result
}
module "m" {
  source = "./m"
  p      = random_password.x[0].result
}
`;

const MODULE = `variable "p" {}
resource "terraform_data" "d" {
  input = var.p
}
`;

/** What is compared of `show -json PLANFILE`: random results and ids left out. */
function sensitivity(json: string): unknown {
  const doc = JSON.parse(json) as {
    planned_values: { root_module: { resources: Rv[]; child_modules?: { resources: Rv[] }[] } };
    resource_changes: { address: string; change: Record<string, unknown> }[];
  };
  type Rv = { address: string; values: Record<string, unknown>; sensitive_values: unknown };
  const drop = (v: Record<string, unknown> | null): unknown => (v === null ? null : Object.fromEntries(Object.entries(v).filter(([k]) => !["id", "result", "bcrypt_hash"].includes(k))));
  const rvs = [...doc.planned_values.root_module.resources, ...(doc.planned_values.root_module.child_modules ?? []).flatMap((m) => m.resources)];
  return {
    planned: rvs.map((r) => ({ address: r.address, values: drop(r.values), sensitive: r.sensitive_values })),
    changes: doc.resource_changes.map((r) => ({
      address: r.address,
      actions: r.change["actions"],
      after: drop(r.change["after"] as Record<string, unknown> | null),
      after_unknown: r.change["after_unknown"],
      after_sensitive: r.change["after_sensitive"],
      before_sensitive: r.change["before_sensitive"],
    })),
  };
}

(TERRAFORM !== undefined ? describe : describe.skip)("a replaced object's unknown sensitive attributes, beside terraform's", () => {
  test.each([
    ["native syntax", "main.tf", (s: string) => s, { "m/main.tf": MODULE }],
    ["JSON syntax", "main.tf.json", tfToJson, { "m/main.tf.json": tfToJson(MODULE) }],
  ])("%s: plan text and show -json PLANFILE", async (_name, file, syntax, module) => {
    const pair = await initialisedPair({ [file]: syntax(main(8)), ...module });
    for (const [o, t] of await runPair(pair, [["apply", "-auto-approve"]])) expect([o.code, t.code]).toEqual([0, 0]);
    for (const dir of pair) writeFileSync(join(dir, file), syntax(main(9)));
    const commands = [["plan", "-out=p"]];
    const runs = await runPair(pair, commands);
    // Random results (8 characters) and ids blanked, progress lines sorted.
    const blank = (r: ToolRun): ToolRun => ({ code: r.code, stdout: r.stdout.replace(/"[0-9a-f-]{36}"/g, '"ID"').replace(/"[^"\n]{8}"/g, '"R"'), stderr: r.stderr });
    expectSameRuns([[blank(runs[0]![0]), blank(runs[0]![1])]], commands);
    const [ours, theirs] = await Promise.all([runTool("magma", ["show", "-json", "p"], pair[0], {}), runTool("terraform", ["show", "-json", "p"], pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
    expect([ours.code, theirs.code]).toEqual([0, 0]);
    expect(sensitivity(ours.stdout)).toEqual(sensitivity(theirs.stdout));
    // The references are planned unknown and no longer sensitive: terraform's warning (a check on the comparison).
    expect(runs[0]![1].stdout).toContain("      # Warning: this attribute value will no longer be marked as sensitive\n      # after applying this change.\n      ~ input  = (sensitive value)\n");
  }, 300_000);
});
