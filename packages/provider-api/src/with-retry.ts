import type { AbortSignalLike } from "./provider.js";
import { canceledError, isProviderError, isRetryable } from "./provider-error.js";

/** How {@link withRetry} retries; every field is optional. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  readonly maxAttempts?: number;
  /** The delay before the first retry, before jitter (default 250 ms). */
  readonly initialDelayMs?: number;
  /** The largest delay between attempts, before jitter (default 20000 ms). */
  readonly maxDelayMs?: number;
  /** How much the delay grows after each retry (default 2). */
  readonly multiplier?: number;
  /**
   * `"full"` (default): each delay is uniformly random between 0 and the backoff delay
   * (AWS's "full jitter", which spreads out clients that failed together); `"none"`: the
   * backoff delay exactly.
   */
  readonly jitter?: "full" | "none";
  /**
   * Whether an error is worth retrying (default {@link isRetryable}). It is never asked
   * about a `partially_applied` error: that one is never retried.
   */
  readonly retryable?: (error: unknown, attempt: number) => boolean;
  /** Stops waiting and retrying; the promise then rejects with `canceled`. */
  readonly signal?: AbortSignalLike;
  /** Called before each wait, e.g. to log. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** A random source in [0, 1) (default `Math.random`), for reproducible tests. */
  readonly random?: () => number;
  /** How to wait (default: a timer), for tests. */
  readonly sleep?: (ms: number, signal: AbortSignalLike | undefined) => Promise<void>;
}

/**
 * Runs `fn` until it succeeds, retrying errors that are worth retrying with exponential
 * backoff and jitter.
 *
 * A `partially_applied` error is never retried whatever the policy says: the remote
 * object exists and its state must be recorded, not created a second time. Non-retryable
 * errors and the last attempt's error are rethrown as they are.
 *
 * ```ts
 * const result = await withRetry(() => provider.readDataSource("aws_partition", config), { maxAttempts: 4 });
 * ```
 *
 * @throws the last error; ProviderError `canceled` when `signal` fires while waiting.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy = {}): Promise<T> {
  const maxAttempts = policy.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  const initial = policy.initialDelayMs ?? 250;
  const max = policy.maxDelayMs ?? 20_000;
  const multiplier = policy.multiplier ?? 2;
  const random = policy.random ?? Math.random;
  const sleep = policy.sleep ?? defaultSleep;
  const retryable = policy.retryable ?? ((e: unknown) => isRetryable(e));
  for (let attempt = 1; ; attempt++) {
    if (policy.signal?.aborted === true) throw canceledError("retries were canceled", { cause: policy.signal.reason });
    try {
      return await fn(attempt);
    } catch (error) {
      if (isProviderError(error) && error.code === "partially_applied") throw error;
      if (attempt >= maxAttempts || !retryable(error, attempt)) throw error;
      const backoff = Math.min(max, initial * multiplier ** (attempt - 1));
      const delay = policy.jitter === "none" ? backoff : Math.floor(random() * backoff);
      policy.onRetry?.(error, attempt, delay);
      await sleep(delay, policy.signal);
    }
  }
}

function defaultSleep(ms: number, signal: AbortSignalLike | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(canceledError("retries were canceled", { cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(canceledError("retries were canceled", { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
