import { item, configOf, stateOf, MEMORY } from "./test-support.js";
import { operationGraph, type OperationGraph } from "./operation-graph.js";
import { isPlanDiagnosticsError } from "./plan-diagnostic.js";
import { dynamicType, nullVal } from "@magma/cty";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";

const P = `provider["${MEMORY}"]`;

/** A planned change of a memory_item instance (values left null: the graph reads only the action and address). */
const change = (address: string, action: PlannedInstanceChange["action"]): PlannedInstanceChange =>
  ({ address, mode: "managed", typeName: "memory_item", action, before: nullVal(dynamicType), after: nullVal(dynamicType), config: nullVal(dynamicType), requiresReplace: [], priorPrivate: new Uint8Array(), plannedPrivate: new Uint8Array(), priorTainted: false, legacyTypeSystem: false, warnings: [] }) as PlannedInstanceChange;

const FILES = {
  "main.tf": `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
variable "n" {
  default = 2
  validation {
    condition     = var.n < 5
    error_message = "small"
  }
}
variable "prefix" { default = "p" }
locals { name = "\${var.prefix}-x" }
provider "memory" { id_prefix = local.name }
resource "memory_item" "a" {
  count = var.n
  name  = "a\${count.index}"
}
module "m" {
  source = "./mod"
  in     = memory_item.a[0].id
}
output "o" { value = module.m.out }
output "whole" { value = module.m }
`,
  "mod/main.tf": `
variable "in" {}
resource "memory_item" "c" {
  name = var.in
}
output "out" { value = memory_item.c.id }
`,
};

const edgesFrom = (g: OperationGraph, from: string): string[] => g.edges.filter(([f]) => f === from).map(([, t]) => t);

describe("operationGraph", () => {
  test("a plan's graph: Terraform's node names, reference edges, module expand/close, provider close, root; transitively reduced", () => {
    const { config, cleanup } = configOf(FILES);
    try {
      const g = operationGraph(config, undefined, "plan");
      expect(operationGraph(config, undefined, "plan", { keepCycles: true })).toEqual(g);
      const names = g.nodes.map((n) => n.name);
      expect(names).toEqual(
        expect.arrayContaining(["memory_item.a (expand)", "module.m.memory_item.c (expand)", "var.n", "var.n (validation)", "module.m.var.in (expand)", "module.m (expand)", "module.m (close)", P, `${P} (close)`, "local.name (expand)", "output.o (expand)", "root"]),
      );
      expect(g.nodes.find((n) => n.name === "memory_item.a (expand)")).toEqual({ name: "memory_item.a (expand)", kind: "resource", label: "memory_item.a", multiplicity: 1, resource: { module: [], mode: "managed", type: "memory_item", name: "a" } });
      expect(g.nodes.find((n) => n.name === "var.n")?.kind).toBe("root-variable");
      expect(g.nodes.find((n) => n.name === P)?.kind).toBe("provider");
      // a waits for n's validation and its provider; the provider for its argument's local.
      expect(edgesFrom(g, "memory_item.a (expand)")).toEqual([P, "var.n (validation)"]);
      expect(edgesFrom(g, P)).toEqual(["local.name (expand)"]);
      expect(edgesFrom(g, "var.n (validation)")).toEqual(["var.n"]);
      // The module's variable waits for its argument and the call; the resource reaches its provider through them (reduced away).
      expect(edgesFrom(g, "module.m.var.in (expand)")).toEqual(["memory_item.a (expand)", "module.m (expand)"]);
      expect(edgesFrom(g, "module.m.memory_item.c (expand)")).toEqual(["module.m.var.in (expand)"]);
      expect(edgesFrom(g, "output.o (expand)")).toEqual(["module.m.output.out (expand)"]);
      expect(edgesFrom(g, "output.whole (expand)")).toEqual(["module.m (close)"]);
      expect(edgesFrom(g, `${P} (close)`)).toEqual(["module.m.memory_item.c (expand)"]);
      expect(edgesFrom(g, "root")).toEqual(["output.o (expand)", "output.whole (expand)", `${P} (close)`]);
      // Sorted by dependent then dependency, without duplicates.
      const pairs = g.edges.map(([f, t]) => `${f}\u0000${t}`);
      expect(pairs).toEqual([...new Set(pairs)].sort());
    } finally {
      cleanup();
    }
  });

  test("a plan has an orphan node per instance of a resource gone from the configuration; apply has none", () => {
    const { config, cleanup } = configOf(FILES);
    try {
      const state = stateOf([
        ["memory_item.gone[0]", item({ name: "g0" })],
        ["memory_item.gone[1]", item({ name: "g1" })],
        ["memory_item.a[0]", item({ name: "a0" })],
      ]);
      const g = operationGraph(config, state, "plan-refresh-only");
      expect(g.nodes.filter((n) => n.name.endsWith("(orphan)")).map((n) => [n.name, n.label])).toEqual([
        ["memory_item.gone[0] (orphan)", "memory_item.gone"],
        ["memory_item.gone[1] (orphan)", "memory_item.gone"],
      ]);
      expect(edgesFrom(g, "memory_item.gone[1] (orphan)")).toEqual([P]);
      expect(edgesFrom(g, `${P} (close)`)).toEqual(["memory_item.gone[0] (orphan)", "memory_item.gone[1] (orphan)", "module.m.memory_item.c (expand)"]);
      expect(operationGraph(config, state, "apply").nodes.some((n) => n.name.includes("(orphan)"))).toBe(false);
    } finally {
      cleanup();
    }
  });

  test("a destroy plan's graph: the state's resources (one Terraform node per instance), their providers with their arguments, the root outputs", () => {
    const { config, cleanup } = configOf(FILES);
    try {
      const state = stateOf([
        ["memory_item.a[0]", item({ name: "a0" })],
        ["memory_item.a[1]", item({ name: "a1" })],
        ["module.m.memory_item.c", item({ name: "c" })],
      ]);
      const g = operationGraph(config, state, "plan-destroy");
      expect(g.nodes.map((n) => n.name)).toEqual(["local.name (expand)", "memory_item.a (destroy)", "module.m.memory_item.c (destroy)", "output.o (expand)", "output.whole (expand)", P, `${P} (close)`, "root", "var.prefix"]);
      expect(g.nodes.find((n) => n.name === "memory_item.a (destroy)")?.multiplicity).toBe(2);
      expect(edgesFrom(g, "memory_item.a (destroy)")).toEqual([P]);
      expect(edgesFrom(g, "local.name (expand)")).toEqual(["var.prefix"]);
      expect(operationGraph(config, undefined, "plan-destroy").edges).toEqual([
        ["root", "output.o (expand)"],
        ["root", "output.whole (expand)"],
      ]);
    } finally {
      cleanup();
    }
  });

  test("a cycle is Terraform's `Cycle: …` error naming its nodes; with keepCycles the graph keeps it, unreduced", () => {
    const { config, cleanup } = configOf({ "main.tf": `locals {\n  a = local.b\n  b = local.a\n  c = local.a\n  d = \"\${local.c}\${local.a}\"\n}\n` });
    try {
      let caught: unknown;
      try {
        operationGraph(config, undefined, "plan");
      } catch (e) {
        caught = e;
      }
      expect(isPlanDiagnosticsError(caught)).toBe(true);
      if (!isPlanDiagnosticsError(caught)) return;
      expect(caught.diagnostics.map((d) => [d.severity, d.summary, d.detail])).toEqual([["error", "Cycle: local.b (expand), local.a (expand)", ""]]);
      const g = operationGraph(config, undefined, "plan", { keepCycles: true });
      expect(g.cycles).toEqual([["local.b (expand)", "local.a (expand)"]]);
      // Not reduced (d → a stays beside d → c → a); the root waits only for what nothing waits for.
      expect(g.edges).toEqual([
        ["local.a (expand)", "local.b (expand)"],
        ["local.b (expand)", "local.a (expand)"],
        ["local.c (expand)", "local.a (expand)"],
        ["local.d (expand)", "local.a (expand)"],
        ["local.d (expand)", "local.c (expand)"],
        ["root", "local.d (expand)"],
      ]);
    } finally {
      cleanup();
    }
  });
  test("an apply with a saved plan's changes: a node per changed instance; a forget is refused", () => {
    const { config, cleanup } = configOf(FILES);
    try {
      const g = operationGraph(config, undefined, "apply", { changes: [change("memory_item.a[0]", "create"), change("memory_item.a[1]", "no-op"), change("module.m.memory_item.c", "create")] });
      expect(g.nodes.find((n) => n.name === "memory_item.a[0]")).toEqual({ name: "memory_item.a[0]", kind: "resource", label: "memory_item.a", multiplicity: 1, resource: { module: [], mode: "managed", type: "memory_item", name: "a" } });
      expect(g.nodes.some((n) => n.name === "memory_item.a[1]")).toBe(false);
      expect(edgesFrom(g, "memory_item.a[0]")).toEqual(["memory_item.a (expand)"]);
      // module.m's input references memory_item.a[0]: it waits for that instance's node.
      expect(edgesFrom(g, "module.m.var.in (expand)")).toContain("memory_item.a[0]");
      expect(edgesFrom(g, "module.m.memory_item.c")).toEqual(["module.m.memory_item.c (expand)"]);
      let caught: unknown;
      try {
        operationGraph(config, undefined, "apply", { changes: [change("memory_item.a[0]", "forget")] });
      } catch (e) {
        caught = e;
      }
      expect(isPlanDiagnosticsError(caught) && caught.diagnostics[0]?.detail).toContain("forget memory_item.a[0]");
    } finally {
      cleanup();
    }
  });

  test("destroy ordering: a replace's create waits for its destroy, dependents are destroyed first; create_before_destroy reverses the creator edges", () => {
    const { config, cleanup } = configOf(FILES);
    try {
      // module.m.memory_item.c was stored as depending on memory_item.a.
      const state = stateOf([
        ["memory_item.a[0]", item({ name: "a0" })],
        ["memory_item.a[1]", item({ name: "a1" })],
        ["module.m.memory_item.c", item({ name: "c" }), { dependencies: ["memory_item.a"] }],
      ]);
      const g = operationGraph(config, state, "apply", { changes: [change("memory_item.a[0]", "delete-then-create"), change("memory_item.a[1]", "delete"), change("module.m.memory_item.c", "delete-then-create")] });
      expect(g.nodes.find((n) => n.name === "memory_item.a[1] (destroy)")).toEqual({ name: "memory_item.a[1] (destroy)", kind: "resource", label: "memory_item.a", multiplicity: 1, resource: { module: [], mode: "managed", type: "memory_item", name: "a" } });
      expect(edgesFrom(g, "memory_item.a[0]")).toEqual(["memory_item.a (expand)", "memory_item.a[0] (destroy)"]);
      // c's old object goes before a's, and c's new one after them (reduced: through a[0]'s create).
      expect(edgesFrom(g, "memory_item.a[0] (destroy)")).toEqual(["module.m.memory_item.c (destroy)"]);
      expect(edgesFrom(g, "memory_item.a[1] (destroy)")).toEqual(["module.m.memory_item.c (destroy)"]);
      expect(edgesFrom(g, "module.m.memory_item.c")).toEqual(expect.arrayContaining(["memory_item.a[1] (destroy)"]));
      expect(edgesFrom(g, "module.m.memory_item.c (destroy)")).toEqual([P]);
      // The same replaces under create_before_destroy: the old objects are deposed, destroyed after the new ones exist.
      const cbd = operationGraph(config, state, "apply", { changes: [change("memory_item.a[0]", "create-then-delete"), change("module.m.memory_item.c", "create-then-delete")] });
      const deposed = (prefix: string): string => cbd.nodes.map((n) => n.name).find((n) => n.startsWith(`${prefix} (destroy deposed `))!;
      expect(deposed("memory_item.a[0]")).toMatch(/^memory_item\.a\[0\] \(destroy deposed [0-7][0-9a-f]{7}\)$/);
      expect(edgesFrom(cbd, "memory_item.a[0]")).toEqual(["memory_item.a (expand)"]);
      expect(edgesFrom(cbd, deposed("memory_item.a[0]"))).toEqual([deposed("module.m.memory_item.c")]);
      expect(edgesFrom(cbd, deposed("module.m.memory_item.c"))).toEqual(["module.m.memory_item.c"]);
      // A destroy plan keeps only the destroyers, their providers (and what configures them) and the root outputs.
      const destroy = operationGraph(config, state, "apply", { destroyPlan: true, changes: [change("memory_item.a[0]", "delete"), change("memory_item.a[1]", "delete"), change("module.m.memory_item.c", "delete")] });
      expect(destroy.nodes.map((n) => n.name)).toEqual([
        "local.name (expand)",
        "memory_item.a[0] (destroy)",
        "memory_item.a[1] (destroy)",
        "module.m.memory_item.c (destroy)",
        "output.o (expand)",
        "output.whole (expand)",
        P,
        `${P} (close)`,
        "root",
        "var.prefix",
      ]);
    } finally {
      cleanup();
    }
  });
});
