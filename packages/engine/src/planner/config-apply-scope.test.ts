import { createPlan } from "../plan/plan.js";
import { plannedFromPlan } from "./config-apply-scope.js";
import { configOf } from "./test-support.js";

describe("plannedFromPlan", () => {
  test("with the configuration, an untargeted plan's resources without instances expand to none (count 0, empty for_each); targeted or without it, they stay unknown", () => {
    const c = configOf({
      "main.tf": `resource "memory_item" "e" {\n  for_each = toset([])\n  name     = each.key\n}\nresource "memory_item" "c" {\n  count = 0\n  name  = "c"\n}\nresource "memory_item" "s" {\n  name = "s"\n}\nmodule "m" {\n  source = "./m"\n}\n`,
      "m/main.tf": `data "memory_lookup" "d" {\n  count = 0\n  name  = "x"\n}\n`,
    });
    try {
      const plan = createPlan({ changes: [], prior: { lineage: "l", serial: 1 }, configDigest: "c" });
      const { expansions } = plannedFromPlan(plan, c.config);
      expect(expansions.get("|memory_item.e")).toEqual({ kind: "for_each", entries: new Map() });
      expect(expansions.get("|memory_item.c")).toEqual({ kind: "count", count: 0 });
      expect(expansions.get("module.m|data.memory_lookup.d")).toEqual({ kind: "count", count: 0 });
      // A single resource always has a change in a full plan; one that is missing is not guessed.
      expect(expansions.get("|memory_item.s")).toBeUndefined();
      expect(expansions.get("|memory_item.nope")).toBeUndefined();
      expect(plannedFromPlan({ ...plan, targets: ["memory_item.s"] }, c.config).expansions.get("|memory_item.e")).toBeUndefined();
      expect(plannedFromPlan(plan).expansions.get("|memory_item.e")).toBeUndefined();
    } finally {
      c.cleanup();
    }
  });
});
