/** Test support for the engine-level reliability tests: hashicorp/aws against @magma/fake-aws through createEngine + applyPlan. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toJson, type Value } from "@magma/cty";
import { applyPlan, createEngine, ProviderPool, type ApplyResult, type CreateConflictHandler, type Engine, type EngineEvent, type EnginePlanResult, type OpenedProvider, type ProviderSource } from "@magma/engine";
import type { FakeAws } from "@magma/fake-aws";
import { createProviderFactory } from "@magma/plugin";
import type { Provider } from "@magma/provider-api";
import { loadState, newStateFile, saveState, type StateFile, type StateStore } from "@magma/state";

/** The provider block pointing hashicorp/aws at the fake endpoint. */
export function awsProviderHcl(url: string, maxRetries = 2): string {
  return `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}

provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
  max_retries                 = ${maxRetries}
  endpoints {
    ssm = "${url}"
    sts = "${url}"
    iam = "${url}"
  }
}
`;
}

/**
 * `branches` independent chains of three aws_ssm_parameter: `a<i>` (a literal), `b<i>`
 * (its value `a<i>.arn`, known only after the create), `c<i>` (depends on `b<i>`).
 */
export function chainsHcl(prefix: string, branches: number): string {
  const out: string[] = [];
  for (let i = 0; i < branches; i++) {
    out.push(`resource "aws_ssm_parameter" "a${i}" {\n  name  = "${prefix}/a${i}"\n  type  = "String"\n  value = "a${i}"\n}\n`);
    out.push(`resource "aws_ssm_parameter" "b${i}" {\n  name  = "${prefix}/b${i}"\n  type  = "String"\n  value = aws_ssm_parameter.a${i}.arn\n}\n`);
    out.push(`resource "aws_ssm_parameter" "c${i}" {\n  name       = "${prefix}/c${i}"\n  type       = "String"\n  value      = "c${i}"\n  depends_on = [aws_ssm_parameter.b${i}]\n}\n`);
  }
  return out.join("\n");
}

/** One recorded provider call: the operation, its process and its Value arguments as JSON text. */
export interface RecordedCall {
  readonly op: string;
  readonly pid: number | undefined;
  readonly args: readonly string[];
  /** Per Value argument, whether it is wholly known. */
  readonly known: readonly boolean[];
}

/** What a {@link wrapProvider} hook may change: the provider's answer to a call. */
export type AnswerHook = (op: string, args: readonly unknown[], answer: unknown) => unknown;

function isValue(x: unknown): x is Value {
  return typeof x === "object" && x !== null && typeof (x as { isWhollyKnown?: unknown }).isWhollyKnown === "function" && typeof (x as { type?: unknown }).type === "object";
}

function valueText(v: Value): string {
  try {
    return JSON.stringify(toJson(v.unmarkDeep().value, v.type));
  } catch {
    return "<not JSON-encodable (unknown)>";
  }
}

/** A provider that records every call (and lets `hook` change the answers), forwarding to `inner`. */
export function wrapProvider(inner: Provider, pid: number | undefined, calls: RecordedCall[], hook?: AnswerHook): Provider {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const orig = Reflect.get(target, prop, receiver) as unknown;
      if (typeof orig !== "function" || typeof prop !== "string") return orig;
      return async (...args: unknown[]) => {
        const values = args.filter(isValue);
        calls.push({ op: prop, pid, args: values.map(valueText), known: values.map((v) => v.isWhollyKnown()) });
        const answer = await (orig as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        return hook === undefined ? answer : hook(prop, args, answer);
      };
    },
  });
}

/** Pids of this process's children running `binary`. */
export function childPids(binary: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      if (!readFileSync(`/proc/${e}/cmdline`, "utf8").startsWith(binary)) continue;
      out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A provider source launching `binary` for every open, recording calls (with the provider's pid) and applying `hook`. */
export function recordingSource(binary: string, calls: RecordedCall[], hook?: () => AnswerHook | undefined): ProviderSource {
  const factory = createProviderFactory();
  return {
    open: async (_source, options) => {
      const before = new Set(childPids(binary));
      const live = await factory.open(binary, options?.signal !== undefined ? { signal: options.signal } : {});
      const pid = childPids(binary).find((p) => !before.has(p));
      const opened: OpenedProvider = live as unknown as OpenedProvider;
      return { provider: wrapProvider(opened.provider, pid, calls, hook?.()), schema: opened.schema, stop: () => opened.stop(), close: () => opened.close() };
    },
  };
}

/** A temp working directory holding one main.tf (or main.tf.json). */
export function workDir(files: Record<string, string>): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "magma-engrel-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The outcome of {@link planAndApply}. */
export interface PlanAndApply {
  readonly planned: EnginePlanResult;
  readonly result: ApplyResult | undefined;
  readonly events: EngineEvent[];
  readonly state: StateFile;
}

/** Loads the state from `store`, plans `dir` with `engine`, applies the plan with a fresh pool, persisting every snapshot to `store`. */
export async function planAndApply(engine: Engine, source: ProviderSource, dir: string, store: StateStore, options: { parallelism?: number; signal?: AbortSignal; planOptions?: Parameters<Engine["plan"]>[2]; onCreateConflict?: CreateConflictHandler; onPool?: (pool: ProviderPool) => void } = {}): Promise<PlanAndApply> {
  const state = (await loadState(store)) ?? newStateFile();
  const planned = await engine.plan(dir, state, { env: {}, ...(options.planOptions ?? {}) });
  const events: EngineEvent[] = [];
  if (planned.hasErrors) return { planned, result: undefined, events, state };
  const pool = new ProviderPool(source);
  options.onPool?.(pool);
  try {
    const result = await applyPlan(planned.plan, {
      providers: pool,
      state,
      scope: planned.applyScope,
      persist: async (s) => {
        await saveState(store, s);
      },
      onEvent: (e) => events.push(e),
      ...(options.parallelism !== undefined ? { parallelism: options.parallelism } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.onCreateConflict !== undefined ? { onCreateConflict: options.onCreateConflict } : {}),
    });
    return { planned, result, events, state: (await loadState(store)) ?? newStateFile() };
  } finally {
    await pool.close();
  }
}

/**
 * Creates an engine for `dir`. These tests apply with `applyPlan` over a pool of their own
 * (a provider process per plan and per apply, which the kill trials tell apart), so the
 * engine keeps no providers from a plan for `engine.apply` (`keepProvidersMs: 0`).
 */
export function engineFor(source: ProviderSource, dir: string, parallelism?: number): Engine {
  return createEngine({ providers: source, cwd: dir, keepProvidersMs: 0, ...(parallelism !== undefined ? { parallelism } : {}) });
}

/** The SSM parameter names under `prefix` that the fake endpoint holds. */
export function fakeNames(fake: FakeAws, prefix: string): string[] {
  return fake
    .state()
    .ssmParameters.map((p) => p.name)
    .filter((n) => n.startsWith(`${prefix}/`))
    .sort();
}

/** One aws_ssm_parameter object in state. */
export interface StateObject {
  readonly name: string;
  readonly address: string;
  readonly tainted: boolean;
  readonly deposed: boolean;
}

/** Every aws_ssm_parameter object in state (tainted and deposed ones included), by name. */
export function stateObjects(state: StateFile | undefined): StateObject[] {
  const out: StateObject[] = [];
  for (const r of state?.resources ?? []) {
    if (r.type !== "aws_ssm_parameter" || r.mode !== "managed") continue;
    for (const i of r.instances) {
      const attrs = i.attributesJson !== undefined ? (JSON.parse(i.attributesJson) as Record<string, unknown>) : {};
      out.push({ name: String(attrs["name"]), address: `aws_ssm_parameter.${r.name}`, tainted: i.tainted, deposed: i.deposed !== undefined });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** A provider source serving one native provider (fresh per open), recording its calls. */
export function nativeSource(make: () => Provider, calls: RecordedCall[], hook?: () => AnswerHook | undefined): ProviderSource {
  return {
    open: async () => {
      const provider = make();
      const schema = await provider.getSchema();
      return { provider: wrapProvider(provider, undefined, calls, hook?.()), schema, stop: () => Promise.resolve(""), close: () => Promise.resolve() };
    },
  };
}

/**
 * Takes the state lock as `terraform -lock-timeout` does: retries a `locked` refusal every
 * 50 ms until `timeoutMs` passes, then rethrows the last refusal (which names the holder).
 */
export async function lockWithTimeout(store: StateStore, operation: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await store.lock({ operation });
    } catch (e) {
      if ((e as { code?: string }).code !== "locked" || Date.now() >= until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
