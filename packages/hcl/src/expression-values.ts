import { typeName, type Value } from "@magma/cty";
import type { Expression, Traversal, TraversalStep } from "./ast.js";
import type { ExpressionValue } from "./diagnostic.js";
import { expressionTraversals } from "./variables.js";

/**
 * Applies traversal steps to a value; undefined when a step fails (the `apply` callback
 * reports a failure by returning undefined).
 */
export type StepApplier = (v: Value, step: TraversalStep) => Value | undefined;

/**
 * The values of the references in `expr` as Terraform describes them under a diagnostic
 * (its JSON view's `snippet.values`): for each reference, the longest prefix with at least
 * one step that evaluates without error (`var.m["missing"]` shows `var.m`); each reference
 * once, sorted by its text. A sensitive value, or an unknown one of no particular type, is
 * left out (Terraform mentions them only for diagnostics caused by them); an unknown
 * value of a known type "is a TYPE"; any other "is " and a compact description
 * ({@link compactValue}). `lookup` gives a root name's value (undefined when there is none).
 */
export function expressionValues(expr: Expression, lookup: (root: string) => Value | undefined, apply: StepApplier): ExpressionValue[] {
  const out: ExpressionValue[] = [];
  const seen = new Set<string>();
  for (const t of expressionTraversals(expr)) {
    for (let n = t.steps.length; n >= 1; n--) {
      const v = traverse(t, n, lookup, apply);
      if (v === undefined) continue;
      const text = traversalText(t, n);
      if (seen.has(text)) break;
      const statement = describe(v);
      if (statement !== undefined) {
        out.push({ traversal: text, statement });
        seen.add(text);
      }
      break;
    }
  }
  return out.sort((a, b) => (a.traversal < b.traversal ? -1 : a.traversal > b.traversal ? 1 : 0));
}

function traverse(t: Traversal, steps: number, lookup: (root: string) => Value | undefined, apply: StepApplier): Value | undefined {
  let v = lookup(t.root);
  for (let i = 0; i < steps && v !== undefined; i++) v = apply(v, t.steps[i]!);
  return v;
}

function describe(v: Value): string | undefined {
  if (v.marks.size > 0) {
    // Terraform shows a sensitive value only for diagnostics caused by one, and skips other marks.
    return undefined;
  }
  if (!v.isKnown()) return v.type.kind === "dynamic" ? undefined : `is a ${typeName(v.type)}`;
  return `is ${compactValue(v)}`;
}

/** The traversal's root and first `steps` steps as Terraform writes them in diagnostics (`var.m`, `x[0]`, `y["k"]`). */
function traversalText(t: Traversal, steps: number): string {
  let s = t.root;
  for (const step of t.steps.slice(0, steps)) {
    if (step.kind === "attr") s += `.${step.name}`;
    else {
      const k = step.key.type.kind;
      s += `[${k === "string" || k === "number" || k === "bool" ? compactValue(step.key) : "..."}]`;
    }
  }
  return s;
}

/**
 * A value described in a few words, as Terraform's diagnostics do: a primitive in full
 * (strings quoted), a collection or tuple by its length (`empty map of string`,
 * `list of string with 2 elements`), an object by its attributes (`object with 1 attribute
 * "a"`), `null`.
 */
export function compactValue(v: Value): string {
  const u = v.unmark();
  const ty = u.type;
  if (u.isNull()) return "null";
  if (!u.isKnown()) return "(not yet known)";
  switch (ty.kind) {
    case "bool":
      return u.asBool() ? "true" : "false";
    case "number":
      return numberText(u.asNumber().toString());
    case "string":
      return JSON.stringify(u.asString());
    case "list":
    case "set":
    case "map":
    case "tuple": {
      const n = ty.kind === "map" ? u.entries().size : u.elements().length;
      const name = typeName(ty);
      return n === 0 ? `empty ${name}` : n === 1 ? `${name} with 1 element` : `${name} with ${n} elements`;
    }
    case "object": {
      const names = Object.keys(ty.attributes);
      return names.length === 0 ? "object with no attributes" : names.length === 1 ? `object with 1 attribute ${JSON.stringify(names[0])}` : `object with ${names.length} attributes`;
    }
    default:
      return typeName(ty);
  }
}

/** A number as Go's `big.Float.Text('g', 10)`: ten significant digits, an exponent from 1e10 or below 1e-4. */
function numberText(decimal: string): string {
  const n = Number(decimal);
  if (!Number.isFinite(n)) return n > 0 ? "+Inf" : "-Inf";
  if (n === 0) return "0";
  const [mant, expText] = n.toExponential(9).split("e");
  const exp = Number(expText);
  const digits = mant!.replace("-", "").replace(".", "").replace(/0+$/, "");
  const sign = n < 0 ? "-" : "";
  if (exp < -4 || exp >= 10) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const whole = digits.padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${whole.slice(0, exp + 1)}${frac === "" ? "" : `.${frac}`}`;
}
