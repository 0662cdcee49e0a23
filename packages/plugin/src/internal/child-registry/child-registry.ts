import { rmSync } from "node:fs";

/**
 * A live plugin process the host must not leave behind.
 *
 * @internal
 */
export type LiveChild = {
  /** The process id, SIGKILLed at host exit when `kill` is true. */
  readonly pid: number;
  /** Whether the host owns the process (launched, not reattached in test mode). */
  readonly kill: boolean;
  /** Files and directories to remove at host exit (socket file, private socket directory); may grow. */
  readonly paths: string[];
};

const live = new Set<LiveChild>();
let installed = false;

/** The signals after which no plugin process may survive the host. */
const SIGNALS = ["SIGINT", "SIGTERM"] as const;
type HandledSignal = (typeof SIGNALS)[number];

/**
 * Registers a live plugin process; the returned function unregisters it (call it once the
 * process has exited and its files were removed).
 *
 * The first registration installs the host hooks (lazily, so merely importing this package
 * changes nothing); they are removed again when the last child is unregistered:
 *
 * - `process.on("exit")` — runs on a normal end, on `process.exit()`, and also after an
 *   uncaught exception or unhandled rejection (Node emits `exit` on its way out), so no
 *   `uncaughtException` listener is needed (adding one would change the host's crash
 *   behaviour). It synchronously SIGKILLs every remaining child and `rmSync`s its files.
 * - `SIGINT` and `SIGTERM` listeners. A Node process has a default action for these (die
 *   by the signal) only while nobody listens; our listener therefore acts only when it is
 *   the *sole* listener at delivery time: it cleans up as on exit, removes itself, and
 *   re-raises the signal so the host dies by it exactly as it would have without us (the
 *   shell sees 128+n). When the host has its own listener, the signal is the host's to
 *   handle: we do nothing then (it may shut down gracefully, closing its plugins), and the
 *   `exit` hook still cleans up whenever the host process ends. Plugins ignore SIGINT, so
 *   a Ctrl-C that reaches the whole process group alone would leave them running.
 *
 * @internal
 */
export function registerLiveChild(child: LiveChild): () => void {
  live.add(child);
  install();
  return () => {
    live.delete(child);
    if (live.size === 0) uninstall();
  };
}

/**
 * The number of registered live children (for tests and diagnostics).
 *
 * @internal
 */
export function liveChildCount(): number {
  return live.size;
}

/**
 * Synchronously kills every registered child the host owns and removes its files.
 *
 * @internal
 */
export function cleanupAllSync(): void {
  for (const child of live) {
    if (child.kill) {
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    for (const path of child.paths) {
      try {
        rmSync(path, { recursive: true, force: true });
      } catch {
        // Nothing more can be done while the host exits.
      }
    }
  }
  live.clear();
}

function onExit(): void {
  cleanupAllSync();
}

const signalListeners: Record<HandledSignal, () => void> = {
  SIGINT: () => onSignal("SIGINT"),
  SIGTERM: () => onSignal("SIGTERM"),
};

function onSignal(signal: HandledSignal): void {
  if (process.listenerCount(signal) > 1) return; // The host handles this signal itself.
  cleanupAllSync();
  uninstall();
  // With no listener left, Node restores the default action: die by the signal.
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", onExit);
  for (const signal of SIGNALS) process.on(signal, signalListeners[signal]);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", onExit);
  for (const signal of SIGNALS) process.off(signal, signalListeners[signal]);
}
