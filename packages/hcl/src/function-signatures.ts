import { boolType, dynamicType, stringType, unknownVal, type Type, type Value } from "@magma/cty";
import { functionReturnType } from "./call-function.js";
import type { CallSignature } from "./diagnostic.js";
import type { FunctionParameter, HclFunction } from "./function.js";

/** One parameter of a {@link FunctionSignature}. */
export interface SignatureParameter {
  /** The parameter's name. */
  readonly name: string;
  /** Whether null is an acceptable argument. */
  readonly isNullable: boolean;
  /** The type arguments are converted to (`dynamicType` accepts any). */
  readonly type: Type;
}

/**
 * What a function takes and returns, as `terraform metadata functions -json` describes it
 * (terraform's `jsonfunction.FunctionSignature`).
 */
export interface FunctionSignature {
  /** What the function does. */
  readonly description: string;
  /**
   * The result type when every argument is an unknown value of its parameter's type
   * (go-cty's `Function.ReturnType` over the parameter types): often `dynamicType`.
   */
  readonly returnType: Type;
  /** The positional parameters. */
  readonly params: readonly SignatureParameter[];
  /** The variadic parameter, if any. */
  readonly varParam?: SignatureParameter;
}

function parameter(p: FunctionParameter): SignatureParameter {
  return { name: p.name, isNullable: p.allowNull === true, type: p.type };
}

/** The signature of a library function, its return type computed as terraform's `getReturnType` does. */
function signatureOf(fn: HclFunction): FunctionSignature {
  const args: Value[] = fn.params.map((p) => unknownVal(p.type));
  if (fn.varParam !== undefined) args.push(unknownVal(fn.varParam.type));
  return {
    description: fn.description,
    returnType: functionReturnType(fn, args),
    params: fn.params.map(parameter),
    ...(fn.varParam !== undefined ? { varParam: parameter(fn.varParam) } : {}),
  };
}

/**
 * The functions the evaluator implements itself, because they take expressions or read
 * files relative to the module (terraform describes `try`, `can` and `templatestring` with
 * fixed signatures for the same reason).
 */
const EVALUATOR_FUNCTIONS: ReadonlyMap<string, FunctionSignature> = new Map<string, FunctionSignature>([
  ["can", { description: "Tries to evaluate the given expression and returns true if it succeeds, false if it produces any errors.", returnType: boolType, params: [{ name: "expression", isNullable: false, type: dynamicType }] }],
  [
    "templatefile",
    {
      description: "Reads the file at the given path and renders its content as a template, with the given object's attributes as the template's variables.",
      returnType: dynamicType,
      params: [
        { name: "path", isNullable: false, type: stringType },
        { name: "vars", isNullable: false, type: dynamicType },
      ],
    },
  ],
  [
    "templatestring",
    {
      description: "Renders the string that the given reference refers to as a template, with the given object's attributes as the template's variables.",
      returnType: stringType,
      params: [
        { name: "template", isNullable: false, type: stringType },
        { name: "vars", isNullable: false, type: dynamicType },
      ],
    },
  ],
  ["try", { description: "Evaluates the given expressions in turn and returns the value of the first that succeeds.", returnType: dynamicType, params: [], varParam: { name: "expressions", isNullable: false, type: dynamicType } }],
]);

/** Functions Terraform removed in 0.12 and keeps only to name their replacement. */
const REMOVED: ReadonlySet<string> = new Set(["list", "map"]);

/**
 * The signatures of Terraform's built-in functions, by name, each also under its `core::`
 * name, sorted by name: what `metadata functions -json` prints. `functions` is the library
 * (`terraformFunctions()`); functions kept only to say they were removed (`list`, `map`)
 * are left out, as terraform leaves them out.
 *
 * @throws {@link FunctionError} when a function's type check refuses its own parameter types
 * (a bug in that function).
 */
export function functionSignatures(functions: ReadonlyMap<string, HclFunction>): ReadonlyMap<string, FunctionSignature> {
  const byName = new Map<string, FunctionSignature>(EVALUATOR_FUNCTIONS);
  for (const [name, fn] of functions) {
    if (REMOVED.has(name)) continue;
    byName.set(name, signatureOf(fn));
  }
  const out = new Map<string, FunctionSignature>();
  const names = [...byName.keys()].flatMap((n) => [n, `core::${n}`]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) out.set(name, byName.get(name.startsWith("core::") ? name.slice("core::".length) : name)!);
  return out;
}

/**
 * The signatures the evaluator's own functions have in a diagnostic: those of the
 * functions Terraform calls, whose expression-typed parameters (capsule types) it describes
 * as `dynamic`, and a return type it cannot check with them as `dynamic`.
 */
const EVALUATOR_CALL_SIGNATURES: ReadonlyMap<string, CallSignature> = new Map<string, CallSignature>([
  ["can", { name: "can", params: [{ name: "expression", type: dynamicType }], returnType: boolType }],
  [
    "templatefile",
    {
      name: "templatefile",
      params: [
        { name: "path", type: stringType },
        { name: "vars", type: dynamicType },
      ],
      returnType: dynamicType,
    },
  ],
  [
    "templatestring",
    {
      name: "templatestring",
      params: [
        { name: "template", type: dynamicType },
        { name: "vars", type: dynamicType },
      ],
      returnType: dynamicType,
    },
  ],
  ["try", { name: "try", params: [], variadicParam: { name: "expressions", type: dynamicType }, returnType: dynamicType }],
]);

/**
 * The signature of the function a call named `calledAs` (`upper`, `core::upper`,
 * `provider::p::f`) reached, as Terraform describes it in a diagnostic (its
 * `DescribeFunction`): `fn`, or the evaluator's own `try`, `can`, `templatefile` or
 * `templatestring` when `fn` is undefined. The return type is the function's for unknown
 * arguments of its parameters' types, `dynamic` when that check fails. Undefined for a
 * function that is not known.
 */
export function callSignature(calledAs: string, fn: HclFunction | undefined): CallSignature | undefined {
  const sep = calledAs.lastIndexOf("::");
  const name = sep < 0 ? calledAs : calledAs.slice(sep + 2);
  if (fn === undefined) return EVALUATOR_CALL_SIGNATURES.get(name);
  const args: Value[] = fn.params.map((p) => unknownVal(p.type));
  if (fn.varParam !== undefined) args.push(unknownVal(fn.varParam.type));
  let returnType: Type;
  try {
    returnType = functionReturnType(fn, args);
  } catch {
    returnType = dynamicType;
  }
  return {
    name,
    params: fn.params.map((p) => ({ name: p.name, type: p.type })),
    ...(fn.varParam !== undefined ? { variadicParam: { name: fn.varParam.name, type: fn.varParam.type } } : {}),
    returnType,
  };
}
