import { convert, isPathError, typeName, type Type, type Value } from "@magma/cty";
import { absTraversalForExpr, evaluate, exprList, parseExpression, type Attribute, type Diagnostic, type Expression, type SourceRange, type Traversal } from "@magma/hcl";
import { errorDiag, warningDiag } from "./diagnostics.js";

/** The range HCL's `Expression.StartRange` gives: a template's first part, else the whole. @internal */
export function startRange(e: Expression): SourceRange {
  if (e.kind === "template" && e.parts.length > 0) return e.parts[0]!.range;
  return e.range;
}

const STATIC_REF_DETAIL =
  "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/**
 * A static reference (HCL's `AbsTraversalForExpr` after Terraform's `shimTraversalInString`):
 * a native traversal; in native syntax a quoted one, with Terraform's deprecation warning;
 * in JSON syntax a string holding one (ranges from the opening quote, as Terraform's shim
 * gives them). @internal
 */
export function staticTraversal(expr: Expression, diags: Diagnostic[], allowQuoted = true): Traversal | undefined {
  let e = expr;
  while (e.kind === "paren") e = e.expr;
  if (e.kind === "json" && e.node.type === "string") {
    const p = parseExpression(e.node.value, e.node.range.filename, e.node.range.start);
    if (p.diags.length === 0 && p.expr.kind === "traversal") return p.expr.traversal;
    diags.push(errorDiag("Invalid expression", STATIC_REF_DETAIL, e.range));
    return undefined;
  }
  if (allowQuoted && e.kind === "template" && e.parts.length === 1 && e.parts[0]!.kind === "lit") {
    const lit = e.parts[0]!;
    const p = parseExpression(lit.value, e.range.filename, lit.range.start);
    if (p.diags.length === 0 && p.expr.kind === "traversal") {
      diags.push(
        warningDiag(
          "Quoted references are deprecated",
          "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.",
          e.range,
        ),
      );
      return p.expr.traversal;
    }
  }
  const t = absTraversalForExpr(e);
  if (t.traversal === undefined) {
    diags.push(errorDiag("Invalid expression", STATIC_REF_DETAIL, expr.range));
    return undefined;
  }
  return t.traversal;
}

/**
 * Evaluates an argument that must be a constant (no variables or functions) and converts
 * it to `type` (Terraform's `gohcl.DecodeExpression(expr, nil, &v)`). @internal
 */
export function staticValue(attr: Attribute, type: Type, diags: Diagnostic[]): Value | undefined {
  const r = evaluate(attr.expr);
  if (r.diags.length > 0) {
    diags.push(...r.diags);
    return undefined;
  }
  try {
    const v = convert(r.value, type);
    if (v.isNull()) return undefined;
    // A JSON value that failed to parse evaluates to an unknown, which gohcl cannot decode into
    // a Go string or bool.
    if (!v.isKnown() && attr.expr.kind === "json") {
      diags.push(errorDiag("Unsuitable value type", "Unsuitable value: value must be known", startRange(attr.expr), attr.expr.range));
      return undefined;
    }
    return v;
  } catch (err) {
    if (!isPathError(err)) throw err;
    void typeName;
    diags.push(errorDiag("Unsuitable value type", `Unsuitable value: ${err.message}`, startRange(attr.expr), attr.expr.range));
    return undefined;
  }
}

/** A constant string argument. @internal */
export function staticString(attr: Attribute | undefined, type: Type, diags: Diagnostic[]): string | undefined {
  if (attr === undefined) return undefined;
  const v = staticValue(attr, type, diags);
  return v === undefined || !v.isKnown() ? undefined : v.asString();
}

/** A constant bool argument. @internal */
export function staticBool(attr: Attribute | undefined, type: Type, diags: Diagnostic[]): boolean | undefined {
  if (attr === undefined) return undefined;
  const v = staticValue(attr, type, diags);
  return v === undefined || !v.isKnown() ? undefined : v.asBool();
}

/** A static list of references, such as `depends_on` (Terraform's `decodeDependsOn`). @internal */
export function traversalList(attr: Attribute | undefined, diags: Diagnostic[]): Traversal[] {
  if (attr === undefined) return [];
  const list = exprList(attr.expr);
  diags.push(...list.diags);
  const out: Traversal[] = [];
  for (const item of list.items) {
    const t = staticTraversal(item, diags);
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** The items of a static list expression, for `replace_triggered_by`. @internal */
export function expressionList(expr: Expression, diags: Diagnostic[]): Expression[] {
  const list = exprList(expr);
  diags.push(...list.diags);
  return list.items;
}

/**
 * A JSON-syntax string holding a static expression (Terraform's `shimTraversalInString`):
 * parsed as native syntax where it is; other expressions are returned as they are. @internal
 */
export function shimJsonExpression(expr: Expression): Expression {
  if (expr.kind === "json" && expr.node.type === "string") {
    const p = parseExpression(expr.node.value, expr.node.range.filename, expr.node.innerRange.start);
    if (p.diags.length === 0) return p.expr;
  }
  return expr;
}

