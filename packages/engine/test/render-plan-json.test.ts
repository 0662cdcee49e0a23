/**
 * Oracle: `planJson` of a magma plan made with the per-instance steps (planInstance,
 * planDestroy, readDataSourceInstance) on the state terraform applied equals `terraform
 * show -json` of terraform's saved plan of the same configuration on that state, field by
 * field: resource_changes (create, update, no-op, delete by count index and by missing
 * configuration, replace for a changed requires-replace attribute, for a tainted object,
 * create-before-destroy, a deferred data source read, a module's resource), planned_values,
 * output_changes (create, update, no-op, delete), prior_state, variables, applyable — and the
 * whole document (relevant_attributes included).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Path, fromJson, nullVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { loadConfig } from "@magma/config";
import { formatResourceInstance, readStateFile, type StateFile } from "@magma/state";
import { createPlan, planDestroy, planInstance, planJson, planSummary, planText, readDataSourceInstance, type InstanceObject, type InstanceTarget, type PlannedInstanceChange, type PlannedOutput } from "../src/index.js";
import { comparablePlanJson, hasTerraform } from "@magma/test-support";
import { REQUIRED_PROVIDERS, oracleDir, oracleProviders, resourceConfig, type OracleDir } from "./support/terraform-oracle.js";

const d = hasTerraform() ? describe : describe.skip;

const MODULE_A = `terraform {
  required_providers {
    memory = { source = "example.com/magma/memory" }
  }
}
variable "value" {
  type    = string
  default = null
}
resource "memory_item" "i" {
  name  = "inner"
  value = var.value
}
`;

const BEFORE = `${REQUIRED_PROVIDERS}
variable "v" {
  type    = string
  default = "hello"
}
resource "memory_item" "a" {
  name  = "alpha"
  value = var.v
  tags  = { k = "v<&>" }
  rule { port = 80 }
}
resource "memory_item" "c" {
  count = 2
  name  = "c\${count.index}"
}
resource "memory_item" "e" { name = "echo" }
resource "memory_item" "f" { name = "fox" }
resource "random_password" "pw" { length = 8 }
resource "random_string" "s" {
  for_each = toset(["x"])
  length   = 4
}
module "m" { source = "./m" }
output "o" { value = memory_item.a.id }
output "gone" { value = "bye" }
output "secret" {
  value     = random_password.pw.result
  sensitive = true
}
`;

const AFTER = `${REQUIRED_PROVIDERS}
variable "v" {
  type    = string
  default = "hello"
}
resource "memory_item" "a" {
  name  = "alpha"
  value = "world"
  tags  = { k = "v<&>" }
  rule { port = 80 }
}
resource "memory_item" "c" {
  count = 1
  name  = "c\${count.index}"
}
resource "memory_item" "d" {
  name  = "delta"
  value = sensitive("s3cret")
}
resource "memory_item" "e" { name = "echo" }
resource "memory_item" "f" {
  name = "fox2"
  lifecycle { create_before_destroy = true }
}
data "memory_lookup" "l" { name = memory_item.d.id }
resource "random_password" "pw" { length = 9 }
module "m" {
  source = "./m"
  value  = "x"
}
output "o" { value = memory_item.a.id }
output "n" { value = memory_item.d.id }
output "secret" {
  value     = random_password.pw.result
  sensitive = true
}
`;

interface ShowPlan {
  format_version: string;
  terraform_version: string;
  variables: unknown;
  planned_values: unknown;
  resource_changes: { address: string; change: { actions: string[] }; action_reason?: string }[];
  output_changes: unknown;
  prior_state: unknown;
  configuration: unknown;
  applyable: boolean;
  complete: boolean;
  errored: boolean;
}

d("planJson against terraform show -json PLANFILE", () => {
  let dir: OracleDir;
  let providers: Awaited<ReturnType<typeof oracleProviders>>;
  let state: StateFile;
  let expected: ShowPlan;
  let planOutput: string;

  beforeAll(async () => {
    dir = oracleDir("render-plan-");
    mkdirSync(join(dir.work, "m"));
    writeFileSync(join(dir.work, "m", "main.tf"), MODULE_A);
    dir.write({ "main.tf": BEFORE });
    providers = await oracleProviders();
    await dir.tf("init", "-no-color");
    await dir.tf("apply", "-auto-approve", "-no-color");
    await dir.tf("taint", "memory_item.e");
    dir.write({ "main.tf": AFTER });
    // No refresh: the in-memory provider's objects live in the apply's process only.
    planOutput = await dir.tf("plan", "-refresh=false", "-no-color", "-out=tf.plan");
    expected = JSON.parse(await dir.tf("show", "-json", "tf.plan")) as ShowPlan;
    const s = readStateFile(readFileSync(join(dir.work, "terraform.tfstate"), "utf8"));
    if (s === undefined) throw new Error("no state");
    state = s;
  }, 300_000);
  afterAll(() => dir?.cleanup());

  /** The stored object of an instance, decoded (the schema versions are current: no upgrade needed). */
  const prior = (target: InstanceTarget, address: string, type: string): InstanceObject => {
    for (const r of state.resources) {
      for (const o of r.instances) {
        if (o.deposed !== undefined || formatResourceInstance({ module: r.module, mode: r.mode, type: r.type, name: r.name, key: o.indexKey }) !== address) continue;
        return { state: fromJson(o.attributesJson!, target.schema.resources.get(type)!.type), private: o.private ?? new Uint8Array(), tainted: o.tainted };
      }
    }
    throw new Error(`${address} is not in the state`);
  };
  const output = (name: string): Value => {
    const o = state.outputs.get(name)!;
    return fromJson(o.valueJson, stringType);
  };

  const magmaPlan = async () => {
    const { memory, random } = providers;
    const item = (plain: Record<string, unknown>) => resourceConfig(memory, "memory_item", plain);
    const changes: PlannedInstanceChange[] = [
      await planInstance(memory, { address: "memory_item.a", typeName: "memory_item", prior: prior(memory, "memory_item.a", "memory_item"), config: item({ name: "alpha", value: "world", tags: { k: "v<&>" }, rule: [{ port: 80 }] }) }),
      await planInstance(memory, { address: "memory_item.c[0]", typeName: "memory_item", prior: prior(memory, "memory_item.c[0]", "memory_item"), config: item({ name: "c0" }) }),
      await planDestroy(memory, "memory_item.c[1]", "memory_item", prior(memory, "memory_item.c[1]", "memory_item")),
      // The planner marks configuration-sensitive values; here the mark is set as it would.
      { ...(await planInstance(memory, { address: "memory_item.d", typeName: "memory_item", prior: null, config: item({ name: "delta", value: "s3cret" }) })), afterSensitivePaths: [Path.root.attr("value")] },
      await planInstance(memory, { address: "memory_item.e", typeName: "memory_item", prior: prior(memory, "memory_item.e", "memory_item"), config: item({ name: "echo" }) }),
      await planInstance(memory, { address: "memory_item.f", typeName: "memory_item", prior: prior(memory, "memory_item.f", "memory_item"), config: item({ name: "fox2" }), createBeforeDestroy: true }),
      await planInstance(random, { address: "random_password.pw", typeName: "random_password", prior: prior(random, "random_password.pw", "random_password"), config: resourceConfig(random, "random_password", { length: 9 }) }),
      await planDestroy(random, 'random_string.s["x"]', "random_string", prior(random, 'random_string.s["x"]', "random_string")),
      await planInstance(memory, { address: "module.m.memory_item.i", typeName: "memory_item", prior: prior(memory, "module.m.memory_item.i", "memory_item"), config: item({ name: "inner", value: "x" }) }),
    ];
    const read = await readDataSourceInstance(memory, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: resourceConfig(memory, "memory_lookup", { name: unknownVal(stringType) }) });
    if (read.kind !== "deferred") throw new Error("the read should be deferred");
    changes.push(read.change);
    const outputs: PlannedOutput[] = [
      { name: "gone", action: "delete", before: output("gone"), after: nullVal(stringType), sensitive: false },
      { name: "n", action: "create", before: nullVal(stringType), after: unknownVal(stringType), sensitive: false },
      { name: "o", action: "no-op", before: output("o"), after: output("o"), sensitive: false },
      { name: "secret", action: "update", before: output("secret"), after: unknownVal(stringType), sensitive: true },
    ];
    const plan = { ...createPlan({ changes, prior: { lineage: state.lineage, serial: state.serial }, configDigest: "test" }), outputs, variables: { v: stringVal("hello") } };
    const { config, diags } = loadConfig(dir.work);
    if (diags.some((x) => x.severity === "error")) throw new Error(diags.map((x) => x.summary).join("; "));
    return { plan, config, doc: JSON.parse(planJson(plan, { schemas: providers.schemas, priorState: state, config, timestamp: new Date() })) as ShowPlan };
  };

  test("resource_changes", async () => {
    const mine = (await magmaPlan()).doc;
    expect(expected.resource_changes.map((r) => [r.address, r.change.actions.join(","), r.action_reason ?? ""])).toEqual([
      ["data.memory_lookup.l", "read", "read_because_config_unknown"],
      ["memory_item.a", "update", ""],
      ["memory_item.c[0]", "no-op", ""],
      ["memory_item.c[1]", "delete", "delete_because_count_index"],
      ["memory_item.d", "create", ""],
      ["memory_item.e", "delete,create", "replace_because_tainted"],
      ["memory_item.f", "create,delete", "replace_because_cannot_update"],
      ["random_password.pw", "delete,create", "replace_because_cannot_update"],
      ['random_string.s["x"]', "delete", "delete_because_no_resource_config"],
      ["module.m.memory_item.i", "update", ""],
    ]);
    expect(mine.resource_changes).toEqual(expected.resource_changes);
  }, 120_000);

  test("planned_values, output_changes, prior_state, variables and the flags", async () => {
    const mine = (await magmaPlan()).doc;
    expect(mine.planned_values).toEqual(expected.planned_values);
    expect(mine.output_changes).toEqual(expected.output_changes);
    expect(mine.prior_state).toEqual(expected.prior_state);
    expect(mine.variables).toEqual(expected.variables);
    for (const k of ["format_version", "terraform_version", "applyable", "complete", "errored"] as const) expect([k, mine[k]]).toEqual([k, expected[k]]);
  }, 120_000);

  test("configuration", async () => {
    const mine = (await magmaPlan()).doc;
    expect(mine.configuration).toEqual(expected.configuration);
  }, 120_000);

  test("the whole document (all but the timestamp; relevant_attributes as a set)", async () => {
    // Terraform's order of relevant_attributes comes from a Go map: not stable.
    const normal = (doc: ShowPlan): Record<string, unknown> => comparablePlanJson(doc as unknown as Record<string, unknown>);
    const theirs = normal(expected);
    expect(theirs["relevant_attributes"]).toEqual([
      { resource: "memory_item.d", attribute: ["id"] },
      { resource: "random_password.pw", attribute: ["result"] },
    ]);
    expect(normal((await magmaPlan()).doc)).toEqual(theirs);
  }, 120_000);

  test("planSummary is terraform's summary line", async () => {
    const { plan } = await magmaPlan();
    const line = planOutput.split("\n").find((l) => l.startsWith("Plan: "));
    expect(line).toBe("Plan: 4 to add, 2 to change, 5 to destroy.");
    expect(planSummary(plan)).toBe(line);
  }, 120_000);

  test("planText is terraform's human plan", async () => {
    const { plan, config } = await magmaPlan();
    const expectedText = await dir.tf("show", "-no-color", "tf.plan");
    // What the comparison covers.
    for (const part of [
      "+/- create replacement and then destroy",
      "# memory_item.e is tainted, so must be replaced",
      "# (because index [1] is out of range for count)",
      "~ length      = 8 -> 9 # forces replacement",
      "~ result      = (sensitive value)",
      "+ value = (sensitive value)",
      "# (1 unchanged block hidden)",
      " <= data \"memory_lookup\" \"l\" {",
      "Changes to Outputs:",
    ])
      expect(expectedText).toContain(part);
    expect(planText(plan, { schemas: providers.schemas, priorState: state, config })).toBe(expectedText);
  }, 120_000);
});
