import { parseRegistrySource, rewriteRegistryModules } from "./module-source-rewrite.js";

describe("rewriteRegistryModules", () => {
  const text = `module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0" # pinned

  name = "x"
  tags = { a = "}" }
  policy = <<-EOT
    { "not": "a brace count" }
    }
  EOT
}

module "local" {
  source = "../../"
  version = "1.0.0"
}

module "endpoints" {
  source = "registry.terraform.io/terraform-aws-modules/vpc/aws//modules/vpc-endpoints"
  version = "5.1.0"
}

module "gone" {
  source = "cloudposse/label/null"
}
`;

  it("points registry calls at local checkouts, drops their version, and leaves local and unknown calls alone", () => {
    const r = rewriteRegistryModules(text, (c) => (c.repository === "terraform-aws-vpc" ? `../deps/${c.repository}${c.subdir === "" ? "" : `/${c.subdir}`}` : undefined));
    expect(r.rewritten.map((c) => c.source)).toEqual(["terraform-aws-modules/vpc/aws", "registry.terraform.io/terraform-aws-modules/vpc/aws//modules/vpc-endpoints"]);
    expect(r.missing.map((c) => c.repository)).toEqual(["terraform-null-label"]);
    expect(r.text).toContain('source  = "../deps/terraform-aws-vpc"\n\n  name = "x"');
    expect(r.text).toContain('source = "../deps/terraform-aws-vpc/modules/vpc-endpoints"\n}');
    expect(r.text).toContain('source = "../../"\n  version = "1.0.0"');
    expect(r.text).toContain('source = "cloudposse/label/null"');
    expect(r.text).toContain("    }\n  EOT\n}");
  });

  it("takes registry addresses only", () => {
    expect(parseRegistrySource("./x")).toBeUndefined();
    expect(parseRegistrySource("git::https://example.com/x.git")).toBeUndefined();
    expect(parseRegistrySource("hashicorp/consul/aws//modules/x")).toEqual({ source: "hashicorp/consul/aws//modules/x", repository: "terraform-aws-consul", subdir: "modules/x" });
  });
});
