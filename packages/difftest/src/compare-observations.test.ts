import { diffValues, normaliseState, observeCommand } from "./compare-observations.js";

describe("observeCommand", () => {
  test("keeps the summary lines in order, the moves and refreshes sorted and the diagnostic summaries", () => {
    const stdout = [
      "testbed_value.b: Refreshing state... [id=val-2]",
      "testbed_value.a (deposed object 0a1b2c3d): Refreshing state...",
      "testbed_value.v: Refreshing state... [id=val-1]",
      "",
      "Terraform will perform the following actions:",
      "",
      "  # testbed_value.v[0] has moved to testbed_value.v",
      '    resource "testbed_value" "v" {',
      "",
      "Plan: 0 to add, 0 to change, 0 to destroy.",
    ].join("\n");
    expect(observeCommand(0, stdout, "│ Warning: Some objects will no longer be managed by Terraform\n")).toEqual({
      code: 0,
      summary: ["Plan: 0 to add, 0 to change, 0 to destroy."],
      refreshed: ["testbed_value.a (deposed object 0a1b2c3d): Refreshing state...", "testbed_value.b: Refreshing state... [id=val-2]", "testbed_value.v: Refreshing state... [id=val-1]"],
      moved: ["  # testbed_value.v[0] has moved to testbed_value.v"],
      diagnostics: ["Warning: Some objects will no longer be managed by Terraform"],
    });
    expect(observeCommand(1, "", "")).toEqual({ code: 1, summary: [], diagnostics: [] });
  });
});

describe("normaliseState", () => {
  test("check results and their objects are compared by address, in whatever order terraform wrote them", () => {
    const state = (objects: readonly string[]): Record<string, unknown> => ({
      version: 4,
      outputs: {},
      resources: [],
      check_results: [{ object_kind: "resource", config_addr: "testbed_value.v", status: "pass", objects: objects.map((a) => ({ object_addr: a, status: "pass" })) }],
    });
    const a = normaliseState(state(["testbed_value.v[1]", "testbed_value.v[0]"]));
    const b = normaliseState(state(["testbed_value.v[0]", "testbed_value.v[1]"]));
    expect(diffValues(0, "state", a, b)).toEqual([]);
    // A real difference is still one.
    const c = normaliseState(state(["testbed_value.v[0]", "testbed_value.v[2]"]));
    expect(diffValues(0, "state", a, c)).not.toEqual([]);
  });
});
