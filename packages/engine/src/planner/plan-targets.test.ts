import { createEngine } from "../engine.js";
import { formatPlan, parsePlan } from "../plan/plan-file.js";
import { parsePlanTargets, targetContainsConfigResource, targetContainsInstance, TARGETED_APPLY_WARNING, TARGETING_WARNING } from "./plan-targets.js";
import { configOf, MEMORY, testSource } from "./test-support.js";

const MAIN = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}" }
  }
}
resource "memory_item" "a" {
  name  = "a"
  value = "one"
}
resource "memory_item" "b" {
  count = 2
  name  = "b\${count.index}-\${memory_item.a.id}"
}
resource "memory_item" "c" {
  name  = "c"
  value = "one"
}
output "b0" {
  value = memory_item.b[0].name
}
output "c" {
  value = memory_item.c.name
}
`;

describe("parsePlanTargets and containment", () => {
  test("resources, instances and module instances; bad addresses are diagnostics", () => {
    const { targets, diagnostics } = parsePlanTargets(["aws_x.y", 'module.m["k"].aws_x.y[0]', "module.m", "data.aws_z.w", "module.", "aws_x"]);
    expect(targets.map((t) => `${t.kind} ${t.text}`)).toEqual(["resource aws_x.y", 'resource module.m["k"].aws_x.y[0]', "module module.m", "resource data.aws_z.w"]);
    expect(diagnostics.map((d) => `${d.summary} ${d.address ?? ""}`)).toEqual(["Invalid target address module.", "Invalid target address aws_x"]);
    const [res, inst, mod] = targets as [(typeof targets)[0], (typeof targets)[0], (typeof targets)[0]];
    const at = (module: { name: string; key: string | number | undefined }[], key: string | number | undefined) => ({ module, mode: "managed" as const, type: "aws_x", name: "y", key });
    expect(targetContainsInstance(res, at([], 3))).toBe(true);
    expect(targetContainsInstance(res, at([{ name: "m", key: undefined }], undefined))).toBe(false);
    expect(targetContainsInstance(inst, at([{ name: "m", key: "k" }], 0))).toBe(true);
    expect(targetContainsInstance(inst, at([{ name: "m", key: "k" }], 1))).toBe(false);
    expect(targetContainsInstance(mod, at([{ name: "m", key: 2 }, { name: "n", key: undefined }], undefined))).toBe(true);
    expect(targetContainsInstance(mod, at([{ name: "other", key: undefined }], undefined))).toBe(false);
    expect(targetContainsConfigResource(inst, ["m"], "managed", "aws_x", "y")).toBe(true);
    expect(targetContainsConfigResource(mod, ["m", "n"], "managed", "aws_q", "r")).toBe(true);
    expect(targetContainsConfigResource(res, ["m"], "managed", "aws_x", "y")).toBe(false);
  });
});

describe("engine.plan with targets", () => {
  test("an instance target plans it and its dependencies; outputs only from planned resources; the apply keeps other outputs; a saved plan keeps the targets", async () => {
    const c = configOf({ "main.tf": MAIN });
    const engine = createEngine({ providers: testSource(new Map()), cwd: c.dir });
    try {
      const all = await engine.plan(c.config, null, { env: {} });
      const applied = await engine.apply(all, { persist: async () => undefined });
      expect(applied.success).toBe(true);

      const changed = configOf({ "main.tf": MAIN.replaceAll('value = "one"', 'value = "two"') });
      try {
        const r = await engine.plan(changed.config, applied.state, { env: {}, refresh: false, targets: ["memory_item.b[0]"] });
        expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
        expect(Object.fromEntries(r.plan.changes.map((x) => [x.address, x.action]))).toEqual({ "memory_item.a": "update", "memory_item.b[0]": "no-op" });
        expect(r.plan.outputs?.map((o) => o.name)).toEqual(["b0"]);
        expect(r.plan.targets).toEqual(["memory_item.b[0]"]);
        expect(r.diagnostics).toEqual([{ severity: "warning", ...TARGETING_WARNING }]);
        expect(parsePlan(formatPlan(r.plan)).targets).toEqual(["memory_item.b[0]"]);
        const done = await engine.apply(r, { persist: async () => undefined, state: applied.state });
        expect(done.success).toBe(true);
        expect(done.diagnostics).toEqual([{ severity: "warning", ...TARGETED_APPLY_WARNING }]);
        // The untargeted output keeps its value; c was not touched.
        expect(done.state.outputs.get("c")?.valueJson).toBe('"c"');
        expect(done.state.outputs.get("b0")).toBeDefined();

        const d = await engine.destroy(changed.config, done.state, { env: {}, refresh: false, targets: ["memory_item.a"] });
        expect(d.hasErrors).toBe(false);
        expect(Object.fromEntries(d.plan.changes.map((x) => [x.address, x.action]))).toEqual({ "memory_item.a": "delete", "memory_item.b[0]": "delete", "memory_item.b[1]": "delete" });
        expect(d.plan.outputs).toEqual([]);

        const bad = await engine.plan(changed.config, done.state, { env: {}, refresh: false, targets: ["nope"] });
        expect(bad.hasErrors).toBe(true);
        expect(bad.diagnostics[0]?.summary).toBe("Invalid target address");
      } finally {
        changed.cleanup();
      }
    } finally {
      await engine.close();
      c.cleanup();
    }
  });
});
