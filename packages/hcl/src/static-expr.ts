import type { Expression, Traversal } from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { Parser } from "./parser.js";
import { EmbeddedSourceMap, LazyRange, SourceMap } from "./source-range.js";

/**
 * The elements of a static list expression (HCL's `hcl.ExprList`), for arguments such as
 * `depends_on` whose items are analysed without evaluation: a native tuple constructor's
 * items, or a JSON array's elements.
 */
export function exprList(expr: Expression): { items: Expression[]; diags: Diagnostic[] } {
  const e = unwrapParens(expr);
  if (e.kind === "tuple") return { items: [...e.items], diags: [] };
  if (e.kind === "json" && e.node.type === "array") {
    return { items: e.node.items.map((n) => ({ kind: "json", node: n, range: n.range }) as Expression), diags: [] };
  }
  return { items: [], diags: [errorDiag("Invalid expression", "A static list expression is required.", expr.range)] };
}

/**
 * The static reference an expression is (HCL's `hcl.AbsTraversalForExpr`), for
 * Terraform's reference-only arguments (`depends_on`, `provider`, `ignore_changes`,
 * `replace_triggered_by`, `moved.from`): a native traversal such as `aws_instance.web`,
 * or in JSON syntax a string containing one (`"aws_instance.web"`).
 */
export function absTraversalForExpr(expr: Expression): { traversal: Traversal | undefined; diags: Diagnostic[] } {
  const e = unwrapParens(expr);
  if (e.kind === "traversal") return { traversal: e.traversal, diags: [] };
  if (e.kind === "json" && e.node.type === "string") {
    const inner = e.node.innerRange;
    const map = inner instanceof LazyRange && e.node.raw === e.node.value ? new EmbeddedSourceMap(e.node.value, inner.map, inner.s) : new SourceMap(inner.filename, e.node.value, inner.start);
    const p = new Parser(map, "normal");
    const parsed = p.parseStandaloneExpression();
    if (p.diags.length === 0 && parsed.kind === "traversal") return { traversal: parsed.traversal, diags: [] };
    return {
      traversal: undefined,
      diags: [
        errorDiag(
          "Invalid expression",
          "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
          e.range,
        ),
      ],
    };
  }
  return {
    traversal: undefined,
    diags: [
      errorDiag(
        "Invalid expression",
        "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
        expr.range,
      ),
    ],
  };
}

/**
 * The keyword an expression is (HCL's `hcl.ExprAsKeyword`): a bare identifier such as
 * `all` in `ignore_changes = all`, or in JSON syntax a string holding one; otherwise
 * `undefined`.
 */
export function exprAsKeyword(expr: Expression): string | undefined {
  const e = unwrapParens(expr);
  if (e.kind === "traversal" && e.traversal.steps.length === 0) return e.traversal.root;
  if (e.kind === "json" && e.node.type === "string" && /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u.test(e.node.value)) return e.node.value;
  return undefined;
}

function unwrapParens(e: Expression): Expression {
  let x = e;
  while (x.kind === "paren") x = x.expr;
  return x;
}
