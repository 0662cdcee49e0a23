import { parseVersionConstraints } from "@magma/config";
import type { CliError } from "../cli-error.js";
import { formatLockFile, parseLockFile } from "./provider-lock-file.js";
import { versionConstraintsString } from "./version-constraints-string.js";

describe("versionConstraintsString", () => {
  test.each([
    ["~> 5.0", "~> 5.0"],
    ["~> 5", "~> 5.0"],
    ["~> 5.1.2", "~> 5.1.2"],
    [">= 5.0, ~> 5.1", ">= 5.0.0, ~> 5.1"],
    ["< 6, >= 5", ">= 5.0.0, < 6.0.0"],
    ["= 1.2.3", "1.2.3"],
    ["1.2.3, 1.2.3", "1.2.3"],
    [">= 1.0.0-beta1", ">= 1.0.0-beta1"],
  ])("%s → %s", (given, want) => {
    expect(versionConstraintsString(parseVersionConstraints(given)!)).toBe(want);
  });
});

describe("lock file", () => {
  test("formats as terraform writes it and reads back", () => {
    const text = formatLockFile([
      { address: "registry.terraform.io/hashicorp/random", version: "3.6.0", constraints: "", hashes: ["h1:b="] },
      { address: "registry.terraform.io/hashicorp/aws", version: "5.100.0", constraints: "~> 5.0", hashes: ["h1:a=", "zh:00"] },
    ]);
    expect(text).toBe(
      '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n\n' +
        'provider "registry.terraform.io/hashicorp/aws" {\n  version     = "5.100.0"\n  constraints = "~> 5.0"\n  hashes = [\n    "h1:a=",\n    "zh:00",\n  ]\n}\n\n' +
        'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n  hashes = [\n    "h1:b=",\n  ]\n}\n',
    );
    const back = parseLockFile(text);
    expect([...back.keys()]).toEqual(["registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/random"]);
    expect(back.get("registry.terraform.io/hashicorp/aws")).toEqual({ address: "registry.terraform.io/hashicorp/aws", version: "5.100.0", constraints: "~> 5.0", hashes: ["h1:a=", "zh:00"] });
  });

  test("rejects what terraform rejects, naming what and where", () => {
    const problem = (text: string): string => {
      try {
        parseLockFile(text);
      } catch (e) {
        const c = e as CliError;
        return `${c.code}: ${c.message}: ${c.detail ?? ""}`;
      }
      throw new Error("no error");
    };
    expect(problem('provider "x" {\n}\n')).toMatch(/^bad_input: Failed to read dependency lock file: \.terraform\.lock\.hcl:2: Missing required argument.*"version"/);
    expect(problem('provider "x" {\n  version = "1"\n  hashes = "h1:x"\n}\n')).toMatch(/hashes of provider "x" must be a list of strings/);
    expect(problem('provider "x" {\n  version = "1"\n}\nprovider "x" {\n  version = "2"\n}\n')).toMatch(/locked twice/);
    expect(problem("provider {")).toMatch(/^bad_input: Failed to read dependency lock file: \.terraform\.lock\.hcl:1/);
  });
});
