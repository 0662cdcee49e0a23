// magma graph -type=plan|plan-refresh-only|plan-destroy|apply through the built binary: the
// operation graph in terraform graph's DOT, compared byte for byte with terraform 1.11.4's on
// the same configuration and state (skipped without terraform and hashicorp/aws, whose schema
// terraform reads to build its graph; magma's graph starts no provider).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasAwsProvider } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const AWS = `provider[\\"registry.terraform.io/hashicorp/aws\\"]`;

/** A root module with variables (one validated), locals, two provider configurations (one reading a variable), a data source, count, for_each, modules (nested, one with its own provider, one passed an alias), a check and outputs. */
const FILES: Record<string, string> = {
  "main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
variable "region" { default = "us-east-1" }
variable "unused" { default = 1 }
variable "n" {
  default = 2
  validation {
    condition     = var.n < 10
    error_message = "small"
  }
}
provider "aws" {
  region                      = var.region
  skip_credentials_validation = true
}
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
locals {
  name  = "x"
  other = local.name
  names = toset(["a", "b"])
  reg   = data.aws_region.r.name
}
data "aws_region" "r" {}
resource "aws_ssm_parameter" "a" {
  provider = aws.west
  count    = var.n
  name     = "\${local.other}-\${count.index}"
  type     = "String"
  value    = local.reg
}
resource "aws_ssm_parameter" "e" {
  for_each   = local.names
  name       = each.key
  type       = "String"
  value      = module.y["a"].k
  depends_on = [module.own]
}
module "m" {
  source    = "./mod"
  count     = var.n
  in        = aws_ssm_parameter.a[0].name
  providers = { aws = aws.west }
}
module "k" {
  source     = "./mod"
  in         = "k"
  depends_on = [aws_ssm_parameter.a]
}
module "y" {
  source   = "./each"
  for_each = local.names
  k        = each.key
}
module "own" {
  source = "./own"
}
check "c" {
  assert {
    condition     = length(local.names) > 0
    error_message = "no names"
  }
}
output "o" { value = module.m }
output "p" {
  value      = module.k.out
  depends_on = [local.name]
}
output "s" {
  value     = aws_ssm_parameter.e
  sensitive = true
}
`,
  "mod/main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
variable "in" {}
locals { l = upper(var.in) }
data "aws_caller_identity" "me" {}
resource "aws_ssm_parameter" "c" {
  name  = "\${local.l}-\${data.aws_caller_identity.me.account_id}"
  type  = "String"
  value = "c"
}
module "inner" {
  source = "./inner"
  v      = aws_ssm_parameter.c.id
}
output "out" { value = module.inner.r }
output "plain" { value = "x" }
`,
  "mod/inner/main.tf": `
variable "v" {}
output "r" { value = var.v }
`,
  "each/main.tf": `
variable "k" {}
output "k" { value = var.k }
`,
  "own/main.tf": `
variable "pfx" {
  default = "z"
  validation {
    condition     = length(var.pfx) > 0
    error_message = "empty"
  }
}
provider "aws" {
  region = "eu-west-1"
}
resource "aws_ssm_parameter" "c" {
  name  = var.pfx
  type  = "String"
  value = "c"
}
`,
};

const instance = (key: number | undefined, id: string): string => `{${key === undefined ? "" : `"index_key":${key},`}"schema_version":0,"attributes":{"id":"${id}","name":"${id}","type":"String","value":"v"}}`;

/** A state with a counted resource in the configuration, an orphaned counted resource and an orphan in a module. */
const STATE = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"1b0c4c34-1111-2222-3333-444455556666","outputs":{},"resources":[
{"mode":"managed","type":"aws_ssm_parameter","name":"a","provider":"${AWS}.west","instances":[${instance(0, "a0")},${instance(1, "a1")}]},
{"mode":"managed","type":"aws_ssm_parameter","name":"gone","provider":"${AWS}","instances":[${instance(0, "g0")},${instance(1, "g1")}]},
{"module":"module.k","mode":"managed","type":"aws_ssm_parameter","name":"old","provider":"${AWS}","instances":[${instance(undefined, "old")}]}
]}
`;

const TYPES = ["plan", "plan-refresh-only", "plan-destroy", "apply"] as const;

const withTerraform = TERRAFORM !== undefined && hasAwsProvider() ? describe : describe.skip;

withTerraform("magma graph -type against terraform graph -type", () => {
  test("every type prints terraform's DOT byte for byte, with an empty state and with orphans in the state", async () => {
    const dir = workdir(FILES);
    terraform(["init", "-no-color", "-input=false"], dir);
    // Without a state plan's graph is checked; with orphans in the state, all four.
    for (const withState of [false, true]) {
      if (withState) writeFileSync(join(dir, "terraform.tfstate"), STATE);
      for (const type of withState ? TYPES : (["plan"] as const)) {
        const ours = await magma(["graph", `-type=${type}`], { cwd: dir });
        expect({ type, withState, stderr: ours.stderr, code: ours.code }).toEqual({ type, withState, stderr: "", code: 0 });
        expect({ type, withState, dot: ours.stdout }).toEqual({ type, withState, dot: terraform(["graph", `-type=${type}`], dir).stdout });
      }
    }
  }, 240_000);
});

describe("magma graph -type without terraform", () => {
  test("prints the operation graph of an uninitialised directory; a bad type is terraform's error", async () => {
    const dir = workdir(FILES);
    const plan = await magma(["graph", "-type=plan"], { cwd: dir });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout.startsWith('digraph {\n\tcompound = "true"\n\tnewrank = "true"\n\tsubgraph "root" {\n')).toBe(true);
    expect(plan.stdout).toContain('\t\t"[root] aws_ssm_parameter.a (expand)" [label = "aws_ssm_parameter.a", shape = "box"]\n');
    expect(plan.stdout).toContain('\t\t"[root] module.m.var.in (expand)" -> "[root] aws_ssm_parameter.a (expand)"\n');
    expect(plan.stdout).toContain('\t\t"[root] root" -> "[root] check.c (expand)"\n');
    const bad = await magma(["graph", "-type=bogus"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid graph type requested: bogus");
    const validate = await magma(["graph", "-type=validate"], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain("-type=validate is not supported");
  }, 60_000);
});
