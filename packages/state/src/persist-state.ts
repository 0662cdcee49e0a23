import type { LockRequest, StateStore } from "./backend.js";
import { readStateFile } from "./read-state-file.js";
import { StateError, isStateError } from "./state-error.js";
import { TERRAFORM_VERSION, type StateFile } from "./state-file.js";
import { formatStateFile, writeStateFile, type WriteStateFileOptions } from "./write-state-file.js";

/**
 * Reads and parses the state a store holds; undefined when it has none.
 *
 * @throws StateError `corrupt` / `unsupported_version` (the stored bytes are left as they are;
 *   a `corrupt` error names the store's journal and backup when they exist).
 */
export async function loadState(store: StateStore): Promise<StateFile | undefined> {
  const bytes = await store.read();
  if (bytes === undefined) return undefined;
  try {
    return readStateFile(bytes, { source: `the state of workspace ${JSON.stringify(store.workspace)}` });
  } catch (e) {
    const hint = isStateError(e) && e.code === "corrupt" ? store.recoveryHint?.() : undefined;
    if (hint === undefined || !isStateError(e)) throw e;
    throw new StateError("corrupt", `${e.message.replace(/^\[corrupt\] /, "")} (left untouched; ${hint})`, { cause: e });
  }
}

function sameContent(a: StateFile, b: StateFile): boolean {
  const norm = (f: StateFile): string => formatStateFile({ ...f, serial: 0, lineage: "" });
  return norm(a) === norm(b);
}

/**
 * Saves `next` into `store` under Terraform's rules: the stored state is read first and must
 * parse (a corrupt or unsupported state is never overwritten), must be of the same lineage,
 * and must not have a higher serial than `next` (someone else wrote in between). When the
 * content is unchanged nothing is written; otherwise the serial written is one more than the
 * stored one (or `next.serial` if that is higher already). Returns the state as stored.
 *
 * Call it while holding the store's lock (see {@link withStateLock}).
 *
 * @throws StateError `corrupt`, `unsupported_version`, `lineage_mismatch`, `serial_regression`, `locked`, `io`.
 */
export async function saveState(store: StateStore, next: StateFile, options: WriteStateFileOptions = {}): Promise<StateFile> {
  const current = await loadState(store);
  if (current !== undefined) {
    if (current.lineage !== next.lineage) {
      throw new StateError(
        "lineage_mismatch",
        `refusing to overwrite the state of workspace ${JSON.stringify(store.workspace)}: it has lineage ${JSON.stringify(current.lineage)}, and the state to write has lineage ${JSON.stringify(next.lineage)} (an unrelated state)`,
      );
    }
    if (next.serial < current.serial) {
      throw new StateError(
        "serial_regression",
        `refusing to overwrite the state of workspace ${JSON.stringify(store.workspace)}: it has serial ${current.serial}, newer than the serial ${next.serial} of the state to write (it changed since it was read)`,
      );
    }
    if (sameContent(current, next)) return current;
  }
  const serial = current === undefined ? Math.max(next.serial, 1) : Math.max(next.serial, current.serial + 1);
  const written: StateFile = { ...next, serial, terraformVersion: options.terraformVersion ?? TERRAFORM_VERSION };
  await store.write(writeStateFile(written, options));
  return written;
}

/**
 * Runs `fn` while holding the store's lock, and releases it afterwards (also when `fn` throws).
 *
 * @throws StateError `locked` naming the holder when the state is locked elsewhere.
 */
export async function withStateLock<T>(store: StateStore, request: LockRequest, fn: () => Promise<T>): Promise<T> {
  const id = await store.lock(request);
  let failed = false;
  try {
    return await fn();
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    try {
      await store.unlock(id);
    } catch (e) {
      // An unlock failure must not hide fn's own error.
      if (!failed) throw isStateError(e) ? e : new StateError("io", `cannot release the state lock ${id}`, { cause: e });
    }
  }
}
