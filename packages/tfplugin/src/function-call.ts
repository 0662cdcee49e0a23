import { fromJson, fromMsgpack, isPathError, nullVal, toMsgpack, type Value } from "@magma/cty";
import { functionCallError, functionParameter, invalidResponseError, type FunctionSignature } from "@magma/provider-api";
import type { ProtoDynamicValue } from "./proto-shapes.js";
import type { CallFunctionResponse } from "./wire-client.js";

const EMPTY = new Uint8Array(0);

/**
 * The arguments of a CallFunction request: each encoded as msgpack with its parameter's
 * type (the variadic parameter's for arguments past the positional ones; a `dynamic` type
 * carries the value's own type), as Terraform encodes them. The caller has checked them
 * with `checkFunctionCall`.
 *
 * @throws ProviderError `function_error` at the argument that does not encode.
 * @internal
 */
export function functionArgumentsToProto(name: string, signature: FunctionSignature, args: readonly Value[]): ProtoDynamicValue[] {
  return args.map((arg, i) => {
    const param = functionParameter(signature, i);
    if (param === undefined) throw functionCallError(name, `too many arguments: the function takes ${signature.parameters.length}, got ${args.length}`);
    try {
      return { msgpack: toMsgpack(arg, param.type), json: EMPTY };
    } catch (e) {
      if (isPathError(e)) throw functionCallError(name, e.message, { argument: i, parameter: param.name, cause: e });
      throw e;
    }
  });
}

/**
 * The outcome of a CallFunction response, as Terraform reads it: an `error` rejects with
 * `function_error` (its text, and `function_argument` as the argument index); otherwise the
 * result decodes with the return type (a `dynamic` return type from its msgpack or JSON
 * type information), and a missing result is the return type's null.
 *
 * @param argCount The number of arguments sent, to name the parameter of an argument index.
 * @throws ProviderError `function_error`, or `invalid_response` when the result does not
 * decode with the return type or the argument index is not a safe integer.
 * @internal
 */
export function functionResultFromProto(name: string, signature: FunctionSignature, r: CallFunctionResponse, argCount: number): Value {
  const op = "CallFunction";
  if (r.error !== undefined) {
    const a = r.error.functionArgument;
    if (a === undefined) throw functionCallError(name, r.error.text);
    if (a < 0n || a > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidResponseError(`function ${JSON.stringify(name)} failed at argument ${a}, which is out of range: ${r.error.text}`, { operation: op });
    const i = Number(a);
    const param = i < argCount ? functionParameter(signature, i) : undefined;
    throw functionCallError(name, r.error.text, param === undefined ? { argument: i } : { argument: i, parameter: param.name });
  }
  const dv = r.result;
  const t = signature.returnType;
  try {
    if (dv === undefined) return nullVal(t);
    if (dv.msgpack.length > 0) return fromMsgpack(dv.msgpack, t);
    if (dv.json.length > 0) return fromJson(new TextDecoder().decode(dv.json), t);
    return nullVal(t);
  } catch (e) {
    if (isPathError(e)) throw invalidResponseError(`the result of function ${JSON.stringify(name)} does not decode: ${e.message}`, { operation: op, path: e.path, cause: e });
    throw e;
  }
}
