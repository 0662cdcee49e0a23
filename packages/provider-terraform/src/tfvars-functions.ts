import { dynamicType, dynamicVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { evaluate, formatRange, parseNativeConfig, type Diagnostic } from "@magma/hcl";
import type { FunctionSignature, NativeFunctionResult, NativeFunctions } from "@magma/provider-api";
import { formatHclValue, formatTfvars, isHclIdentifier, sortedEntries } from "./hcl-value-writer.js";

/** The signatures of the built-in provider's functions, as Terraform 1.11 declares them. @internal */
export const terraformFunctionSignatures: ReadonlyMap<string, FunctionSignature> = new Map<string, FunctionSignature>([
  [
    "encode_tfvars",
    {
      summary: "Produce a string representation of an object using the same syntax as for `.tfvars` files",
      description:
        "A rarely-needed function which takes an object value and produces a string containing a description of that object using the same syntax as Terraform CLI would expect in a `.tfvars`.",
      parameters: [{ name: "value", type: dynamicType, allowUnknownValues: true }],
      returnType: stringType,
    },
  ],
  [
    "decode_tfvars",
    {
      summary: "Parse a string containing syntax like that used in a `.tfvars` file",
      description:
        "A rarely-needed function which takes a string containing the content of a `.tfvars` file and returns an object describing the raw variable values it defines.",
      parameters: [{ name: "src", type: stringType }],
      returnType: dynamicType,
    },
  ],
  [
    "encode_expr",
    {
      summary: "Produce a string representation of an arbitrary value using Terraform expression syntax",
      description:
        "A rarely-needed function which takes any value and produces a string containing Terraform language expression syntax approximating that value.",
      parameters: [{ name: "value", type: dynamicType, allowUnknownValues: true }],
      returnType: stringType,
    },
  ],
]);

/** HCL's `Diagnostics.Error()`: the first diagnostic as `range: summary; detail`, and how many others. */
function hclDiagsError(diags: readonly Diagnostic[]): string {
  const errors = diags.filter((d) => d.severity === "error");
  const one = (d: Diagnostic): string => `${d.subject === undefined ? "<nil>" : formatRange(d.subject)}: ${d.summary}; ${d.detail}`;
  if (errors.length === 1) return one(errors[0]!);
  return `${one(errors[0]!)}, and ${errors.length - 1} other diagnostic(s)`;
}

function encodeTfvars([v]: readonly Value[]): NativeFunctionResult {
  if (v!.isNull()) return { error: "cannot encode a null value in tfvars syntax" };
  if (!v!.isWhollyKnown()) return { result: unknownVal(stringType, { notNull: true }) };
  const k = v!.type.kind;
  if (k !== "object" && k !== "map") return { error: "invalid value to encode: must be an object whose attribute names will become the encoded variable names" };
  const entries = sortedEntries(v!);
  for (const [key] of entries) {
    if (!isHclIdentifier(key)) return { error: `invalid variable name ${JSON.stringify(key)}: must be a valid identifier, per Terraform's rules for input variable declarations` };
  }
  return { result: stringVal(formatTfvars(entries)) };
}

function decodeTfvars([src]: readonly Value[]): NativeFunctionResult {
  if (!src!.isKnown()) return { result: dynamicVal };
  const { body, diags } = parseNativeConfig(src!.asString(), "<decode_tfvars argument>");
  if (diags.some((d) => d.severity === "error")) return { error: `invalid tfvars syntax: ${hclDiagsError(diags)}` };
  const attrs = body.justAttributes();
  if (attrs.diags.some((d) => d.severity === "error")) return { error: `invalid tfvars content: ${hclDiagsError(attrs.diags)}` };
  const out: Record<string, Value> = {};
  for (const [name, attr] of attrs.attributes) {
    const r = evaluate(attr.expr);
    if (r.diags.some((d) => d.severity === "error")) return { error: `invalid expression for variable ${JSON.stringify(name)}: ${hclDiagsError(r.diags)}` };
    out[name] = r.value;
  }
  return { result: objectVal(out) };
}

function encodeExpr([v]: readonly Value[]): NativeFunctionResult {
  if (!v!.isWhollyKnown()) {
    const couldBeNull = v!.isKnown() ? v!.isNull() : v!.refinements.notNull !== true;
    if (couldBeNull) return { result: unknownVal(stringType, { notNull: true }) };
    const k = v!.type.kind;
    const prefix = k === "object" || k === "map" ? "{" : k === "tuple" || k === "list" || k === "set" ? "[" : k === "string" ? '"' : undefined;
    return { result: unknownVal(stringType, prefix === undefined ? { notNull: true } : { notNull: true, stringPrefix: prefix }) };
  }
  return { result: stringVal(formatHclValue(v!)) };
}

/** The implementations of the built-in provider's functions. @internal */
export const terraformFunctions: NativeFunctions = Object.freeze({
  encode_tfvars: encodeTfvars,
  decode_tfvars: decodeTfvars,
  encode_expr: encodeExpr,
});
