import { fromJson, fromMsgpack, isPathError, nullVal, toMsgpack, type Type, type Value } from "@magma/cty";
import { functionToProto, type GetFunctionsResponse, type ProtoDynamicValue, type ProtoFunction } from "@magma/tfplugin";
import { functionParameter, isFunctionCaller, isProviderError, type FunctionSignature, type Provider, type ProviderSchema } from "@magma/provider-api";
import type { HclogLogger } from "./hclog.js";

const EMPTY = new Uint8Array(0);
const NONE: ReadonlyMap<string, FunctionSignature> = new Map();
const utf8 = new TextDecoder();

/** A CallFunction response: a result, or a `FunctionError`. */
interface CallFunctionOut {
  result?: ProtoDynamicValue;
  error?: { text: string; functionArgument?: bigint };
}

/** A failure to report as a `FunctionError`. */
class FunctionFailure extends Error {
  readonly argument: number | undefined;
  constructor(text: string, argument?: number) {
    super(text);
    this.argument = argument;
  }
}

/**
 * The function RPCs of the provider services (GetFunctions, CallFunction; the same in
 * tfplugin5 and tfplugin6), and what GetProviderSchema and GetMetadata say about
 * functions. Functions are served only when the provider can call them
 * ({@link isFunctionCaller}); otherwise none are advertised, even when its schema
 * describes some, and CallFunction answers every name with a FunctionError.
 *
 * @internal
 */
export interface FunctionHandlers {
  /** The functions to advertise: the schema's, when the provider can call them. */
  served(schema: ProviderSchema): ReadonlyMap<string, FunctionSignature>;
  /** The `functions` field of a GetProviderSchema response. */
  toProto(schema: ProviderSchema): Record<string, ProtoFunction>;
  getFunctions(): Promise<GetFunctionsResponse>;
  callFunction(req: { name: string; arguments: readonly { msgpack: Uint8Array; json: Uint8Array }[] }, ctx: { signal: AbortSignal }): Promise<CallFunctionOut>;
}

/** @internal */
export function createFunctionHandlers(
  provider: Provider,
  schema: () => Promise<ProviderSchema>,
  callSignal: (client: AbortSignal) => AbortSignal,
  trace: (rpc: string, fields?: Record<string, unknown>) => void,
  logger: HclogLogger,
): FunctionHandlers {
  const caller = isFunctionCaller(provider) ? provider : undefined;
  const served = (s: ProviderSchema): ReadonlyMap<string, FunctionSignature> => (caller === undefined ? NONE : (s.functions ?? NONE));
  const toProto = (s: ProviderSchema): Record<string, ProtoFunction> => {
    const out: Record<string, ProtoFunction> = {};
    for (const [name, f] of served(s)) out[name] = functionToProto(f);
    return out;
  };

  return {
    served,
    toProto,

    async getFunctions(): Promise<GetFunctionsResponse> {
      trace("GetFunctions");
      try {
        return { functions: toProto(await schema()), diagnostics: [] };
      } catch (e) {
        const text = e instanceof Error ? e.message : String(e);
        return { functions: {}, diagnostics: [{ severity: 1, summary: "Provider schema unavailable", detail: text }] };
      }
    },

    async callFunction(req, ctx): Promise<CallFunctionOut> {
      trace("CallFunction", { tf_function_name: req.name });
      try {
        const s = await schema();
        const signature = served(s).get(req.name);
        if (caller === undefined || signature === undefined) throw new FunctionFailure(`The provider has no function ${JSON.stringify(req.name)}.`);
        const args = req.arguments.map((dv, i) => decodeArgument(signature, dv, i));
        const result = await caller.callFunction(req.name, args, { signal: callSignal(ctx.signal) });
        return { result: { msgpack: toMsgpack(result, signature.returnType), json: EMPTY } };
      } catch (e) {
        const error = functionErrorOf(e);
        logger.log("warn", "CallFunction returned an error", { tf_rpc: "CallFunction", tf_function_name: req.name, error: error.text });
        return { error };
      }
    },
  };
}

/** Decodes argument `i` with its parameter's type (the variadic one's past the positional ones). */
function decodeArgument(signature: FunctionSignature, dv: { msgpack: Uint8Array; json: Uint8Array }, i: number): Value {
  const param = functionParameter(signature, i);
  if (param === undefined) throw new FunctionFailure(`Too many arguments: the function takes ${signature.parameters.length}.`);
  const t: Type = param.type;
  try {
    if (dv.msgpack.length > 0) return fromMsgpack(dv.msgpack, t);
    if (dv.json.length > 0) return fromJson(utf8.decode(dv.json), t);
    return nullVal(t);
  } catch (e) {
    if (isPathError(e)) throw new FunctionFailure(`The argument does not fit the parameter's type: ${e.message}`, i);
    throw e;
  }
}

/** The `FunctionError` a failed call becomes: a `function_error` keeps its text and argument index. */
function functionErrorOf(e: unknown): { text: string; functionArgument?: bigint } {
  const at = (text: string, argument: number | undefined): { text: string; functionArgument?: bigint } =>
    argument === undefined ? { text } : { text, functionArgument: BigInt(argument) };
  if (e instanceof FunctionFailure) return at(e.message, e.argument);
  if (isProviderError(e)) return e.code === "function_error" ? at(e.detail.text, e.detail.argument) : { text: e.rawMessage };
  return { text: `Unexpected error in the provider: ${e instanceof Error ? e.message : String(e)}` };
}
