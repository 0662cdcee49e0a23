import type { LockInfo, StateBackend } from "../backend.js";

/**
 * Terraform's pg backend, as `openPgBackend` opens it: one row per workspace in
 * `<schema_name>.states(id, name, data)`, locks as session-level advisory locks on the row id
 * (and on -1 while a workspace is created).
 */
export interface PgBackend extends StateBackend {
  /**
   * Who would keep `lock` on this workspace from succeeding right now: the holder of its
   * row's advisory lock, else the holder of the creation lock -1 (which, as in Terraform,
   * blocks every workspace), or undefined when nobody holds either.
   */
  lockHolder(workspace: string): Promise<LockInfo | undefined>;
  /** Closes the connection pool. Locks still held stay held (each on its own session) until unlocked. */
  close(): Promise<void>;
}

