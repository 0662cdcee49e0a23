import { convert, dynamicVal, stringType, unknownVal, type Value } from "@magma/cty";
import type { Expression } from "./ast.js";
import { errorDiag, hasErrors, type Diagnostic } from "./diagnostic.js";
import { evalExpr, startRange, type Ctx } from "./evaluate.js";
import { Parser } from "./parser.js";
import { SourceMap, formatRange } from "./source-range.js";
import { renderTemplate, templateVars } from "./template-file.js";

/** The file name of a `templatestring` template in its diagnostics (Terraform's). */
const TEMPLATE_NAME = "<templatestring argument>";

/**
 * Terraform's `templatestring(template, vars)`: `template` is an expression (not a value)
 * that must be a reference to a string defined elsewhere; that string is parsed as a
 * template and rendered with only `vars` as variables and the caller's functions, except
 * the template functions and the filesystem functions. The result is a string. @internal
 */
export function templateString(
  e: Expression & { kind: "call" },
  ctx: Ctx,
  diags: Diagnostic[],
): Value {
  if (e.args.length !== 2 || e.expandFinal) {
    diags.push(
      e.args.length < 2
        ? errorDiag(
            "Not enough function arguments",
            `Function "${e.name}" expects 2 argument(s). Missing value for "${e.args.length === 0 ? "template" : "vars"}".`,
            e.closeParenRange,
            e.range,
          )
        : errorDiag(
            "Too many function arguments",
            `Function "${e.name}" expects only 2 argument(s).`,
            e.args[2] !== undefined ? startRange(e.args[2]) : e.range,
            e.range,
          ),
    );
    return dynamicVal;
  }
  const templateExpr = e.args[0]!;
  const varsExpr = e.args[1]!;
  const templateArgError = (detail: string): Value => {
    diags.push(
      errorDiag(
        "Invalid function argument",
        `Invalid value for "template" parameter: ${detail}.`,
        templateExpr.range,
        e.range,
      ),
    );
    return unknownVal(stringType, { notNull: true });
  };

  // The template parameter is an expression closure: only vars is evaluated before the call.
  const local: Diagnostic[] = [];
  const varsV = evalExpr(varsExpr, ctx, local);
  diags.push(...local);
  if (hasErrors(local)) return dynamicVal;
  if (varsV.isKnown() && varsV.isNull()) {
    diags.push(
      errorDiag(
        "Invalid function argument",
        `Invalid value for "vars" parameter: argument must not be null.`,
        varsExpr.range,
        e.range,
      ),
    );
    return unknownVal(stringType, { notNull: true });
  }
  // vars does not accept marks: they move from the argument to the result.
  const resultMarks = [...varsV.marks];
  const marked = (v: Value): Value => (resultMarks.length > 0 ? v.mark(...resultMarks) : v);
  if (!varsV.isKnown()) return marked(unknownVal(stringType, { notNull: true }));

  const shapeError = templateShapeError(templateExpr);
  if (shapeError !== undefined)
    return templateArgError(`invalid template expression: ${shapeError}`);
  const tdiags: Diagnostic[] = [];
  const templateV = evalExpr(templateExpr, ctx, tdiags);
  const terr = tdiags.find((d) => d.severity === "error");
  if (terr !== undefined) {
    return templateArgError(
      `invalid template expression: ${terr.subject !== undefined ? `${formatRange(terr.subject)}: ` : ""}${terr.summary}; ${terr.detail}`,
    );
  }
  for (const m of templateV.marks) resultMarks.push(m);
  if (!templateV.isKnown()) return marked(unknownVal(stringType, { notNull: true }));
  if (templateV.type.kind !== "string" || templateV.isNull())
    return templateArgError("invalid template value: a string is required");

  const p = new Parser(new SourceMap(TEMPLATE_NAME, templateV.unmark().asString()), "template");
  const tmpl = p.parseWholeTemplate();
  const perr = p.diags.find((d) => d.severity === "error");
  if (perr !== undefined) {
    return templateArgError(
      `invalid template: ${perr.subject !== undefined ? `${formatRange(perr.subject)}: ` : ""}${perr.summary}; ${perr.detail}`,
    );
  }
  const vars = templateVars(varsV.unmark(), e, diags);
  if (vars === undefined) return dynamicVal;
  const out = renderTemplate(tmpl, vars, e, ctx, diags, "templatestring");
  if (out === undefined) return dynamicVal;
  let result: Value;
  try {
    result = convert(out, stringType);
  } catch (err) {
    diags.push(
      errorDiag(
        "Error in function call",
        `Call to function "${e.name}" failed: invalid template result: ${err instanceof Error ? err.message : String(err)}.`,
        startRange(e),
        e.range,
      ),
    );
    return dynamicVal;
  }
  return marked(result);
}

/**
 * Terraform's check of the template argument's form, before evaluating it: a reference
 * (a traversal, possibly indexed, extended or splatted) is accepted; a literal template or
 * an interpolation is refused with a message pointing at the usual template syntax, and
 * anything else (function calls, parentheses, …) is refused too.
 */
function templateShapeError(expr: Expression): string | undefined {
  const suffix =
    "templatestring is only for rendering templates retrieved dynamically from elsewhere";
  if (expr.kind === "templateWrap") {
    return `${suffix}; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax`;
  }
  if (expr.kind === "template") {
    return expr.parts.every((p) => p.kind === "lit")
      ? `${suffix}, and so does not support providing a literal template; consider using a template string expression instead`
      : `${suffix}; to render an inline template, consider using a plain template string expression`;
  }
  if (!isReference(expr))
    return "must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax";
  return undefined;
}

/** Whether an expression reads a value from elsewhere (Terraform's `isValidTemplateStringExpr`). */
function isReference(expr: Expression): boolean {
  switch (expr.kind) {
    case "traversal":
      return true;
    case "relative":
    case "splat":
      return isReference(expr.source);
    case "index":
      return isReference(expr.collection);
    default:
      return false;
  }
}
