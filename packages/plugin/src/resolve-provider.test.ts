import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProviderError } from "@magma/provider-api";
import { matchesVersionConstraint, parseProviderSource, providerSearchDirs, resolveProviderBinary, versionMatches } from "./resolve-provider.js";

describe("parseProviderSource", () => {
  test.each([
    ["aws", "registry.terraform.io/hashicorp/aws"],
    ["hashicorp/aws", "registry.terraform.io/hashicorp/aws"],
    ["registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/aws"],
    ["Example.COM/Magma/Random", "example.com/magma/random"],
  ])("%s", (source, want) => {
    const a = parseProviderSource(source);
    expect(`${a.hostname}/${a.namespace}/${a.type}`).toBe(want);
  });
  test.each(["", "a/b/c/d", "hashicorp/-aws", "hashi corp/aws"])("rejects %p", (source) => {
    expect(() => parseProviderSource(source)).toThrow(TypeError);
  });
});

describe("matchesVersionConstraint", () => {
  test.each<[string, string | undefined, boolean]>([
    ["5.100.0", undefined, true],
    ["5.100.0", "5.100.0", true],
    ["5.100.0", "= 5.100.0", true],
    ["5.100.0", "!= 5.100.0", false],
    ["5.100.0", "~> 5.0", true],
    ["6.0.0", "~> 5.0", false],
    ["5.100.0", "~> 5.100.1", false],
    ["5.100.3", "~> 5.100.1", true],
    ["5.101.0", "~> 5.100.1", false],
    ["5.100.0", ">= 5.1, < 6.0", true],
    ["4.9.0", ">= 5.1, < 6.0", false],
    ["5.0.0-beta1", "~> 5.0", false],
    ["5.0.0-beta1", "5.0.0-beta1", true],
    ["5.0.0-beta1", undefined, false],
    ["5.2.0", "> 5.1", true],
    ["5.1.0", "<= 5.1", true],
  ])("%s against %p is %p", (v, c, want) => {
    expect(matchesVersionConstraint(v, c)).toBe(want);
  });
  test("a malformed constraint is a TypeError", () => {
    expect(() => matchesVersionConstraint("1.0.0", ">= x")).toThrow(TypeError);
  });

  test("the deprecated name versionMatches is the same function", () => {
    expect(versionMatches).toBe(matchesVersionConstraint);
  });
});

describe("resolveProviderBinary", () => {
  let dir: string;
  const platform = `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
  const make = (root: string, type: string, version: string, executable = true): string => {
    const d = join(root, "registry.terraform.io", "hashicorp", type, version, platform);
    mkdirSync(d, { recursive: true });
    const f = join(d, `terraform-provider-${type}_v${version}_x5`);
    writeFileSync(f, "#!/bin/sh\n");
    chmodSync(f, executable ? 0o755 : 0o644);
    return f;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-resolve-"));
    make(join(dir, "a"), "aws", "5.1.0");
    make(join(dir, "a"), "aws", "5.100.0");
    make(join(dir, "b"), "aws", "4.67.0");
    make(join(dir, "b"), "aws", "6.0.0", false); // not executable: ignored
    make(join(dir, "mirror"), "random", "3.6.3");
    writeFileSync(join(dir, "cli.tfrc"), `provider_installation {\n  # a comment\n  filesystem_mirror {\n    path = "${join(dir, "mirror")}"\n    include = ["*/*/*"]\n  }\n}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const base = () => ({ pluginDirs: [join(dir, "a"), join(dir, "b")], impliedMirrors: false, environment: {}, cliConfigFile: join(dir, "none") });

  test("the newest matching version wins", async () => {
    const r = await resolveProviderBinary("hashicorp/aws", base());
    expect(r.version).toBe("5.100.0");
    expect(r.binary).toMatch(/terraform-provider-aws_v5\.100\.0_x5$/);
    expect((await resolveProviderBinary("aws", { ...base(), version: "~> 4.0" })).version).toBe("4.67.0");
  });

  test("CLI config filesystem_mirror and TF_PLUGIN_CACHE_DIR are searched", async () => {
    const r = await resolveProviderBinary("random", { ...base(), cliConfigFile: join(dir, "cli.tfrc") });
    expect(r.foundIn).toBe(join(dir, "mirror"));
    const c = await resolveProviderBinary("random", { ...base(), environment: { TF_PLUGIN_CACHE_DIR: join(dir, "mirror") } });
    expect(c.version).toBe("3.6.3");
  });

  test("not found: a provider_not_found error naming the directories searched and versions seen", async () => {
    let err: unknown;
    try {
      await resolveProviderBinary("aws", { ...base(), version: "~> 7.0" });
    } catch (e) {
      err = e;
    }
    expect(isProviderError(err) && err.code === "provider_not_found").toBe(true);
    expect((err as Error).message).toContain(join(dir, "a"));
    expect((err as Error).message).toContain("5.100.0");
  });

  test("implied mirror directories follow Terraform's list", () => {
    const dirs = providerSearchDirs({ environment: { HOME: "/home/u" }, cwd: "/work", cliConfigFile: "/nonexistent" });
    expect(dirs).toEqual([
      "/work/terraform.d/plugins",
      "/home/u/.terraform.d/plugins",
      "/home/u/.local/share/terraform/plugins",
      "/usr/local/share/terraform/plugins",
      "/usr/share/terraform/plugins",
    ]);
  });
});
