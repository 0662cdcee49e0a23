import { observeCommand } from "./compare-observations.js";

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
