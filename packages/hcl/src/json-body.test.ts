import { numberVal, objectVal, stringVal } from "@magma/cty";
import { evaluate } from "./evaluate.js";
import { parseConfig, parseJsonConfig, parseJsonExpression } from "./parse.js";
import { absTraversalForExpr, exprAsKeyword, exprList } from "./static-expr.js";
import { expressionTraversals } from "./variables.js";

const schema = {
  attributes: [{ name: "count" }],
  blocks: [
    { type: "resource", labelNames: ["type", "name"] },
    { type: "locals" },
    { type: "output", labelNames: ["name"] },
  ],
};

describe("JSON syntax bodies", () => {
  test("properties are attributes or blocks according to the schema; // is a comment", () => {
    const text = JSON.stringify({
      "//": "generated",
      count: 2,
      resource: { aws_instance: { web: { ami: "ami-${var.n}", "//": "x" }, db: [{ a: 1 }, { a: 2 }] } },
      locals: [{ x: 1 }, { y: "${local.x}" }],
    });
    const { body, diags } = parseConfig(text, "main.tf.json");
    expect(diags).toEqual([]);
    expect(body.syntax).toBe("json");
    const { content, diags: cd } = body.content(schema);
    expect(cd).toEqual([]);
    expect([...content.attributes.keys()]).toEqual(["count"]);
    expect(content.blocks.map((b) => [b.type, ...b.labels])).toEqual([
      ["resource", "aws_instance", "web"],
      ["resource", "aws_instance", "db"],
      ["resource", "aws_instance", "db"],
      ["locals"],
      ["locals"],
    ]);
    const web = content.blocks[0]!.body.justAttributes();
    expect([...web.attributes.keys()]).toEqual(["ami"]);
    const ami = web.attributes.get("ami")!.expr;
    expect(expressionTraversals(ami).map((t) => t.root)).toEqual(["var"]);
    const v = evaluate(ami, { variables: { var: objectVal({ n: numberVal(7) }) } });
    expect(v.diags).toEqual([]);
    expect(v.value.asString()).toBe("ami-7");
  });

  test("strings are templates in a scope and literal without one; $${ and %%{ escape", () => {
    const { expr } = parseJsonExpression('{"a": "x${1 + 1}", "b": "$${no}%%{no}", "c": [1, true, null]}');
    const r = evaluate(expr, { variables: {}, functions: new Map() });
    expect(r.diags).toEqual([]);
    expect(r.value.getAttr("a").asString()).toBe("x2");
    expect(r.value.getAttr("b").asString()).toBe("${no}%{no}");
    expect(r.value.getAttr("c").type.kind).toBe("tuple");
    const literal = evaluate(expr);
    expect(literal.value.getAttr("a").asString()).toBe("x${1 + 1}");
  });

  test("unsupported properties, label errors and duplicates are diagnostics", () => {
    const { body } = parseJsonConfig('{"nope": 1, "resource": {"t": 1}, "count": 1}', "e.tf.json");
    const { diags } = body.content(schema);
    // As HCL's unpackBlock: the name labels' value is not an object, so there are none.
    expect(diags.map((d) => d.summary)).toEqual(["Incorrect JSON value type", "Missing block label", "Extraneous JSON object property"]);
    expect(diags[0]!.detail).toBe("Either a JSON object or JSON array of objects is required here, to specify name labels for this block.");
    expect(diags[2]!.detail).toBe('No argument or block type is named "nope".');
    expect(diags[2]!.subject).toEqual({ filename: "e.tf.json", start: { line: 1, column: 2, byte: 1 }, end: { line: 1, column: 8, byte: 7 } });
    const dup = parseJsonConfig('{"count": 1, "count": 2}', "d.tf.json").body.content(schema);
    expect(dup.diags.map((d) => d.summary)).toEqual(["Duplicate argument"]);
  });

  test("a body's missing-item range is its object's closing brace (HCL's JSON MissingItemRange)", () => {
    const { body } = parseJsonConfig('{\n  "resource": {"t": {"n": {\n    "a": 1\n  }}}\n}\n', "m.tf.json");
    const block = body.content({ blocks: [{ type: "resource", labelNames: ["type", "name"] }] }).content.blocks[0]!;
    const r = block.body.partialContent({ attributes: [{ name: "b", required: true }] });
    const closing = { filename: "m.tf.json", start: { line: 4, column: 3, byte: 43 }, end: { line: 4, column: 4, byte: 44 } };
    expect(r.content.missingItemRange).toEqual(closing);
    expect(r.diags.map((d) => [d.summary, d.subject])).toEqual([["Missing required argument", closing]]);
  });

  test("unexpected names get a suggestion in native syntax; JSON properties none, as in terraform 1.11", () => {
    const s = { attributes: [{ name: "count" }], blocks: [{ type: "lifecycle" }] };
    expect(parseConfig('{"cout": 1}', "s.tf.json").body.content(s).diags[0]!.detail).toBe('No argument or block type is named "cout".');
    expect(parseConfig("cout = 1\n", "s.tf").body.content(s).diags[0]!.detail).toBe('An argument named "cout" is not expected here. Did you mean "count"?');
    expect(parseConfig("lifecycl {\n}\n", "s.tf").body.content(s).diags[0]!.detail).toBe('Blocks of type "lifecycl" are not expected here. Did you mean "lifecycle"?');
    expect(parseConfig("lifecycle = 1\n", "s.tf").body.content(s).diags[0]!.detail).toBe('An argument named "lifecycle" is not expected here. Did you mean to define a block of type "lifecycle"?');
  });

  test("partial content leaves the rest for a later stage; missing required arguments", () => {
    const { body } = parseJsonConfig('{"a": 1, "b": 2}', "p.tf.json");
    const first = body.partialContent({ attributes: [{ name: "a" }, { name: "z", required: true }] });
    expect(first.diags.map((d) => d.summary)).toEqual(["Missing required argument"]);
    expect([...first.remain.justAttributes().attributes.keys()]).toEqual(["b"]);
  });

  test("diagnostics inside a JSON string template: positions counted in the decoded text from the opening quote, as HCL's", () => {
    const { expr } = parseJsonExpression('{\n  "a": "\\t\\u00e9${nope}"\n}', "p.tf.json");
    const r = evaluate(expr, { variables: {} });
    expect(r.diags.map((d) => d.summary)).toEqual(["Unknown variable"]);
    // The template starts at column 9, byte 10; decoded, `\té${` is 4 characters, 5 bytes (an escape counts as what it stands for).
    expect(r.diags[0]!.subject).toEqual({ filename: "p.tf.json", start: { line: 2, column: 13, byte: 15 }, end: { line: 2, column: 17, byte: 19 } });
    // An escaped newline starts a new line.
    const nl = evaluate(parseJsonExpression('{"a": "x\\n${nope}"}', "n.tf.json").expr, { variables: {} });
    expect(nl.diags[0]!.subject).toEqual({ filename: "n.tf.json", start: { line: 2, column: 3, byte: 11 }, end: { line: 2, column: 7, byte: 15 } });
  });

  test("bad JSON and a non-object root are diagnostics with positions", () => {
    expect(parseJsonConfig('{"a": }', "x.tf.json").diags[0]!.subject!.start.column).toBe(7);
    expect(parseJsonConfig("1", "x.tf.json").diags.map((d) => d.summary)).toEqual(["Root value must be object"]);
    // A root array is accepted; a value in it that is not an object is reported when the body is decoded.
    const arr = parseJsonConfig("[1]", "x.tf.json");
    expect(arr.diags).toEqual([]);
    expect(arr.body.content({}).diags.map((d) => d.detail)).toEqual(Array(2).fill("A JSON object is required here, to define arguments and child blocks."));
    expect(parseJsonConfig("[".repeat(10000), "x.tf.json").diags.map((d) => d.summary)).toEqual(["Nesting too deep"]);
  });

  test("reference-only forms: depends_on, provider, ignore_changes", () => {
    const { body } = parseJsonConfig('{"depends_on": ["aws_instance.web", "module.m"], "provider": "aws.west", "ignore_changes": "all", "bad": ["${x}"]}', "r.tf.json");
    const attrs = body.justAttributes().attributes;
    const list = exprList(attrs.get("depends_on")!.expr);
    const refs = list.items.map((i) => absTraversalForExpr(i).traversal);
    expect(refs.map((t) => [t!.root, ...t!.steps.map((s) => (s.kind === "attr" ? s.name : ""))])).toEqual([
      ["aws_instance", "web"],
      ["module", "m"],
    ]);
    expect(absTraversalForExpr(attrs.get("provider")!.expr).traversal!.root).toBe("aws");
    expect(exprAsKeyword(attrs.get("ignore_changes")!.expr)).toBe("all");
    const bad = exprList(attrs.get("bad")!.expr).items[0]!;
    expect(absTraversalForExpr(bad).diags.map((d) => d.summary)).toEqual(["Invalid expression"]);
  });

  test("native and JSON bodies decode the same way", () => {
    const native = parseConfig('resource "t" "n" {\n  a = "v"\n}\n', "m.tf").body.content(schema).content;
    const json = parseConfig('{"resource": {"t": {"n": {"a": "v"}}}}', "m.tf.json").body.content(schema).content;
    for (const c of [native, json]) {
      expect(c.blocks.map((b) => [b.type, ...b.labels])).toEqual([["resource", "t", "n"]]);
      const a = c.blocks[0]!.body.content({ attributes: [{ name: "a", required: true }] });
      expect(a.diags).toEqual([]);
      expect(evaluate(a.content.attributes.get("a")!.expr, { variables: {} }).value.rawEquals(stringVal("v"))).toBe(true);
    }
  });
});
