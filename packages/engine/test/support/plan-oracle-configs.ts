/**
 * The plan oracles' configurations in native syntax (plan-oracle.test.ts also renders them
 * as JSON): version 1, version 2 planned on version 1's state, and the local module both call.
 */
import { MEMORY, RANDOM } from "./plan-oracle.js";

/** Version 1: count, for_each, references with unknowns, a deferred data source, outputs. */
export const V1_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
    random = { source = "${RANDOM}", version = "1.0.0" }
  }
}
variable "prefix" {
  type    = string
  default = "app"
}
locals {
  envs = { dev = "d", prod = "p" }
}
resource "random_integer" "n" {
  min  = 1
  max  = 9
  seed = "magma"
}
resource "memory_item" "a" {
  name  = "a"
  value = "one"
}
resource "memory_item" "counted" {
  count = 3
  name  = "\${var.prefix}-\${count.index}"
  value = memory_item.a.id
}
resource "memory_item" "env" {
  for_each = local.envs
  name     = "env-\${each.key}"
  value    = "\${each.value}-\${random_integer.n.result}"
}
resource "memory_item" "gone" {
  name = "gone"
}
data "memory_lookup" "after_a" {
  name = memory_item.a.id == "" ? "none" : memory_item.a.name
}
output "ids" {
  value = memory_item.counted[*].id
}
output "secret" {
  value     = var.prefix
  sensitive = true
}
output "static" {
  value = "same"
}
module "m" {
  source = "./mod"
  count  = 2
  prefix = "m\${count.index}"
}
resource "memory_item" "from_module" {
  name = "from-\${module.m[1].name}"
}
`;

/**
 * Version 2 on version 1's state: an update (a.value), a count shrink (counted[2] deleted),
 * a for_each key removed and one added, an orphan (gone), a requires-replace rename under
 * create_before_destroy, a data source read at plan (known config) feeding a new resource,
 * a deferred one.
 */
export const V2_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
    random = { source = "${RANDOM}", version = "1.0.0" }
  }
}
variable "prefix" {
  type    = string
  default = "app"
}
locals {
  envs = { dev = "d", test = "t" }
}
resource "random_integer" "n" {
  min  = 1
  max  = 9
  seed = "magma"
}
resource "memory_item" "a" {
  name  = "a"
  value = "two"
}
resource "memory_item" "counted" {
  count = 2
  name  = "\${var.prefix}-\${count.index}"
  value = memory_item.a.id
}
resource "memory_item" "env" {
  for_each = local.envs
  name     = each.key == "dev" ? "env-dev-renamed" : "env-\${each.key}"
  value    = "\${each.value}-\${random_integer.n.result}"
  lifecycle {
    create_before_destroy = true
  }
}
data "memory_lookup" "known" {
  name = "a"
}
resource "memory_item" "copy" {
  name  = "copy"
  value = data.memory_lookup.known.id
}
data "memory_lookup" "pending" {
  name = memory_item.copy.id
}
data "memory_lookup" "via_ref" {
  name = memory_item.a.name
}
data "memory_lookup" "via_depends_on" {
  name       = "a"
  depends_on = [memory_item.a]
}
data "memory_lookup" "via_data" {
  name = data.memory_lookup.via_depends_on.name
}
output "ids" {
  value = memory_item.counted[*].id
}
module "m" {
  source = "./mod"
  count  = 1
  prefix = "m\${count.index}"
}
resource "memory_item" "from_module" {
  name = "from-\${module.m[0].name}"
}
`;

/** The local module both versions call (count 2, then 1). */
export const MOD_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
variable "prefix" {
  type = string
}
resource "memory_item" "x" {
  name  = "\${var.prefix}-x"
  value = var.prefix
}
output "name" {
  value = memory_item.x.name
}
`;
