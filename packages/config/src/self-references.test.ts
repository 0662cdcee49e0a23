import { loadModuleFromFiles } from "./load-module.js";
import { selfReferenceDiagnostics } from "./self-references.js";

const module = loadModuleFromFiles(
  ".",
  new Map([
    [
      "main.tf",
      `resource "x_a" "n" {
  count = 2
  v     = x_a.n[0].id
  w     = "\${x_a.n.id}"
  u     = x_a.other.id
  lifecycle {
    precondition {
      condition     = x_a.n != null
      error_message = "m"
    }
  }
}
data "x_d" "m" {
  for_each = toset(["k"])
  v        = data.x_d.m["k"].id
}
`,
    ],
  ]),
).module;

const texts = (diags: ReturnType<typeof selfReferenceDiagnostics>): string[] => diags.map((d) => `${d.summary}: ${d.detail} @${d.subject!.start.line}`);

describe("selfReferenceDiagnostics", () => {
  const n = module.managedResources.get("x_a.n")!;
  const m = module.dataResources.get("data.x_d.m")!;

  test("for the resource: references without an index, in the body only (meta-arguments aside)", () => {
    expect(texts(selfReferenceDiagnostics(n))).toEqual(["Self-referential block: Configuration for x_a.n may not refer to itself. @4"]);
  });

  test("for an instance: references to it and to the resource, once per matching name", () => {
    expect(texts(selfReferenceDiagnostics(n, "[0]"))).toEqual([
      "Self-referential block: Configuration for x_a.n[0] may not refer to itself. @3",
      "Self-referential block: Configuration for x_a.n may not refer to itself. @4",
    ]);
    expect(texts(selfReferenceDiagnostics(n, "[1]"))).toEqual(["Self-referential block: Configuration for x_a.n may not refer to itself. @4"]);
    expect(texts(selfReferenceDiagnostics(m, '["k"]'))).toEqual(['Self-referential block: Configuration for data.x_d.m["k"] may not refer to itself. @15']);
  });

  test("an instance without a key matches twice, as terraform reports it", () => {
    expect(selfReferenceDiagnostics(n, "")).toHaveLength(2);
  });
});
