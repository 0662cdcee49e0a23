import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTestFiles, parseTestFile } from "./test-file.js";

describe("parseTestFile", () => {
  it("decodes runs, variables, plan options, module blocks and expect_failures (native syntax)", () => {
    const { file, diags } = parseTestFile(
      `variables {
  a = 1
}
provider "random" {
  alias = "x"
}
run "setup" {
  module {
    source = "./setup"
  }
}
run "check" {
  command = plan
  variables {
    b = run.setup.out
  }
  plan_options {
    mode    = refresh-only
    target  = [random_string.s]
    replace = [random_string.t[0]]
  }
  providers = {
    random = random.x
  }
  expect_failures = [var.a, output.o]
  assert {
    condition     = output.o == 1
    error_message = "no"
  }
}
`,
      "main.tftest.hcl",
    );
    expect(diags).toEqual([]);
    expect([...file.variables.keys()]).toEqual(["a"]);
    expect([...file.providers.keys()]).toEqual(["random.x"]);
    expect(file.runs.map((r) => [r.name, r.index, r.command])).toEqual([
      ["setup", 0, "apply"],
      ["check", 1, "plan"],
    ]);
    expect(file.runs[0]!.module?.source).toBe("./setup");
    const check = file.runs[1]!;
    expect(check.options.mode).toBe("refresh-only");
    expect(check.options.refresh).toBe(true);
    expect(check.options.target.map((t) => t.root)).toEqual(["random_string"]);
    expect(check.providers).toEqual([expect.objectContaining({ inChild: "random", inParent: "random.x" })]);
    expect(check.expectFailures.map((t) => t.root)).toEqual(["var", "output"]);
    expect(check.asserts).toHaveLength(1);
    expect([...check.variables.keys()]).toEqual(["b"]);
  });

  it("decodes the JSON syntax", () => {
    const { file, diags } = parseTestFile(
      JSON.stringify({ variables: { a: 1 }, run: { one: { command: "plan", expect_failures: ["var.a"], assert: [{ condition: "${var.a == 1}", error_message: "x" }] } } }),
      "main.tftest.json",
    );
    expect(diags).toEqual([]);
    expect(file.runs.map((r) => [r.name, r.command, r.expectFailures.length, r.asserts.length])).toEqual([["one", "plan", 1, 1]]);
  });

  it("reports terraform's errors: a bad command keyword, duplicate run names, refresh = false in refresh-only mode", () => {
    const { file, diags } = parseTestFile(
      `run "a" {
  command = destroy
}
run "b" {}
run "b" {}
run "c" {
  plan_options {
    mode    = refresh-only
    refresh = false
  }
}
`,
      "x.tftest.hcl",
    );
    expect(diags.map((d) => d.summary)).toEqual(['Invalid "command" keyword', 'Duplicate "run" block names', "Incompatible plan options"]);
    expect(diags[1]!.detail).toBe("This test file already has a run named b block defined at x.tftest.hcl:4,1-8.");
    // Runs that failed to decode are left out.
    expect(file.runs.map((r) => r.name)).toEqual(["b", "b"]);
  });

  it("requires an assert condition to refer to something", () => {
    const { diags } = parseTestFile(`run "a" {\n  assert {\n    condition     = true\n    error_message = "x"\n  }\n}\n`, "x.tftest.hcl");
    expect(diags.map((d) => d.summary)).toEqual(["Invalid assert expression"]);
  });
});

describe("findTestFiles", () => {
  it("finds .tftest.hcl and .tftest.json in the directory and the test directory; warns for a missing non-default test directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-test-files-"));
    try {
      mkdirSync(join(dir, "tests"));
      for (const f of ["a.tftest.hcl", "b.tftest.json", "main.tf", ".hidden.tftest.hcl", "tests/c.tftest.hcl", "tests/d.tf"]) writeFileSync(join(dir, f), "");
      expect(findTestFiles(dir, "tests")).toEqual({ names: ["tests/c.tftest.hcl", "a.tftest.hcl", "b.tftest.json"], diags: [] });
      const other = findTestFiles(dir, "nope");
      expect(other.names).toEqual(["a.tftest.hcl", "b.tftest.json"]);
      expect(other.diags).toEqual([{ severity: "warning", summary: "Test directory does not exist", detail: "Requested test directory nope does not exist." }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
