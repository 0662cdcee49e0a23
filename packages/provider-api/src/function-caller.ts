import { unknownVal, type Value } from "@magma/cty";
import type { CallOptions } from "./provider.js";
import { functionCallError, unknownTypeError } from "./provider-error.js";
import type { FunctionParameter, FunctionSignature, ProviderSchema } from "./schema.js";
import { valueConformance } from "./value-conformance.js";

/** Options of {@link FunctionCaller.callFunction}. */
export type CallFunctionOptions = CallOptions;

/**
 * The optional capability of calling provider-defined functions (tfplugin's CallFunction,
 * protocol 5.5/6.5 and later), kept apart from the 8 operations of {@link Provider}: a
 * provider offers it or not, and {@link isFunctionCaller} tells which. The signatures are
 * the schema's `functions`.
 *
 * Rules every implementation follows (Terraform's, see {@link checkFunctionCall}):
 *
 * - **No `configure` needed.** Terraform calls functions on an unconfigured provider
 *   instance; so may anyone.
 * - **Names.** A name that is not in the schema's `functions` rejects with `unknown_type`
 *   (kind `function`).
 * - **Arguments** are positional cty values: one per parameter, then any number for the
 *   variadic parameter if there is one. Each must conform to its parameter's type
 *   (`dynamic` takes anything). Too few or too many arguments reject with `function_error`;
 *   a non-conforming argument, or a null where the parameter does not allow null, rejects
 *   with `function_error` carrying the argument's index, without calling the provider.
 * - **Unknowns.** When an argument is not wholly known and its parameter does not allow
 *   unknown values, the provider is not called: the result is an unknown of the return type.
 * - **Result** is a value of the signature's return type (for a `dynamic` return type, of
 *   whatever type the provider chose).
 * - **Failures of the function** reject with `function_error`: the provider's text, and the
 *   index of the offending argument when it named one. Failures of the call itself reject
 *   as the other operations do (`transport`, `plugin_exited`, `canceled`, …).
 */
export interface FunctionCaller {
  /**
   * Calls the provider-defined function `name` with positional arguments.
   *
   * @throws {@link ProviderError} `unknown_type` for a name the schema does not declare,
   * `function_error` for bad arguments or a failure reported by the function.
   */
  callFunction(name: string, args: readonly Value[], options?: CallFunctionOptions): Promise<Value>;
}

/** Whether `x` (a {@link Provider}, typically) offers {@link FunctionCaller.callFunction}, by shape. */
export function isFunctionCaller(x: unknown): x is FunctionCaller {
  return typeof x === "object" && x !== null && typeof (x as { callFunction?: unknown }).callFunction === "function";
}

/**
 * The signature of a provider-defined function in a schema.
 *
 * @throws {@link ProviderError} `unknown_type` (kind `function`) when the schema declares no such function.
 */
export function functionSignature(schema: ProviderSchema, name: string): FunctionSignature {
  const s = schema.functions?.get(name);
  if (s === undefined) throw unknownTypeError("function", name);
  return s;
}

/**
 * The parameter that argument `index` binds to: a positional parameter, else the variadic
 * one; `undefined` past the end of a non-variadic function.
 */
export function functionParameter(signature: FunctionSignature, index: number): FunctionParameter | undefined {
  return index < signature.parameters.length ? signature.parameters[index] : signature.variadicParameter;
}

/**
 * Checks the arguments of a call as Terraform does before it calls a provider function
 * (go-cty's function system and Terraform's provider function wrapper):
 *
 * - too few arguments, or too many for a function without a variadic parameter: a
 *   `function_error` without an argument index;
 * - an argument that does not conform to its parameter's type: `function_error` at that
 *   argument;
 * - a null argument where the parameter does not allow null: `function_error` at that
 *   argument, with go-cty's text `argument must not be null`;
 * - then, an argument that is not wholly known where the parameter does not allow unknown
 *   values: no call is to be made, and the result is an unknown of the return type.
 *
 * @returns `undefined` when the call is to be made, else the result to use instead (the unknown).
 * @throws {@link ProviderError} `function_error` as above.
 */
export function checkFunctionCall(name: string, signature: FunctionSignature, args: readonly Value[]): Value | undefined {
  const n = signature.parameters.length;
  if (args.length < n) {
    throw functionCallError(name, `not enough arguments: the function takes ${atLeast(signature)}, got ${args.length}`);
  }
  if (args.length > n && signature.variadicParameter === undefined) {
    throw functionCallError(name, `too many arguments: the function takes ${n}, got ${args.length}`);
  }
  let skip = false;
  for (let i = 0; i < args.length; i++) {
    const param = functionParameter(signature, i)!;
    const arg = args[i]!;
    const problem = valueConformance(arg, param.type);
    if (problem !== undefined) {
      const at = problem.path.isRoot() ? "" : ` at ${problem.path.toString()}`;
      throw functionCallError(name, `${problem.reason}${at}`, { argument: i, parameter: param.name });
    }
    if (arg.isNull() && param.allowNullValue !== true) {
      throw functionCallError(name, "argument must not be null", { argument: i, parameter: param.name });
    }
    if (param.allowUnknownValues !== true && !arg.isWhollyKnown()) skip = true;
  }
  return skip ? unknownVal(signature.returnType) : undefined;
}

function atLeast(s: FunctionSignature): string {
  const n = s.parameters.length;
  return s.variadicParameter === undefined ? `${n}` : `at least ${n}`;
}
