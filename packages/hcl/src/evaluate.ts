import {
  boolType,
  boolVal,
  convert,
  dynamicType,
  dynamicVal,
  emptyTupleVal,
  isPathError,
  listVal,
  listValEmpty,
  listType,
  nullVal,
  numberType,
  numberVal,
  objectVal,
  stringType,
  stringVal,
  tupleType,
  tupleVal,
  typeEquals,
  typeName,
  unknownVal,
  type CtyNumber,
  type Refinements,
  type Type,
  type Value,
} from "@magma/cty";
import { unifyUnsafe } from "@magma/cty/convert";
import type { Expression, TemplatePart, TraversalStep } from "./ast.js";
import { callFunction } from "./call-function.js";
import { errorDiag, hasErrors, type Diagnostic, type ExpressionValue, type FunctionCallInfo } from "./diagnostic.js";
import { callSignature } from "./function-signatures.js";
import { nameSuggestion } from "./name-suggestion.js";
import { isFunctionArgError, isFunctionError, type HclFunction } from "./function.js";
import { evaluateJson } from "./json-expression.js";
import { BINARY_OPERATORS, UNARY_OPERATORS } from "./operators.js";
import type { EvalScope } from "./scope.js";
import { formatRange, rangeBetween, type SourceRange } from "./source-range.js";
import { templateFile, type TemplateFunctionName } from "./template-file.js";
import { templateString } from "./template-string.js";
import { safeKnownPrefix } from "./safe-known-prefix.js";
import { expressionValues } from "./expression-values.js";

/** The result of evaluating an expression: a value (`dynamicVal` after an error) and diagnostics. */
export interface EvalResult {
  readonly value: Value;
  readonly diags: Diagnostic[];
}

/** A chain of variable frames: the caller's scope, then `for` and splat bindings. @internal */
export interface Ctx {
  readonly scope: EvalScope | undefined;
  readonly vars: ReadonlyMap<string, Value> | undefined;
  readonly parent: Ctx | undefined;
  readonly splatItem: Value | undefined;
  /**
   * The template function whose template is being evaluated here, if any: the template
   * functions may not be called inside it, nor (in `templatestring`) the filesystem functions.
   */
  readonly templateFunction?: TemplateFunctionName;
}

/**
 * Evaluates an expression of either syntax in a scope (HCL's `Expression.Value`). Never
 * throws for bad input: errors are diagnostics with source ranges, and the value is then
 * `dynamicVal` (or an unknown of the expected type). Unknown inputs give (refined)
 * unknown results; marks such as `sensitive` are carried onto every result derived from a
 * marked value.
 *
 * Pass `undefined` as the scope for a context without variables or functions (JSON-syntax
 * strings are then literal strings, not templates, as in HCL).
 */
export function evaluate(expr: Expression, scope?: EvalScope): EvalResult {
  const diags: Diagnostic[] = [];
  const ctx: Ctx = { scope, vars: undefined, parent: undefined, splatItem: undefined };
  const value = evalExpr(expr, ctx, diags);
  return { value, diags };
}


function child(ctx: Ctx, vars: ReadonlyMap<string, Value>): Ctx {
  return { scope: ctx.scope, vars, parent: ctx, splatItem: ctx.splatItem, ...(ctx.templateFunction !== undefined ? { templateFunction: ctx.templateFunction } : {}) };
}

function lookupVar(ctx: Ctx, name: string): Value | undefined {
  for (let c: Ctx | undefined = ctx; c !== undefined; c = c.parent) {
    const v = c.vars?.get(name);
    if (v !== undefined) return v;
  }
  const vars = ctx.scope?.variables;
  if (vars === undefined) return undefined;
  if (vars instanceof Map) return (vars as ReadonlyMap<string, Value>).get(name);
  const rec = vars as Readonly<Record<string, Value>>;
  return Object.prototype.hasOwnProperty.call(rec, name) ? rec[name] : undefined;
}

function hasAnyVars(ctx: Ctx): boolean {
  for (let c: Ctx | undefined = ctx; c !== undefined; c = c.parent) if (c.vars !== undefined) return true;
  return ctx.scope?.variables !== undefined;
}

function marksOf(v: Value): string[] {
  return [...v.marks];
}

function withMarks(v: Value, marks: Iterable<string>): Value {
  const m = [...marks];
  return m.length === 0 ? v : v.mark(...m);
}

function convErr(e: unknown): string {
  if (isPathError(e)) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/** @internal Evaluates one node, appending diagnostics. */
export function evalExpr(e: Expression, ctx: Ctx, diags: Diagnostic[]): Value {
  switch (e.kind) {
    case "literal":
      return e.value;
    case "paren":
      return evalExpr(e.expr, ctx, diags);
    case "traversal": {
      const t = e.traversal;
      if (!hasAnyVars(ctx)) {
        diags.push(errorDiag("Variables not allowed", "Variables may not be used here.", t.rootRange));
        return dynamicVal;
      }
      const root = lookupVar(ctx, t.root);
      if (root === undefined) {
        const suggestion = nameSuggestion(t.root, variableNames(ctx));
        diags.push(errorDiag("Unknown variable", `There is no variable named "${t.root}".${suggestion === undefined ? "" : ` Did you mean "${suggestion}"?`}`, t.rootRange));
        return dynamicVal;
      }
      const before = diags.length;
      const v = applySteps(root, t.steps, diags);
      claimValues(e, ctx, diags, before);
      return v;
    }
    case "relative": {
      const before = diags.length;
      const src = evalExpr(e.source, ctx, diags);
      const v = applySteps(src, e.steps, diags);
      claimValues(e, ctx, diags, before);
      return v;
    }
    case "splatItem":
      return ctx.splatItem ?? dynamicVal;
    case "index": {
      const coll = evalExpr(e.collection, ctx, diags);
      const key = evalExpr(e.key, ctx, diags);
      if (hasErrors(diags)) return dynamicVal;
      const keyMarks = marksOf(key);
      const before = diags.length;
      const r = indexValue(coll, key.unmark(), e.bracketRange, diags);
      claimValues(e, ctx, diags, before);
      return withMarks(r, keyMarks);
    }
    case "splat":
      return evalSplat(e, ctx, diags);
    case "call":
      return evalCall(e, ctx, diags);
    case "conditional":
      return evalConditional(e.cond, e.then, e.else, e.range, ctx, diags);
    case "binary":
      return evalBinary(e, ctx, diags);
    case "unary": {
      const op = UNARY_OPERATORS[e.op];
      const given = evalExpr(e.operand, ctx, diags);
      let v: Value;
      try {
        v = convert(given, op.fn.params[0]!.type);
      } catch (err) {
        diags.push(errorDiag("Invalid operand", `Unsuitable value for unary operand: ${convErr(err)}.`, e.operand.range, e.range));
        return unknownVal(op.type);
      }
      if (hasErrors(diags)) return unknownVal(op.type);
      try {
        return callFunction(op.fn, [v]);
      } catch (err) {
        diags.push(errorDiag("Operation failed", `Error during operation: ${convErr(err)}.`, e.range));
        return unknownVal(op.type);
      }
    }
    case "tuple":
      return tupleVal(e.items.map((i) => evalExpr(i, ctx, diags)));
    case "object":
      return evalObject(e, ctx, diags);
    case "for":
      return evalFor(e, ctx, diags);
    case "template":
      return evalTemplateParts(e.parts, e.range, ctx, diags);
    case "templateWrap":
      return evalExpr(e.expr, ctx, diags);
    case "json":
      return evaluateJson(e.node, ctx, diags);
  }
}

// ----- traversal --------------------------------------------------------------------

/**
 * The values of `expr`'s references in `scope` as Terraform lists them under a diagnostic
 * about it (see `expressionValues`): for diagnostics made outside the evaluator, such as a
 * failed validation rule's (its condition's references).
 */
export function scopeExpressionValues(expr: Expression, scope: EvalScope | undefined): ExpressionValue[] {
  return expressionValues(expr, (root) => lookupVar({ scope, vars: undefined, parent: undefined, splatItem: undefined }, root), stepApplier);
}

function stepApplier(v: Value, step: TraversalStep): Value | undefined {
  const scratch: Diagnostic[] = [];
  const r = step.kind === "attr" ? getAttrValue(v, step.name, step.range, scratch) : indexValue(v, step.key, step.range, scratch);
  return hasErrors(scratch) ? undefined : r;
}

/** Diagnostics whose expression values were settled (by the innermost expression that failed). */
const claimed = new WeakSet<Diagnostic>();

/**
 * Gives the diagnostics from `from` on that no inner expression claimed the values of
 * `expr`'s references in `ctx` (HCL sets a diagnostic's expression and context where it is
 * made; Terraform lists those values under the snippet).
 */
function claimValues(expr: Expression, ctx: Ctx, diags: Diagnostic[], from: number): void {
  let values: ExpressionValue[] | undefined;
  for (let i = from; i < diags.length; i++) {
    const d = diags[i]!;
    if (claimed.has(d)) continue;
    values ??= expressionValues(expr, (root) => lookupVar(ctx, root), stepApplier);
    const withValues = values.length > 0 ? { ...d, values } : d;
    claimed.add(withValues);
    diags[i] = withValues;
  }
}

function applySteps(v: Value, steps: readonly TraversalStep[], diags: Diagnostic[]): Value {
  let cur = v;
  for (const s of steps) {
    if (s.kind === "attr") cur = getAttrValue(cur, s.name, s.range, diags);
    else cur = indexValue(cur, s.key, s.range, diags);
    if (cur === dynamicVal && hasErrors(diags)) return cur;
  }
  return cur;
}

/** HCL's `GetAttr`: an attribute of an object or an element of a map by name. @internal */
export function getAttrValue(obj: Value, name: string, range: SourceRange, diags: Diagnostic[]): Value {
  if (obj.isNull()) {
    diags.push(errorDiag("Attempt to get attribute from null value", "This value is null, so it does not have any attributes.", range));
    return dynamicVal;
  }
  const ty = obj.type;
  switch (ty.kind) {
    case "object": {
      if (ty.attributes[name] === undefined) {
        diags.push(errorDiag("Unsupported attribute", `This object does not have an attribute named "${name}".`, range));
        return dynamicVal;
      }
      return obj.getAttr(name);
    }
    case "map": {
      if (!obj.isKnown()) return withMarks(unknownVal(ty.element), obj.marks);
      const e = obj.unmark().entries().get(name);
      if (e === undefined) {
        diags.push(errorDiag("Missing map element", `This map does not have an element with the key "${name}".`, range));
        return dynamicVal;
      }
      return withMarks(e, obj.marks);
    }
    case "dynamic":
      return withMarks(dynamicVal, obj.marks);
    case "list":
    case "set": {
      const et = ty.element;
      if (et.kind === "object") {
        const noun = ty.kind === "list" ? "list" : "set";
        const detail =
          et.attributes[name] !== undefined
            ? ty.kind === "list"
              ? `Can't access attributes on a list of objects. Did you mean to access attribute "${name}" for a specific element of the list, or across all elements of the list?`
              : `Can't access attributes on a set of objects. Did you mean to access attribute "${name}" across all elements of the set?`
            : `Can't access attributes on a ${noun} of objects. Did you mean to access an attribute ${ty.kind === "list" ? "for a specific element of the list, or across all elements of the list" : "across all elements of the set"}?`;
        diags.push(errorDiag("Unsupported attribute", detail, range));
        return dynamicVal;
      }
      diags.push(errorDiag("Unsupported attribute", "This value does not have any attributes.", range));
      return dynamicVal;
    }
    case "string":
    case "number":
    case "bool":
      diags.push(errorDiag("Unsupported attribute", `Can't access attributes on a primitive-typed value (${typeName(ty)}).`, range));
      return dynamicVal;
    default:
      diags.push(errorDiag("Unsupported attribute", "This value does not have any attributes.", range));
      return dynamicVal;
  }
}

const INVALID_INDEX = "Invalid index";
const UTF8 = new TextEncoder();

/** HCL's `Index`: an element of a list, tuple, map or object by key. @internal */
export function indexValue(coll: Value, key: Value, range: SourceRange, diags: Diagnostic[]): Value {
  if (coll.isNull()) {
    diags.push(errorDiag("Attempt to index null value", "This value is null, so it does not have any indices.", range));
    return dynamicVal;
  }
  if (key.isNull()) {
    diags.push(errorDiag(INVALID_INDEX, "Can't use a null value as an indexing key.", range));
    return dynamicVal;
  }
  const ty = coll.type;
  if (key.type.kind === "dynamic" || ty.kind === "dynamic") return withMarks(dynamicVal, coll.marks);
  switch (ty.kind) {
    case "list":
    case "tuple":
    case "map": {
      const want = ty.kind === "map" ? stringType : numberType;
      let k: Value;
      try {
        k = convert(key, want);
      } catch (err) {
        diags.push(errorDiag(INVALID_INDEX, `The given key does not identify an element in this collection value: ${convErr(err)}.`, range));
        return dynamicVal;
      }
      const kPlain = k.unmark();
      if (!coll.isKnown() || !kPlain.isKnown()) {
        if (ty.kind === "tuple") return withMarks(dynamicVal, coll.marks);
        return withMarks(unknownVal(ty.element), coll.marks);
      }
      const plain = coll.unmark();
      if (ty.kind === "map") {
        const el = plain.entries().get(kPlain.asString());
        if (el === undefined) {
          diags.push(errorDiag(INVALID_INDEX, "The given key does not identify an element in this collection value.", range));
          return dynamicVal;
        }
        return withMarks(el, coll.marks);
      }
      const n = kPlain.asNumber();
      const len = plain.length();
      if (!n.isInteger() || n.sign() < 0 || n.compare(numberOf(len)) >= 0) {
        if (!k.isMarked()) {
          if (!n.isInteger()) {
            diags.push(
              errorDiag(
                INVALID_INDEX,
                "The given key does not identify an element in this collection value: indexing a sequence requires a whole number, but the given index has a fractional part.",
                range,
              ),
            );
            return dynamicVal;
          }
          if (n.sign() < 0) {
            diags.push(errorDiag(INVALID_INDEX, "The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence.", range));
            return dynamicVal;
          }
          // HCL gives the specific message only when the index equals the length (its test
          // is index - length < 1); any larger index gets the generic message below.
          if (n.compare(numberOf(len)) === 0) {
            diags.push(
              errorDiag(
                INVALID_INDEX,
                len === 0
                  ? "The given key does not identify an element in this collection value: the collection has no elements."
                  : "The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.",
                range,
              ),
            );
            return dynamicVal;
          }
        }
        diags.push(errorDiag(INVALID_INDEX, "The given key does not identify an element in this collection value.", range));
        return dynamicVal;
      }
      return withMarks(plain.elements()[Number(n.toBigInt())]!, coll.marks);
    }
    case "object": {
      let k: Value;
      try {
        k = convert(key, stringType);
      } catch (err) {
        diags.push(errorDiag(INVALID_INDEX, `The given key does not identify an element in this collection value: ${convErr(err)}.`, range));
        return dynamicVal;
      }
      if (!k.unmark().isKnown()) return withMarks(dynamicVal, coll.marks);
      const name = k.unmark().asString();
      if (ty.attributes[name] === undefined) {
        const hint = key.type.kind === "number" ? " An object only supports looking up attributes by name, not by numeric index." : "";
        diags.push(errorDiag(INVALID_INDEX, `The given key does not identify an element in this collection value.${hint}`, range));
        return dynamicVal;
      }
      if (!coll.isKnown()) return withMarks(unknownVal(ty.attributes[name]!), coll.marks);
      return coll.getAttr(name);
    }
    case "set":
      diags.push(
        errorDiag(
          INVALID_INDEX,
          "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
          range,
        ),
      );
      return dynamicVal;
    default:
      diags.push(errorDiag(INVALID_INDEX, "This value does not have any indices.", range));
      return dynamicVal;
  }
}

function numberOf(n: number): CtyNumber {
  return numberVal(n).asNumber();
}


// ----- splat ------------------------------------------------------------------------

function evalSplat(e: Expression & { kind: "splat" }, ctx: Ctx, diags: Diagnostic[]): Value {
  const local: Diagnostic[] = [];
  let src = evalExpr(e.source, ctx, local);
  diags.push(...local);
  if (hasErrors(local)) return dynamicVal;
  let ty = src.type;
  const autoUpgrade = !(ty.kind === "tuple" || ty.kind === "list" || ty.kind === "set");
  if (src.isNull()) {
    if (autoUpgrade) return withMarks(emptyTupleVal, src.marks);
    diags.push(errorDiag("Splat of null value", "Splat expressions (with the * symbol) cannot be applied to null sequences.", e.source.range, e.range));
    return dynamicVal;
  }
  if (autoUpgrade) {
    const marks = src.marks;
    src = withMarks(tupleVal([src.unmark()]), marks);
    ty = src.type;
  }
  const resultType = (): Type => {
    const scratch: Diagnostic[] = [];
    if (ty.kind === "list" || ty.kind === "set") {
      const v = evalExpr(e.each, { ...ctx, splatItem: unknownVal(ty.element) }, scratch);
      return listType(v.type);
    }
    if (ty.kind === "tuple") {
      return tupleType(ty.elements.map((et) => evalExpr(e.each, { ...ctx, splatItem: unknownVal(et) }, scratch).type));
    }
    return dynamicType;
  };
  if (!src.isKnown()) {
    const t = resultType();
    const r = t.kind === "dynamic" ? unknownVal(t) : unknownVal(t, { notNull: true });
    return withMarks(r, src.marks);
  }
  const marks = src.marks;
  const plain = src.unmark();
  const vals: Value[] = [];
  let known = true;
  for (const item of plain.elements()) {
    const itemDiags: Diagnostic[] = [];
    const v = evalExpr(e.each, { ...ctx, splatItem: item }, itemDiags);
    diags.push(...itemDiags);
    if (hasErrors(itemDiags)) known = false;
    vals.push(v);
  }
  if (!known) return unknownVal(resultType());
  if (ty.kind === "list" || ty.kind === "set") {
    if (vals.length === 0) {
      const t = resultType();
      return withMarks(listValEmpty(t.kind === "list" ? t.element : dynamicType), marks);
    }
    try {
      return withMarks(listVal(vals), marks);
    } catch {
      return withMarks(tupleVal(vals), marks);
    }
  }
  return withMarks(tupleVal(vals), marks);
}

// ----- operators --------------------------------------------------------------------

function evalBinary(e: Expression & { kind: "binary" }, ctx: Ctx, diags: Diagnostic[]): Value {
  const op = BINARY_OPERATORS[e.op];
  const local: Diagnostic[] = [];
  const l = evalExpr(e.left, ctx, local);
  const r = evalExpr(e.right, ctx, local);
  let lv: Value = l;
  let rv: Value = r;
  try {
    lv = convert(l, op.fn.params[0]!.type);
  } catch (err) {
    local.push(errorDiag("Invalid operand", `Unsuitable value for left operand: ${convErr(err)}.`, e.left.range, e.range));
  }
  try {
    rv = convert(r, op.fn.params[1]!.type);
  } catch (err) {
    local.push(errorDiag("Invalid operand", `Unsuitable value for right operand: ${convErr(err)}.`, e.right.range, e.range));
  }
  diags.push(...local);
  if (hasErrors(local)) return unknownVal(op.type);
  try {
    return callFunction(op.fn, [lv, rv]);
  } catch (err) {
    diags.push(errorDiag("Operation failed", `Error during operation: ${convErr(err)}.`, e.range));
    return unknownVal(op.type);
  }
}

// ----- conditional ------------------------------------------------------------------

/** @internal Also used for `%{if}` directives. */
export function evalConditional(condE: Expression, thenE: Expression, elseE: Expression, range: SourceRange, ctx: Ctx, diags: Diagnostic[]): Value {
  const thenDiags: Diagnostic[] = [];
  const elseDiags: Diagnostic[] = [];
  const t = evalExpr(thenE, ctx, thenDiags);
  const f = evalExpr(elseE, ctx, elseDiags);
  let resultType: Type | undefined = dynamicType;
  let convertThen = false;
  let convertElse = false;
  const isDynNull = (v: Value): boolean => v.isNull() && v.type.kind === "dynamic" && v.marks.size === 0;
  if (isDynNull(t)) {
    resultType = f.type;
    convertThen = true;
  } else if (isDynNull(f)) {
    resultType = t.type;
    convertElse = true;
  } else if (t.type.kind === "dynamic" || f.type.kind === "dynamic") {
    resultType = dynamicType;
  } else {
    resultType = unifyUnsafe([t.type, f.type]);
    convertThen = convertElse = true;
  }
  const between: SourceRange = rangeBetween(thenE.range, elseE.range);
  if (resultType === undefined) {
    diags.push(
      errorDiag(
        "Inconsistent conditional result types",
        `The true and false result expressions must have consistent types. ${describeMismatch(t.type, f.type)}.`,
        between,
        range,
      ),
    );
    return dynamicVal;
  }
  const condDiags: Diagnostic[] = [];
  const cond = evalExpr(condE, ctx, condDiags);
  diags.push(...condDiags);
  if (cond.isNull()) {
    diags.push(errorDiag("Null condition", "The condition value is null. Conditions must either be true or false.", condE.range, range));
    return unknownVal(resultType);
  }
  if (!cond.isKnown()) {
    const marks = new Set([...cond.marks, ...t.marks, ...f.marks]);
    const tp = t.unmark();
    const fp = f.unmark();
    if (tp.isNull() && fp.isNull()) return withMarks(nullVal(resultType), marks);
    const definitelyNotNull = (v: Value): boolean => (v.isKnown() ? !v.isNull() : v.refinements.notNull === true);
    const refine: Refinements | undefined = resultType.kind !== "dynamic" && definitelyNotNull(tp) && definitelyNotNull(fp) ? { notNull: true } : undefined;
    return withMarks(unknownVal(resultType, refine), marks);
  }
  let cb: Value;
  try {
    cb = convert(cond, boolType);
  } catch {
    diags.push(errorDiag("Incorrect condition type", "The condition expression must be of type bool.", condE.range, range));
    return unknownVal(resultType);
  }
  // HCL puts the marks of the condition and of both results on the result, whichever is
  // chosen (`false ? var.secret : "x"` is sensitive): a consumer must not learn from the
  // marks which branch was taken.
  const resultMarks = new Set([...cb.marks, ...t.marks, ...f.marks]);
  const pick = cb.unmark().asBool();
  let result = (pick ? t : f).unmark();
  diags.push(...(pick ? thenDiags : elseDiags));
  if (pick ? convertThen : convertElse) {
    try {
      result = convert(result, resultType);
    } catch (err) {
      diags.push(
        errorDiag(
          "Inconsistent conditional result types",
          `The ${pick ? "true" : "false"} result value has the wrong type: ${convErr(err)}.`,
          (pick ? thenE : elseE).range,
          range,
        ),
      );
      result = unknownVal(resultType);
    }
  }
  return withMarks(result, resultMarks);
}

function describeMismatch(a: Type, b: Type): string {
  if (a.kind === "object" && b.kind === "object") {
    const an = [...a.attributeNames].sort();
    const bn = [...b.attributeNames].sort();
    for (const n of an) if (b.attributes[n] === undefined) return `The 'true' value includes object attribute "${n}", which is absent in the 'false' value`;
    for (const n of bn) if (a.attributes[n] === undefined) return `The 'false' value includes object attribute "${n}", which is absent in the 'true' value`;
    for (const n of an) {
      if (!typeEquals(a.attributes[n]!, b.attributes[n]!)) return `Type mismatch for object attribute "${n}": ${describeMismatch(a.attributes[n]!, b.attributes[n]!)}`;
    }
  } else if (a.kind === "tuple" && b.kind === "tuple") {
    if (a.elements.length !== b.elements.length) return `The 'true' tuple has length ${a.elements.length}, but the 'false' tuple has length ${b.elements.length}`;
    for (let i = 0; i < a.elements.length; i++) {
      if (!typeEquals(a.elements[i]!, b.elements[i]!)) return `Type mismatch for tuple element ${i}: ${describeMismatch(a.elements[i]!, b.elements[i]!)}`;
    }
  }
  const an = typeName(a);
  const bn = typeName(b);
  if (an === bn) return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value";
  return `The 'true' value is ${an}, but the 'false' value is ${bn}`;
}

// ----- collections ------------------------------------------------------------------

function evalObject(e: Expression & { kind: "object" }, ctx: Ctx, diags: Diagnostic[]): Value {
  const vals = new Map<string, Value>();
  const marks = new Set<string>();
  let known = true;
  for (const item of e.items) {
    const keyDiags: Diagnostic[] = [];
    let key: Value;
    if (item.keyIsIdent && item.key.kind === "traversal") key = stringVal(item.key.traversal.root);
    else key = evalExpr(item.key, ctx, keyDiags);
    diags.push(...keyDiags);
    const val = evalExpr(item.value, ctx, diags);
    if (hasErrors(keyDiags)) {
      known = false;
      continue;
    }
    if (key.isNull()) {
      diags.push(errorDiag("Null value as key", "Can't use a null value as a key.", item.value.range));
      known = false;
      continue;
    }
    for (const m of key.marks) marks.add(m);
    let k: Value;
    try {
      k = convert(key.unmark(), stringType);
    } catch (err) {
      diags.push(errorDiag("Incorrect key type", `Can't use this value as a key: ${convErr(err)}.`, item.key.range));
      known = false;
      continue;
    }
    if (!k.isKnown()) {
      known = false;
      continue;
    }
    vals.set(k.asString(), val);
  }
  if (!known) return dynamicVal;
  return withMarks(objectVal(vals), marks);
}

/** Iteration of a collection in cty's order: [key, value] pairs. @internal */
export function iterate(coll: Value): [Value, Value][] {
  const t = coll.type;
  switch (t.kind) {
    case "list":
    case "tuple":
      return coll.elements().map((v, i) => [numberValOf(i), v]);
    case "set":
      return coll.elements().map((v) => [v, v]);
    case "map":
      return [...coll.entries()].map(([k, v]) => [stringVal(k), v]);
    case "object": {
      const attrs = coll.attributes();
      return [...t.attributeNames].sort().map((n) => [stringVal(n), attrs[n]!]);
    }
    default:
      return [];
  }
}

function numberValOf(i: number): Value {
  return numberVal(i);
}

function canIterate(t: Type): boolean {
  return t.kind === "list" || t.kind === "tuple" || t.kind === "set" || t.kind === "map" || t.kind === "object";
}

function evalFor(e: Expression & { kind: "for" }, ctx: Ctx, diags: Diagnostic[]): Value {
  const collDiags: Diagnostic[] = [];
  const collMarked = evalExpr(e.coll, ctx, collDiags);
  diags.push(...collDiags);
  if (hasErrors(collDiags)) return dynamicVal;
  if (collMarked.isNull()) {
    diags.push(errorDiag("Iteration over null value", "A null value cannot be used as the collection in a 'for' expression.", e.coll.range, e.range));
    return dynamicVal;
  }
  if (collMarked.type.kind === "dynamic") return dynamicVal;
  if (!canIterate(collMarked.type)) {
    diags.push(
      errorDiag("Iteration over non-iterable value", `A value of type ${typeName(collMarked.type)} cannot be used as the collection in a 'for' expression.`, e.coll.range, e.range),
    );
    return dynamicVal;
  }
  const marks = new Set<string>(collMarked.marks);
  const coll = collMarked.unmark();
  if (e.cond !== undefined) {
    const vars = new Map<string, Value>();
    if (e.keyVar !== undefined) vars.set(e.keyVar, dynamicVal);
    vars.set(e.valueVar, dynamicVal);
    const condDiags: Diagnostic[] = [];
    const r = evalExpr(e.cond, child(ctx, vars), condDiags);
    diags.push(...condDiags);
    if (r.isNull()) {
      diags.push(errorDiag("Condition is null", "The value of the 'if' clause must not be null.", e.cond.range, e.range));
      return dynamicVal;
    }
    try {
      convert(r, boolType);
    } catch (err) {
      diags.push(errorDiag("Invalid 'for' condition", `The 'if' clause value is invalid: ${convErr(err)}.`, e.cond.range, e.range));
      return dynamicVal;
    }
    if (hasErrors(condDiags)) return dynamicVal;
    for (const m of r.marks) marks.add(m);
  }
  if (!coll.isKnown()) return withMarks(dynamicVal, marks);
  let known = true;
  const tupleVals: Value[] = [];
  const objVals = new Map<string, Value>();
  const groups = new Map<string, Value[]>();
  for (const [k, v] of iterate(coll)) {
    const vars = new Map<string, Value>();
    if (e.keyVar !== undefined) vars.set(e.keyVar, k);
    vars.set(e.valueVar, v);
    const c = child(ctx, vars);
    if (e.cond !== undefined) {
      const condDiags: Diagnostic[] = [];
      const raw = evalExpr(e.cond, c, condDiags);
      diags.push(...condDiags);
      if (raw.isNull()) {
        if (known) diags.push(errorDiag("Invalid 'for' condition", "The value of the 'if' clause must not be null.", e.cond.range, e.range));
        known = false;
        continue;
      }
      let inc: Value;
      try {
        inc = convert(raw, boolType);
      } catch (err) {
        if (known) diags.push(errorDiag("Invalid 'for' condition", `The 'if' clause value is invalid: ${convErr(err)}.`, e.cond.range, e.range));
        known = false;
        continue;
      }
      if (!inc.isKnown()) {
        known = false;
        continue;
      }
      for (const m of inc.marks) marks.add(m);
      if (!inc.unmark().asBool()) continue;
    }
    if (e.keyExpr === undefined) {
      tupleVals.push(evalExpr(e.valueExpr, c, diags));
      continue;
    }
    const keyRaw = evalExpr(e.keyExpr, c, diags);
    if (keyRaw.isNull()) {
      if (known) diags.push(errorDiag("Invalid object key", "Key expression in 'for' expression must not produce a null value.", e.keyExpr.range, e.range));
      known = false;
      continue;
    }
    if (!keyRaw.isKnown()) {
      known = false;
      continue;
    }
    let key: Value;
    try {
      key = convert(keyRaw, stringType);
    } catch (err) {
      if (known) diags.push(errorDiag("Invalid object key", `The key expression produced an invalid result: ${convErr(err)}.`, e.keyExpr.range, e.range));
      known = false;
      continue;
    }
    for (const m of key.marks) marks.add(m);
    const ks = key.unmark().asString();
    const val = evalExpr(e.valueExpr, c, diags);
    if (e.group) {
      const g = groups.get(ks);
      if (g === undefined) groups.set(ks, [val]);
      else g.push(val);
    } else if (objVals.has(ks)) {
      diags.push(
        errorDiag(
          "Duplicate object key",
          `Two different items produced the key "${ks}" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`,
          e.keyExpr.range,
          e.range,
        ),
      );
    } else {
      objVals.set(ks, val);
    }
  }
  if (!known) return withMarks(dynamicVal, marks);
  if (e.keyExpr === undefined) return withMarks(tupleVal(tupleVals), marks);
  if (e.group) for (const [k, g] of groups) objVals.set(k, tupleVal(g));
  return withMarks(objectVal(objVals), marks);
}

// ----- templates --------------------------------------------------------------------

function evalTemplateParts(parts: readonly TemplatePart[], range: SourceRange, ctx: Ctx, diags: Diagnostic[]): Value {
  let buf = "";
  let known = true;
  const marks = new Set<string>();
  const local: Diagnostic[] = [];
  for (const part of parts) {
    let v: Value;
    let partRange: SourceRange;
    switch (part.kind) {
      case "lit":
        if (known && !hasErrors(local)) buf += part.value;
        continue;
      case "interp":
        v = evalExpr(part.expr, ctx, local);
        partRange = part.expr.range;
        break;
      case "if": {
        const thenE: Expression = { kind: "template", parts: part.then, range: part.range };
        const elseE: Expression = { kind: "template", parts: part.else, range: part.range };
        v = evalConditional(part.cond, thenE, elseE, part.range, ctx, local);
        partRange = part.range;
        break;
      }
      case "for":
        v = evalTemplateFor(part, ctx, local);
        partRange = part.range;
        break;
    }
    if (v.isNull()) {
      local.push(errorDiag("Invalid template interpolation value", "The expression result is null. Cannot include a null value in a string template.", partRange, range));
      continue;
    }
    for (const m of v.marks) marks.add(m);
    const plain = v.unmark();
    if (!plain.isKnown()) {
      known = false;
      continue;
    }
    let s: Value;
    try {
      s = convert(plain, stringType);
    } catch (err) {
      local.push(errorDiag("Invalid template interpolation value", `Cannot include the given value in a string template: ${convErr(err)}.`, partRange, range));
      continue;
    }
    if (known && !hasErrors(local)) buf += s.unmark().asString();
  }
  diags.push(...local);
  let ret: Value;
  if (!known) {
    let refine: Refinements = { notNull: true };
    if (!hasErrors(local) && buf !== "") {
      // Keep at most 128 bytes (HCL's threshold), then go-cty's safe known prefix: without a
      // last grapheme cluster that might combine with what follows ("ts-" stays "ts-").
      let head = "";
      let bytes = 0;
      for (const cp of buf) {
        const l = UTF8.encode(cp).length;
        if (bytes + l > 128) break;
        bytes += l;
        head += cp;
      }
      const prefix = safeKnownPrefix(head);
      if (prefix !== "") refine = { notNull: true, stringPrefix: prefix };
    }
    ret = unknownVal(stringType, refine);
  } else {
    ret = stringVal(buf);
  }
  return withMarks(ret, marks);
}

function evalTemplateFor(part: TemplatePart & { kind: "for" }, ctx: Ctx, diags: Diagnostic[]): Value {
  const forE: Expression = {
    kind: "for",
    keyVar: part.keyVar,
    valueVar: part.valueVar,
    coll: part.coll,
    keyExpr: undefined,
    valueExpr: { kind: "template", parts: part.body, range: part.range },
    cond: undefined,
    group: false,
    range: part.range,
    openRange: part.range,
  };
  const tuple = evalExpr(forE, ctx, diags);
  if (!tuple.isKnown()) return withMarks(unknownVal(stringType, { notNull: true }), tuple.marks);
  const marks = new Set<string>(tuple.marks);
  const plain = tuple.unmark();
  if (plain.isNull() || plain.type.kind !== "tuple") return withMarks(unknownVal(stringType, { notNull: true }), marks);
  let buf = "";
  for (const el of plain.elements()) {
    if (el.isNull()) {
      diags.push(errorDiag("Invalid template interpolation value", "An iteration result is null. Cannot include a null value in a string template.", part.range));
      continue;
    }
    if (el.type.kind === "dynamic") return withMarks(unknownVal(stringType, { notNull: true }), marks);
    let s: Value;
    try {
      s = convert(el, stringType);
    } catch (err) {
      diags.push(errorDiag("Invalid template interpolation value", `Cannot include one of the interpolation results into the string template: ${convErr(err)}.`, part.range));
      continue;
    }
    if (!el.isKnown()) return withMarks(unknownVal(stringType), marks);
    for (const m of s.marks) marks.add(m);
    buf += s.unmark().asString();
  }
  return withMarks(stringVal(buf), marks);
}

// ----- function calls ---------------------------------------------------------------

/**
 * HCL's `Expression.StartRange`, the subject of a diagnostic about an expression as a whole
 * (a function argument, a failed call): a call's name and opening parenthesis, a
 * collection constructor's (or `for` expression's) opening bracket, else the whole range.
 */
/**
 * HCL's `StartRange` of an expression: where a diagnostic about it as a function argument
 * points (a call's name and open parenthesis, a collection's opening bracket, a quoted
 * template's first part). @internal
 */
export function startRange(e: Expression): SourceRange {
  if (e.kind === "call") return rangeBetween(e.nameRange, e.openParenRange);
  if (e.kind === "template") {
    const first = e.parts[0];
    if (first?.kind === "lit") return first.range;
    if (first?.kind === "interp") return startRange(first.expr);
  }
  if (e.kind === "tuple" || e.kind === "object" || e.kind === "for") {
    const s = e.range.start;
    return { filename: e.range.filename, start: s, end: { line: s.line, column: s.column + 1, byte: s.byte + 1 } };
  }
  return e.range;
}

/** The evaluator's template functions (HCL templates rendered with a separate set of variables). */
const TEMPLATE_FUNCTIONS: ReadonlySet<string> = new Set(["templatefile", "templatestring"]);

/** Terraform's filesystem functions, which a `templatestring` template may not call. */
const FILESYSTEM_FUNCTIONS: ReadonlySet<string> = new Set([
  "file",
  "fileexists",
  "fileset",
  "filebase64",
  "filebase64sha256",
  "filebase64sha512",
  "filemd5",
  "filesha1",
  "filesha256",
  "filesha512",
  "templatefile",
]);

/** What a call reached: set by `evalCallTo` once it has found the function. */
interface CalledFunction {
  /** The function was found (`fn` is undefined for the evaluator's own `try`, `can`, `templatefile` and `templatestring`). */
  known: boolean;
  fn?: HclFunction;
}

/**
 * A function call's value. The diagnostics about the call itself (not its arguments' own:
 * those have no context of the call's whole range) carry the call's name and the function's
 * signature, as HCL's `FunctionCallDiagExtra` gives terraform them for a known function.
 */
function evalCall(e: Expression & { kind: "call" }, ctx: Ctx, diags: Diagnostic[]): Value {
  const before = diags.length;
  const called: CalledFunction = { known: false };
  const v = evalCallTo(e, ctx, diags, called);
  if (!called.known) return v;
  let functionCall: FunctionCallInfo | undefined;
  for (let i = before; i < diags.length; i++) {
    const d = diags[i]!;
    if (d.functionCall !== undefined || !sameRange(d.context ?? d.subject, e.range)) continue;
    if (functionCall === undefined) {
      const signature = callSignature(e.name, called.fn);
      functionCall = { calledAs: e.name, ...(signature !== undefined ? { signature } : {}) };
    }
    const tagged = { ...d, functionCall };
    if (claimed.has(d)) claimed.add(tagged);
    diags[i] = tagged;
  }
  return v;
}

function sameRange(a: SourceRange | undefined, b: SourceRange): boolean {
  return a !== undefined && a.filename === b.filename && a.start.byte === b.start.byte && a.end.byte === b.end.byte;
}

function evalCallTo(e: Expression & { kind: "call" }, ctx: Ctx, diags: Diagnostic[], called: CalledFunction): Value {
  const scope = ctx.scope;
  if (scope?.functions === undefined && scope?.providerFunction === undefined) {
    diags.push(errorDiag("Function calls not allowed", "Functions may not be called here.", e.range));
    return dynamicVal;
  }
  let name = e.name;
  if (name.startsWith("core::")) name = name.slice("core::".length);
  let fn: HclFunction | undefined;
  if (name.startsWith("provider::")) {
    const parts = name.split("::");
    if (parts.length === 3 && scope.providerFunction !== undefined) fn = scope.providerFunction(parts[1]!, parts[2]!);
    if (fn !== undefined) {
      called.known = true;
      called.fn = fn;
    }
  } else if (scope.functions !== undefined) {
    const exists = scope.functions.has(name) || name === "templatestring" || (name === "templatefile" && scope.baseDir !== undefined) || name === "try" || name === "can";
    if (exists) {
      called.known = true;
      const own = scope.functions.get(name);
      if (own !== undefined) called.fn = own;
    }
    if (name === "try") return evalTry(e, ctx, diags);
    if (name === "can") return evalCan(e, ctx, diags);
    const inTemplate = ctx.templateFunction;
    if (inTemplate !== undefined && exists) {
      // Terraform replaces these functions inside a template function's template with
      // stubs whose return type fails (after their arguments are evaluated).
      const refused = TEMPLATE_FUNCTIONS.has(name)
        ? `cannot recursively call ${name} from inside another template function`
        : inTemplate === "templatestring" && FILESYSTEM_FUNCTIONS.has(name)
          ? `cannot use filesystem access functions like ${name} in templatestring templates; consider passing the function result as a template variable instead`
          : undefined;
      if (refused !== undefined) {
        const local: Diagnostic[] = [];
        for (const a of e.args) evalExpr(a, ctx, local);
        diags.push(...local);
        if (!hasErrors(local)) diags.push(errorDiag("Error in function call", `Call to function "${e.name}" failed: ${refused}.`, startRange(e), e.range));
        return dynamicVal;
      }
    }
    if (name === "templatefile" && !scope.functions.has("templatefile") && scope.baseDir !== undefined) return templateFile(e, ctx, diags, scope.baseDir);
    if (name === "templatestring" && !scope.functions.has("templatestring")) return templateString(e, ctx, diags);
    fn = scope.functions.get(name);
  }
  if (fn === undefined && name.includes("::")) {
    diags.push(errorDiag("Unknown provider function", unknownProviderFunctionDetail(name, scope), e.nameRange, e.range));
    return dynamicVal;
  }
  if (fn === undefined) {
    const known = scope.functions === undefined ? [] : [...scope.functions.keys(), "try", "can", "templatestring", ...(scope.baseDir !== undefined ? ["templatefile"] : [])];
    const suggestion = name.includes("::") ? undefined : nameSuggestion(name, known);
    // HCL's diagnostic carries the call and its context: Terraform lists the arguments' references' values.
    const before = diags.length;
    diags.push(errorDiag("Call to unknown function", `There is no function named "${e.name}".${suggestion === undefined ? "" : ` Did you mean "${suggestion}"?`}`, e.nameRange, e.range));
    claimValues(e, ctx, diags, before);
    return dynamicVal;
  }
  const local: Diagnostic[] = [];
  let args: Value[] = [];
  const argRanges: SourceRange[] = [];
  const argExprs: Expression[] = [...e.args];
  for (const a of e.args) {
    args.push(evalExpr(a, ctx, local));
    argRanges.push(startRange(a));
  }
  diags.push(...local);
  if (e.expandFinal && args.length > 0) {
    const last = args[args.length - 1]!;
    const lastRange = argRanges[argRanges.length - 1]!;
    if (last.isNull()) {
      diags.push(errorDiag("Invalid expanding argument value", "Can't expand a null value.", lastRange, e.range));
      return dynamicVal;
    }
    const k = last.type.kind;
    if (k !== "list" && k !== "set" && k !== "tuple") {
      if (k === "dynamic") return dynamicVal;
      diags.push(errorDiag("Invalid expanding argument value", "The expanding argument (indicated by ...) must be of a tuple, list, or set type.", lastRange, e.range));
      return dynamicVal;
    }
    if (!last.isKnown()) return dynamicVal;
    const lm = last.marks;
    const expanded = last.unmark().elements().map((v) => withMarks(v, lm));
    args = [...args.slice(0, -1), ...expanded];
    while (argRanges.length < args.length) argRanges.push(lastRange);
    while (argExprs.length < args.length) argExprs.push(argExprs[argExprs.length - 1]!);
  }
  const params = fn.params;
  if (args.length < params.length) {
    const missing = params[args.length]!;
    diags.push(
      errorDiag(
        "Not enough function arguments",
        `Function "${e.name}" expects ${params.length} argument(s). Missing value for "${missing.name}".`,
        e.closeParenRange,
        e.range,
      ),
    );
    return dynamicVal;
  }
  if (fn.varParam === undefined && args.length > params.length) {
    diags.push(errorDiag("Too many function arguments", `Function "${e.name}" expects only ${params.length} argument(s).`, argRanges[params.length]!, e.range));
    return dynamicVal;
  }
  if (hasErrors(local)) return dynamicVal;
  const converted: Value[] = [];
  for (let i = 0; i < args.length; i++) {
    const p = params[i] ?? fn.varParam!;
    let v = args[i]!;
    if (p.type.kind !== "dynamic") {
      try {
        v = convert(v, p.type);
      } catch (err) {
        const before = diags.length;
        diags.push(errorDiag("Invalid function argument", `Invalid value for "${p.name}" parameter: ${convErr(err)}.`, argRanges[i]!, e.range));
        claimValues(argExprs[i] ?? e, ctx, diags, before);
        return failedCallValue(args);
      }
    }
    converted.push(v);
  }
  try {
    return callFunction(fn, converted);
  } catch (err) {
    const before = diags.length;
    if (isFunctionArgError(err)) {
      const i = err.argIndex;
      const p = params[i] ?? fn.varParam;
      diags.push(
        errorDiag(
          "Invalid function argument",
          `Invalid value for "${p?.name ?? "?"}" parameter: ${err.message}.`,
          argRanges[i] ?? e.range,
          e.range,
        ),
      );
    } else {
      const msg = isFunctionError(err) || err instanceof Error ? err.message : String(err);
      diags.push(errorDiag("Error in function call", `Call to function "${e.name}" failed: ${msg}.`, startRange(e), e.range));
    }
    claimValues(isFunctionArgError(err) ? (argExprs[err.argIndex] ?? e) : e, ctx, diags, before);
    return failedCallValue(converted);
  }
}

/**
 * The value of a call that failed: unknown, with every mark of its arguments. Terraform
 * validates a configuration with unknown input variables before it plans, where such a call
 * gives an unknown value with its arguments' marks; keeping the marks here lets a caller
 * report "Output refers to sensitive values" before the call's own error, as terraform does.
 */
function failedCallValue(args: readonly Value[]): Value {
  const marks = new Set<string>();
  for (const a of args) {
    if (!a.containsMarked()) continue;
    for (const p of a.unmarkDeep().paths) for (const m of p.marks) marks.add(m);
  }
  return marks.size === 0 ? dynamicVal : dynamicVal.mark(...marks);
}

/** Terraform's detail of an "Unknown provider function" diagnostic (`checkForUnknownFunctionDiags`). */
function unknownProviderFunctionDetail(name: string, scope: EvalScope): string {
  const parts = name.split("::");
  const fnName = parts[parts.length - 1]!;
  const namespace = `${parts.slice(0, -1).join("::")}::`;
  if (parts[0] !== "provider") return `The function namespace ${JSON.stringify(parts[0])} is not valid. Provider function calls must use the "provider::" namespace prefix.`;
  const provider = parts[1] ?? "";
  if (provider === "") return `The function call must include the provider name after the "provider::" prefix.`;
  if (parts.length === 3 && scope.hasProviderFunctions?.(provider) === true) return `The function ${JSON.stringify(fnName)} is not available from the provider ${JSON.stringify(provider)}.`;
  return `There is no function named "${namespace}${fnName}". Ensure that provider name ${JSON.stringify(provider)} is declared in this module's required_providers block, and that this provider offers a function named ${JSON.stringify(fnName)}.`;
}

function evalTry(e: Expression & { kind: "call" }, ctx: Ctx, diags: Diagnostic[]): Value {
  if (e.args.length === 0) {
    diags.push(errorDiag("Error in function call", `Call to function "${e.name}" failed: at least one argument is required.`, startRange(e), e.range));
    return dynamicVal;
  }
  const failures: Diagnostic[] = [];
  for (const a of e.args) {
    // HCL's try (v2.23, terraform 1.11): an argument that fails is skipped — a more refined
    // value would not remove its error — and one that succeeds with unknowns anywhere in its
    // value cannot be decided yet (it may fail once known), so the result is unknown.
    const local: Diagnostic[] = [];
    const v = evalExpr(a, ctx, local);
    if (hasErrors(local)) {
      failures.push(...local);
      continue;
    }
    if (!v.isWhollyKnown()) return dynamicVal;
    return v;
  }
  let buf = "no expression succeeded:\n";
  for (const d of failures) {
    if (d.subject !== undefined) buf += `- ${d.summary} (at ${formatRange(d.subject)})\n  ${d.detail}\n`;
    else buf += `- ${d.summary}\n  ${d.detail}\n`;
  }
  buf += "\nAt least one expression must produce a successful result";
  diags.push(errorDiag("Error in function call", `Call to function "${e.name}" failed: ${buf}.`, startRange(e), e.range));
  return dynamicVal;
}

function evalCan(e: Expression & { kind: "call" }, ctx: Ctx, diags: Diagnostic[]): Value {
  if (e.args.length !== 1) {
    diags.push(
      e.args.length === 0
        ? errorDiag("Not enough function arguments", `Function "${e.name}" expects 1 argument(s). Missing value for "expression".`, e.closeParenRange, e.range)
        : errorDiag("Too many function arguments", `Function "${e.name}" expects only 1 argument(s).`, startRange(e.args[1]!), e.range),
    );
    return dynamicVal;
  }
  // HCL's can (v2.23): false on an error; unknown while the value holds unknowns (an index may yet fail).
  const local: Diagnostic[] = [];
  const v = evalExpr(e.args[0]!, ctx, local);
  if (hasErrors(local)) return boolVal(false);
  return v.isWhollyKnown() ? boolVal(true) : unknownVal(boolType, { notNull: true });
}

function variableNames(ctx: Ctx): string[] {
  const names: string[] = [];
  for (let c: Ctx | undefined = ctx; c !== undefined; c = c.parent) if (c.vars !== undefined) names.push(...c.vars.keys());
  const vars = ctx.scope?.variables;
  if (vars instanceof Map) names.push(...(vars as ReadonlyMap<string, Value>).keys());
  else if (vars !== undefined) names.push(...Object.keys(vars));
  return names;
}
