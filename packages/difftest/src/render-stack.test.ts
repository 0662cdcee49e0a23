import fc from "fast-check";
import { renderJson, renderNative, attr, block, bare, ex, lit, type TopBlock } from "./hcl-ast.js";
import { renderStep, stackSteps } from "./render-stack.js";
import { Construct, stackArbitrary } from "./stack-arbitrary.js";
import type { StackSpec } from "./stack-spec.js";

describe("hcl-ast", () => {
  const blocks: TopBlock[] = [
    { type: "resource", labels: ["testbed_value", "a"], body: [attr("count", lit(2)), attr("input", ex('upper("x")')), attr("depends_on", { native: "[testbed_value.b]", json: ["testbed_value.b"] }), block("lifecycle", [], [attr("create_before_destroy", lit(true))])] },
    { type: "moved", labels: [], body: [attr("from", bare("testbed_value.x")), attr("to", bare("testbed_value.a"))] },
    { type: "moved", labels: [], body: [attr("from", bare("testbed_value.y")), attr("to", bare("testbed_value.x"))] },
  ];
  test("native: blocks, labels, attributes and nested blocks as written", () => {
    expect(renderNative(blocks)).toBe(
      'resource "testbed_value" "a" {\n  count = 2\n  input = upper("x")\n  depends_on = [testbed_value.b]\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n\nmoved {\n  from = testbed_value.x\n  to = testbed_value.a\n}\n\nmoved {\n  from = testbed_value.y\n  to = testbed_value.x\n}\n',
    );
  });
  test("JSON: labels nest, expressions are templates, meta-arguments bare, repeated blocks an array", () => {
    expect(JSON.parse(renderJson(blocks))).toEqual({
      resource: { testbed_value: { a: { count: 2, input: '${upper("x")}', depends_on: ["testbed_value.b"], lifecycle: { create_before_destroy: true } } } },
      moved: [
        { from: "testbed_value.x", to: "testbed_value.a" },
        { from: "testbed_value.y", to: "testbed_value.x" },
      ],
    });
  });
});

describe("generated stacks", () => {
  const specs: StackSpec[] = fc.sample(stackArbitrary(), { seed: 5, numRuns: 200 });

  test("every step renders in both syntaxes; the JSON parses; names carry the stack's prefix", () => {
    for (const spec of specs) {
      for (const model of stackSteps(spec)) {
        const json = renderStep(model, "s9_", "json");
        for (const [path, text] of Object.entries(json)) {
          expect(path).toMatch(/\.tf\.json$/);
          expect(() => JSON.parse(text) as unknown).not.toThrow();
        }
        const native = renderStep(model, "s9_", "native");
        expect(Object.keys(native).map((p) => p.replace(/\.tf$/, ""))).toEqual(Object.keys(json).map((p) => p.replace(/\.tf\.json$/, "")));
        for (const m of native["s9_stack.tf"]!.matchAll(/^(?:resource|data) "\w+" "([^"]+)"/gm)) expect(m[1]).toMatch(/^s9_/);
      }
    }
  });

  test("the sample covers the constructs the issue lists", () => {
    const text = specs.flatMap((s) => stackSteps(s).map((m) => Object.values(renderStep(m, "s_", "native")).join("\n"))).join("\n");
    for (const needle of ["count = ", "for_each = toset([])", "module \"", "providers = ", "variable \"", "optional(number, 7)", "validation {", "sensitive = true", "output \"", "dynamic \"rule\"", "[*].", "[for k, v in", "provider::testbed::", "upper(", "create_before_destroy", "ignore_changes", "moved {", "import {", "removed {", "check \"", "depends_on", "provider = testbed.", "locals {", "data \"testbed_lookup\"", "secret_wo", "testbed_legacy", "vanish = true", "endpoints = "]) {
      expect({ needle, found: text.includes(needle) }).toEqual({ needle, found: true });
    }
  });

  test("each later step mutates the previous one; avoided constructs never appear", () => {
    const avoid = new Set([Construct.NestedAttributes, Construct.Legacy, Construct.Modules, Construct.Import]);
    let changed = 0;
    let later = 0;
    for (const spec of fc.sample(stackArbitrary({ avoid }), { seed: 6, numRuns: 100 })) {
      const texts = stackSteps(spec).map((m) => Object.values(renderStep(m, "s_", "native")).join("\n"));
      for (const t of texts) expect(t).not.toMatch(/endpoints = |testbed_legacy|module "|import \{/);
      for (let i = 1; i < texts.length; i++) {
        later++;
        if (texts[i] !== texts[i - 1]) changed++;
      }
    }
    expect(later).toBeGreaterThan(50);
    expect(changed / later).toBeGreaterThan(0.6);
  });
});
