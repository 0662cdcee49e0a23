/** Terraform's interval of `apply_progress` messages: 10 seconds. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 10_000;

/** A running object's clock: reports progress on an interval until stopped. */
export interface ObjectProgress {
  /** Stops the reports; returns the whole seconds elapsed since the start. */
  stop(): number;
}

/**
 * Starts the clock of one object's operation: every `intervalMs` (not at all when it is 0)
 * `report` is called with the whole seconds elapsed. The timer does not keep the process
 * alive. Elapsed time is measured with `performance.now()`, never by counting ticks, so a
 * late timer on a loaded machine reports the real elapsed time.
 */
export function startObjectProgress(intervalMs: number, report: (elapsedSeconds: number) => void): ObjectProgress {
  const started = performance.now();
  const elapsed = (): number => Math.floor((performance.now() - started) / 1000);
  const timer = intervalMs > 0 ? setInterval(() => report(elapsed()), intervalMs) : undefined;
  timer?.unref();
  return {
    stop(): number {
      if (timer !== undefined) clearInterval(timer);
      return elapsed();
    },
  };
}
