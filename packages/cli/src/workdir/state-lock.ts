import { copyFileSync, existsSync } from "node:fs";
import { isStateError, loadState, saveState, StateError, type LockRequest, type StateFile, type StateStore } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";

/** How a command takes the state lock: Terraform's `-lock` and `-lock-timeout`. */
export interface LockSettings {
  /** `-lock=false` turns locking off (not recommended, as Terraform says). Default true. */
  readonly lock: boolean;
  /** `-lock-timeout`: how long to retry a held lock, in milliseconds. Default 0. */
  readonly timeoutMs: number;
}

/**
 * Parses a Go duration as Terraform's `-lock-timeout` takes it (`0s`, `10s`, `1m30s`, `500ms`).
 *
 * @throws CliError `usage` for anything else.
 */
export function parseDuration(flag: string, text: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  if (text === "0") return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * units[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos === 0 || pos !== text.length) throw new CliError(CliErrorCode.Usage, `${flag}: invalid duration ${JSON.stringify(text)} (e.g. 10s, 1m30s)`);
  return total;
}

/** Parses Terraform's boolean flag values (`-lock=false`, `-force`). */
export function parseBoolFlag(flag: string, value: string | boolean | undefined, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  if (typeof value === "boolean") return value;
  if (/^(1|t|true|T|TRUE|True)$/.test(value)) return true;
  if (/^(0|f|false|F|FALSE|False)$/.test(value)) return false;
  throw new CliError(CliErrorCode.Usage, `${flag}: invalid boolean value ${JSON.stringify(value)}`);
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason instanceof Error ? signal.reason : new Error("interrupted"));
      },
      { once: true },
    );
  });

/**
 * Takes the store's lock, retrying a held lock until `timeoutMs` has passed (Terraform's
 * `-lock-timeout`), and returns the release function (a no-op when locking is off).
 *
 * @throws StateError `locked` naming the holder when the lock is still held at the deadline.
 */
export async function acquireLock(store: StateStore, request: LockRequest, settings: LockSettings, signal?: AbortSignal): Promise<() => Promise<void>> {
  if (!settings.lock) return async () => {};
  const deadline = Date.now() + settings.timeoutMs;
  let wait = 100;
  for (;;) {
    try {
      const id = await store.lock(request);
      return () => store.unlock(id);
    } catch (e) {
      if (!isStateError(e) || e.code !== "locked" || Date.now() >= deadline) throw e;
      await sleep(Math.min(wait, Math.max(0, deadline - Date.now())), signal);
      wait = Math.min(wait * 2, 2000);
    }
  }
}

/** Options of {@link changeState}. */
export interface ChangeStateOptions {
  /** The operation recorded in the lock info. */
  readonly operation: string;
  /** Locking (`-lock`, `-lock-timeout`). */
  readonly lock: LockSettings;
  /**
   * Where to copy the state before changing it (Terraform's `-backup`); undefined for no copy.
   * Only local stores have a file to copy.
   */
  readonly backupPath?: string;
  /** Cancels a lock wait. */
  readonly signal?: AbortSignal;
}

/**
 * Reads a workspace's state under its lock, lets `change` edit it, and saves the result
 * with Terraform's rules (same lineage, serial bumped when the content changed); the
 * previous state file is copied to `backupPath` first. `change` returns undefined to leave
 * the state as it is.
 *
 * @throws CliError `not_found` when the workspace has no state ("No state file was found!");
 *   StateError `locked` / `lineage_mismatch` / `serial_regression` from the store.
 */
export async function changeState(store: StateStore, options: ChangeStateOptions, change: (state: StateFile) => StateFile | undefined): Promise<StateFile> {
  const release = await acquireLock(store, { operation: options.operation }, options.lock, options.signal);
  let failed = false;
  try {
    const state = await loadState(store);
    if (state === undefined) throw noStateError();
    const next = change(state);
    if (next === undefined) return state;
    const file = (store as { path?: unknown }).path;
    if (options.backupPath !== undefined && typeof file === "string" && existsSync(file)) copyFileSync(file, options.backupPath);
    return await saveState(store, next);
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    try {
      await release();
    } catch (e) {
      if (!failed) throw isStateError(e) ? e : new StateError("io", "cannot release the state lock", { cause: e });
    }
  }
}

/** Terraform's "No state file was found!" error of the state commands. */
export function noStateError(): CliError {
  return new CliError(CliErrorCode.NotFound, "No state file was found!", {
    detail:
      "State management commands require a state file. Run this command\nin a directory where Terraform has been run or use the -state flag\nto point the command to a specific state location.",
  });
}
