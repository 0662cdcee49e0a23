import * as cli from "./index.js";

describe("names renamed with a deprecated alias for one release", () => {
  test.each([
    ["PlanAction", "ResourcePlanAction"],
    ["applyPlan", "applyResourcePlan"],
    ["importResource", "importResourceById"],
    ["inline", "formatInlineValue"],
    ["selects", "selectorMatches"],
  ] as const)("%s is %s", (old, renamed) => {
    expect(cli[renamed]).toBeDefined();
    expect(cli[old]).toBe(cli[renamed]);
  });
});
