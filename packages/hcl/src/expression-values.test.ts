// The values terraform lists under a diagnostic's snippet (its JSON view's snippet.values),
// derived from terraform's rules and compared with terraform 1.11.4 in
// packages/cli/test/variable-diagnostics.test.ts.
import { Mark, listVal, mapValEmpty, numberVal, objectVal, stringType, stringVal, unknownVal, dynamicType, type Value } from "@magma/cty";
import { evaluate, scopeExpressionValues } from "./evaluate.js";
import { compactValue } from "./expression-values.js";
import { parseExpression } from "./parse.js";

const expr = (text: string): ReturnType<typeof parseExpression>["expr"] => parseExpression(text, "main.tf").expr;

describe("expression values", () => {
  const variables = {
    var: objectVal({ m: mapValEmpty(stringType), l: listVal([numberVal(1), numberVal(2)]), s: stringVal("x"), secret: stringVal("p").mark(Mark.Sensitive), u: unknownVal(stringType), d: unknownVal(dynamicType) }),
    local: objectVal({ o: objectVal({ a: stringVal("b") }) }),
  } satisfies Record<string, Value>;

  test("the longest prefix that evaluates, each once, sorted; sensitive and untyped unknowns left out", () => {
    expect(scopeExpressionValues(expr('var.m["k"] == var.s ? local.o.nope : var.l[9]'), { variables })).toEqual([
      { traversal: "local.o", statement: 'is object with 1 attribute "a"' },
      { traversal: "var.l", statement: "is list of number with 2 elements" },
      { traversal: "var.m", statement: "is empty map of string" },
      { traversal: "var.s", statement: 'is "x"' },
    ]);
    expect(scopeExpressionValues(expr("[var.secret, var.u, var.d, var.s, var.s]"), { variables })).toEqual([
      { traversal: "var.s", statement: 'is "x"' },
      { traversal: "var.u", statement: "is a string" },
    ]);
  });

  test("an evaluation error carries the values of the innermost failing expression's references", () => {
    const r = evaluate(expr('var.s == var.m["missing"]'), { variables });
    expect(r.diags.map((d) => [d.summary, d.values])).toEqual([["Invalid index", [{ traversal: "var.m", statement: "is empty map of string" }]]]);
  });

  test("compact descriptions, numbers as Go's %.10g", () => {
    expect([1, 0.5, 1234567890, 12345678901, 1e21, 0.0001, 0.00001, -2.5, 1 / 3].map((n) => compactValue(numberVal(n)))).toEqual([
      "1",
      "0.5",
      "1234567890",
      "1.23456789e+10",
      "1e+21",
      "0.0001",
      "1e-05",
      "-2.5",
      "0.3333333333",
    ]);
    expect(compactValue(listVal([stringVal("a")]))).toBe("list of string with 1 element");
    expect(compactValue(objectVal({}))).toBe("object with no attributes");
  });
});
