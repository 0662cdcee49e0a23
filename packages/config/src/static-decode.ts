import { convert, isPathError, typeName, type Type, type Value } from "@magma/cty";
import { absTraversalForExpr, evaluate, exprList, type Attribute, type Diagnostic, type Expression, type Traversal } from "@magma/hcl";
import { errorDiag } from "./diagnostics.js";

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
    if (v.isNull() || !v.isKnown()) {
      if (v.isNull()) return undefined;
    }
    return v;
  } catch (err) {
    if (!isPathError(err)) throw err;
    diags.push(errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(attr.name)}: ${typeName(type)} required.`, attr.expr.range));
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
    const t = absTraversalForExpr(item);
    diags.push(...t.diags);
    if (t.traversal !== undefined) out.push(t.traversal);
  }
  return out;
}

/** The items of a static list expression, for `replace_triggered_by`. @internal */
export function expressionList(expr: Expression, diags: Diagnostic[]): Expression[] {
  const list = exprList(expr);
  diags.push(...list.diags);
  return list.items;
}
