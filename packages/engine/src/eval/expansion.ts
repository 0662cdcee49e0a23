import { hasEphemeral } from "../ephemeral/ephemeral-mark.js";
import { Mark, numberType, convert, isPathError, typeName, type Value } from "@magma/cty";
import { evaluate, type Diagnostic, type EvalScope, type Expression } from "@magma/hcl";

/**
 * How a resource, data source or module call repeats: once (no `count` or `for_each`),
 * `count` times (keys `0..count-1`) or once per `for_each` key (with `each.value`).
 */
export type Expansion =
  | { readonly kind: "single" }
  | { readonly kind: "count"; readonly count: number }
  | { readonly kind: "for_each"; readonly entries: ReadonlyMap<string, Value> };

/** One expanded instance: its key (`undefined`, a number or a string) and its `each.value`. */
export interface ExpandedInstance {
  readonly key: number | string | undefined;
  /** `each.value` (for `for_each` only). */
  readonly eachValue?: Value;
}

/** The instances of an expansion, in key order (count ascending; for_each in key order). */
export function expansionInstances(e: Expansion): ExpandedInstance[] {
  switch (e.kind) {
    case "single":
      return [{ key: undefined }];
    case "count":
      return Array.from({ length: e.count }, (_, i) => ({ key: i }));
    case "for_each":
      return [...e.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, eachValue]) => ({ key, eachValue }));
  }
}

function err(summary: string, detail: string, expr: Expression): Diagnostic {
  return { severity: "error", summary, detail, subject: expr.range };
}

/**
 * Evaluates the `count` and `for_each` meta-arguments as Terraform does at plan: the value
 * must be known (Terraform's "Invalid count argument" / "Invalid for_each argument" when it
 * depends on values known only after apply), not null, not sensitive (for_each), a
 * whole non-negative number for `count`, a map/object or a set of strings for `for_each`.
 */
export function evaluateExpansion(count: Expression | undefined, forEach: Expression | undefined, scope: EvalScope, options: { readonly allowEphemeral?: boolean } = {}): { expansion: Expansion; diags: Diagnostic[] } {
  const allowEphemeral = options.allowEphemeral ?? false;
  if (count !== undefined) return evaluateCount(count, scope, allowEphemeral);
  if (forEach !== undefined) return evaluateForEach(forEach, scope, allowEphemeral);
  return { expansion: { kind: "single" }, diags: [] };
}

const NONE: Expansion = { kind: "for_each", entries: new Map() };

/** The largest `count` magma plans: a JavaScript array's length limit. */
const MAX_COUNT = 2 ** 32 - 1;

function evaluateCount(expr: Expression, scope: EvalScope, allowEphemeral: boolean): { expansion: Expansion; diags: Diagnostic[] } {
  const r = evaluate(expr, scope);
  const diags = [...r.diags];
  const fail = (detail: string): { expansion: Expansion; diags: Diagnostic[] } => ({ expansion: { kind: "count", count: 0 }, diags: [...diags, err("Invalid count argument", detail, expr)] });
  if (diags.some((d) => d.severity === "error")) return { expansion: { kind: "count", count: 0 }, diags };
  if (!allowEphemeral && hasEphemeral(r.value)) {
    return fail('The given "count" is derived from an ephemeral value, which means that Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify the number of resource instances.');
  }
  let v = r.value.unmarkDeep().value;
  if (!v.isKnown()) {
    return fail(
      'The "count" value depends on resource attributes that cannot be determined until apply, so Terraform cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.',
    );
  }
  if (v.isNull()) return fail('The given "count" argument value is null. An integer is required.');
  try {
    v = convert(v, numberType);
  } catch (e) {
    if (!isPathError(e)) throw e;
    return fail(`The given "count" argument value is unsuitable: ${e.message}.`);
  }
  const n = v.asNumber();
  if (!n.isInteger()) return fail("The given \"count\" argument value is unsuitable: value must be a whole number.");
  // As terraform (gocty into a Go int): a count beyond int64 is unsuitable. Terraform runs out
  // of memory on counts in the billions; magma refuses what a JavaScript array cannot hold.
  const big = n.toBigInt();
  if (big < -(2n ** 63n) || big > 2n ** 63n - 1n) {
    return fail('The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.');
  }
  if (big > BigInt(MAX_COUNT)) return fail(`The given "count" argument value is unsuitable: magma plans at most ${MAX_COUNT} instances of one resource.`);
  const count = Number(big);
  if (count < 0) return fail('The given "count" argument value is unsuitable: must be greater than or equal to zero.');
  return { expansion: { kind: "count", count }, diags };
}

function evaluateForEach(expr: Expression, scope: EvalScope, allowEphemeral: boolean): { expansion: Expansion; diags: Diagnostic[] } {
  const r = evaluate(expr, scope);
  const diags = [...r.diags];
  const fail = (detail: string, summary = "Invalid for_each argument"): { expansion: Expansion; diags: Diagnostic[] } => ({ expansion: NONE, diags: [...diags, err(summary, detail, expr)] });
  if (diags.some((d) => d.severity === "error")) return { expansion: NONE, diags };
  const raw = r.value;
  if (!allowEphemeral && hasEphemeral(raw)) {
    return fail('The given "for_each" is derived from an ephemeral value, which means that Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify a resource\'s instance keys.');
  }
  if (raw.isMarked(Mark.Sensitive)) {
    return fail("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.");
  }
  const v = raw.unmarkDeep().value;
  const ty = v.type;
  const isMapLike = ty.kind === "map" || ty.kind === "object";
  const isSet = ty.kind === "set";
  if (!isMapLike && !isSet && ty.kind !== "dynamic") {
    return fail(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${typeName(ty)}.`);
  }
  if (v.isNull()) return fail('The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.');
  if (!v.isKnown()) {
    const detail = isSet
      ? 'The "for_each" set includes values derived from resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it\'s better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.'
      : 'The "for_each" map includes keys derived from resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it\'s better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.';
    return fail(detail);
  }
  const entries = new Map<string, Value>();
  if (isMapLike) {
    const source = ty.kind === "object" ? Object.entries(v.attributes()) : [...v.entries()];
    for (const [k, e] of source) entries.set(k, e);
    return { expansion: { kind: "for_each", entries }, diags };
  }
  const et = ty.kind === "set" ? ty.element : ty;
  if (et.kind !== "string" && et.kind !== "dynamic") {
    return fail(`The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${typeName(et)}.`);
  }
  for (const e of v.elements()) {
    if (!e.isKnown()) return fail('The "for_each" set includes values derived from resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.');
    if (e.isNull()) return fail('The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.', "Invalid for_each set argument");
    entries.set(e.asString(), e);
  }
  return { expansion: { kind: "for_each", entries }, diags };
}
