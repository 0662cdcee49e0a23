import { configEdges, type ConfigEdges, type ConfigVertex } from "./config-edges.js";
import { configOf, MEMORY } from "./test-support.js";

const P = `provider["${MEMORY}"]`;

const FILES = {
  // memory is hashicorp/memory, implied.
  "main.tf": `
variable "n" {
  default = 2
  validation {
    condition     = var.n < local.max
    error_message = "small"
  }
}
locals { max = 5 }
provider "memory" { id_prefix = local.max }
resource "memory_item" "a" {
  count = var.n
  name  = "a"
}
data "memory_lookup" "d" {
  name       = "x"
  depends_on = [memory_item.a]
}
module "m" {
  source     = "./mod"
  in         = memory_item.a[0].id
  depends_on = [data.memory_lookup.d]
}
output "one" { value = module.m.out }
output "whole" { value = module.m }
check "c" {
  assert {
    condition     = local.max > 1
    error_message = "x"
  }
}
`,
  "mod/main.tf": `
variable "in" {}
resource "memory_item" "c" {
  name = var.in
}
output "out" { value = memory_item.c.id }
`,
};

const show = (v: ConfigVertex): string => `${v.kind}:${v.id}`;
const lines = (e: ConfigEdges): string[] => e.edges.map((x) => `${show(x.from)} -> ${show(x.to)} (${x.why})`);

describe("configEdges", () => {
  test("references, provider use and module nesting, named by configuration address", () => {
    const { config, cleanup } = configOf(FILES);
    try {
      const e = configEdges(config);
      expect(e.problems).toEqual([]);
      // In module order (the root, then its children), each object's references in source order, then provider use, then nesting.
      expect(lines(e)).toEqual([
        "resource:memory_item.a -> variable:var.n (reference)",
        "resource:data.memory_lookup.d -> resource:memory_item.a (reference)",
        "output:output.one -> module-value:module.m (reference)",
        "output:output.whole -> module-value:module.m (reference)",
        "module:module.m -> resource:data.memory_lookup.d (reference)",
        "argument:module.m.var.in -> resource:memory_item.a (reference)",
        `provider:${P} -> local:local.max (reference)`,
        "validation:var.n -> variable:var.n (reference)",
        "validation:var.n -> local:local.max (reference)",
        "check:check.c -> local:local.max (reference)",
        `resource:memory_item.a -> provider:${P} (provider)`,
        `resource:data.memory_lookup.d -> provider:${P} (provider)`,
        "resource:module.m.memory_item.c -> variable:module.m.var.in (reference)",
        "output:module.m.output.out -> resource:module.m.memory_item.c (reference)",
        `resource:module.m.memory_item.c -> provider:${P} (provider)`,
        "variable:module.m.var.in -> module:module.m (module)",
        "output:module.m.output.out -> module:module.m (module)",
        "resource:module.m.memory_item.c -> module:module.m (module)",
      ]);
      // A module read as a value: one output, or the whole object (every output).
      const values = e.edges.filter((x) => x.to.kind === "module-value").map((x) => [x.from.id, x.to]);
      expect(values).toEqual([
        ["output.one", { kind: "module-value", id: "module.m", whole: false, outputs: ["module.m.output.out"] }],
        ["output.whole", { kind: "module-value", id: "module.m", whole: true, outputs: ["module.m.output.out"] }],
      ]);
      expect(e.providers.get("module.m.memory_item.c")).toMatchObject({ address: P, modulePath: [] });
      // A reference to one instance of a resource carries its key (for terraform graph -plan); the whole resource's does not.
      const toA = e.edges.filter((x) => x.why === "reference" && x.to.id === "memory_item.a").map((x) => [x.from.id, x.instanceKey]);
      expect(toA).toEqual([
        ["data.memory_lookup.d", undefined],
        ["module.m.var.in", "[0]"],
      ]);
    } finally {
      cleanup();
    }
  });

  test("references to nothing declared are problems of the object that makes them", () => {
    const { config, cleanup } = configOf({
      "main.tf": `
resource "memory_item" "a" {
  name = var.nope
}
output "o" { value = local.nope }
locals { x = memory_item.b.id }
`,
    });
    try {
      const e = configEdges(config);
      expect(e.problems.map((p) => [p.from === undefined ? undefined : show(p.from), p.diagnostic.summary])).toEqual([
        ["resource:memory_item.a", "Reference to undeclared input variable"],
        ["local:local.x", "Reference to undeclared resource"],
        ["output:output.o", "Reference to undeclared local value"],
      ]);
      expect(e.edges.filter((x) => x.why === "reference")).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
