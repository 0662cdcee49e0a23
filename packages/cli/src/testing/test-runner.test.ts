import type { PlanDiagnostic } from "@magma/engine";
import { isLocalDirectory } from "../commands/test.js";
import { parseTestFile } from "./test-file.js";
import { explainExpectedFailures, traversalText, validateExpectedFailures } from "./test-runner.js";

const run = (expect: string) => parseTestFile(`run "r" {\n  expect_failures = [${expect}]\n}\n`, "t.tftest.hcl").file.runs[0]!;
const failure = (summary: string, address: string, severity: "error" | "warning" = "error"): PlanDiagnostic => ({ severity, summary, detail: "d", address, ...(summary.startsWith("Check") ? { fromCheckBlock: true } : {}) });

describe("expected failures", () => {
  it("drops the failures a run expects (variables, outputs, resources and their instances, checks)", () => {
    const r = run("var.n, output.o, random_integer.i, check.c");
    const out = validateExpectedFailures(r, [
      failure("Invalid value for variable", "var.n"),
      failure("Module output value precondition failed", "output.o"),
      failure("Resource postcondition failed", "random_integer.i[0]"),
      failure("Check block assertion failed", "check.c", "warning"),
    ]);
    expect(out).toEqual([]);
  });

  it("turns an unexpected failed check into an error and reports a missing expected failure at its reference", () => {
    const r = run("var.n");
    const out = validateExpectedFailures(r, [failure("Check block assertion failed", "check.c", "warning")]);
    expect(out.map((d) => [d.severity, d.summary])).toEqual([
      ["error", "Check block assertion failed"],
      ["error", "Missing expected failure"],
    ]);
    expect(out[1]!.detail).toBe("The checkable object, var.n, was expected to report an error but did not.");
    expect(out[1]!.subject?.start).toEqual(expect.objectContaining({ line: 2, column: 22 }));
  });

  it("does not expect failures of child modules' objects", () => {
    const r = run("output.o");
    expect(validateExpectedFailures(r, [failure("Module output value precondition failed", "module.m.output.o")]).map((d) => d.summary)).toEqual(["Module output value precondition failed", "Missing expected failure"]);
  });

  it("explains an expected failure met while planning an apply (the output's reference as the warning's place)", () => {
    const r = run("output.o, var.n");
    const out = explainExpectedFailures(r, [failure("Module output value precondition failed", "output.o"), failure("Invalid value for variable", "var.n")]);
    expect(out.map((d) => [d.severity, d.summary, d.subject !== undefined])).toEqual([
      ["warning", "Expected failure while planning", true],
      ["error", "Module output value precondition failed", false],
      ["warning", "Expected failure while planning", false],
      ["error", "Invalid value for variable", false],
    ]);
  });
});

describe("traversalText", () => {
  it("writes addresses as terraform does", () => {
    const r = run(`random_string.s[0], aws_x.y["k"], var.n`);
    expect(r.expectFailures.map(traversalText)).toEqual(["random_string.s[0]", 'aws_x.y["k"]', "var.n"]);
  });
});

describe("isLocalDirectory", () => {
  it("is Go's filepath.IsLocal", () => {
    expect(["tests", "a/b", "./x", "a/../b"].map(isLocalDirectory)).toEqual([true, true, true, true]);
    expect(["", "/abs", "../x", "a/../../b"].map(isLocalDirectory)).toEqual([false, false, false, false]);
  });
});
