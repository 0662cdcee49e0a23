/**
 * Oracle: `configurationJson` of a configuration loaded by @magma/config equals the
 * `configuration` of `terraform show -json` of a plan of it: provider blocks with aliases and
 * expressions, providers passed to a counted module, implied providers in child modules,
 * resources with count/for_each/depends_on/dynamic blocks/provider references, references
 * to module outputs and instances, functions, outputs with descriptions and depends_on,
 * variables with descriptions, sensitivity and defaults, and a `.tf.json` file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "@magma/config";
import { configurationJson } from "../src/index.js";
import { hasTerraform } from "@magma/test-support";
import { REQUIRED_PROVIDERS, oracleDir, oracleProviders, type OracleDir } from "./support/terraform-oracle.js";

const d = hasTerraform() ? describe : describe.skip;

const MAIN_TF = `${REQUIRED_PROVIDERS}
provider "memory" {
  id_prefix = "x-"
}
provider "memory" {
  alias     = "west"
  id_prefix = var.prefix
}
variable "prefix" {
  type        = string
  description = "The id prefix."
  default     = "w-"
}
variable "secret" {
  type      = string
  sensitive = true
  default   = null
}
variable "names" {
  type    = set(string)
  default = ["a", "b"]
}
resource "memory_item" "each" {
  for_each = var.names
  name     = each.key
  value    = upper(each.value)
  tags     = { owner = "me", n = length(var.names) }
  dynamic "rule" {
    for_each = [80, 443]
    content { port = rule.value }
  }
  rule { port = 22 }
}
resource "memory_item" "west" {
  provider   = memory.west
  count      = 2
  name       = "w\${count.index}"
  value      = memory_item.each["a"].id
  depends_on = [random_string.s]
}
resource "random_string" "s" {
  length  = 6
  special = false
  keepers = { k = module.child[0].id }
}
data "memory_lookup" "l" { name = memory_item.west[1].name }
module "child" {
  source    = "./child"
  count     = 2
  providers = { memory = memory.west }
  label     = "c\${count.index}"
}
module "plain" {
  source     = "./plain"
  depends_on = [memory_item.each]
}
output "first" {
  value       = module.child[0].id
  description = "The first child's id."
  depends_on  = [memory_item.west]
}
output "all" {
  value     = [for m in module.child : m.id]
  sensitive = true
}
output "const" { value = { a = 1, b = [true, null] } }
`;

const CHILD_TF = `terraform {
  required_providers {
    memory = { source = "example.com/magma/memory", version = ">= 1.0" }
  }
}
variable "label" { type = string }
resource "memory_item" "i" { name = var.label }
output "id" { value = memory_item.i.id }
`;

const PLAIN_TF_JSON = JSON.stringify({
  terraform: { required_providers: { random: { source: "example.com/magma/random" } } },
  resource: { random_id: { r: { byte_length: 4, prefix: "\${path.module}-" } } },
  output: { o: { value: "\${random_id.r.hex}" } },
});

d("configurationJson against terraform show -json", () => {
  let dir: OracleDir;
  beforeAll(async () => {
    dir = oracleDir("render-config-");
    dir.write({ "main.tf": MAIN_TF });
    mkdirSync(join(dir.work, "child"));
    writeFileSync(join(dir.work, "child", "main.tf"), CHILD_TF);
    mkdirSync(join(dir.work, "plain"));
    writeFileSync(join(dir.work, "plain", "main.tf.json"), PLAIN_TF_JSON);
    await dir.tf("init", "-no-color");
    await dir.tf("plan", "-no-color", "-out=tf.plan");
  }, 300_000);
  afterAll(() => dir?.cleanup());

  test("the configuration document", async () => {
    const expected = (JSON.parse(await dir.tf("show", "-json", "tf.plan")) as { configuration: unknown }).configuration;
    const { config, diags } = loadConfig(dir.work);
    expect(diags.filter((x) => x.severity === "error")).toEqual([]);
    const { schemas } = await oracleProviders();
    expect(JSON.parse(configurationJson(config, schemas))).toEqual(expected);
  }, 120_000);
});
