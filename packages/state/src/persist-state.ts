import type { LockRequest, StateStore } from "./backend.js";
import { readStateFile } from "./read-state-file.js";
import { StateError, isStateError } from "./state-error.js";
import { TERRAFORM_VERSION, type StateFile } from "./state-file.js";
import { StateFormatter, type WriteStateFileOptions } from "./write-state-file.js";

/** What `saveState` last wrote to (or found unchanged in) a store: what the store holds, as far as this process knows. */
interface Written {
  readonly lineage: string;
  readonly serial: number;
  readonly terraformVersion: string;
  readonly bytes: Uint8Array;
  /** The bytes as text, from the line after `"serial"` on (lineage, outputs, resources, checks). */
  readonly body: string;
}

/** Per store: its formatter (remembering each instance object's text) and what was written last. */
interface StoreMemo {
  readonly formatter: StateFormatter;
  written: Written | undefined;
}

const memos = new WeakMap<StateStore, StoreMemo>();

function memoOf(store: StateStore): StoreMemo {
  let m = memos.get(store);
  if (m === undefined) {
    m = { formatter: new StateFormatter(), written: undefined };
    memos.set(store, m);
  }
  return m;
}

/** How many instance objects `saveState` has formatted for a store so far (tests: writes are incremental). @internal */
export function objectsFormattedFor(store: StateStore): number {
  return memos.get(store)?.formatter.objectsFormatted ?? 0;
}

/** The text after the `"serial": N,` line (every formatted state has it in its header). */
function bodyOf(text: string): string {
  const i = text.indexOf('\n  "lineage"');
  return i < 0 ? text : text.slice(i);
}

const encoder = new TextEncoder();

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
  const memo = memoOf(store);
  const terraformVersion = options.terraformVersion ?? TERRAFORM_VERSION;
  const last = memo.written;
  // The fast path: the store can compare-and-swap, and this process wrote (or read) what it
  // holds; anything unusual (another lineage, an older serial, another writer since) takes the
  // full path below, which reads the stored state and decides.
  if (last !== undefined && store.replace !== undefined && last.lineage === next.lineage && next.serial >= last.serial && last.terraformVersion === terraformVersion) {
    const serial = Math.max(next.serial, last.serial + 1);
    const text = memo.formatter.format({ ...next, serial }, options);
    const body = bodyOf(text);
    if (body === last.body) return { ...next, serial: last.serial, terraformVersion };
    const bytes = encoder.encode(text);
    let swapped: boolean;
    try {
      swapped = await store.replace(last.bytes, bytes);
    } catch (e) {
      memo.written = undefined;
      throw e;
    }
    if (swapped) {
      const written: StateFile = { ...next, serial, terraformVersion };
      memo.written = { lineage: next.lineage, serial, terraformVersion, bytes, body };
      return written;
    }
    memo.written = undefined;
  }
  return saveChecked(store, memo, next, options, terraformVersion);
}

/** `saveState` with the stored state read and checked first. */
async function saveChecked(store: StateStore, memo: StoreMemo, next: StateFile, options: WriteStateFileOptions, terraformVersion: string): Promise<StateFile> {
  memo.written = undefined;
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
    const norm = (f: StateFile): string => bodyOf(memo.formatter.format({ ...f, serial: 0, lineage: "" }));
    if (norm(current) === norm(next)) return current;
  }
  const serial = current === undefined ? Math.max(next.serial, 1) : Math.max(next.serial, current.serial + 1);
  const written: StateFile = { ...next, serial, terraformVersion };
  const text = memo.formatter.format(written, options);
  const bytes = encoder.encode(text);
  await store.write(bytes);
  memo.written = { lineage: written.lineage, serial, terraformVersion, bytes, body: bodyOf(text) };
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
