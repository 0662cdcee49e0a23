/**
 * Oracle: `stateJson` of states written by terraform 1.11.4 (the in-memory provider and
 * provider-random served by @magma/provider-server) equals `terraform show -json` of the
 * same state, byte for byte: blocks, maps with HTML-escaped strings, count and for_each
 * keys, a child module, a data source, schema-sensitive attributes, sensitive outputs, a
 * tainted object, a deposed object and an empty state.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readStateFile, type StateFile } from "@magma/state";
import { stateJson } from "../src/index.js";
import { hasTerraform } from "@magma/test-support";
import { REQUIRED_PROVIDERS, oracleDir, oracleProviders, type OracleDir } from "./support/terraform-oracle.js";

const d = hasTerraform() ? describe : describe.skip;

const MAIN_TF = `${REQUIRED_PROVIDERS}
resource "memory_item" "a" {
  name  = "alpha"
  value = "hello"
  tags  = { k = "v<&>", "2" = "two" }
  rule { port = 80 }
  rule {
    port     = 443
    protocol = "https"
  }
}
resource "memory_item" "c" {
  count = 2
  name  = "c\${count.index}"
}
resource "random_password" "pw" { length = 8 }
resource "memory_item" "hidden" {
  name  = "hidden"
  value = sensitive("s3cret")
}
resource "random_string" "s" {
  for_each = toset(["x", "y"])
  length   = 4
  keepers  = { k = each.key }
}
data "memory_lookup" "l" {
  name = memory_item.a.name
}
module "m" {
  source = "./m"
}
output "o" { value = memory_item.a.id }
output "l" { value = data.memory_lookup.l.tags }
output "secret" {
  value     = random_password.pw.result
  sensitive = true
}
`;

const MODULE_TF = `terraform {
  required_providers {
    memory = { source = "example.com/magma/memory" }
  }
}
resource "memory_item" "i" {
  name       = "inner"
  depends_on = []
}
output "id" { value = memory_item.i.id }
`;

d("stateJson against terraform show -json", () => {
  let dir: OracleDir;
  let schemas: Awaited<ReturnType<typeof oracleProviders>>["schemas"];

  beforeAll(async () => {
    dir = oracleDir("render-state-");
    dir.write({ "main.tf": MAIN_TF });
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir.work, "m"));
    writeFileSync(join(dir.work, "m", "main.tf"), MODULE_TF);
    schemas = (await oracleProviders()).schemas;
    await dir.tf("init", "-no-color");
    await dir.tf("apply", "-auto-approve", "-no-color");
  }, 300_000);
  afterAll(() => dir.cleanup());

  const readState = (): StateFile => {
    const s = readStateFile(readFileSync(join(dir.work, "terraform.tfstate"), "utf8"));
    if (s === undefined) throw new Error("no state");
    return s;
  };

  test("an applied configuration", async () => {
    const expected = (await dir.tf("show", "-json")).trimEnd();
    expect(stateJson(readState(), schemas)).toBe(expected);
    // What the comparison covers.
    const doc = JSON.parse(expected) as { values: { root_module: { resources: { address: string; sensitive_values: unknown }[]; child_modules: unknown[] } } };
    expect(doc.values.root_module.resources.map((r) => r.address)).toEqual([
      "data.memory_lookup.l",
      "memory_item.a",
      "memory_item.c[0]",
      "memory_item.c[1]",
      "memory_item.hidden",
      "random_password.pw",
      'random_string.s["x"]',
      'random_string.s["y"]',
    ]);
    expect(doc.values.root_module.resources.find((r) => r.address === "random_password.pw")?.sensitive_values).toEqual({ bcrypt_hash: true, result: true });
    expect(doc.values.root_module.resources.find((r) => r.address === "memory_item.hidden")?.sensitive_values).toEqual({ rule: [], value: true });
    expect(doc.values.root_module.child_modules).toHaveLength(1);
    expect(expected).toContain("\\u003c\\u0026\\u003e");
  }, 120_000);

  test("a tainted object", async () => {
    await dir.tf("taint", "memory_item.c[1]");
    const expected = (await dir.tf("show", "-json")).trimEnd();
    expect(expected).toContain('"tainted":true');
    expect(stateJson(readState(), schemas)).toBe(expected);
  }, 120_000);

  test("a deposed object (and its schema_version of 0)", async () => {
    // Terraform leaves a deposed object after an interrupted create_before_destroy; write one in.
    const path = join(dir.work, "terraform.tfstate");
    const raw = JSON.parse(readFileSync(path, "utf8")) as { serial: number; resources: { type: string; name: string; instances: Record<string, unknown>[] }[] };
    const a = raw.resources.find((r) => r.type === "memory_item" && r.name === "a")!;
    const current = a.instances[0]!;
    a.instances.push({ ...current, deposed: "0badf00d", attributes: { ...(current["attributes"] as object), value: "old" } });
    raw.serial += 1;
    writeFileSync(path, JSON.stringify(raw, null, 2));
    const expected = (await dir.tf("show", "-json")).trimEnd();
    expect(expected).toContain('"deposed_key":"0badf00d"');
    expect(stateJson(readState(), schemas)).toBe(expected);
  }, 120_000);

  test("an empty state", async () => {
    await dir.tf("destroy", "-auto-approve", "-no-color");
    const expected = (await dir.tf("show", "-json")).trimEnd();
    expect(expected).toBe('{"format_version":"1.0"}');
    expect(stateJson(readState(), schemas)).toBe(expected);
  }, 180_000);
});
