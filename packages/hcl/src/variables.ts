import type { Expression, TemplatePart, Traversal } from "./ast.js";
import { hasErrors } from "./diagnostic.js";
import { jsonStringTemplate } from "./json-expression.js";
import type { JsonNode } from "./ast.js";

/**
 * The references an expression makes (HCL's `Expression.Variables`): every static
 * traversal from a root variable, such as `var.a`, `aws_instance.web[0].id` or
 * `each.value`, in source order. Names bound by `for` expressions and `%{for}` directives
 * inside the expression are not references. For a JSON-syntax expression, the templates
 * in its strings are searched. This is what a dependency graph is built from.
 */
export function expressionTraversals(expr: Expression): Traversal[] {
  const out: Traversal[] = [];
  walk(expr, new Set(), out);
  return out;
}

function walk(e: Expression, bound: ReadonlySet<string>, out: Traversal[]): void {
  switch (e.kind) {
    case "literal":
    case "splatItem":
      return;
    case "traversal":
      if (!bound.has(e.traversal.root)) out.push(e.traversal);
      return;
    case "relative":
      walk(e.source, bound, out);
      return;
    case "index":
      walk(e.collection, bound, out);
      walk(e.key, bound, out);
      return;
    case "splat":
      walk(e.source, bound, out);
      walk(e.each, bound, out);
      return;
    case "call":
      for (const a of e.args) walk(a, bound, out);
      return;
    case "conditional":
      walk(e.cond, bound, out);
      walk(e.then, bound, out);
      walk(e.else, bound, out);
      return;
    case "binary":
      walk(e.left, bound, out);
      walk(e.right, bound, out);
      return;
    case "unary":
      walk(e.operand, bound, out);
      return;
    case "paren":
    case "templateWrap":
      walk(e.expr, bound, out);
      return;
    case "tuple":
      for (const i of e.items) walk(i, bound, out);
      return;
    case "object":
      for (const i of e.items) {
        if (!i.keyIsIdent) walk(i.key, bound, out);
        walk(i.value, bound, out);
      }
      return;
    case "for": {
      walk(e.coll, bound, out);
      const inner = new Set(bound);
      if (e.keyVar !== undefined) inner.add(e.keyVar);
      inner.add(e.valueVar);
      if (e.keyExpr !== undefined) walk(e.keyExpr, inner, out);
      walk(e.valueExpr, inner, out);
      if (e.cond !== undefined) walk(e.cond, inner, out);
      return;
    }
    case "template":
      walkParts(e.parts, bound, out);
      return;
    case "json":
      walkJson(e.node, out);
      return;
  }
}

function walkParts(parts: readonly TemplatePart[], bound: ReadonlySet<string>, out: Traversal[]): void {
  for (const p of parts) {
    switch (p.kind) {
      case "lit":
        break;
      case "interp":
        walk(p.expr, bound, out);
        break;
      case "if":
        walk(p.cond, bound, out);
        walkParts(p.then, bound, out);
        walkParts(p.else, bound, out);
        break;
      case "for": {
        walk(p.coll, bound, out);
        const inner = new Set(bound);
        if (p.keyVar !== undefined) inner.add(p.keyVar);
        inner.add(p.valueVar);
        walkParts(p.body, inner, out);
        break;
      }
    }
  }
}

function walkJson(n: JsonNode, out: Traversal[]): void {
  switch (n.type) {
    case "string": {
      // As HCL's: a string whose template does not parse has no references.
      const t = jsonStringTemplate(n);
      if (!hasErrors(t.diags)) walk(t.expr, new Set(), out);
      return;
    }
    case "array":
      for (const i of n.items) walkJson(i, out);
      return;
    case "object":
      for (const p of n.props) {
        walkJson(p.nameNode, out);
        walkJson(p.value, out);
      }
      return;
    default:
      return;
  }
}

/**
 * @deprecated Renamed {@link expressionTraversals} (HCL's method name, which did not say what
 * it returns); this alias goes in the next minor release.
 */
export const variables: typeof expressionTraversals = expressionTraversals;
