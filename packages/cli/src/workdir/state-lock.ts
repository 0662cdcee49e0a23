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

export { parseBoolFlag, parseDuration } from "./flag-values.js";

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
