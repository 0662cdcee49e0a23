import { createHash } from "node:crypto";
import { dynamicType, toMsgpack, unknownVal, type Value } from "@magma/cty";
import { FunctionArgError, FunctionError, type FunctionParameter as HclParameter, type HclFunction } from "@magma/hcl";
import { isFunctionCaller, type FunctionParameter, type FunctionSignature, type ProviderSchema } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import type { OpenedProvider } from "../provider-source.js";

/** Opens an unconfigured instance of a provider by source address (`registry.terraform.io/hashicorp/aws`). */
export type OpenUnconfigured = (source: string) => Promise<OpenedProvider>;

/** The most evaluation rounds {@link settleProviderCalls} makes before it gives up (each round resolves at least one new call). */
export const MAX_SETTLE_ROUNDS = 1000;

type Outcome = { ok: true; value: Value } | { ok: false; error: FunctionError };

/**
 * One provider-defined function call's answer as a plan keeps it (Terraform's
 * `FunctionHash`): hex SHA-256 digests of the call (provider source, function name and
 * arguments) and of its result — the values themselves are not kept.
 */
export interface FunctionResultHash {
  /** The digest of the provider's source address, the function name and the arguments. */
  readonly key: string;
  /** The digest of the result. */
  readonly result: string;
}

/** The error of a call whose result differs from the plan's (Terraform's wording; hcl adds "Call to function … failed:"). */
export const INCONSISTENT_FUNCTION_RESULT = "provider function returned an inconsistent result";

interface PendingCall {
  readonly source: string;
  readonly name: string;
  readonly args: readonly Value[];
}

/**
 * Provider-defined functions (`provider::<local name>::<fn>(…)`) for the engine's
 * synchronous evaluator, as Terraform offers them: the functions of every provider a
 * module names in `required_providers`, under its local name there, called on an
 * *unconfigured* instance of the provider (one per source address, opened on first use and
 * closed by {@link close}), with the signatures of the provider's schema.
 *
 * Evaluation is synchronous and provider calls are not, so a call is made in two steps:
 * an evaluation that meets a call it has no answer for records it (a *miss*) and gets an
 * unknown of the return type in its place; {@link resolvePending} then makes the recorded
 * calls (and opens the providers whose signatures were missing) and caches the answers by
 * provider, function and arguments; the evaluation is then run again and finds them.
 * {@link settleProviderCalls} runs that loop. {@link misses} only grows: code that memoizes
 * evaluated values compares it before and after and keeps nothing computed from a
 * placeholder. The provider is never called with an argument that is not wholly known unless
 * its parameter allows unknown values, nor with a null one unless it allows null (go-cty's
 * "argument must not be null").
 */
export class ProviderFunctionCalls {
  readonly #open: OpenUnconfigured;
  readonly #providers = new Map<string, Promise<OpenedProvider>>();
  readonly #schemas = new Map<string, ProviderSchema | Error>();
  readonly #pendingSchemas = new Set<string>();
  readonly #pendingCalls = new Map<string, PendingCall>();
  readonly #results = new Map<string, Outcome>();
  readonly #inflight = new Map<string, Promise<void>>();
  readonly #functions = new Map<string, HclFunction>();
  /** The results table: call digest → result digest (the first answer of each call, or the plan's). */
  readonly #table = new Map<string, string>();
  #misses = 0;
  #calls = 0;

  /** @param open opens an unconfigured provider instance (it is never configured here). */
  constructor(open: OpenUnconfigured) {
    this.#open = open;
  }

  /** How many times an evaluation met a function or call it had no answer for yet (only grows). */
  get misses(): number {
    return this.#misses;
  }

  /** How many CallFunction calls were made. */
  get calls(): number {
    return this.#calls;
  }

  /** Whether calls or schemas are waiting for {@link resolvePending}. */
  get hasPending(): boolean {
    return this.#pendingCalls.size > 0 || this.#pendingSchemas.size > 0;
  }

  /**
   * The hook of an `EvalScope` for a module whose `required_providers` map local names to
   * source addresses: `provider::<local>::<name>` resolves to the provider's function, or
   * `undefined` (Terraform's "Unknown provider function") when the module does not require
   * that local name or the provider has no such function.
   */
  resolver(localNames: ReadonlyMap<string, string>): (provider: string, name: string) => HclFunction | undefined {
    return (provider, name) => {
      const source = localNames.get(provider);
      if (source === undefined) return undefined;
      const schema = this.#schemas.get(source);
      if (schema === undefined) {
        // Not known yet: a placeholder whose result is unknown, and a miss.
        this.#pendingSchemas.add(source);
        this.#misses++;
        return placeholder(`provider::${provider}::${name}`);
      }
      if (schema instanceof Error) {
        return failing(`provider::${provider}::${name}`, `failed to launch provider plugin: ${schema.message}`);
      }
      const sig = schema.functions?.get(name);
      if (sig === undefined) return undefined;
      const id = `${source}|${name}`;
      let fn = this.#functions.get(id);
      if (fn === undefined) {
        fn = this.#build(source, `provider::${provider}::${name}`, name, sig);
        this.#functions.set(id, fn);
      }
      return fn;
    };
  }

  /** Whether the provider of a local name (in `localNames`) is known to declare functions; `undefined` while its schema is not loaded. */
  hasFunctions(localNames: ReadonlyMap<string, string>, provider: string): boolean | undefined {
    const source = localNames.get(provider);
    if (source === undefined) return false;
    const schema = this.#schemas.get(source);
    if (schema === undefined) return undefined;
    return !(schema instanceof Error) && (schema.functions?.size ?? 0) > 0;
  }

  #build(source: string, qualified: string, name: string, sig: FunctionSignature): HclFunction {
    const param = (p: FunctionParameter): HclParameter => ({
      name: p.name,
      type: p.type,
      allowNull: p.allowNullValue === true,
      allowUnknown: p.allowUnknownValues === true,
      allowDynamicType: p.type.kind === "dynamic",
    });
    const params = sig.parameters.map(param);
    const varParam = sig.variadicParameter === undefined ? undefined : param(sig.variadicParameter);
    const fn: HclFunction = {
      description: sig.summary ?? qualified,
      params,
      ...(varParam !== undefined ? { varParam } : {}),
      type: () => sig.returnType,
      impl: (args, returnType) => {
        for (let i = 0; i < args.length; i++) {
          const p = params[i] ?? varParam!;
          // Terraform's promise to providers: no nested unknowns unless the parameter opts in.
          if (p.allowUnknown !== true && !args[i]!.isWhollyKnown()) return unknownVal(returnType);
        }
        const key = `${source}|${name}|${args.map(argKey).join(",")}`;
        const known = this.#results.get(key);
        if (known !== undefined) {
          if (known.ok) return known.value;
          throw known.error;
        }
        if (!this.#pendingCalls.has(key)) this.#pendingCalls.set(key, { source, name, args: [...args] });
        this.#misses++;
        return unknownVal(returnType);
      },
    };
    return fn;
  }

  /**
   * The results table (Terraform's function results): every call answered so far with a
   * result, as digests. A plan keeps it, and {@link checkAgainst} makes an apply's calls
   * answer the same.
   */
  functionResults(): FunctionResultHash[] {
    return [...this.#table].map(([key, result]) => ({ key, result })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * Starts an apply of a plan with these results (Terraform's `NewFunctionResultsTable` over
   * the plan's hashes): forgets every answer (the apply calls the provider again), and from
   * now on a call the plan answered must answer the same; a different result is an error
   * ({@link INCONSISTENT_FUNCTION_RESULT}) in place of the value. Calls the plan did not make
   * (their arguments were unknown) join the table.
   */
  checkAgainst(results: readonly FunctionResultHash[]): void {
    this.#results.clear();
    this.#pendingCalls.clear();
    this.#table.clear();
    for (const r of results) this.#table.set(r.key, r.result);
  }

  /** Opens the providers whose signatures were asked for and makes the recorded calls, caching their answers. */
  async resolvePending(): Promise<void> {
    const sources = [...this.#pendingSchemas];
    this.#pendingSchemas.clear();
    await Promise.all(
      sources.map(async (s) => {
        try {
          this.#schemas.set(s, (await this.#provider(s)).schema);
        } catch (e) {
          this.#schemas.set(s, e instanceof Error ? e : new Error(String(e)));
        }
      }),
    );
    const calls = [...this.#pendingCalls];
    this.#pendingCalls.clear();
    await Promise.all(
      calls.map(([key, c]) => {
        // Concurrent evaluations may ask for the same call: it is made once.
        if (this.#results.has(key)) return undefined;
        let p = this.#inflight.get(key);
        if (p === undefined) {
          p = this.#call(c).then((r) => {
            this.#results.set(key, this.#checked(key, r));
            this.#inflight.delete(key);
          });
          this.#inflight.set(key, p);
        }
        return p;
      }),
    );
  }

  /** A successful answer checked against (and recorded in) the results table. */
  #checked(key: string, r: Outcome): Outcome {
    if (!r.ok) return r;
    const digest = sha256(key);
    const result = sha256(argKey(r.value));
    const prior = this.#table.get(digest);
    if (prior === undefined) this.#table.set(digest, result);
    else if (prior !== result) return { ok: false, error: new FunctionError(INCONSISTENT_FUNCTION_RESULT) };
    return r;
  }

  async #call(c: PendingCall): Promise<Outcome> {
    let p: OpenedProvider;
    try {
      p = await this.#provider(c.source);
    } catch (e) {
      return { ok: false, error: new FunctionError(`failed to launch provider plugin: ${(e as Error)?.message ?? String(e)}`) };
    }
    if (!isFunctionCaller(p.provider)) {
      return { ok: false, error: new FunctionError(`the provider ${c.source} cannot call functions`) };
    }
    this.#calls++;
    try {
      return { ok: true, value: await p.provider.callFunction(c.name, c.args) };
    } catch (e) {
      const d = (e as { detail?: { code?: string; text?: string; argument?: number } }).detail;
      if (d?.code === "function_error" && typeof d.text === "string") {
        return { ok: false, error: d.argument !== undefined ? new FunctionArgError(d.argument, d.text) : new FunctionError(d.text) };
      }
      return { ok: false, error: new FunctionError((e as Error)?.message ?? String(e)) };
    }
  }

  #provider(source: string): Promise<OpenedProvider> {
    let p = this.#providers.get(source);
    if (p === undefined) {
      p = this.#open(source);
      p.catch(() => undefined);
      this.#providers.set(source, p);
    }
    return p;
  }

  /** Closes the provider instances opened for functions. */
  async close(): Promise<void> {
    const all = [...this.#providers.values()];
    this.#providers.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close().catch(() => undefined)));
  }
}

/**
 * Runs a synchronous evaluation until it no longer meets provider-defined function calls it
 * has no answer for: after a run with misses, its result (or error) is dropped, the
 * diagnostics it appended to `diagnostics` are removed, the calls are made, and it runs
 * again. Without `calls`, it runs once.
 *
 * @throws whatever the last run threw; {@link EngineError} `invalid_argument` past
 * {@link MAX_SETTLE_ROUNDS} rounds.
 */
export async function settleProviderCalls<T>(calls: ProviderFunctionCalls | undefined, run: () => T, diagnostics?: unknown[]): Promise<T> {
  for (let round = 0; ; round++) {
    const before = calls?.misses ?? 0;
    const n = diagnostics?.length ?? 0;
    let out: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      out = { ok: true, value: run() };
    } catch (e) {
      out = { ok: false, error: e };
    }
    if (calls === undefined || calls.misses === before) {
      if (out.ok) return out.value;
      throw out.error;
    }
    diagnostics?.splice(n);
    if (round >= MAX_SETTLE_ROUNDS) throw new EngineError(EngineErrorCode.InvalidArgument, `provider-defined function calls did not settle after ${MAX_SETTLE_ROUNDS} evaluation rounds`);
    await calls.resolvePending();
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function argKey(v: Value): string {
  return Buffer.from(toMsgpack(v, dynamicType)).toString("base64");
}

function placeholder(qualified: string): HclFunction {
  const any: HclParameter = { name: "args", type: dynamicType, allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: true };
  return { description: qualified, params: [], varParam: any, type: () => dynamicType, impl: () => unknownVal(dynamicType) };
}

function failing(qualified: string, message: string): HclFunction {
  const any: HclParameter = { name: "args", type: dynamicType, allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: true };
  const fail = (): never => {
    throw new FunctionError(message);
  };
  return { description: qualified, params: [], varParam: any, type: fail, impl: fail };
}
