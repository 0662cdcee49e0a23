/**
 * Oracle: `planText` of magma plans (made with the per-instance steps on the state terraform
 * applied) equals `terraform show -no-color PLANFILE` of terraform's plans of the same
 * configurations: map entries changed, added and removed, nested blocks changed and added,
 * a list attribute's diff under a replace, creates with maps and blocks; and a destroy-mode
 * plan of everything; a plan without changes. Each also with `color` against terraform's
 * coloured `terraform show PLANFILE`, byte for byte.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fromJson } from "@magma/cty";
import { formatResourceInstance, readStateFile, type StateFile } from "@magma/state";
import { createPlan, planDestroy, planInstance, planText, type InstanceObject, type InstanceTarget, type PlannedInstanceChange } from "../src/index.js";
import { hasTerraform } from "@magma/test-support";
import { REQUIRED_PROVIDERS, oracleDir, oracleProviders, resourceConfig, type OracleDir } from "./support/terraform-oracle.js";

const d = hasTerraform() ? describe : describe.skip;

const BEFORE = `${REQUIRED_PROVIDERS}
resource "memory_item" "a" {
  name  = "alpha"
  value = "v"
  tags  = { k = "v", z = "1" }
  rule { port = 80 }
  rule { port = 443 }
}
resource "random_shuffle" "sh" {
  input        = ["a", "b", "c"]
  result_count = 2
}
`;

const AFTER = `${REQUIRED_PROVIDERS}
resource "memory_item" "a" {
  name  = "alpha"
  value = "v"
  tags  = { k = "v2", n = "new" }
  rule { port = 80 }
  rule {
    port     = 8080
    protocol = "udp"
  }
}
resource "memory_item" "b" {
  name = "bravo"
  tags = { team = "x" }
  rule { port = 22 }
}
resource "random_shuffle" "sh" {
  input        = ["a", "b", "d"]
  result_count = 2
}
`;

d("planText against terraform show [-no-color] PLANFILE", () => {
  let dir: OracleDir;
  let providers: Awaited<ReturnType<typeof oracleProviders>>;
  let state: StateFile;

  beforeAll(async () => {
    dir = oracleDir("render-text-");
    dir.write({ "main.tf": BEFORE });
    providers = await oracleProviders();
    await dir.tf("init", "-no-color");
    await dir.tf("apply", "-auto-approve", "-no-color");
    const s = readStateFile(readFileSync(join(dir.work, "terraform.tfstate"), "utf8"));
    if (s === undefined) throw new Error("no state");
    state = s;
  }, 300_000);
  afterAll(() => dir?.cleanup());

  const prior = (target: InstanceTarget, address: string, type: string): InstanceObject => {
    for (const r of state.resources) {
      for (const o of r.instances) {
        if (formatResourceInstance({ module: r.module, mode: r.mode, type: r.type, name: r.name, key: o.indexKey }) !== address) continue;
        return { state: fromJson(o.attributesJson!, target.schema.resources.get(type)!.type), private: o.private ?? new Uint8Array(), tainted: o.tainted };
      }
    }
    throw new Error(`${address} is not in the state`);
  };
  const base = () => createPlan({ changes: [], prior: { lineage: state.lineage, serial: state.serial }, configDigest: "test" });

  test("updates of maps and blocks, a create, a replace with a list diff", async () => {
    dir.write({ "main.tf": AFTER });
    await dir.tf("plan", "-refresh=false", "-no-color", "-out=tf.plan");
    const expected = await dir.tf("show", "-no-color", "tf.plan");
    expect(expected).toContain('~ "k" = "v" -> "v2"');
    const { memory, random } = providers;
    const item = (plain: Record<string, unknown>) => resourceConfig(memory, "memory_item", plain);
    const changes: PlannedInstanceChange[] = [
      await planInstance(memory, { address: "memory_item.a", typeName: "memory_item", prior: prior(memory, "memory_item.a", "memory_item"), config: item({ name: "alpha", value: "v", tags: { k: "v2", n: "new" }, rule: [{ port: 80 }, { port: 8080, protocol: "udp" }] }) }),
      await planInstance(memory, { address: "memory_item.b", typeName: "memory_item", prior: null, config: item({ name: "bravo", tags: { team: "x" }, rule: [{ port: 22 }] }) }),
      await planInstance(random, { address: "random_shuffle.sh", typeName: "random_shuffle", prior: prior(random, "random_shuffle.sh", "random_shuffle"), config: resourceConfig(random, "random_shuffle", { input: ["a", "b", "d"], result_count: 2 }) }),
    ];
    expect(planText({ ...base(), changes }, { schemas: providers.schemas, priorState: state })).toBe(expected);
    const coloured = await dir.tf("show", "tf.plan");
    expect(coloured).toContain("\x1b[33m~\x1b[0m\x1b[0m");
    expect(planText({ ...base(), changes }, { schemas: providers.schemas, priorState: state, color: true })).toBe(coloured);
  }, 120_000);

  test("a destroy-mode plan", async () => {
    dir.write({ "main.tf": BEFORE });
    await dir.tf("plan", "-destroy", "-refresh=false", "-no-color", "-out=d.plan");
    const expected = await dir.tf("show", "-no-color", "d.plan");
    expect(expected).toContain("} -> null");
    const { memory, random } = providers;
    const changes = [
      await planDestroy(memory, "memory_item.a", "memory_item", prior(memory, "memory_item.a", "memory_item")),
      await planDestroy(random, "random_shuffle.sh", "random_shuffle", prior(random, "random_shuffle.sh", "random_shuffle")),
    ];
    expect(planText({ ...base(), changes, mode: "destroy" }, { schemas: providers.schemas, priorState: state })).toBe(expected);
    expect(planText({ ...base(), changes, mode: "destroy" }, { schemas: providers.schemas, priorState: state, color: true })).toBe(await dir.tf("show", "d.plan"));
  }, 120_000);

  test("a plan without changes", async () => {
    dir.write({ "main.tf": BEFORE });
    await dir.tf("plan", "-refresh=false", "-no-color", "-out=n.plan");
    const expected = await dir.tf("show", "-no-color", "n.plan");
    expect(expected).toContain("No changes. Your infrastructure matches the configuration.");
    const { memory, random } = providers;
    const changes = [
      await planInstance(memory, { address: "memory_item.a", typeName: "memory_item", prior: prior(memory, "memory_item.a", "memory_item"), config: resourceConfig(memory, "memory_item", { name: "alpha", value: "v", tags: { k: "v", z: "1" }, rule: [{ port: 80 }, { port: 443 }] }) }),
      await planInstance(random, { address: "random_shuffle.sh", typeName: "random_shuffle", prior: prior(random, "random_shuffle.sh", "random_shuffle"), config: resourceConfig(random, "random_shuffle", { input: ["a", "b", "c"], result_count: 2 }) }),
    ];
    expect(changes.map((c) => c.action)).toEqual(["no-op", "no-op"]);
    expect(planText({ ...base(), changes }, { schemas: providers.schemas, priorState: state })).toBe(expected);
    expect(planText({ ...base(), changes }, { schemas: providers.schemas, priorState: state, color: true })).toBe(await dir.tf("show", "n.plan"));
  }, 120_000);
});
