import { randomUUID } from "node:crypto";
import { closeSync, constants, existsSync, fstatSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, readSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { LockInfo, LockRequest, StateBackend, StateStore } from "../backend.js";
import { fcntlLocker } from "../internal/fcntl-lock.js";
import { goQuote } from "../internal/go-json.js";
import { decodeJournal, encodeJournal, sha256Hex } from "../internal/state-journal.js";
import { maybePause, nextStateWrite, pausesAt } from "../internal/state-write-pause.js";
import { StateError, isStateError } from "../state-error.js";
import { TERRAFORM_VERSION } from "../state-file.js";

/** Options of {@link createLocalBackend}. */
export interface LocalBackendOptions {
  /** The working directory (where terraform runs). */
  readonly dir: string;
  /** The default workspace's state file, relative to `dir`. Default `terraform.tfstate` (Terraform's `path`). */
  readonly path?: string;
  /** The directory of the other workspaces, relative to `dir`. Default `terraform.tfstate.d` (Terraform's `workspace_dir`). */
  readonly workspaceDir?: string;
  /** The version written into lock info. Default {@link TERRAFORM_VERSION}. */
  readonly version?: string;
  /**
   * Told (one sentence) when a read or write finds the journal of an interrupted write and
   * recovers from it. Default: `process.emitWarning` with code `MAGMA_STATE_RECOVERY`.
   */
  readonly onRecovery?: (message: string) => void;
}

/** What the journal left by an interrupted write means for the state file (see `decide`). */
type Recovery =
  | { readonly kind: "none" }
  | { readonly kind: "incomplete" }
  | { readonly kind: "done" }
  | { readonly kind: "stale" }
  | { readonly kind: "roll_forward"; readonly bytes: Uint8Array; readonly torn: boolean };

/** Whether `bytes` hold one complete JSON value (a torn state file never does). */
function completeJson(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  try {
    JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides, from the journal's and the state file's content, which state is the committed one.
 * A write commits when its complete journal is in place (renamed after fsync); the state file is
 * only touched after that, and the journal removed after the state file is fsynced.
 */
function decide(journalData: Uint8Array | undefined, state: Uint8Array, backup: Uint8Array | undefined): Recovery {
  if (journalData === undefined) return { kind: "none" };
  const journal = decodeJournal(journalData);
  // Torn or truncated journal: the write never committed, and the state file was not touched.
  if (journal === undefined) return { kind: "incomplete" };
  const stateSha = sha256Hex(state);
  // The state file was fully rewritten; only the journal's removal was missed.
  if (stateSha === sha256Hex(journal.bytes)) return { kind: "done" };
  // Committed, and the state file not touched yet.
  if (stateSha === journal.previousSha256) return { kind: "roll_forward", bytes: journal.bytes, torn: false };
  // Neither the old nor the new state: torn mid-rewrite, unless it is a complete state someone
  // else (terraform) wrote after the crash, which then supersedes the journal. (A prefix of the
  // new state that happens to be complete JSON, e.g. all but the final newline, is torn.)
  const prefixOfNew = state.length < journal.bytes.length && sameBytes(journal.bytes.subarray(0, state.length), state);
  // The in-place rewrite stopped part way over a longer or equal previous state: the new
  // state's first bytes, then the previous state's rest. That can be complete JSON (when the
  // two differ only after the cut, e.g. in the serial's digits and a resource added at the end)
  // and must not be taken for a state written since. Writes truncate the file first now, so
  // only a journal left by an older magma (which wrote over the old bytes, its backup being
  // the previous version) can meet this: the previous bytes are the backup's, trusted when they
  // hash to what the journal recorded.
  if (!prefixOfNew && backup !== undefined && splicedOver(state, journal.bytes, backup) && sha256Hex(backup) === journal.previousSha256) {
    return { kind: "roll_forward", bytes: journal.bytes, torn: true };
  }
  if (!prefixOfNew && completeJson(state)) return { kind: "stale" };
  return { kind: "roll_forward", bytes: journal.bytes, torn: true };
}

/** Whether `state` is `next`'s first bytes followed by the rest of `previous` (an in-place rewrite cut short). */
function splicedOver(state: Uint8Array, next: Uint8Array, previous: Uint8Array): boolean {
  if (state.length !== previous.length) return false;
  let k = 0;
  const n = Math.min(state.length, next.length);
  while (k < n && state[k] === next[k]) k++;
  return sameBytes(state.subarray(k), previous.subarray(k));
}

function readIfExists(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** A held lock of this process: the locked descriptor is the only one this process may use on the file. */
interface Held {
  readonly fd: number;
  readonly info: LockInfo;
  readonly owner: LocalStateStore;
  /** The state file did not exist before this lock opened (created) it. */
  readonly created: boolean;
}

// fcntl locks belong to the process: a second descriptor closed anywhere in the process
// releases them. So the process keeps one registry of what it holds, by absolute path.
const held = new Map<string, Held>();

const WORKSPACE_NAME = /^[A-Za-z0-9_.~-]+$/;

function ioError(what: string, e: unknown): StateError {
  if (isStateError(e)) return e;
  return new StateError("io", `${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

function rfc3339Nano(d: Date): string {
  // Go's time.RFC3339Nano: fractional seconds without trailing zeros.
  return d.toISOString().replace(/\.?0*Z$/, "Z");
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * fsync on libuv's thread pool: the write path awaits it instead of blocking the process, so
 * that provider calls (an apply's other objects) go on while a state write waits for the disk.
 * The order of the steps of a write is the same as with `fsyncSync`: each is awaited before the
 * next one starts.
 */
function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (e) => (e === null ? resolve() : reject(e))));
}

async function fsyncDirAsync(dir: string): Promise<void> {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The operations of this process on each state file (by absolute path), one after the other.
 * A write awaits its fsyncs, so without this a read, lock or unlock of the same file could run
 * in the middle of it: a read would find the journal of the write under way and "recover" it,
 * and an unlock would close the descriptor the write is using.
 */
const queues = new Map<string, Promise<void>>();

function serialized<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(path) ?? Promise.resolve()).then(fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(path, tail);
  void tail.then(() => {
    if (queues.get(path) === tail) queues.delete(path);
  });
  return run;
}

function readAll(fd: number): Uint8Array {
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off, off);
}

/** Writes `bytes` to `path` atomically: a temp file in the same directory, fsync, rename, fsync of the directory. */
async function writeAtomic(path: string, bytes: Uint8Array, mode = 0o644): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    writeAll(fd, bytes);
    await fsyncAsync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  await fsyncDirAsync(dirname(path));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * The state of one workspace in a local file, shared safely with Terraform's `local` backend:
 * the same files (`terraform.tfstate`, `terraform.tfstate.backup`,
 * `.terraform.tfstate.lock.info`) and the same lock, a POSIX `fcntl` write lock on the state
 * file itself, so terraform and magma exclude each other.
 */
export class LocalStateStore implements StateStore {
  /** The workspace this store holds. */
  readonly workspace: string;
  /** The state file's absolute path. */
  readonly path: string;
  /** The path recorded in lock info (relative to the working directory, as Terraform records it). */
  readonly displayPath: string;
  readonly #version: string;
  readonly #onRecovery: (message: string) => void;
  /** Whether this store wrote (or decided not to write) the backup: once, at its first write (terraform's backup is the state before the run). */
  #backedUp = false;

  /** Use {@link createLocalBackend}; this is for a single state file outside of a backend. */
  constructor(workspace: string, path: string, displayPath: string, version: string, onRecovery?: (message: string) => void) {
    this.workspace = workspace;
    this.path = resolve(path);
    this.displayPath = displayPath;
    this.#version = version;
    this.#onRecovery = onRecovery ?? ((message) => process.emitWarning(message, { code: "MAGMA_STATE_RECOVERY" }));
  }

  /**
   * `terraform.tfstate.backup`: the state as it was before this store's first write (the state
   * before the run, as terraform's local backend keeps it: one command's writes of serials
   * 4–7 leave the backup at 3); none when there was no state then.
   */
  get backupPath(): string {
    return `${this.path}.backup`;
  }

  /** `.terraform.tfstate.lock.info`: who holds the lock (Terraform's `lockInfoPath`). */
  get lockInfoPath(): string {
    const name = basename(this.path);
    return join(dirname(this.path), `.${name.startsWith(".") ? name.slice(1) : name}.lock.info`);
  }

  /** Where a write keeps the complete new state until the state file itself is written. */
  get journalPath(): string {
    return `${this.path}.magma-new`;
  }

  /**
   * The state file's bytes, or undefined when it is missing or empty (no state). When the
   * journal of an interrupted write is there, it is recovered first: under the lock (this
   * process's, or taken for the recovery) the state file is rolled forward from a complete
   * journal, and an incomplete or superseded journal is removed. When another process holds the
   * lock, nothing is rewritten: the committed state (the journal's, if the write committed) is
   * returned, and `onRecovery` says so.
   */
  read(): Promise<Uint8Array | undefined> {
    return serialized(this.path, () => this.#read());
  }

  async #read(): Promise<Uint8Array | undefined> {
    await Promise.resolve();
    const orNone = (bytes: Uint8Array): Uint8Array | undefined => (bytes.length === 0 ? undefined : bytes);
    try {
      const h = held.get(this.path);
      if (h !== undefined) {
        this.#recoverLocked(h.fd);
        return orNone(readAll(h.fd));
      }
      if (!existsSync(this.journalPath)) {
        if (!existsSync(this.path)) return undefined;
        return orNone(readFileSync(this.path));
      }
      const { fd } = this.#open();
      try {
        if (fcntlLocker().tryLock(fd)) {
          try {
            this.#recoverLocked(fd);
            return orNone(readAll(fd));
          } finally {
            fcntlLocker().unlock(fd);
          }
        }
        // Someone else holds the lock: recover in memory only.
        const state = readAll(fd);
        const r = decide(readIfExists(this.journalPath), state, readIfExists(this.backupPath));
        if (r.kind === "roll_forward") {
          this.#onRecovery(
            `the state file ${this.path} ${r.torn ? "is torn by" : "predates"} an interrupted write whose complete new state is in ${this.journalPath}; read that state without rewriting the file, because the lock is held by another process`,
          );
          return orNone(r.bytes);
        }
        return orNone(state);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw ioError(`cannot read the state file ${this.path}`, e);
    }
  }

  /** Recovers from the journal of an interrupted write, holding the lock on `fd`. */
  #recoverLocked(fd: number): void {
    const journalData = readIfExists(this.journalPath);
    if (journalData === undefined) return;
    const r = decide(journalData, readAll(fd), readIfExists(this.backupPath));
    switch (r.kind) {
      case "none":
        return;
      case "incomplete":
        this.#onRecovery(`removed the incomplete journal ${this.journalPath} of an interrupted write that never committed; the state file ${this.path} keeps the previous state`);
        break;
      case "stale":
        this.#onRecovery(`removed the journal ${this.journalPath} of an interrupted write: the state file ${this.path} was written since, and supersedes it`);
        break;
      case "done":
        break;
      case "roll_forward":
        // The backup already holds the previous version (it is written before the journal).
        writeAll(fd, r.bytes);
        ftruncateSync(fd, r.bytes.length);
        fsyncSync(fd);
        this.#onRecovery(`completed an interrupted write: the state file ${this.path}${r.torn ? " was torn and" : ""} is rewritten from the journal ${this.journalPath}`);
        break;
    }
    unlinkSync(this.journalPath);
    fsyncDir(dirname(this.path));
  }

  /**
   * What is there to recover a corrupt state from, for an error message: the journal of an
   * interrupted write and the backup, when they exist; undefined when neither does.
   */
  recoveryHint(): string | undefined {
    const parts: string[] = [];
    const journal = readIfExists(this.journalPath);
    if (journal !== undefined) {
      parts.push(
        decodeJournal(journal) === undefined
          ? `the journal ${this.journalPath} of an interrupted write is incomplete (not a usable state)`
          : `the journal ${this.journalPath} holds the complete state of an interrupted write (its trailing "MAGMAJ1" line is not part of the state)`,
      );
    }
    if (existsSync(this.backupPath)) parts.push(`the previous version is in ${this.backupPath}`);
    return parts.length === 0 ? undefined : parts.join("; ");
  }

  /**
   * Replaces the state file's bytes durably (journal, `.backup`, in-place write, fsync). Without
   * a lock of this store, the lock is taken for the duration of the write.
   *
   * @throws StateError `locked` when another process, tool or store holds the lock; `io`.
   */
  async write(bytes: Uint8Array): Promise<void> {
    await this.#write(bytes, false, undefined);
  }

  /**
   * {@link write} only when the state file still holds exactly `expected` (undefined or empty:
   * no state); resolves false, writing nothing, otherwise. The comparison is made under the
   * lock, on the bytes the write reads anyway (for the backup).
   *
   * @throws StateError `locked`, `io` as {@link write}.
   */
  async replace(expected: Uint8Array | undefined, bytes: Uint8Array): Promise<boolean> {
    return this.#write(bytes, true, expected);
  }

  #write(bytes: Uint8Array, compare: boolean, expected: Uint8Array | undefined): Promise<boolean> {
    return serialized(this.path, () => this.#writeSerialized(bytes, compare, expected));
  }

  async #writeSerialized(bytes: Uint8Array, compare: boolean, expected: Uint8Array | undefined): Promise<boolean> {
    await Promise.resolve();
    const h = held.get(this.path);
    if (h !== undefined) {
      if (h.owner !== this) throw this.#lockedError(undefined);
      return this.#writeLocked(h.fd, bytes, compare, expected);
    }
    // Not locked by this process: take the lock for the duration of the write, so a write
    // never lands while terraform (or another magma) holds it.
    const { fd } = this.#open();
    let locked = false;
    try {
      locked = fcntlLocker().tryLock(fd);
      if (!locked) throw this.#lockedError(fd);
      return await this.#writeLocked(fd, bytes, compare, expected);
    } finally {
      if (locked) fcntlLocker().unlock(fd);
      closeSync(fd);
    }
  }

  /**
   * Removes the temp files (of the backup, the journal) that a write killed before its rename
   * left behind. Only under the lock: no write of this state is under way then.
   */
  #removeLeftoversLocked(): void {
    const dir = dirname(this.path);
    const name = basename(this.path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const leftover = new RegExp(`^${name}\\.(?:backup\\.|magma-new\\.)?\\d+\\.[0-9a-f]{8}\\.tmp$`);
    for (const f of readdirSync(dir)) if (leftover.test(f)) rmSync(join(dir, f), { force: true });
  }

  async #writeLocked(fd: number, bytes: Uint8Array, compare: boolean, expected: Uint8Array | undefined): Promise<boolean> {
    try {
      this.#recoverLocked(fd);
      this.#removeLeftoversLocked();
      const previous = readAll(fd);
      if (compare && !sameBytes(previous, expected ?? new Uint8Array())) return false;
      if (sameBytes(previous, bytes)) return true;
      // The crash-test hook (MAGMA_TEST_STATE_WRITE_PAUSE): inert unless set.
      const n = nextStateWrite();
      maybePause(n, "begin");
      // Crash points: before the journal's rename, the state file is untouched (a leftover
      // temp file or an incomplete journal is ignored and removed); once the complete journal
      // is in place the write is committed, and the next read or write rolls the state file
      // forward from it (the backup is already the previous version then).
      // The backup is the state before the run: written at this store's first write only.
      if (!this.#backedUp && previous.length > 0) await writeAtomic(this.backupPath, previous);
      this.#backedUp = true;
      // The state file is written in place, like Terraform does: the lock is on its inode, and a
      // rename would leave a waiting terraform locking (and then writing) a detached inode.
      await writeAtomic(this.journalPath, encodeJournal(bytes, previous), 0o600);
      maybePause(n, "journal");
      // Truncated first, as terraform's: a write cut short leaves a prefix of the new state
      // (which the journal rolls forward), never the new state's start over the old one's rest.
      ftruncateSync(fd, 0);
      if (pausesAt(n, "torn")) {
        writeAll(fd, bytes.subarray(0, Math.floor(bytes.length / 2)));
        fsyncSync(fd);
        maybePause(n, "torn");
      }
      writeAll(fd, bytes);
      ftruncateSync(fd, bytes.length);
      await fsyncAsync(fd);
      maybePause(n, "written");
      unlinkSync(this.journalPath);
      await fsyncDirAsync(dirname(this.path));
      return true;
    } catch (e) {
      throw ioError(`cannot write the state file ${this.path}`, e);
    }
  }

  #open(): { fd: number } {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o755 });
      return { fd: openSync(this.path, constants.O_RDWR | constants.O_CREAT, 0o666) };
    } catch (e) {
      throw ioError(`cannot open the state file ${this.path}`, e);
    }
  }

  /** The lock info recorded next to the state, if readable. */
  readLockInfo(): LockInfo | undefined {
    let text: string;
    try {
      text = readFileSync(this.lockInfoPath, "utf8");
    } catch {
      return undefined;
    }
    try {
      const j = JSON.parse(text) as Record<string, unknown>;
      const s = (k: string): string => (typeof j[k] === "string" ? (j[k] as string) : "");
      return { id: s("ID"), operation: s("Operation"), info: s("Info"), who: s("Who"), version: s("Version"), created: s("Created"), path: s("Path") };
    } catch {
      return undefined;
    }
  }

  #lockedError(fd: number | undefined): StateError {
    const inProcess = held.get(this.path)?.info;
    const info = inProcess ?? this.readLockInfo();
    let pid: number | undefined;
    if (inProcess === undefined && fd !== undefined) {
      try {
        pid = fcntlLocker().holder(fd);
      } catch {
        pid = undefined;
      }
    }
    const by =
      info !== undefined && info.id !== ""
        ? `${info.who} (lock ID ${info.id}, operation ${JSON.stringify(info.operation)}, ${info.version}, created ${info.created}${info.info === "" ? "" : `, info ${JSON.stringify(info.info)}`})`
        : pid !== undefined
          ? `process ${pid}, which recorded no lock information`
          : "another holder, which recorded no lock information";
    return new StateError("locked", `the state ${this.path} is locked by ${by}${inProcess !== undefined ? " in this process" : ""}`, info === undefined ? {} : { detail: info });
  }

  /**
   * Takes Terraform's lock on the state file (fcntl) and records who holds it in
   * `.terraform.tfstate.lock.info`; returns the lock's id.
   *
   * @throws StateError `locked` naming the holder.
   */
  lock(request: LockRequest): Promise<string> {
    return serialized(this.path, () => this.#lock(request));
  }

  async #lock(request: LockRequest): Promise<string> {
    await Promise.resolve();
    if (held.has(this.path)) throw this.#lockedError(undefined);
    // As Terraform's statemgr.Filesystem (`created`): a state file this lock creates is removed at unlock if nothing was written to it.
    const created = !existsSync(this.path);
    const { fd } = this.#open();
    let ok = false;
    try {
      ok = fcntlLocker().tryLock(fd);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    if (!ok) {
      const err = this.#lockedError(fd);
      closeSync(fd);
      throw err;
    }
    const info: LockInfo = {
      id: randomUUID(),
      operation: request.operation,
      info: request.info ?? "",
      who: `${safeUser()}@${hostname()}`,
      version: this.#version,
      created: rfc3339Nano(new Date()),
      path: this.displayPath,
    };
    held.set(this.path, { fd, info, owner: this, created });
    try {
      // Go's json.Marshal of statemgr.LockInfo (field order, HTML-safe escaping).
      const fields: [string, string][] = [["ID", info.id], ["Operation", info.operation], ["Info", info.info], ["Who", info.who], ["Version", info.version], ["Created", info.created], ["Path", info.path]];
      const json = `{${fields.map(([k, v]) => `"${k}":${goQuote(v)}`).join(",")}}`;
      writeFileSync(this.lockInfoPath, json, { mode: 0o600 });
    } catch (e) {
      this.#release(fd);
      throw ioError(`cannot write the lock info ${this.lockInfoPath}`, e);
    }
    return info.id;
  }

  #release(fd: number): void {
    const created = held.get(this.path)?.created === true;
    held.delete(this.path);
    rmSync(this.lockInfoPath, { force: true });
    try {
      fcntlLocker().unlock(fd);
    } finally {
      closeSync(fd);
    }
    // A state file this lock created and nothing wrote to is removed after unlocking, as
    // Terraform's Unlock does (so `plan` leaves no empty terraform.tfstate behind). Like
    // Terraform's, this races with a process that opened the file in between (it would hold
    // a lock on the unlinked file); Terraform accepts that for a state that never existed.
    if (created) {
      try {
        if (statSync(this.path).size === 0) unlinkSync(this.path);
      } catch {
        // Gone already, or not ours to remove: nothing to clean up.
      }
    }
  }

  /**
   * Releases the lock this store took.
   *
   * @throws StateError `not_found` when this store holds no lock, `lock_id_mismatch` for another id.
   */
  unlock(id: string): Promise<void> {
    return serialized(this.path, () => this.#unlock(id));
  }

  async #unlock(id: string): Promise<void> {
    await Promise.resolve();
    const h = held.get(this.path);
    if (h === undefined || h.owner !== this) throw new StateError("not_found", `the state ${this.path} is not locked by this store`);
    if (h.info.id !== id) throw new StateError("lock_id_mismatch", `cannot unlock ${this.path}: lock ID ${JSON.stringify(id)} does not match the held lock ${JSON.stringify(h.info.id)}`, { detail: h.info });
    this.#release(h.fd);
  }

  /**
   * Terraform's `force-unlock` for a local state: releases this process's lock with that id,
   * or removes the lock info a dead holder left behind. A local lock held by a live process
   * cannot be broken (the operating system keeps it until that process ends): that is refused
   * with `locked`, naming the holder.
   */
  forceUnlock(id: string): Promise<void> {
    return serialized(this.path, () => this.#forceUnlock(id));
  }

  async #forceUnlock(id: string): Promise<void> {
    const h = held.get(this.path);
    if (h !== undefined) {
      if (h.info.id !== id) throw new StateError("lock_id_mismatch", `cannot force-unlock ${this.path}: lock ID ${JSON.stringify(id)} does not match the held lock ${JSON.stringify(h.info.id)}`, { detail: h.info });
      this.#release(h.fd);
      return;
    }
    await Promise.resolve();
    const info = this.readLockInfo();
    if (existsSync(this.path)) {
      const fd = openSync(this.path, constants.O_RDWR);
      try {
        const pid = fcntlLocker().holder(fd);
        if (pid !== undefined) {
          const err = this.#lockedError(fd);
          throw new StateError("locked", `${err.message.replace(/^\[locked\] /, "")}; process ${pid} holds it, and a local lock cannot be broken while its process lives`, info === undefined ? {} : { detail: info });
        }
      } finally {
        closeSync(fd);
      }
    }
    if (info === undefined) throw new StateError("not_found", `the state ${this.path} is not locked`);
    if (info.id !== id) throw new StateError("lock_id_mismatch", `cannot force-unlock ${this.path}: lock ID ${JSON.stringify(id)} does not match the recorded lock ${JSON.stringify(info.id)}`, { detail: info });
    rmSync(this.lockInfoPath, { force: true });
  }
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "";
  }
}

/** A {@link StateBackend} over local files, laid out as Terraform's `local` backend lays them out. */
export interface LocalBackend extends StateBackend {
  /** The store of one workspace. */
  store(workspace: string): LocalStateStore;
}

/**
 * Terraform's `local` backend: the default workspace in `<dir>/terraform.tfstate`, others in
 * `<dir>/terraform.tfstate.d/<name>/terraform.tfstate`.
 */
export function createLocalBackend(options: LocalBackendOptions): LocalBackend {
  const dir = resolve(options.dir);
  const statePath = options.path ?? "terraform.tfstate";
  const wsDir = options.workspaceDir ?? "terraform.tfstate.d";
  const version = options.version ?? TERRAFORM_VERSION;
  const onRecovery = options.onRecovery;
  const checkName = (name: string): void => {
    if (!WORKSPACE_NAME.test(name)) throw new StateError("invalid_argument", `invalid workspace name ${JSON.stringify(name)}: use letters, digits, "-", "_", "." and "~"`);
  };
  return {
    async listWorkspaces() {
      await Promise.resolve();
      let names: string[] = [];
      try {
        names = readdirSync(join(dir, wsDir), { withFileTypes: true })
          .filter((e) => e.isDirectory() && e.name !== "default")
          .map((e) => e.name);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw ioError(`cannot list ${join(dir, wsDir)}`, e);
      }
      return ["default", ...names.sort()];
    },
    async deleteWorkspace(name) {
      await Promise.resolve();
      checkName(name);
      if (name === "default") throw new StateError("invalid_argument", 'the "default" workspace cannot be deleted');
      const path = join(dir, wsDir, name);
      if (!existsSync(path)) throw new StateError("not_found", `workspace ${JSON.stringify(name)} does not exist`);
      const file = resolve(path, basename(statePath));
      if (held.has(file)) throw new StateError("locked", `workspace ${JSON.stringify(name)} is locked by this process`, { detail: held.get(file)!.info });
      rmSync(path, { recursive: true, force: true });
    },
    store(workspace) {
      checkName(workspace);
      if (workspace === "default") return new LocalStateStore(workspace, resolve(dir, statePath), statePath, version, onRecovery);
      const rel = join(wsDir, workspace, basename(statePath));
      return new LocalStateStore(workspace, join(dir, rel), rel, version, onRecovery);
    },
  };
}
