import { parseExpression, parseTemplate } from "./parse.js";
import type { Traversal } from "./ast.js";
import { expressionTraversals } from "./variables.js";

function refs(src: string): string[] {
  const p = parseExpression(src, "v.tf");
  expect(p.diags).toEqual([]);
  return expressionTraversals(p.expr).map(show);
}

function show(t: Traversal): string {
  return t.root + t.steps.map((s) => (s.kind === "attr" ? `.${s.name}` : `[${s.key.toString()}]`)).join("");
}

describe("expressionTraversals (references an expression makes)", () => {
  test("static traversals with attribute and literal index steps", () => {
    expect(refs('aws_instance.web[0].id')).toEqual(["aws_instance.web[0].id"]);
    expect(refs('var.m["k"]')).toEqual(['var.m["k"]']);
    expect(refs("var.list[count.index]")).toEqual(["var.list", "count.index"]);
  });

  test("through every construct", () => {
    expect(refs('f(a.b, [c], {k = d}, e ? g : h, -i, j + k, "${l}", m[*].n, (o).p)')).toEqual([
      "a.b",
      "c",
      "d",
      "e",
      "g",
      "h",
      "i",
      "j",
      "k",
      "l",
      "m",
      "o",
    ]);
  });

  test("for-expression and template-for names are not references", () => {
    expect(refs("[for k, v in var.m: v.x + k if v.y != local.z]")).toEqual(["var.m", "local.z"]);
    const t = parseTemplate("%{ for x in var.xs }${x}${y}%{ endfor }");
    expect(expressionTraversals(t.expr).map(show)).toEqual(["var.xs", "y"]);
  });

  test("object keys that are bare names are not references; parenthesised ones are", () => {
    expect(refs("{ a = 1, (b) = 2 }")).toEqual(["b"]);
  });
});

describe("the deprecated name", () => {
  test("variables is expressionTraversals", async () => {
    const index = await import("./index.js");
    expect(index.variables).toBe(index.expressionTraversals);
  });
});
