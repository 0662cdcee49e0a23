/**
 * The process groups a driver has started (a tool with the provider plugins it launched), so
 * that stopping the driver — Ctrl-C, `kill`, or an ordinary exit — does not leave terraform,
 * magma or their providers running.
 */
import type { EventEmitter } from "node:events";

/** Signals on which {@link killGroupsOnExit} kills the groups and ends the driver. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The live process groups, by the id of their leader (a child spawned with `detached: true`). */
export class ProcessGroups {
  private readonly live = new Set<number>();

  /** Records the group led by `pid`; the returned function forgets it (call it once the leader has exited). */
  add(pid: number): () => void {
    this.live.add(pid);
    return () => {
      this.live.delete(pid);
    };
  }

  /** The leaders' ids of the groups still recorded. */
  pids(): number[] {
    return [...this.live];
  }

  /**
   * Sends `signal` to every recorded group (the leader and everything it started that kept its
   * group) and forgets them. Synchronous, so it can run in an `exit` handler. Returns how many
   * groups were still there to signal.
   */
  killAll(signal: NodeJS.Signals = "SIGKILL"): number {
    let killed = 0;
    for (const pid of this.live) {
      try {
        process.kill(-pid, signal);
        killed++;
      } catch {
        // The group is gone already (ESRCH).
      }
    }
    this.live.clear();
    return killed;
  }
}

/** The groups of this process's tool runs (the real-world driver's children). */
export const liveProcessGroups = new ProcessGroups();

/** What {@link killGroupsOnExit} listens to and how it ends the process (`process` and `process.exit` unless a test gives others). */
export interface ExitHooks {
  readonly target?: Pick<EventEmitter, "on" | "off">;
  readonly exit?: (code: number) => void;
  /** Runs after the groups are killed on a signal, before exiting (e.g. removing the scratch directory). */
  readonly onSignal?: (signal: string) => void;
}

/**
 * Kills every group of `groups` with SIGKILL when the process exits or receives SIGINT,
 * SIGTERM or SIGHUP; on a signal it then runs `onSignal` and exits with 128 + the signal's
 * number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), as a shell reports a killed
 * process. Returns a function that removes the handlers.
 */
export function killGroupsOnExit(groups: ProcessGroups, hooks: ExitHooks = {}): () => void {
  const target = hooks.target ?? process;
  const exit = hooks.exit ?? ((code: number) => process.exit(code));
  const numbers: Record<(typeof STOP_SIGNALS)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
  const onExit = (): void => {
    groups.killAll("SIGKILL");
  };
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = (): void => {
      const killed = groups.killAll("SIGKILL");
      console.error(`${signal}: killed ${killed} process group${killed === 1 ? "" : "s"}`);
      try {
        hooks.onSignal?.(signal);
      } finally {
        exit(128 + numbers[signal]);
      }
    };
    target.on(signal, handler);
    return [signal, handler] as const;
  });
  target.on("exit", onExit);
  return () => {
    for (const [signal, handler] of handlers) target.off(signal, handler);
    target.off("exit", onExit);
  };
}
