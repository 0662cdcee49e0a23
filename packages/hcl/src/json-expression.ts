import { boolVal, convert, dynamicVal, nullVal, dynamicType, numberVal, objectVal, stringType, stringVal, tupleVal, type Value } from "@magma/cty";
import type { Expression, JsonNode } from "./ast.js";
import { errorDiag, hasErrors, type Diagnostic } from "./diagnostic.js";
import { evalExpr, type Ctx } from "./evaluate.js";
import { parseNumberLiteral } from "./number-ops.js";
import { Parser } from "./parser.js";
import { EmbeddedSourceMap, LazyRange, SourceMap } from "./source-range.js";

const templates = new WeakMap<JsonNode, { expr: Expression; diags: Diagnostic[] }>();

/**
 * The template a JSON string stands for (its `${…}` and `%{…}` sequences; `$${` and `%%{`
 * are literal), parsed once and cached. As in HCL, the decoded text is parsed from the
 * position just past the opening quote: an escape sequence before a diagnostic's subject
 * counts as the one character it stands for (an escaped newline starts a new line).
 */
export function jsonStringTemplate(node: JsonNode & { type: "string" }): { expr: Expression; diags: Diagnostic[] } {
  let t = templates.get(node);
  if (t === undefined) {
    const inner = node.innerRange;
    const map = inner instanceof LazyRange && node.raw === node.value ? new EmbeddedSourceMap(node.value, inner.map, inner.s) : new SourceMap(inner.filename, node.value, inner.start);
    const p = new Parser(map, "template");
    const expr = p.parseWholeTemplate();
    t = { expr, diags: p.diags };
    templates.set(node, t);
  }
  return t;
}

/** @internal Evaluates a JSON-syntax value (HCL's JSON `expression.Value`). */
export function evaluateJson(node: JsonNode, ctx: Ctx, diags: Diagnostic[]): Value {
  switch (node.type) {
    case "null":
      return nullVal(dynamicType);
    case "invalid":
      // HCL evaluates a node that failed to parse to an unknown, so that the rest still evaluates.
      return dynamicVal;
    case "bool":
      return boolVal(node.value);
    case "number":
      try {
        return numberVal(parseNumberLiteral(node.text));
      } catch {
        diags.push(errorDiag("Invalid JSON number", `There is a syntax error in the given JSON number.`, node.range));
        return dynamicVal;
      }
    case "string": {
      if (ctx.scope === undefined) return stringVal(node.value);
      const t = jsonStringTemplate(node);
      if (hasErrors(t.diags)) {
        diags.push(...t.diags);
        return dynamicVal;
      }
      return evalExpr(t.expr, ctx, diags);
    }
    case "array":
      return tupleVal(node.items.map((it) => evaluateJson(it, ctx, diags)));
    case "object": {
      const vals = new Map<string, Value>();
      let known = true;
      for (const p of node.props) {
        const local: Diagnostic[] = [];
        const k = evaluateJson(p.nameNode, ctx, local);
        const v = evaluateJson(p.value, ctx, diags);
        diags.push(...local);
        if (hasErrors(local)) {
          known = false;
          continue;
        }
        if (k.isNull()) {
          diags.push(errorDiag("Invalid object key expression", "Cannot use a null value as an object key.", p.nameNode.range));
          known = false;
          continue;
        }
        let ks: Value;
        try {
          ks = convert(k.unmark(), stringType);
        } catch (err) {
          diags.push(errorDiag("Invalid object key expression", `Cannot use this expression as an object key: ${err instanceof Error ? err.message : String(err)}.`, p.nameNode.range));
          known = false;
          continue;
        }
        if (!ks.isKnown()) {
          known = false;
          continue;
        }
        const name = ks.asString();
        if (vals.has(name)) {
          diags.push(errorDiag("Duplicate object attribute", `An attribute named "${name}" was already defined at an earlier point in this object.`, p.nameNode.range));
          continue;
        }
        vals.set(name, k.marks.size > 0 ? v.mark(...k.marks) : v);
      }
      if (!known) return dynamicVal;
      return objectVal(vals);
    }
  }
}
