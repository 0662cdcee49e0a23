import fc from "fast-check";
import { formatInstanceKey, quoteHcl } from "./instance-key.js";
import { formatModuleInstance, parseModuleInstance } from "./module-address.js";
import { formatProviderConfig, parseProviderConfig, parseProviderSource } from "./provider-address.js";
import { formatResource, formatResourceInstance, parseResource, parseResourceInstance } from "./resource-address.js";
import { errorCode as code } from "../../test/support/state-errors.js";

describe("resource instance addresses", () => {
  const roundTrips = [
    "aws_x.y",
    "aws_x.y[0]",
    'aws_x.y["k"]',
    "data.aws_z.w",
    "ephemeral.random_password.p",
    'module.m["a"].aws_x.y[0]',
    "module.m.module.n[2].data.aws_z.w[\"b c\"]",
    'aws_x.y["quote\\" back\\\\ nl\\n tab\\t"]',
    'aws_x.y["$${x} %%{y} $ %"]',
    'aws_x.y["\\u0001"]',
    'aws_x.y["é—ü"]',
  ];
  it.each(roundTrips)("parses and prints %s unchanged", (s) => {
    expect(formatResourceInstance(parseResourceInstance(s))).toBe(s);
  });

  it("reads the parts", () => {
    expect(parseResourceInstance('module.m["a"].aws_x.y[0]')).toEqual({
      module: [{ name: "m", key: "a" }],
      mode: "managed",
      type: "aws_x",
      name: "y",
      key: 0,
    });
    expect(parseResourceInstance("data.aws_z.w").mode).toBe("data");
  });

  it("normalises what Terraform normalises", () => {
    expect(formatResourceInstance(parseResourceInstance("aws_x.y.0"))).toBe("aws_x.y[0]");
    expect(formatResourceInstance(parseResourceInstance("resource.aws_x.y"))).toBe("aws_x.y");
    expect(formatResourceInstance(parseResourceInstance("resource.count.y"))).toBe("count.y");
    expect(formatResourceInstance(parseResourceInstance('aws_x.y["\\u00e9"]'))).toBe('aws_x.y["é"]');
  });

  it.each([
    "",
    "aws_x",
    "aws_x.y[",
    "aws_x.y[1.5]",
    "aws_x.y[-1]",
    'aws_x.y["${var.x}"]',
    'aws_x.y["open',
    "aws_x.y[0][1]",
    "aws_x.y[0].z",
    "var.x",
    "module.m",
    "module.m[0]",
    "module[0].x.y",
    "data.aws_z",
    "aws_x[0].y",
    "aws_x.y z",
    "1abc.y",
    'aws_x.y["a\\qb"]',
  ])("refuses %j with invalid_address", (s) => {
    expect(code(() => parseResourceInstance(s))).toBe("invalid_address");
  });

  it("resource addresses have no key", () => {
    expect(formatResource(parseResource('module.m["a"].aws_x.y'))).toBe('module.m["a"].aws_x.y');
    expect(code(() => parseResource("aws_x.y[0]"))).toBe("invalid_address");
  });

  it("errors say what and where", () => {
    expect(() => parseResourceInstance("aws_x.y[")).toThrow(/\[invalid_address\] invalid address "aws_x.y\[" at offset 8/);
  });
});

describe("module instance addresses", () => {
  it.each(["", "module.a", 'module.a["x"].module.b[3]'])("round-trips %j", (s) => {
    expect(formatModuleInstance(parseModuleInstance(s))).toBe(s);
  });
  it.each(["aws_x.y", "module.a.aws_x.y", "module", "module.a[0][1]"])("refuses %j", (s) => {
    expect(code(() => parseModuleInstance(s))).toBe("invalid_address");
  });
});

describe("provider configuration addresses", () => {
  it.each([
    'provider["registry.terraform.io/hashicorp/aws"]',
    'provider["registry.terraform.io/hashicorp/aws"].west',
    'module.m.provider["registry.terraform.io/hashicorp/aws"]',
    'module.m.module.n.provider["example.com/acme/thing"].alias_2',
    'provider["terraform.io/builtin/terraform"]',
    'provider["registry.terraform.io/-/aws"]',
  ])("round-trips %s", (s) => {
    expect(formatProviderConfig(parseProviderConfig(s))).toBe(s);
  });

  it("fills in the default host and namespace and folds case", () => {
    expect(formatProviderConfig(parseProviderConfig('provider["aws"]'))).toBe('provider["registry.terraform.io/hashicorp/aws"]');
    expect(formatProviderConfig(parseProviderConfig('provider["Acme/Thing"]'))).toBe('provider["registry.terraform.io/acme/thing"]');
    expect(parseProviderSource("example.com:8443/a/b")).toEqual({ hostname: "example.com:8443", namespace: "a", type: "b" });
  });

  it.each([
    "provider.aws",
    'provider["a/b/c/d"]',
    'provider[0]',
    'provider["registry.terraform.io/hashicorp/aws"].a.b',
    'provider["registry.terraform.io/hashicorp/aws"][0]',
    'module.m[0].provider["registry.terraform.io/hashicorp/aws"]',
    'provider["registry.terraform.io/hashicorp/a_b"]',
    'provider["registry.terraform.io/hashicorp/terraform-provider-aws"]',
    'aws_x.y',
  ])("refuses %s", (s) => {
    expect(code(() => parseProviderConfig(s))).toBe("invalid_address");
  });
});

describe("instance keys", () => {
  it("prints keys as Terraform does", () => {
    expect(formatInstanceKey(undefined)).toBe("");
    expect(formatInstanceKey(3)).toBe("[3]");
    expect(formatInstanceKey('a"b')).toBe('["a\\"b"]');
    expect(quoteHcl("${a}")).toBe('"$${a}"');
    expect(quoteHcl("\u2028")).toBe('"\\u2028"');
    expect(quoteHcl("\u{1F600}")).toBe('"\u{1F600}"');
  });
});

describe("address round trips (property)", () => {
  const ident = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/).filter((s) => !["module", "data", "ephemeral", "resource", "count", "each", "local", "path", "self", "terraform", "var", "template", "lazy", "arg"].includes(s));
  const key = fc.oneof(fc.constant(undefined), fc.nat({ max: 100000 }), fc.string({ unit: "binary", maxLength: 12 }));

  it("prints then parses any resource instance address back to itself", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ name: ident, key }), { maxLength: 3 }), fc.constantFrom("managed", "data", "ephemeral" as const), ident, ident, key, (module, mode, type, name, k) => {
        const addr = { module, mode, type, name, key: k };
        const text = formatResourceInstance(addr);
        expect(parseResourceInstance(text)).toEqual(addr);
      }),
      { numRuns: 500 },
    );
  });
});
