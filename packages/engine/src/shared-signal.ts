import { setMaxListeners } from "node:events";

/**
 * The signal one engine operation hands to all of its concurrent provider calls: it follows
 * the caller's `signal` (aborted when it is) and takes any number of listeners.
 *
 * Every call in flight listens to the signal it was given for as long as it runs, so a walk at
 * parallelism 10 plus the engine's own listeners passes node's default of 10 listeners per
 * signal, and node then prints a `MaxListenersExceededWarning` ("Possible EventTarget memory
 * leak detected") on the user's stderr. The count is bounded by the parallelism, not a leak;
 * the limit is lifted on a signal of the engine's own rather than on the caller's.
 *
 * @internal
 */
export function sharedSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const shared = AbortSignal.any([signal]);
  setMaxListeners(0, shared);
  return shared;
}
