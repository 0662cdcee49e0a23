/**
 * The pg backend's implementation, kept apart from the public surface (./pg.ts) so that no
 * node-postgres type appears in the package's declarations.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { LockInfo, LockRequest, StateStore } from "../backend.js";
import type { PgBackend } from "./pg-backend.js";
import { StateError } from "../state-error.js";
import { maybePause, nextStateWrite } from "../internal/state-write-pause.js";
import { describeHolder, holderLockInfo, LOCK_APPLICATION_PREFIX, lockInfoComment, sessionLockId, type PgLockSession } from "./pg-lock-holder.js";

/** Terraform's defaults and names (`internal/backend/remote-state/pg`). */
const TABLE = "states";
const INDEX = "states_by_name";
/** The advisory lock key held while a workspace is created (no row yet). */
const CREATE_KEY = "-1";

/** The pg backend's options once read from the options and the environment. */
export interface ResolvedOptions {
  readonly connStr: string;
  readonly schemaName: string;
  readonly skipSchemaCreation: boolean;
  readonly skipTableCreation: boolean;
  readonly skipIndexCreation: boolean;
}

/** Go's RFC 3339 with nanoseconds, trailing zeros trimmed, as Terraform writes `Created`. */
function rfc3339Now(): string {
  const iso = new Date().toISOString(); // 2026-12-01T12:00:00.120Z
  return iso.replace(/\.(\d+)Z$/, (_, frac: string) => {
    const t = frac.replace(/0+$/, "");
    return t === "" ? "Z" : `.${t}Z`;
  });
}

/** A database failure as a `StateError` of code `io` naming what was being done (a `StateError` passes through). */
export function pgError(what: string, e: unknown): StateError {
  if (e instanceof StateError) return e;
  const m = e instanceof Error ? e.message : String(e);
  return new StateError("io", `pg backend: ${what}: ${m}`, { cause: e });
}

/** Postgres errors a concurrent `CREATE … IF NOT EXISTS` can still raise (duplicate catalog rows). */
export function isCreateRace(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "23505" || code === "42P06" || code === "42P07" || code === "42710";
}

/**
 * Terraform's pg backend: one row per workspace in `<schema_name>.states(id, name, data)`,
 * locks as session-level advisory locks on the row id (and on -1 while a workspace is created).
 */
export class PgBackendImpl implements PgBackend {
  /** The pool for reads, writes and lookups (locks use dedicated connections). */
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  private readonly options: ResolvedOptions;
  private readonly who: string;
  private readonly version: string;
  /** The quoted schema name, as Terraform quotes it (pq.QuoteIdentifier). */
  readonly schema: string;
  /** `<schema>.states`. */
  readonly table: string;
  /** @internal The locks this backend's stores hold, by workspace. */
  readonly held = new Map<string, HeldLock>();

  /** Use `openPgBackend`. */
  constructor(pool: pg.Pool, clientConfig: pg.ClientConfig, options: ResolvedOptions, who: string, version: string) {
    this.pool = pool;
    this.clientConfig = clientConfig;
    this.options = options;
    this.who = who;
    this.version = version;
    this.schema = pg.escapeIdentifier(options.schemaName.replace(/\0.*$/s, ""));
    this.table = `${this.schema}.${TABLE}`;
  }

  /** @internal Creates the schema, sequence, table and index as Terraform's `configure` does. */
  async prepare(): Promise<void> {
    const once = async (): Promise<void> => {
      if (!this.options.skipSchemaCreation) {
        // Terraform checks first, so that a role without CREATE on the database can still use an existing schema.
        const r = await this.pool.query<{ count: string }>("select count(1) from information_schema.schemata where schema_name = $1", [this.options.schemaName]);
        if (Number(r.rows[0]?.count ?? 0) < 1) await this.pool.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      }
      if (!this.options.skipTableCreation) {
        await this.pool.query("CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint");
        await this.pool.query(
          `CREATE TABLE IF NOT EXISTS ${this.table} (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`,
        );
      }
      if (!this.options.skipIndexCreation) {
        await this.pool.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${INDEX} ON ${this.table} (name)`);
      }
    };
    try {
      await once();
    } catch (e) {
      // Two processes creating the same objects at once: the loser's IF NOT EXISTS can still fail; the second pass sees them.
      if (!isCreateRace(e)) throw e;
      await once();
    }
  }

  /** The workspaces: "default" first, then the others as Terraform lists them (`ORDER BY name`). */
  async listWorkspaces(): Promise<string[]> {
    try {
      const r = await this.pool.query<{ name: string }>(`SELECT name FROM ${this.table} WHERE name != 'default' ORDER BY name`);
      return ["default", ...r.rows.map((row) => row.name)];
    } catch (e) {
      throw pgError("listing workspaces", e);
    }
  }

  /**
   * Deletes a workspace's row. Like Terraform's backend, it does not take the lock (the
   * caller should).
   *
   * @throws StateError `not_found` for "default", "" or a workspace with no row; `io` when the database fails.
   */
  async deleteWorkspace(name: string): Promise<void> {
    if (name === "default" || name === "") throw new StateError("not_found", `pg backend: can't delete default state`);
    let count: number | null;
    try {
      count = (await this.pool.query(`DELETE FROM ${this.table} WHERE name = $1`, [name])).rowCount;
    } catch (e) {
      throw pgError(`deleting workspace "${name}"`, e);
    }
    if (count === 0) throw new StateError("not_found", `pg backend: workspace "${name}" does not exist in ${this.table}`);
  }

  /** The store of one workspace. */
  store(workspace: string): StateStore {
    if (workspace === "") throw new StateError("not_found", "pg backend: the workspace name is empty");
    return new PgStateStoreImpl(this, workspace);
  }

  /**
   * Who would keep `lock` on this workspace from succeeding right now: the holder of its row's
   * advisory lock, else the holder of the creation lock -1 (which, as in Terraform, blocks
   * every workspace), or undefined when nobody holds either.
   */
  async lockHolder(workspace: string): Promise<LockInfo | undefined> {
    try {
      const rowKey = await this.rowKey(workspace);
      for (const key of rowKey !== undefined ? [rowKey, CREATE_KEY] : [CREATE_KEY]) {
        const s = (await this.holders(key))[0];
        if (s !== undefined) return holderLockInfo(s, key);
      }
      return undefined;
    } catch (e) {
      throw pgError(`looking up the lock holder of workspace "${workspace}"`, e);
    }
  }

  /** Closes the pool. Locks held by stores stay held until they are unlocked. */
  async close(): Promise<void> {
    await this.pool.end();
  }

  /** @internal */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, values);
  }

  /** @internal A fresh connection for one lock, named so that other sessions can tell who holds it. */
  async lockClient(id: string): Promise<pg.Client> {
    const client = new pg.Client({ ...this.clientConfig, application_name: `${LOCK_APPLICATION_PREFIX}${id}` });
    await client.connect();
    return client;
  }

  /** @internal The row id of a workspace as an advisory lock key, or undefined when it has no row. */
  async rowKey(workspace: string): Promise<string | undefined> {
    const r = await this.pool.query<{ id: string }>(`SELECT id FROM ${this.table} WHERE name = $1`, [workspace]);
    return r.rows[0]?.id;
  }

  /** @internal The sessions holding the advisory lock `key` in this database. */
  async holders(key: string): Promise<PgLockSession[]> {
    const r = await this.pool.query<{
      pid: number;
      usename: string | null;
      application_name: string | null;
      client_addr: string | null;
      backend_start: Date | null;
      query: string | null;
    }>(
      `SELECT l.pid, a.usename, a.application_name, host(a.client_addr) AS client_addr, a.backend_start, a.query
         FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((l.classid::bigint << 32) | l.objid::bigint) = $1::bigint`,
      [key],
    );
    return r.rows.map((row) => ({
      pid: row.pid,
      user: row.usename,
      applicationName: row.application_name,
      clientAddr: row.client_addr,
      backendStart: row.backend_start,
      query: row.query,
    }));
  }

  /** @internal The lock info of a new lock. */
  newLockInfo(request: LockRequest): LockInfo {
    return { id: randomUUID(), operation: request.operation, info: request.info ?? "", who: this.who, version: this.version, created: rfc3339Now(), path: "" };
  }
}

/** A lock this store holds: its info, its advisory key and the session that holds it. */
interface HeldLock {
  readonly info: LockInfo;
  readonly key: string;
  readonly client: pg.Client;
  /** Set when the session broke: the lock went with it. */
  lost: Error | undefined;
}

/**
 * One workspace of a {@link PgBackend}: its row's `data` column, and its lock. The lock is a
 * session-level advisory lock held on a connection of its own, so a process that dies
 * releases it with its session.
 */
export class PgStateStoreImpl implements StateStore {
  readonly workspace: string;
  private readonly backend: PgBackendImpl;

  /** Use `PgBackendImpl.store`. */
  constructor(backend: PgBackendImpl, workspace: string) {
    this.backend = backend;
    this.workspace = workspace;
  }

  /** The lock this backend holds on the workspace (any store of it may release it). */
  private get held(): HeldLock | undefined {
    return this.backend.held.get(this.workspace);
  }
  private set held(h: HeldLock | undefined) {
    if (h === undefined) this.backend.held.delete(this.workspace);
    else this.backend.held.set(this.workspace, h);
  }

  /** The workspace's state bytes (the `data` column as UTF-8), or undefined when it has no row or a NULL `data`. */
  async read(): Promise<Uint8Array | undefined> {
    let r: pg.QueryResult<{ data: string | null }>;
    try {
      r = await this.backend.query<{ data: string | null }>(`SELECT data FROM ${this.backend.table} WHERE name = $1`, [this.workspace]);
    } catch (e) {
      throw pgError(`reading workspace "${this.workspace}"`, e);
    }
    const data = r.rows[0]?.data;
    return data === undefined || data === null ? undefined : new Uint8Array(Buffer.from(data, "utf8"));
  }

  /**
   * Stores `bytes` as the workspace's `data` (Terraform's upsert); committed when it resolves.
   *
   * @throws StateError `corrupt` when the bytes are not UTF-8 text without NUL (a `text` column holds nothing else); `io` when the database fails.
   */
  async write(bytes: Uint8Array): Promise<void> {
    const text = this.#text(bytes);
    const t = this.backend.table;
    // The crash-test hook (MAGMA_TEST_STATE_WRITE_PAUSE): inert unless set.
    const n = nextStateWrite();
    maybePause(n, "begin");
    try {
      await this.backend.query(`INSERT INTO ${t} (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE ${TABLE}.name = $1`, [this.workspace, text]);
    } catch (e) {
      throw pgError(`writing workspace "${this.workspace}"`, e);
    }
    maybePause(n, "written");
  }

  /**
   * Compare-and-swap: stores `bytes` only when `data` still holds exactly `expected` (undefined:
   * no row, or a NULL `data`), in one statement; resolves whether it did.
   *
   * @throws StateError as {@link write}.
   */
  async replace(expected: Uint8Array | undefined, bytes: Uint8Array): Promise<boolean> {
    const text = this.#text(bytes);
    const t = this.backend.table;
    let r: pg.QueryResult;
    // The crash-test hook (MAGMA_TEST_STATE_WRITE_PAUSE): inert unless set.
    const n = nextStateWrite();
    maybePause(n, "begin");
    try {
      r =
        expected === undefined
          ? await this.backend.query(`INSERT INTO ${t} (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE ${TABLE}.name = $1 AND ${TABLE}.data IS NULL`, [this.workspace, text])
          : await this.backend.query(`UPDATE ${t} SET data = $2 WHERE name = $1 AND data = $3`, [this.workspace, text, Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength).toString("utf8")]);
    } catch (e) {
      throw pgError(`writing workspace "${this.workspace}"`, e);
    }
    if (r.rowCount === 1) maybePause(n, "written");
    return r.rowCount === 1;
  }

  /** The bytes as the `text` column holds them. */
  #text(bytes: Uint8Array): string {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new StateError("corrupt", `pg backend: the state for workspace "${this.workspace}" is not valid UTF-8; nothing was written`);
    }
    if (text.includes("\0")) throw new StateError("corrupt", `pg backend: the state for workspace "${this.workspace}" contains a NUL byte; nothing was written`);
    return text;
  }

  /**
   * Takes the workspace's lock as Terraform does: the advisory lock on the row id together
   * with the creation lock -1 (released again at once), or only -1 while the workspace has no
   * row. The lock lives on a dedicated connection until {@link unlock}.
   *
   * @throws StateError `locked` with the holder's {@link LockInfo} when another session holds either lock; `io` when the database fails.
   */
  async lock(request: LockRequest): Promise<string> {
    if (this.held !== undefined) {
      throw new StateError("locked", `pg backend: workspace "${this.workspace}" is already locked by this process (${describeHolder(this.held.info)})`, { detail: this.held.info });
    }
    let info = this.backend.newLockInfo(request);
    let client: pg.Client;
    try {
      client = await this.backend.lockClient(info.id);
    } catch (e) {
      throw pgError(`connecting to lock workspace "${this.workspace}"`, e);
    }
    const lost: { error: Error | undefined } = { error: undefined };
    client.on("error", (e: Error) => {
      lost.error = e;
      if (this.held?.client === client) this.held.lost = e;
    });
    const q = async <R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]> => (await client.query<R>(lockInfoComment(info) + sql, values)).rows;
    const t = this.backend.table;
    // A holder can let go between our failed try and the look-up of who holds it: then try again.
    for (let attempt = 0; ; attempt++) {
      let failure: { key: string; message: string } | undefined;
      let key: string | undefined;
      try {
        const rows = await q<{ id: string; did_lock: boolean; did_lock_create: boolean }>(
          `SELECT ${TABLE}.id::text AS id, pg_try_advisory_lock(${TABLE}.id) AS did_lock, pg_try_advisory_lock(${CREATE_KEY}) AS did_lock_create FROM ${t} WHERE ${TABLE}.name = $1`,
          [this.workspace],
        );
        const row = rows[0];
        if (row === undefined) {
          // No row: the workspace is being created; take only the creation lock.
          const [c] = await q<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${CREATE_KEY}) AS ok`);
          if (c?.ok === true) key = CREATE_KEY;
          else failure = { key: CREATE_KEY, message: `already locked for workspace creation` };
        } else if (!row.did_lock) {
          if (row.did_lock_create) await q(`SELECT pg_advisory_unlock(${CREATE_KEY})`);
          failure = { key: row.id, message: `workspace is already locked` };
        } else if (!row.did_lock_create) {
          await q(`SELECT pg_advisory_unlock($1::bigint)`, [row.id]);
          failure = { key: CREATE_KEY, message: `cannot lock workspace; already locked for workspace creation` };
        } else {
          await q(`SELECT pg_advisory_unlock(${CREATE_KEY})`);
          key = row.id;
        }
        if (key !== undefined) {
          info = { ...info, path: key };
          // Publish the final info (with the key) as the session's last statement.
          await q("SELECT 1");
          this.held = { info, key, client, lost: lost.error };
          return info.id;
        }
      } catch (e) {
        await client.end().catch(() => undefined);
        throw pgError(`locking workspace "${this.workspace}"`, e);
      }
      const holders = await this.backend.holders(failure!.key).catch(() => []);
      const holder = holders[0];
      if (holder !== undefined || attempt >= 2) {
        await client.end().catch(() => undefined);
        const hinfo = holder !== undefined ? holderLockInfo(holder, failure!.key) : undefined;
        const who = hinfo !== undefined ? `held by ${describeHolder(hinfo)}` : "the holder let go before it could be named; try again";
        throw new StateError(
          "locked",
          `pg backend: ${failure!.message}: workspace "${this.workspace}" in ${t} (Postgres advisory lock ${failure!.key}) is ${who}`,
          hinfo === undefined ? {} : { detail: hinfo },
        );
      }
    }
  }

  /**
   * Releases the lock this store holds and closes its session.
   *
   * @throws StateError `not_found` when this store holds no lock of that id; `io` when the lock's session broke while it was held (the lock was lost with it).
   */
  async unlock(id: string): Promise<void> {
    const held = this.held;
    if (held === undefined || held.info.id !== id) {
      throw new StateError("not_found", `pg backend: workspace "${this.workspace}" holds no lock with id ${id} taken through this backend${held !== undefined ? ` (it holds ${held.info.id})` : ""}`);
    }
    this.held = undefined;
    if (held.lost !== undefined) {
      await held.client.end().catch(() => undefined);
      throw new StateError("io", `pg backend: the session holding lock ${id} on workspace "${this.workspace}" broke while the lock was held (${held.lost.message}); the lock was released with it`);
    }
    try {
      await held.client.query(lockInfoComment(held.info) + "SELECT pg_advisory_unlock($1::bigint)", [held.key]);
    } catch (e) {
      await held.client.end().catch(() => undefined);
      throw pgError(`unlocking workspace "${this.workspace}" (its session is closed, which released the lock)`, e);
    }
    await held.client.end().catch(() => undefined);
  }

  /**
   * Releases the lock with this id, whoever holds it. An advisory lock can only be released
   * by its own session, so this ends that session (`pg_terminate_backend`), which needs the
   * same role as the holder, membership of `pg_signal_backend`, or a superuser. `id` is a
   * magma lock id (as its error named it) or, for a holder that recorded none (terraform),
   * the `pg-backend-pid-<pid>` id the `locked` error named.
   *
   * @throws StateError `not_found` when no session holds this workspace's lock under that id; `io` when the database fails or refuses.
   */
  async forceUnlock(id: string): Promise<void> {
    if (this.held?.info.id === id) return this.unlock(id);
    try {
      const rowKey = await this.backend.rowKey(this.workspace);
      const keys = rowKey !== undefined ? [rowKey, CREATE_KEY] : [CREATE_KEY];
      for (const key of keys) {
        for (const s of await this.backend.holders(key)) {
          const matches = holderLockInfo(s, key).id === id || s.applicationName === `${LOCK_APPLICATION_PREFIX}${id}` || sessionLockId(s.pid) === id;
          if (!matches) continue;
          const r = await this.backend.query<{ ok: boolean }>("SELECT pg_terminate_backend($1) AS ok", [s.pid]);
          if (r.rows[0]?.ok !== true) throw new StateError("io", `pg backend: could not end Postgres session ${s.pid} holding lock ${id}`);
          await this.waitGone(key, s.pid);
          return;
        }
      }
    } catch (e) {
      throw pgError(`force-unlocking workspace "${this.workspace}"`, e);
    }
    throw new StateError("not_found", `pg backend: no session holds the lock of workspace "${this.workspace}" with id ${id}`);
  }

  /** Waits (up to 30 s) until session `pid` no longer holds advisory lock `key`. */
  private async waitGone(key: string, pid: number): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (!(await this.backend.holders(key)).some((s) => s.pid === pid)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new StateError("io", `pg backend: Postgres session ${pid} was told to end but still holds advisory lock ${key} after 30s`);
  }
}
