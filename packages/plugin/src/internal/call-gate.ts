import { Code, ConnectError, type CallOptions } from "@connectrpc/connect";
import { canceledError, deadlineExceededError, type AbortSignalLike, type AnyProviderError } from "@magma/provider-api";
import { errorFromCall, type CallErrorContext } from "./error-map/call-error.js";
import { pluginExited } from "./error-map/plugin-exited.js";

/**
 * The default bound on the calls one connection sends at once. Measured with hashicorp/aws
 * 5.100.0 (see docs/reliability.md): 20,000 concurrent ReadDataSource calls through a bound
 * of 128 all succeed; unbounded, calls from ~12,000 on never settle or fail with
 * NGHTTP2_INTERNAL_ERROR.
 *
 * @internal
 */
export const DEFAULT_MAX_CONCURRENT_CALLS = 128;

/** How long calls under way may take to settle by themselves once the process has exited. */
const EXIT_SETTLE_MS = 1_000;
/** The wire's ERROR severity. */
const ERROR_SEVERITY = 1;
/** msgpack `nil`: a null DynamicValue. */
const MSGPACK_NIL = 0xc0;

/**
 * Options of a {@link CallGate}.
 *
 * @internal
 */
export interface CallGateOptions {
  /** The most calls sent at once; later callers wait in arrival order. */
  readonly maxConcurrentCalls?: number;
  /** The per-call time limit (from the call's start, queueing included), in ms. */
  readonly callTimeoutMs?: number;
  /** A name for messages, such as the binary's file name. */
  readonly label?: string;
}

interface Waiter {
  readonly method: string;
  start(): void;
  fail(e: AnyProviderError): void;
}

interface Running {
  readonly method: string;
  fail(e: AnyProviderError): void;
}

/**
 * The calls of one connection: bounds how many are sent at once (later callers wait in a
 * FIFO queue), applies cancellation (the caller's `AbortSignal` and the per-call time limit
 * cancel only that call's HTTP/2 stream, never the provider: StopProvider is not sent), maps
 * failures to `ProviderError`s, and makes sure that every call settles: when the provider
 * process exits, every waiting or unanswered call rejects with `plugin_exited`; when the
 * owner closes the connection, waiting calls and calls cut off reject with `canceled`, and
 * later calls reject at once with `canceled` ("the provider is closed").
 *
 * @internal
 */
export class CallGate {
  readonly #plugin: CallErrorContext;
  readonly #max: number;
  readonly #limit: number | undefined;
  readonly #label: string | undefined;
  #active = 0;
  /** Waiting callers, oldest first; `#head` is the index of the oldest still waiting. */
  #queue: (Waiter | undefined)[] = [];
  #head = 0;
  readonly #running = new Set<Running>();
  #state: "open" | "closing" | "closed" | "exited" = "open";

  constructor(plugin: CallErrorContext, options: CallGateOptions = {}) {
    const max = options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS;
    if (!Number.isSafeInteger(max) || max < 1) throw new TypeError(`maxConcurrentCalls must be a positive integer, got ${String(max)}`);
    const limit = options.callTimeoutMs;
    if (limit !== undefined && !(Number.isFinite(limit) && limit > 0)) throw new TypeError(`callTimeoutMs must be a positive number, got ${String(limit)}`);
    this.#plugin = plugin;
    this.#max = max;
    this.#limit = limit;
    this.#label = options.label;
    plugin.exited.then(
      () => this.#onExit(),
      () => undefined,
    );
  }

  /** Calls sent and not yet answered. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.#queue.length - this.#head;
  }

  /** The bound on calls sent at once. */
  get maxConcurrentCalls(): number {
    return this.#max;
  }

  /**
   * Runs one RPC: waits for a slot, sends it with a signal that the caller's signal and the
   * time limit abort (cancelling that stream only), maps its failure.
   */
  run<T>(method: string, signal: AbortSignalLike | undefined, fn: (o: CallOptions) => Promise<T>): Promise<T> {
    const refused = this.#refusal(method);
    if (refused !== undefined) return Promise.reject(refused);
    if (signal?.aborted === true) {
      return Promise.reject(canceledError(`the ${method} call was canceled before it started${this.#where()}`, { cause: signal.reason }));
    }
    const limit = this.#limit;
    if (signal === undefined && limit === undefined && this.#active < this.#max) {
      // Nothing can cancel this call and a slot is free: no controller, listener or timer (the hot path).
      this.#active++;
      return this.#send(method, fn, {}, undefined);
    }
    return new Promise<T>((resolve, reject) => {
      let why: "canceled" | "deadline" | undefined;
      let controller: AbortController | undefined;
      let waiter: Waiter | undefined;
      let settled = false;
      const done = (): void => {
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const giveUp = (e: AnyProviderError): void => {
        if (settled) return;
        if (waiter !== undefined) this.#dequeue(waiter);
        done();
        reject(e);
      };
      const onAbort = (): void => {
        why ??= "canceled";
        if (controller !== undefined) controller.abort(signal?.reason);
        else giveUp(canceledError(`the ${method} call was canceled while it waited to be sent${this.#where()}`, { cause: signal?.reason }));
      };
      const timer =
        limit === undefined
          ? undefined
          : setTimeout(() => {
              why ??= "deadline";
              if (controller !== undefined) controller.abort(new Error(`timed out after ${limit} ms`));
              else giveUp(deadlineExceededError(`the ${method} call did not start within ${limit} ms${this.#where()}`, { timeoutMs: limit }));
            }, limit);
      signal?.addEventListener("abort", onAbort, { once: true });
      const start = (): void => {
        waiter = undefined;
        controller = new AbortController();
        this.#send(method, fn, { signal: controller.signal }, () => why).then(
          (v) => {
            done();
            resolve(v);
          },
          (e: AnyProviderError) => {
            done();
            reject(e);
          },
        );
      };
      if (this.#active < this.#max) {
        this.#active++;
        start();
      } else {
        waiter = { method, start, fail: giveUp };
        this.#queue.push(waiter);
      }
    });
  }

  /**
   * The owner began closing the connection: waiting calls reject with `canceled` and later
   * calls are refused; calls under way go on until {@link CallGate.closed}.
   */
  closing(): void {
    if (this.#state !== "open") return;
    this.#state = "closing";
    this.#failQueued((method) => canceledError(`the ${method} call was canceled before it was sent: the provider${this.#where()} is being closed`));
  }

  /** The connection is closed: every call still unanswered rejects with `canceled`. */
  closed(): void {
    if (this.#state === "closed") return;
    if (this.#state === "open") this.closing();
    if (this.#state !== "exited") this.#state = "closed";
    for (const r of [...this.#running]) r.fail(this.#cutOff(r.method));
  }

  /** Why a new call is refused at once, if it is. */
  #refusal(method: string): AnyProviderError | undefined {
    switch (this.#state) {
      case "open":
        return undefined;
      case "closing":
      case "closed":
        return canceledError(`the ${method} call was not sent: the provider${this.#where()} is closed`);
      case "exited":
        return this.#exited(method, `before the ${method} call could be sent`);
    }
  }

  /** Sends one call in a held slot; the slot is released when it settles (or is settled for it). */
  #send<T>(method: string, fn: (o: CallOptions) => Promise<T>, options: CallOptions, why: (() => "canceled" | "deadline" | undefined) | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let open = true;
      const release = (): boolean => {
        if (!open) return false;
        open = false;
        this.#running.delete(running);
        this.#active--;
        this.#next();
        return true;
      };
      const running: Running = {
        method,
        fail: (e) => {
          if (release()) reject(e);
        },
      };
      this.#running.add(running);
      let sent: Promise<T>;
      try {
        sent = fn(options);
      } catch (e) {
        sent = Promise.reject(e);
      }
      sent.then(
        (reply) => {
          if (!open) return;
          if (this.#state !== "open" && canceledReply(reply)) {
            // The provider answered only "context canceled" because the connection was being closed.
            if (release()) reject(canceledError(`the ${method} call was canceled: the provider${this.#where()} was closed`, { cause: reply }));
            return;
          }
          if (release()) resolve(reply);
        },
        (e: unknown) => {
          if (!open) return;
          this.#mapFailure(e, method, why?.()).then(
            (mapped) => {
              if (release()) reject(mapped);
            },
            (mapped: unknown) => {
              if (release()) reject(mapped);
            },
          );
        },
      );
    });
  }

  async #mapFailure(e: unknown, method: string, why: "canceled" | "deadline" | undefined): Promise<AnyProviderError> {
    if (why === "canceled") return canceledError(`the ${method} call was canceled${this.#where()}`, { cause: e });
    if (why === "deadline") {
      return deadlineExceededError(`the ${method} call did not finish within ${this.#limit} ms${this.#where()}`, { timeoutMs: this.#limit!, cause: e });
    }
    const mapped = await errorFromCall(e, this.#plugin, method);
    if ((this.#state === "closing" || this.#state === "closed") && mapped.code !== "canceled") {
      // Cut off by close(): the owner ended the connection, the provider did not fail.
      return this.#cutOff(method, mapped);
    }
    return mapped;
  }

  #next(): void {
    while (this.#active < this.#max && this.#head < this.#queue.length) {
      const w = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      if (w === undefined) continue; // withdrawn
      this.#active++;
      w.start();
    }
    this.#compact();
  }

  #dequeue(w: Waiter): void {
    const i = this.#queue.indexOf(w, this.#head);
    if (i >= 0) this.#queue[i] = undefined;
    while (this.#head < this.#queue.length && this.#queue[this.#head] === undefined) this.#head++;
    this.#compact();
  }

  #compact(): void {
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #failQueued(error: (method: string) => AnyProviderError): void {
    const waiting = this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    for (const w of waiting) w?.fail(error(w.method));
  }

  #cutOff(method: string, cause?: unknown): AnyProviderError {
    return canceledError(`the ${method} call was canceled: the provider${this.#where()} was closed before it answered`, cause === undefined ? undefined : { cause });
  }

  #onExit(): void {
    if (this.#state === "open") this.#state = "exited";
    this.#failQueued((method) => this.#exited(method, `before the ${method} call could be sent`));
    if (this.#running.size === 0) return;
    // Calls under way normally fail by themselves as the streams reset; any left are settled.
    setTimeout(() => {
      for (const r of [...this.#running]) {
        r.fail(this.#state === "exited" ? this.#exited(r.method, `and failed to respond to the ${r.method} call`) : this.#cutOff(r.method));
      }
    }, EXIT_SETTLE_MS).unref();
  }

  #exited(method: string, when: string): AnyProviderError {
    const exit = this.#plugin.exitError();
    if (exit !== undefined && exit.detail.code === "plugin_exited") {
      const { code: _code, ...detail } = exit.detail;
      return pluginExited(detail, when, undefined, this.#plugin.binary);
    }
    return canceledError(`the ${method} call was not sent: the provider${this.#where()} has exited`, { cause: new ConnectError("the provider exited", Code.Unavailable) });
  }

  #where(): string {
    return this.#label === undefined ? "" : ` [${this.#label}]`;
  }
}

/**
 * Whether a reply says only that its call's context was canceled: error diagnostics that
 * all mention "context canceled", and no new state (a reply with a state is never dropped).
 */
function canceledReply(reply: unknown): boolean {
  if (typeof reply !== "object" || reply === null) return false;
  const r = reply as { diagnostics?: unknown; newState?: { msgpack?: Uint8Array; json?: Uint8Array } };
  if (!Array.isArray(r.diagnostics)) return false;
  const errors = (r.diagnostics as { severity?: number; summary?: string; detail?: string }[]).filter((d) => d.severity === ERROR_SEVERITY);
  if (errors.length === 0 || !errors.every((d) => /context canceled/.test(`${d.summary ?? ""} ${d.detail ?? ""}`))) return false;
  const s = r.newState;
  if (s === undefined) return true;
  const m = s.msgpack ?? new Uint8Array(0);
  return (m.length === 0 || (m.length === 1 && m[0] === MSGPACK_NIL)) && (s.json === undefined || s.json.length === 0);
}
