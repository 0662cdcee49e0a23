import { formatErrorPath, type Value } from "@magma/cty";
import { checkFunctionCall } from "./function-caller.js";
import type { AbortSignalLike } from "./provider.js";
import { functionCallError, invalidResponseError, schemaError } from "./provider-error.js";
import type { FunctionSignature } from "./schema.js";
import { valueConformance } from "./value-conformance.js";

/**
 * What a native provider function returns: its result, or a failure (tfplugin's
 * `FunctionError`) with the index of the offending argument when the failure is one
 * argument's.
 */
export type NativeFunctionResult =
  | {
      /** The result, of the signature's return type (any type for a `dynamic` return type). */
      readonly result: Value;
    }
  | {
      /** What went wrong, for the user. */
      readonly error: string;
      /** The 0-based index of the argument at fault, if one is. */
      readonly argument?: number;
    };

/** What a native function is told besides its arguments. */
export interface NativeFunctionContext {
  /** The function's name. */
  readonly name: string;
  /** Its signature, from the schema's `functions`. */
  readonly signature: FunctionSignature;
  /** The caller's abort signal, to pass on to I/O. */
  readonly signal: AbortSignalLike | undefined;
}

/**
 * The implementation of one provider-defined function of a native provider. It is called
 * only with arguments that fit the signature ({@link checkFunctionCall}): the right number,
 * of the parameters' types, null only where allowed, and wholly known unless the parameter
 * allows unknown values. It may return synchronously.
 */
export type NativeFunction = (args: readonly Value[], ctx: NativeFunctionContext) => NativeFunctionResult | Promise<NativeFunctionResult>;

/** The function implementations of a native provider, by the names its schema's `functions` declares. */
export type NativeFunctions = Readonly<Record<string, NativeFunction>>;

/**
 * Checks that the declared functions and the implementations name the same functions.
 *
 * @throws {@link ProviderError} `schema` naming the first function declared without an
 * implementation, or implemented without a declaration.
 * @internal
 */
export function checkNativeFunctions(declared: ReadonlyMap<string, FunctionSignature> | undefined, impls: NativeFunctions | undefined): void {
  const names = new Set(declared?.keys() ?? []);
  for (const name of names) {
    if (impls === undefined || typeof impls[name] !== "function") throw schemaError(`the schema declares function ${JSON.stringify(name)} but the provider has no implementation of it`);
  }
  for (const name of Object.keys(impls ?? {})) {
    if (!names.has(name)) throw schemaError(`the provider implements function ${JSON.stringify(name)} but its schema does not declare it`);
  }
}

/**
 * Calls a native function as the contract requires: arguments checked first (a skipped
 * call resolves to the unknown result), then the result checked against the return type.
 *
 * @throws {@link ProviderError} `function_error` for bad arguments or a failure the function
 * reported (an `argument` outside the arguments is `invalid_response`), `invalid_response`
 * for a result that does not fit the return type.
 * @internal
 */
export async function callNativeFunction(
  name: string,
  signature: FunctionSignature,
  fn: NativeFunction,
  args: readonly Value[],
  signal: AbortSignalLike | undefined,
): Promise<Value> {
  const skipped = checkFunctionCall(name, signature, args);
  if (skipped !== undefined) return skipped;
  const r = await fn(Object.freeze(args.slice()), { name, signature, signal });
  const op = "callFunction";
  if (typeof r !== "object" || r === null) throw invalidResponseError(`function ${JSON.stringify(name)} returned neither a result nor an error`, { operation: op });
  if ("error" in r) {
    const a = r.argument;
    if (a === undefined) throw functionCallError(name, r.error);
    if (!Number.isSafeInteger(a) || a < 0 || a >= args.length) {
      throw invalidResponseError(`function ${JSON.stringify(name)} reported an error at argument ${a}, but it was called with ${args.length}`, { operation: op });
    }
    const param = a < signature.parameters.length ? signature.parameters[a] : signature.variadicParameter;
    throw functionCallError(name, r.error, param === undefined ? { argument: a } : { argument: a, parameter: param.name });
  }
  if (!("result" in r) || r.result === undefined) throw invalidResponseError(`function ${JSON.stringify(name)} returned neither a result nor an error`, { operation: op });
  const p = valueConformance(r.result, signature.returnType);
  if (p !== undefined) {
    throw invalidResponseError(`function ${JSON.stringify(name)} returned a result that does not fit its return type at result${formatErrorPath(p.path)}: ${p.reason}`, {
      operation: op,
      path: p.path,
    });
  }
  return r.result;
}
