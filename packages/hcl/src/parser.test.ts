import type { Expression } from "./ast.js";
import type { NativeBody } from "./native-body.js";
import { plainRange } from "./source-range.js";
import { MAX_NESTING_DEPTH } from "./parser.js";
import { parseExpression, parseNativeConfig, parseTemplate } from "./parse.js";
import { evaluate } from "./evaluate.js";
import { expressionTraversals } from "./variables.js";

function expr(src: string): Expression {
  const { expr, diags } = parseExpression(src, "t.tf");
  expect(diags).toEqual([]);
  return expr;
}

describe("native syntax: configuration files", () => {
  test("a nested block on one line: an error in HCL 2, read with nestedSingleLineBlocks (HCL 1, terraform's CLI configuration)", () => {
    const text = 'provider_installation { direct {} }\nprovider_installation { filesystem_mirror { path = "/m" } }\n';
    expect(parseNativeConfig(text, "cli.tfrc").diags.map((d) => d.summary)).toEqual(["Invalid single-argument block definition", "Invalid single-argument block definition"]);
    const { body, diags } = parseNativeConfig(text, "cli.tfrc", { nestedSingleLineBlocks: true });
    expect(diags).toEqual([]);
    const inner = body.blocks.map((b) => (b.body as NativeBody).blocks.map((n) => [n.type, [...(n.body as NativeBody).attributes.keys()]]));
    expect(inner).toEqual([[["direct", []]], [["filesystem_mirror", ["path"]]]]);
  });

  test("attributes and blocks with labels, with ranges", () => {
    const { body, diags } = parseNativeConfig('a = 1\nresource "aws_x" "y" {\n  b = "c"\n  nested {\n  }\n}\nsingle { x = 1 }\n', "main.tf");
    expect(diags).toEqual([]);
    expect([...body.attributes.keys()]).toEqual(["a"]);
    const a = body.attributes.get("a")!;
    expect(plainRange(a.nameRange)).toEqual({ filename: "main.tf", start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 2, byte: 1 } });
    expect(a.expr.range.start).toEqual({ line: 1, column: 5, byte: 4 });
    expect(body.blocks.map((b) => [b.type, b.labels])).toEqual([
      ["resource", ["aws_x", "y"]],
      ["single", []],
    ]);
    const res = body.blocks[0]!.body as NativeBody;
    expect([...res.attributes.keys()]).toEqual(["b"]);
    expect(res.blocks.map((b) => b.type)).toEqual(["nested"]);
    expect(body.blocks[0]!.labelRanges[0]!.start).toEqual({ line: 2, column: 10, byte: 15 });
  });

  test("comments of every kind are skipped; a line comment ends the line", () => {
    const { body, diags } = parseNativeConfig("# one\na = 1 // two\n/* three\n*/ b = 2 # four\n", "c.tf");
    expect(diags).toEqual([]);
    expect([...body.attributes.keys()]).toEqual(["a", "b"]);
  });

  test("errors say what was expected, with where", () => {
    const cases: [string, string][] = [
      ["a = 1 b = 2\n", "Missing newline after argument"],
      ['"a" = 1\n', "Argument or block definition required"],
      ["a = 1\na = 2\n", "Attribute redefined"],
      ["block {\n", "Unclosed configuration block"],
      ["block\n{\n}\n", "Invalid block definition"],
      ["a = \n", "Invalid expression"],
      ["a = ", "Missing expression"],
      ["a = 1,\n", "Unexpected comma after argument"],
      ["a = 'x'\n", "Invalid character"],
      ['b "x" y = 1\n', "Invalid block definition"],
    ];
    for (const [src, summary] of cases) {
      const { diags } = parseNativeConfig(src, "e.tf");
      expect(diags.map((d) => d.summary)).toContain(summary);
      for (const d of diags) {
        expect(d.subject?.filename).toBe("e.tf");
        expect(d.detail.length).toBeGreaterThan(10);
      }
    }
  });

  test("after a dot without a name nothing more is said (HCL's recovery): no extra-characters error for the rest of the interpolation", () => {
    expect(parseTemplate("${local..b}").diags.map((d) => d.summary)).toEqual(["Invalid attribute name"]);
    expect(parseNativeConfig('o = "${local..b}"\n', "m.tf").diags.map((d) => d.summary)).toEqual(["Invalid attribute name"]);
  });

  test("the redefinition error names where the argument was first set", () => {
    const { diags } = parseNativeConfig("a = 1\na = 2\n", "e.tf");
    expect(diags[0]!.detail).toBe('The argument "a" was already set at e.tf:1,1-2. Each argument may be set only once.');
    expect(diags[0]!.subject!.start.line).toBe(2);
  });
});

describe("native syntax: expressions", () => {
  test("operator precedence and associativity", () => {
    const e = expr("1 + 2 * 3 - 4");
    expect(e.kind).toBe("binary");
    if (e.kind !== "binary") return;
    expect(e.op).toBe("-");
    expect(e.left.kind === "binary" && e.left.op).toBe("+");
    const c = expr("a || b && c == d < e + f * g");
    expect(c.kind === "binary" && c.op).toBe("||");
  });

  test("traversals keep static steps; dynamic indexes become index nodes", () => {
    const e = expr('aws_instance.web[0].tags["Name"]');
    expect(e.kind).toBe("traversal");
    if (e.kind === "traversal") expect(e.traversal.steps.map((s) => (s.kind === "attr" ? s.name : s.key.toString()))).toHaveLength(4);
    expect(expr("a[b]").kind).toBe("index");
    expect(expr("a.0").kind).toBe("traversal");
    expect(parseExpression("a.0.1").diags.map((d) => d.summary)).toEqual(["Invalid legacy index syntax"]);
  });

  test("splats, legacy and full", () => {
    const full = expr("a[*].b[0]");
    expect(full.kind).toBe("splat");
    const legacy = expr("a.*.b[0]");
    // the legacy splat takes only attribute steps: [0] applies to its result
    expect(legacy.kind).toBe("relative");
  });

  test("function calls: namespaces and expansion", () => {
    const e = expr("provider::aws::arn_parse(x)");
    expect(e.kind === "call" && e.name).toBe("provider::aws::arn_parse");
    const f = expr("f(1, [2]...)");
    expect(f.kind === "call" && f.expandFinal).toBe(true);
  });

  test("for expressions, conditionals, objects with newlines", () => {
    expect(expr("[for k, v in m: v if k != \"x\"]").kind).toBe("for");
    expect(expr("{ for x in l : x => x... }").kind).toBe("for");
    expect(expr("a ? b : c ? d : e").kind).toBe("conditional");
    const o = expr("{\n  a = 1\n  \"b\" = 2, c: 3\n}");
    expect(o.kind === "object" && o.items.length).toBe(3);
  });

  test("a template that is only an interpolation unwraps", () => {
    expect(expr('"${x}"').kind).toBe("templateWrap");
    expect(expr('"a${x}"').kind).toBe("template");
  });

  test("heredocs: plain and flush", () => {
    expect(expr("<<EOT\nhello\nEOT").kind).toBe("template");
    const t = parseTemplate("a ${b} %{ if c }d%{ else }e%{ endif }");
    expect(t.diags).toEqual([]);
  });

  test("expression errors", () => {
    const cases: [string, string][] = [
      ["1 +", "Missing expression"],
      ["(1", "Unbalanced parentheses"],
      ["[1 2]", "Missing item separator"],
      ["{a = 1 b = 2}", "Missing attribute separator"],
      ["f(1 2)", "Missing argument separator"],
      ["f(a..., b)", "Missing closing parenthesis"],
      ['"abc', "Unterminated template string"],
      ['"a\nb"', "Invalid multi-line string"],
      ['"\\q"', "Invalid escape sequence"],
      ['"%{ iff x }"', "Invalid template control keyword"],
      ["a ? b", "Missing false expression in conditional"],
      ["[for x in y]", "Invalid 'for' expression"],
      ['"%{ bogus }"', "Invalid template control keyword"],
      ['"%{ if x }"', "Unexpected end of template"],
      ['"%{ endif }"', "Unexpected endif directive"],
      ["1 2", "Extra characters after expression"],
      ["a.", "Invalid attribute name"],
      ["x[*", "Missing close bracket on splat index"],
      ["[1, 2", "Unterminated tuple constructor expression"],
      ["{a = 1", "Unterminated object constructor expression"],
      ["f(1", "Unterminated function call"],
      ["1 & 2", "Unsupported operator"],
      ["1 ** 2", "Invalid expression"],
      ['"${1 2}"', "Extra characters after interpolation expression"],
      ['"%{ if true x }y%{ endif }"', "Extra characters in if marker"],
      ['"%{}"', "Invalid template directive"],
    ];
    for (const [src, summary] of cases) {
      const { diags } = parseExpression(src, "x.tf");
      expect([src, diags.map((d) => d.summary)]).toEqual([src, expect.arrayContaining([summary])]);
    }
  });

  test("deep nesting is a diagnostic, not a stack overflow", () => {
    for (const open of ["(", "[", "{a=", "-", "!", "f(", '"${']) {
      const src = open.repeat(MAX_NESTING_DEPTH * 50);
      const { diags } = parseExpression(src, "deep.tf");
      expect(diags.some((d) => d.summary === "Nesting too deep")).toBe(true);
    }
    const { diags } = parseNativeConfig("a {\n".repeat(5000), "deep.tf");
    expect(diags.some((d) => d.summary === "Nesting too deep")).toBe(true);
  });

  test("long operator, splat and index chains and nested template directives are too deep, not a stack overflow (fuzz findings)", () => {
    // Before: each of these parsed (without a nesting count) into a tree as deep as the chain,
    // and walking it (evaluate, variables) threw RangeError: Maximum call stack size exceeded.
    const deep = [
      Array(20_000).fill("1").join(" + "),
      Array(20_000).fill("var.a").join(" == "),
      `var.a${"[*]".repeat(20_000)}`,
      `var.a${".*.b".repeat(20_000)}`,
      `var.a${"[var.b]".repeat(20_000)}`,
      `"${"%{if true}".repeat(3000)}x${"%{endif}".repeat(3000)}"`,
      `"${"%{for x in [1]}".repeat(3000)}"`,
    ];
    for (const src of deep) {
      const { expr, diags } = parseExpression(src, "deep.tf");
      expect([src.slice(0, 20), diags.some((d) => d.summary === "Nesting too deep")]).toEqual([src.slice(0, 20), true]);
      evaluate(expr, { variables: {}, functions: new Map() });
      expressionTraversals(expr);
    }
    // Within the limit, chains still parse and evaluate.
    const ok = parseExpression(Array(150).fill("1").join(" + "), "ok.tf");
    expect(ok.diags).toEqual([]);
    expect(evaluate(ok.expr, { variables: {} }).value.asNumber().toString()).toBe("150");
  });

  test("a long attribute chain parses in linear time (fuzz finding: 20,000 steps took 28 s)", () => {
    // Quadratic copying of the steps took minutes here (past the time limit); linear, milliseconds.
    const src = `var.a${".b[0]".repeat(50_000)}`;
    const { expr, diags } = parseExpression(src, "long.tf");
    expect(diags).toEqual([]);
    expect(expr.kind === "traversal" && expr.traversal.steps.length).toBe(100_001);
  }, 60_000);

  test("columns count characters and bytes count UTF-8", () => {
    const { diags } = parseExpression('"é" +', "u.tf");
    expect(diags[0]!.subject!.start).toEqual({ line: 1, column: 6, byte: 6 });
  });
});

describe("deep nesting within the documented limit", () => {
  test("what terraform accepts up to about 400 levels: 300 nested %{if}, a 150-deep list, 399 parentheses", () => {
    const ifs = parseTemplate(`${"%{if true}".repeat(300)}x${"%{endif}".repeat(300)}`, "t.tftpl");
    expect(ifs.diags).toEqual([]);
    const list = parseExpression(`jsonencode(${"[".repeat(150)}${"]".repeat(150)})`, "x.tf");
    expect(list.diags).toEqual([]);
    const parens = parseExpression(`${"(".repeat(399)}1${")".repeat(399)}`, "x.tf");
    expect(parens.diags).toEqual([]);
  });

  test("deeper input is the diagnostic, never a stack overflow", () => {
    const deep = `The configuration nests expressions, blocks or templates more than ${MAX_NESTING_DEPTH / 2} levels deep here.`;
    const brackets = parseExpression(`${"[(".repeat(5_000)}1${")]".repeat(5_000)}`, "x.tf");
    expect(brackets.diags.map((d) => [d.summary, d.detail])).toEqual([["Nesting too deep", deep]]);
    // Parentheses continued between each other nest the tree: the same limit.
    const chain = parseExpression(`${"(".repeat(10_000)}1${")+1".repeat(10_000)}`, "x.tf");
    expect(chain.diags.map((d) => d.summary)).toEqual(["Nesting too deep"]);
  });

  test("10,000 directly nested parentheses parse as one, as terraform accepts them", () => {
    const src = `${"(".repeat(10_000)}1${")".repeat(10_000)}`;
    const { expr, diags } = parseExpression(src, "x.tf");
    expect(diags).toEqual([]);
    expect(expr.kind === "paren" && expr.expr.kind).toBe("literal");
    expect([expr.range.start.byte, expr.range.end.byte]).toEqual([0, src.length]);
    expect(evaluate(expr, {}).value.asNumber().toString()).toBe("1");
    // Newlines inside, and the run followed by postfix operators and more expression.
    const spread = parseExpression(`((\n(\n{a = [2]}\n)\n)).a[0] + 1`, "x.tf");
    expect(spread.diags).toEqual([]);
    expect(evaluate(spread.expr, {}).value.asNumber().toString()).toBe("3");
  });

  test("an expression may continue between the parentheses of a run, as with recursion", () => {
    const cases: [string, string][] = [
      ["((1) + 2) * 3", "9"],
      ["(((1) + 2) * 3)", "9"],
      ["((({a = 4}).a) - 1)", "3"],
      ["((true) ? (5) : 6)", "5"],
      ["((-1))", "-1"],
    ];
    for (const [src, want] of cases) {
      const { expr, diags } = parseExpression(src, "x.tf");
      expect([src, diags]).toEqual([src, []]);
      expect([src, evaluate(expr, {}).value.asNumber().toString()]).toEqual([src, want]);
    }
  });

  test("unbalanced parentheses in a run: the diagnostic at the level that is not closed", () => {
    const open = parseExpression("((1)", "x.tf");
    expect(open.diags.map((d) => d.summary)).toEqual(["Unbalanced parentheses"]);
    const junk = parseExpression("((1) 2)", "x.tf");
    expect(junk.diags.map((d) => d.summary)).toEqual(["Unbalanced parentheses"]);
    expect(junk.diags[0]!.subject!.start.byte).toBe(5);
  });
});
