import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toJson, typeString } from "@magma/cty";
import { evaluate, formatRange, parseExpression, parseJsonExpression } from "@magma/hcl";
import { loadConfig } from "./load-config.js";
import { isOverrideFile, loadModuleFromFiles } from "./load-module.js";
import { applyTypeDefaults, typeConstraint } from "./type-expr.js";
import { parseVersionConstraints, versionSatisfies } from "./version-constraint.js";

function load(files: Record<string, string>): ReturnType<typeof loadModuleFromFiles> {
  return loadModuleFromFiles(".", new Map(Object.entries(files)));
}

function summaries(files: Record<string, string>): string[] {
  return load(files).diags.map((d) => `${d.severity}: ${d.summary}${d.subject !== undefined ? ` @ ${formatRange(d.subject)}` : ""}`);
}

describe("loadModuleFromFiles", () => {
  it("checks provider_meta blocks as Terraform does at load: static attributes only (terraform validate's diagnostics)", () => {
    const meta = (body: string): string[] => summaries({ "main.tf": `terraform {\n  provider_meta "memory" {\n${body}  }\n}\nvariable "x" {\n  default = "q"\n}\n` });
    expect(meta(`    module_name = "m"\n    n = 1 + 2\n    l = ["a", { b = true }]\n`)).toEqual([]);
    expect(meta(`    module_name = var.x\n    other = "\${local.y}-z"\n    f = upper("a")\n    p = provider::memory::stamp("x")\n`)).toEqual([
      "error: Variables not allowed @ main.tf:3,19-22",
      "error: Variables not allowed @ main.tf:4,16-21",
      "error: Function calls not allowed @ main.tf:5,9-19",
      "error: Function calls not allowed @ main.tf:6,9-37",
    ]);
    // A nested block stops the check there (Terraform's JustAttributes error).
    expect(meta(`    module_name = var.x\n    nested {\n    }\n`)).toEqual(['error: Unexpected "nested" block @ main.tf:4,5-11']);
    const d = load({ "main.tf": `terraform {\n  provider_meta "memory" {\n    module_name = var.x\n  }\n}\n` }).diags[0]!;
    expect([d.summary, d.detail]).toEqual(["Variables not allowed", "Variables may not be used here."]);
  });

  it("refuses provisioners, connection blocks, unsupported backends and HCP Terraform clearly", () => {
    expect(
      summaries({
        "main.tf": `terraform {\n  backend "gcs" {}\n}\nresource "terraform_data" "a" {\n  provisioner "local-exec" {\n    command = "x"\n  }\n  connection {\n  }\n}\n`,
      }),
    ).toEqual([
      "error: Provisioners are not supported @ main.tf:5,3-14",
      "error: Provisioners are not supported @ main.tf:8,3-13",
      "error: Unsupported backend type @ main.tf:2,11-16",
    ]);
    expect(summaries({ "main.tf": `terraform {\n  backend "pg" {}\n}\n` })).toEqual([]);
    expect(summaries({ "main.tf": `terraform {\n  backend "local" {}\n}\n` })).toEqual([]);
    expect(summaries({ "main.tf": `terraform {\n  backend "http" {}\n}\n` })).toEqual([]);
    expect(summaries({ "main.tf": `terraform {\n  backend "s3" {}\n}\n` })).toEqual([]);
    expect(summaries({ "main.tf": `terraform {\n  cloud {}\n}\n` })).toEqual(["error: Unsupported block type @ main.tf:2,3-8"]);
  });

  it("merges override files as Terraform does: arguments replaced by name, nested blocks by type", () => {
    const { module, diags } = load({
      "main.tf": `variable "v" {\n  type    = string\n  default = "a"\n}\nresource "terraform_data" "r" {\n  input = 1\n  triggers_replace = 2\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`,
      "z_override.tf": `variable "v" {\n  default = "b"\n}\nresource "terraform_data" "r" {\n  input = 3\n}\n`,
    });
    expect(diags).toEqual([]);
    const v = module.variables.get("v")!;
    expect(typeString(v.type)).toBe("string");
    expect(toJson(v.default!, v.default!.type)).toBe('"b"');
    const r = module.managedResources.get("terraform_data.r")!;
    expect(r.managed!.preventDestroy).toBe(true);
    const { attributes } = r.config.justAttributes();
    expect([...attributes.keys()].sort()).toEqual(["input", "triggers_replace"]);
    expect(toJson(evaluate(attributes.get("input")!.expr).value, evaluate(attributes.get("input")!.expr).value.type)).toBe("3");
    expect(isOverrideFile("override.tf.json")).toBe(true);
    expect(isOverrideFile("a_override.tf")).toBe(true);
    expect(isOverrideFile("overrides.tf")).toBe(false);
  });

  it("resolves each resource's provider from required_providers, or implies hashicorp/<prefix>", () => {
    const { module } = load({
      "main.tf": `terraform {\n  required_providers {\n    acme = {\n      source = "example.com/acme/acme"\n    }\n  }\n}\nresource "acme_thing" "a" {}\nresource "google_x" "b" {\n  provider = acme\n}\nresource "aws_y" "c" {}\n`,
    });
    const p = (k: string): string => {
      const a = module.managedResources.get(k)!.provider;
      return `${a.hostname}/${a.namespace}/${a.type}`;
    };
    expect(p("acme_thing.a")).toBe("example.com/acme/acme");
    expect(p("google_x.b")).toBe("example.com/acme/acme");
    expect(p("aws_y.c")).toBe("registry.terraform.io/hashicorp/aws");
  });
});

describe("module sources", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-config-mods-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("takes registry modules from .terraform/modules/modules.json and never fetches", () => {
    writeFileSync(join(dir, "main.tf"), `module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.0.0"\n}\nmodule "gh" {\n  source = "git::https://example.com/x.git"\n}\n`);
    const first = loadConfig(dir);
    expect(first.diags.map((d) => [d.summary, formatRange(d.subject!)])).toEqual([
      ["Module not installed", "main.tf:2,13-44"],
      ["Module not installed", "main.tf:6,12-44"],
    ]);
    expect(first.diags[0]!.detail).toContain("never downloads");
    mkdirSync(join(dir, ".terraform", "modules", "vpc"), { recursive: true });
    writeFileSync(join(dir, ".terraform", "modules", "vpc", "main.tf"), `variable "cidr" {\n  default = "10.0.0.0/16"\n}\nresource "aws_vpc" "this" {\n  cidr_block = var.cidr\n}\n`);
    writeFileSync(
      join(dir, ".terraform", "modules", "modules.json"),
      JSON.stringify({ Modules: [{ Key: "", Source: "", Dir: "." }, { Key: "vpc", Source: "registry.terraform.io/terraform-aws-modules/vpc/aws", Version: "5.0.0", Dir: ".terraform/modules/vpc" }] }),
    );
    writeFileSync(join(dir, "main.tf"), `module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.0.0"\n}\n`);
    const second = loadConfig(dir);
    expect(second.diags).toEqual([]);
    expect([...second.config.children.get("vpc")!.module.managedResources.keys()]).toEqual(["aws_vpc.this"]);
    writeFileSync(join(dir, "main.tf"), `module "vpc" {\n  source = "terraform-aws-modules/vpc/google"\n}\n`);
    expect(loadConfig(dir).diags.map((d) => d.summary)).toEqual(["Module source has changed"]);
    writeFileSync(join(dir, "main.tf"), `module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n}\n`);
    expect(formatRange(loadConfig(dir).config.children.get("vpc")!.module.managedResources.get("aws_vpc.this")!.declRange)).toBe(".terraform/modules/vpc/main.tf:4,1-26");
  });

  it("reports a local module directory that does not exist", () => {
    writeFileSync(join(dir, "main.tf"), `module "m" {\n  source = "./nope"\n}\n`);
    expect(loadConfig(dir).diags.map((d) => d.summary)).toEqual(["Unreadable module directory"]);
  });
});

describe("type constraints and version constraints", () => {
  it("decodes optional() with defaults and applies them through collections", () => {
    const { expr } = parseExpression(`list(object({ a = string, b = optional(number, 7), c = optional(object({ d = optional(bool, true) }), {}) }))`);
    const tc = typeConstraint(expr);
    expect(tc.diags).toEqual([]);
    expect(typeString(tc.type)).toBe("list(object({a=string, b=optional(number), c=optional(object({d=optional(bool)}))}))");
    const v = evaluate(parseExpression(`[{ a = "x" }, { a = "y", b = 1, c = { d = false } }]`).expr).value;
    const applied = applyTypeDefaults(v, tc.defaults!);
    expect(JSON.parse(toJson(applied, applied.type))).toEqual([
      { a: "x", b: 7, c: { d: true } },
      { a: "y", b: 1, c: { d: false } },
    ]);
  });

  it("in JSON syntax, a type string that does not parse is an invalid type specification over the whole string (HCL's JSON ExprCall gives nil)", () => {
    const { expr } = parseJsonExpression('"$list(string)}"', "v.tf.json");
    const tc = typeConstraint(expr);
    expect(tc.diags.map((d) => [d.summary, formatRange(d.subject!)])).toEqual([["Invalid type specification", "v.tf.json:1,1-17"]]);
  });

  it("terraform's two sniff passes over a JSON file report a mistyped root value once each, besides the decoding's two", () => {
    const r = loadModuleFromFiles(".", new Map([["main.tf.json", "[1]"]]));
    expect(r.diags.map((d) => d.detail)).toEqual(Array(4).fill("A JSON object is required here, to define arguments and child blocks."));
  });

  it("checks versions as go-version does", () => {
    const c = (s: string): NonNullable<ReturnType<typeof parseVersionConstraints>> => parseVersionConstraints(s)!;
    expect(versionSatisfies("1.11.4", c(">= 1.5.0, < 2.0.0"))).toBe(true);
    expect(versionSatisfies("1.11.4", c("~> 1.11"))).toBe(true);
    expect(versionSatisfies("1.11.4", c("~> 1.11.5"))).toBe(false);
    expect(versionSatisfies("1.11.4", c("~> 1.10.0"))).toBe(false);
    expect(versionSatisfies("1.11.4", c("!= 1.11.4"))).toBe(false);
    expect(versionSatisfies("1.11.4", c("1.11.4"))).toBe(true);
    expect(parseVersionConstraints(">= banana")).toBeUndefined();
  });
});
