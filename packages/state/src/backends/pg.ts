import { readFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { StateError } from "../state-error.js";
import type { ResolvedOptions } from "./pg-backend-impl.js";
import type { PgBackend } from "./pg-backend.js";
import { pgClientConfig } from "./pg-connection.js";

export type { PgBackend } from "./pg-backend.js";

/** Terraform's default `schema_name`. */
const DEFAULT_SCHEMA = "terraform_remote_state";

/**
 * The options of the pg backend: those of Terraform's `backend "pg"` block. Each one left out
 * is taken, as Terraform does, from its environment variable (`PG_CONN_STR`,
 * `PG_SCHEMA_NAME`, `PG_SKIP_SCHEMA_CREATION`, `PG_SKIP_TABLE_CREATION`,
 * `PG_SKIP_INDEX_CREATION`), and the connection string from the libpq variables (`PGHOST`,
 * `PGUSER`, `PGPASSWORD`, …) where it leaves something out.
 */
export interface PgBackendOptions {
  /** `conn_str`: a `postgres://` URL or libpq `key=value` pairs. */
  readonly connStr?: string;
  /** `schema_name`: the schema holding the `states` table. Default `terraform_remote_state`. */
  readonly schemaName?: string;
  /** `skip_schema_creation`: don't create the schema. Default false. */
  readonly skipSchemaCreation?: boolean;
  /** `skip_table_creation`: don't create the sequence and table. Default false. */
  readonly skipTableCreation?: boolean;
  /** `skip_index_creation`: don't create the `states_by_name` index. Default false. */
  readonly skipIndexCreation?: boolean;
  /** Where the environment variables are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The `who` of locks this process takes. Default `user@hostname`. */
  readonly who?: string;
  /** The `version` of locks this process takes. Default this package's version. */
  readonly version?: string;
}

function envBool(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const v = env[name];
  if (v === undefined || v === "") return false;
  // Go's strconv.ParseBool, which Terraform's schema uses for these variables.
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  throw new StateError("io", `pg backend: ${name}="${v}" is not a boolean (use true or false)`);
}

function resolveOptions(o: PgBackendOptions, env: Readonly<Record<string, string | undefined>>): ResolvedOptions {
  const connStr = o.connStr ?? env["PG_CONN_STR"] ?? "";
  if (connStr === "" && env["PGHOST"] === undefined && env["PGDATABASE"] === undefined) {
    throw new StateError("io", 'pg backend: no connection string: set conn_str (or PG_CONN_STR), e.g. "postgres://user@db.example.com/terraform_backend"');
  }
  const schemaName = o.schemaName ?? env["PG_SCHEMA_NAME"] ?? DEFAULT_SCHEMA;
  if (schemaName === "") throw new StateError("io", "pg backend: schema_name is empty");
  return {
    connStr,
    schemaName,
    skipSchemaCreation: o.skipSchemaCreation ?? envBool(env, "PG_SKIP_SCHEMA_CREATION"),
    skipTableCreation: o.skipTableCreation ?? envBool(env, "PG_SKIP_TABLE_CREATION"),
    skipIndexCreation: o.skipIndexCreation ?? envBool(env, "PG_SKIP_INDEX_CREATION"),
  };
}

let packageVersion: string | undefined;
function ownVersion(): string {
  if (packageVersion === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
      packageVersion = typeof manifest.version === "string" ? manifest.version : "";
    } catch {
      packageVersion = "";
    }
  }
  return packageVersion;
}

/**
 * Opens Terraform's pg backend: connects, and prepares the schema, sequence, table and index
 * exactly as Terraform 1.11 does (each step skippable), so Terraform and magma can share the
 * database. Close it with `close()`.
 *
 * @throws StateError `io` when the options are invalid or the database cannot be reached or prepared.
 */
export async function openPgBackend(options: PgBackendOptions = {}): Promise<PgBackend> {
  const env = options.env ?? process.env;
  const resolved = resolveOptions(options, env);
  const clientConfig = pgClientConfig(resolved.connStr, env);
  // The pg driver and the implementation are loaded when a pg backend is opened, so that a
  // program using only the local backend (most magma commands) does not load them.
  const [{ default: pg }, { PgBackendImpl, pgError }] = await Promise.all([import("pg"), import("./pg-backend-impl.js")]);
  const pool = new pg.Pool({ ...clientConfig, max: 4, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
  // An idle client that loses its connection must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  const backend = new PgBackendImpl(pool, clientConfig, resolved, options.who ?? `${userInfo().username}@${hostname()}`, options.version ?? ownVersion());
  try {
    await backend.prepare();
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw pgError("preparing the database", e);
  }
  return backend;
}

