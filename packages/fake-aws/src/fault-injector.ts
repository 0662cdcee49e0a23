import { FakeAwsError, FakeAwsErrorCode } from "./fake-aws-error.js";

/** The AWS error an injected fault answers with. */
export interface InjectedError {
  /** The AWS error code, e.g. `ThrottlingException`, `RequestLimitExceeded`, `InternalError`. */
  readonly code: string;
  /** The message; default `Injected fault: <code>`. */
  readonly message?: string;
  /** The HTTP status; default 400 (use 500/503 for server faults). */
  readonly status?: number;
}

/**
 * What to fail or delay. Matching calls are counted from 1 after `inject()`: calls
 * `nth` … `nth + times - 1` are affected (`times: "always"` → every call from `nth` on).
 */
export interface FaultOptions {
  /** The operation name, e.g. `DescribeAddresses` (matched exactly). */
  readonly action: string;
  /** Restrict to one service (`ssm`, `logs`, `ec2`, `sts`); default any service. */
  readonly service?: string;
  /** The first matching call to affect, 1-based; default 1. */
  readonly nth?: number;
  /** How many consecutive matching calls to affect; default 1; `"always"` for all. */
  readonly times?: number | "always";
  /** Answer with this AWS error instead of calling the handler. */
  readonly error?: InjectedError;
  /** Wait this many milliseconds before answering (before the error, if both are given). */
  readonly delayMs?: number;
  /**
   * Destroy the connection instead of answering (after the request was read and any delay;
   * the handler is not called, so state is unchanged): a network failure or a server that
   * died mid-request, as the client sees it.
   */
  readonly dropConnection?: boolean;
}

/** A handle on an injected fault. */
export interface InjectedFault {
  /** The fault's id, unique per server. */
  readonly id: number;
  /** The options it was injected with. */
  readonly options: FaultOptions;
  /** How many matching calls have been seen since injection. */
  readonly seen: number;
  /** How many calls it affected so far. */
  readonly hits: number;
  /** Whether it will affect no further call. */
  readonly exhausted: boolean;
  /** Removes the fault; later calls are not affected. */
  remove(): void;
}

/** What a fault does to one call. */
export interface FaultEffect {
  /** The ids of the faults that fired. */
  readonly faultIds: readonly number[];
  /** Total delay to apply. */
  readonly delayMs: number;
  /** The error to answer with, if any (the first fault with an error wins). */
  readonly error: Required<InjectedError> | undefined;
  /** Whether to destroy the connection without answering. */
  readonly dropConnection: boolean;
}

interface Rule {
  readonly id: number;
  readonly options: FaultOptions;
  readonly nth: number;
  readonly times: number;
  seen: number;
  hits: number;
  removed: boolean;
}

/**
 * Holds the faults injected into one fake server and decides, call by call, which fire.
 * Every matching rule counts every matching call, so two rules on one action are independent.
 */
export class FaultInjector {
  readonly #rules: Rule[] = [];
  #nextId = 1;

  /**
   * Adds a fault.
   * @throws {@link FakeAwsError} `invalid_fault` naming the bad field (empty action, `nth` < 1,
   * `times` < 1, negative delay, status outside 400–599, neither error nor delay).
   */
  inject(options: FaultOptions): InjectedFault {
    const nth = options.nth ?? 1;
    const times = options.times === "always" ? Number.POSITIVE_INFINITY : (options.times ?? 1);
    const bad = (msg: string): FakeAwsError => new FakeAwsError(FakeAwsErrorCode.InvalidFault, `${msg} (fault on action '${options.action}')`);
    if (typeof options.action !== "string" || options.action === "") throw bad("action must be a non-empty operation name");
    if (!Number.isInteger(nth) || nth < 1) throw bad(`nth must be an integer >= 1, got ${String(options.nth)}`);
    if (times !== Number.POSITIVE_INFINITY && (!Number.isInteger(times) || times < 1)) {
      throw bad(`times must be an integer >= 1 or "always", got ${String(options.times)}`);
    }
    if (options.delayMs !== undefined && (!Number.isFinite(options.delayMs) || options.delayMs < 0)) {
      throw bad(`delayMs must be a finite number >= 0, got ${String(options.delayMs)}`);
    }
    if (options.error === undefined && options.delayMs === undefined && options.dropConnection !== true) throw bad("give an error, a delayMs, dropConnection, or a combination");
    if (options.error !== undefined) {
      if (typeof options.error.code !== "string" || options.error.code === "") throw bad("error.code must be a non-empty string");
      const s = options.error.status;
      if (s !== undefined && (!Number.isInteger(s) || s < 400 || s > 599)) throw bad(`error.status must be an HTTP error status 400-599, got ${String(s)}`);
    }
    const rule: Rule = { id: this.#nextId++, options, nth, times, seen: 0, hits: 0, removed: false };
    this.#rules.push(rule);
    return {
      id: rule.id,
      options,
      get seen() {
        return rule.seen;
      },
      get hits() {
        return rule.hits;
      },
      get exhausted() {
        return rule.removed || rule.seen >= rule.nth - 1 + rule.times;
      },
      remove: () => {
        rule.removed = true;
        const i = this.#rules.indexOf(rule);
        if (i >= 0) this.#rules.splice(i, 1);
      },
    };
  }

  /** Removes every fault. */
  clear(): void {
    for (const r of this.#rules) r.removed = true;
    this.#rules.length = 0;
  }

  /** Counts one call against every matching rule and returns what fires (or `undefined`). */
  onCall(service: string, action: string): FaultEffect | undefined {
    const fired: Rule[] = [];
    for (const r of this.#rules) {
      if (r.options.action !== action) continue;
      if (r.options.service !== undefined && r.options.service !== service) continue;
      r.seen++;
      if (r.seen >= r.nth && r.seen < r.nth + r.times) {
        r.hits++;
        fired.push(r);
      }
    }
    if (fired.length === 0) return undefined;
    let delayMs = 0;
    let error: Required<InjectedError> | undefined;
    let dropConnection = false;
    for (const r of fired) {
      if (r.options.dropConnection === true) dropConnection = true;
      delayMs += r.options.delayMs ?? 0;
      const e = r.options.error;
      if (error === undefined && e !== undefined) {
        error = { code: e.code, message: e.message ?? `Injected fault: ${e.code}`, status: e.status ?? 400 };
      }
    }
    return { faultIds: fired.map((r) => r.id), delayMs, error, dropConnection };
  }
}
