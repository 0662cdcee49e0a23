import { convert, dynamicVal, Mark, stringType, type Value } from "@magma/cty";
import type { Expression } from "./ast.js";
import { errorDiag, hasErrors, type Diagnostic } from "./diagnostic.js";
import { evalExpr, iterate, startRange, type Ctx } from "./evaluate.js";
import { isFunctionArgError } from "./function.js";
import { fileArgumentText, readFileArgument } from "./funcs/filesystem.js";
import { Parser } from "./parser.js";
import { SourceMap, formatRange } from "./source-range.js";
import { expressionTraversals } from "./variables.js";

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The evaluator's template functions, which render a template with their own variables. @internal */
export type TemplateFunctionName = "templatefile" | "templatestring";

/**
 * The variables of a template function's `vars` argument (a known, unmarked, non-null value):
 * it must be a map or an object whose keys are identifiers. Pushes Terraform's diagnostic
 * and returns `undefined` otherwise. @internal
 */
export function templateVars(varsV: Value, e: Expression & { kind: "call" }, diags: Diagnostic[]): Map<string, Value> | undefined {
  const vk = varsV.type.kind;
  if (varsV.isNull() || (vk !== "object" && vk !== "map")) {
    diags.push(errorDiag("Invalid function argument", `Invalid value for "vars" parameter: invalid vars value: must be a map.`, e.args[1]!.range, e.range));
    return undefined;
  }
  const vars = new Map<string, Value>();
  for (const [k, v] of iterate(varsV)) {
    const name = k.asString();
    if (!IDENT.test(name)) {
      diags.push(
        errorDiag(
          "Invalid function argument",
          `Invalid value for "vars" parameter: invalid template variable name "${name}": must start with a letter, followed by zero or more letters, digits, and underscores.`,
          e.args[1]!.range,
          e.range,
        ),
      );
      return undefined;
    }
    vars.set(name, v);
  }
  return vars;
}

/**
 * Renders a parsed template with only `vars` as variables, as a template function does:
 * every variable it refers to must be in `vars` (checked before evaluating), and an error
 * inside it fails the call with the inner diagnostic in the message. @internal
 */
export function renderTemplate(
  tmpl: Expression,
  vars: ReadonlyMap<string, Value>,
  e: Expression & { kind: "call" },
  ctx: Ctx,
  diags: Diagnostic[],
  templateFunction: TemplateFunctionName,
): Value | undefined {
  for (const t of expressionTraversals(tmpl)) {
    if (!vars.has(t.root)) {
      diags.push(
        errorDiag(
          "Invalid function argument",
          `Invalid value for "vars" parameter: vars map does not contain key "${t.root}", referenced at ${formatRange(t.rootRange)}.`,
          e.args[1]!.range,
          e.range,
        ),
      );
      return undefined;
    }
  }
  const inner: Ctx = { scope: { ...(ctx.scope ?? {}), variables: vars }, vars: undefined, parent: undefined, splatItem: undefined, templateFunction };
  const tdiags: Diagnostic[] = [];
  const out = evalExpr(tmpl, inner, tdiags);
  if (hasErrors(tdiags)) {
    diags.push(failedCall(e, tdiags.find((x) => x.severity === "error")!));
    return undefined;
  }
  if (out.isKnown() && out.isNull()) {
    // Terraform's wording names templatestring for templatefile too.
    diags.push(failedCall(e, errorDiag("Template result is null", "The result of the template is null, which is not a valid result for a templatestring call.", tmpl.range)));
    return undefined;
  }
  return out;
}

/** "Error in function call" with an inner diagnostic as its message (HCL's `Diagnostics.Error`). @internal */
export function failedCall(e: Expression & { kind: "call" }, d: Diagnostic): Diagnostic {
  return errorDiag("Error in function call", `Call to function "${e.name}" failed: ${d.subject !== undefined ? `${formatRange(d.subject)}: ` : ""}${d.summary}; ${d.detail}.`, startRange(e), e.range);
}

/**
 * Terraform's `templatefile(path, vars)`: reads the file (relative paths against
 * `baseDir`), parses it as a template and evaluates it with only `vars` as variables and
 * the caller's functions (except `templatefile` itself). @internal
 */
export function templateFile(e: Expression & { kind: "call" }, ctx: Ctx, diags: Diagnostic[], baseDir: string): Value {
  if (e.args.length !== 2 || e.expandFinal) {
    diags.push(
      e.args.length < 2
        ? errorDiag("Not enough function arguments", `Function "${e.name}" expects 2 argument(s). Missing value for "${e.args.length === 0 ? "path" : "vars"}".`, e.closeParenRange, e.range)
        : errorDiag("Too many function arguments", `Function "${e.name}" expects only 2 argument(s).`, e.args[2] !== undefined ? startRange(e.args[2]) : e.range, e.range),
    );
    return dynamicVal;
  }
  const local: Diagnostic[] = [];
  const pathV = evalExpr(e.args[0]!, ctx, local);
  const varsV = evalExpr(e.args[1]!, ctx, local);
  diags.push(...local);
  if (hasErrors(local)) return dynamicVal;
  if (!pathV.isKnown() || !varsV.isWhollyKnown()) return dynamicVal;
  let path: string;
  try {
    path = convert(pathV.unmark(), stringType).asString();
  } catch (err) {
    diags.push(errorDiag("Invalid function argument", `Invalid value for "path" parameter: ${err instanceof Error ? err.message : String(err)}.`, startRange(e.args[0]!), e.range));
    return dynamicVal;
  }
  const plainVars = templateVars(varsV.unmark(), e, diags);
  if (plainVars === undefined) return dynamicVal;
  const vars = new Map<string, Value>();
  for (const [name, v] of plainVars) vars.set(name, varsV.marks.size > 0 ? v.mark(...varsV.marks) : v);
  // Read as `file` reads (Terraform's templatefile calls File): a sensitive path is redacted in the errors.
  const sensitive = pathV.marks.has(Mark.Sensitive);
  let text: string;
  try {
    text = fileArgumentText(readFileArgument(baseDir, path, sensitive), path, sensitive);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    diags.push(
      isFunctionArgError(err)
        ? errorDiag("Invalid function argument", `Invalid value for "path" parameter: ${message}.`, startRange(e.args[0]!), e.range)
        : errorDiag("Error in function call", `Call to function "${e.name}" failed: ${message}.`, startRange(e), e.range),
    );
    return dynamicVal;
  }
  const p = new Parser(new SourceMap(path, text), "template");
  const tmpl = p.parseWholeTemplate();
  if (hasErrors(p.diags)) {
    diags.push(failedCall(e, p.diags.find((x) => x.severity === "error")!));
    return dynamicVal;
  }
  const out = renderTemplate(tmpl, vars, e, ctx, diags, "templatefile");
  if (out === undefined) return dynamicVal;
  const marks = [...pathV.marks];
  return marks.length > 0 ? out.mark(...marks) : out;
}
