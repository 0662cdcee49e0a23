/**
 * Who holds a state lock and why: Terraform's `statemgr.LockInfo`, which both the local
 * backend (`.terraform.tfstate.lock.info`) and the pg backend record, so that each tool can
 * name the other's lock holder.
 */
export interface LockInfo {
  /** The lock's id (a UUID), what force-unlock takes. */
  readonly id: string;
  /** The operation holding the lock (`OperationTypeApply`, `OperationTypePlan`, …, or magma's own words). */
  readonly operation: string;
  /** Free-form extra information. */
  readonly info: string;
  /** `user@host` of the holder. */
  readonly who: string;
  /** The version of the tool holding the lock. */
  readonly version: string;
  /** When the lock was taken (RFC 3339 with nanoseconds, as Terraform writes it). */
  readonly created: string;
  /** The locked state's path or name. */
  readonly path: string;
}

/** What a caller says when it asks for a lock; the store fills in the rest of {@link LockInfo}. */
export interface LockRequest {
  /** The operation that will hold the lock. */
  readonly operation: string;
  /** Free-form extra information. Default "". */
  readonly info?: string;
}

/**
 * The state of one workspace in a backend: raw bytes in and out, plus its lock. The state
 * model (reading and writing state v4) sits above this and knows nothing of where the bytes
 * live.
 */
export interface StateStore {
  /** The workspace this store holds. */
  readonly workspace: string;
  /** The stored state file's bytes, or undefined when the workspace has no state yet. */
  read(): Promise<Uint8Array | undefined>;
  /** Replaces the stored state with `bytes`, durably, before the promise resolves. */
  write(bytes: Uint8Array): Promise<void>;
  /**
   * Optional compare-and-swap: replaces the stored state with `bytes` (durably, as
   * {@link write}) only when it still holds exactly `expected` (undefined: no state), and
   * resolves true; resolves false, writing nothing, when it holds anything else. `saveState`
   * uses it to write without reading and parsing the stored state each time: it remembers
   * what it wrote last, and a false here (another writer) sends it back to the full checks.
   */
  replace?(expected: Uint8Array | undefined, bytes: Uint8Array): Promise<boolean>;
  /**
   * Takes the workspace's lock and returns its id. Rejects with a `StateError` of code
   * `locked` naming the holder when another process or tool holds it.
   */
  lock(request: LockRequest): Promise<string>;
  /** Releases a lock this store took. Rejects when `id` does not match the held lock. */
  unlock(id: string): Promise<void>;
  /** Releases the lock with this id, whoever took it (Terraform's `force-unlock`). */
  forceUnlock(id: string): Promise<void>;
  /**
   * Optional: what is there to recover a corrupt stored state from (a journal, a backup), for
   * the `corrupt` error's message; undefined when there is nothing.
   */
  recoveryHint?(): string | undefined;
}

/** A place where states live, one per workspace ("default" always exists). */
export interface StateBackend {
  /** The names of the workspaces, "default" first, the rest sorted. */
  listWorkspaces(): Promise<string[]>;
  /** Deletes a workspace and its state; "default" cannot be deleted. */
  deleteWorkspace(name: string): Promise<void>;
  /** The store of one workspace (created on first write). */
  store(workspace: string): StateStore;
}
