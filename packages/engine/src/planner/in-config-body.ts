import type { Resource } from "@magma/config";
import type { PathStep } from "@magma/cty";
import { evaluate, exprList, type Attribute, type Body, type Expression, type SourceRange } from "@magma/hcl";
import type { Diag } from "@magma/provider-api";

/**
 * Where in a resource's body Terraform puts a provider diagnostic about one of its objects
 * (its `InConfigBody`): the attribute path followed through the nested blocks it names (a
 * block by its index, or a map block by its label), then the expression of the attribute it
 * ends at — or, for a path ending in an index, that element of a static list or the value of
 * that key of a static object. What the path does not lead to falls back to the deepest body
 * reached: its missing-item range (the opening brace of a native body, the closing brace of a
 * JSON one).
 */
export function inConfigBody(r: Resource, d: Diag): SourceRange {
  return placeInBody(r.config, d.attribute?.steps ?? []);
}

/** {@link inConfigBody} for any body (a `provider` block's): where a provider diagnostic about it goes. */
export function inBody(body: Body, d: Diag): SourceRange {
  return placeInBody(body, d.attribute?.steps ?? []);
}

/** A body's missing-item range as Terraform's (HCL's native bodies: a zero-width range at the opening brace, which Terraform's snippet widens to the brace). */
function missingItem(body: Body): SourceRange {
  if (body.syntax === "json") return body.partialContent({}).content.missingItemRange;
  const start = body.range.start;
  return { filename: body.range.filename, start, end: { line: start.line, column: start.column + 1, byte: start.byte + 1 } };
}

type IndexStep = Exclude<PathStep, { kind: "attr" }>;

function placeInBody(root: Body, steps: readonly PathStep[]): SourceRange {
  const first = steps[0];
  // An empty path, or one starting with an index: the body itself.
  if (first === undefined || first.kind !== "attr") return missingItem(root);
  let final = steps[steps.length - 1]!;
  let traverse = steps;
  let index: IndexStep | undefined;
  if (final.kind !== "attr") {
    index = final;
    final = steps[steps.length - 2]!;
    traverse = steps.slice(0, -1);
  }
  const body = traverse.length > 1 ? childBody(root, traverse) : root;
  if (final.kind !== "attr") return missingItem(body);
  const { content, diags } = body.partialContent({ attributes: [{ name: final.name, required: true }] });
  const attr = content.attributes.get(final.name);
  if (diags.some((x) => x.severity === "error") || attr === undefined) return missingItem(body);
  return index === undefined ? attr.expr.range : elementRange(index, attr);
}

/** The deepest nested block body the path's steps lead to (Terraform's `traversePathSteps`). */
function childBody(root: Body, steps: readonly PathStep[]): Body {
  let body = root;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.kind !== "attr") return body;
    const next = steps[i + 1];
    let index: IndexStep | undefined;
    if (next !== undefined && next.kind !== "attr") {
      index = next;
      i++;
    }
    const { content, diags } = body.partialContent({ blocks: [{ type: step.name, labelNames: index?.kind === "key" ? ["key"] : [] }] });
    if (diags.some((x) => x.severity === "error")) return body;
    const blocks = content.blocks.filter((b) => b.type === step.name);
    // Not a block: the path goes on in the same body.
    if (blocks.length === 0) continue;
    if (index === undefined) {
      if (blocks.length !== 1) return body;
      body = blocks[0]!.body;
    } else if (index.kind === "index") {
      const b = blocks[index.index];
      if (b === undefined) return body;
      body = b.body;
    } else {
      const b = blocks.find((c) => c.labels[0] === index.key);
      if (b === undefined) return body;
      body = b.body;
    }
  }
  return body;
}

/** An element's place in an attribute's expression (Terraform's `hclRangeFromIndexStepAndAttribute`). */
function elementRange(index: IndexStep, attr: Attribute): SourceRange {
  if (index.kind === "index") {
    const { items, diags } = exprList(attr.expr);
    if (diags.length > 0) return attr.expr.range;
    return items[index.index]?.range ?? attr.nameRange;
  }
  const pairs = exprMap(attr.expr);
  if (pairs === undefined) return attr.expr.range;
  for (const p of pairs) {
    if (p.key === undefined) return attr.expr.range;
    if (p.key === index.key) return startRange(p.value);
  }
  return attr.nameRange;
}

/** The items of a static object expression (HCL's `hcl.ExprMap`) with their keys' strings (undefined where a key is not a known string); undefined when the expression is not one. */
function exprMap(expr: Expression): { key: string | undefined; value: Expression }[] | undefined {
  let e = expr;
  while (e.kind === "paren") e = e.expr;
  if (e.kind === "object") {
    return e.items.map((item) => {
      if (item.keyIsIdent && item.key.kind === "traversal") return { key: item.key.traversal.root, value: item.value };
      const v = evaluate(item.key).value;
      return { key: v.isKnown() && !v.isNull() && v.type.kind === "string" ? v.asString() : undefined, value: item.value };
    });
  }
  if (e.kind === "json" && e.node.type === "object") return e.node.props.map((p) => ({ key: p.name, value: { kind: "json", node: p.value, range: p.value.range } as Expression }));
  return undefined;
}

/** Where an expression starts (HCL's `StartRange`): a quoted template's first part, a constructor's opening bracket, an operation's first operand; else the whole expression. */
function startRange(e: Expression): SourceRange {
  switch (e.kind) {
    case "template": {
      const first = e.parts[0];
      if (first === undefined) return e.range;
      return first.kind === "interp" ? startRange(first.expr) : first.range;
    }
    case "tuple":
    case "object": {
      const s = e.range.start;
      return { filename: e.range.filename, start: s, end: { line: s.line, column: s.column + 1, byte: s.byte + 1 } };
    }
    case "binary":
      return startRange(e.left);
    case "conditional":
      return startRange(e.cond);
    default:
      return e.range;
  }
}
