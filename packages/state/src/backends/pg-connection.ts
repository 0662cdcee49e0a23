import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import type { ClientConfig } from "pg";
import { StateError } from "../state-error.js";

/**
 * The connection settings a `conn_str` names, read as Terraform's Postgres driver (lib/pq)
 * reads it: either a `postgres://` / `postgresql://` URL or libpq `key=value` pairs, with
 * the libpq environment variables (`PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER`, `PGPASSWORD`,
 * `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`, `PGAPPNAME`, `PGCONNECT_TIMEOUT`)
 * filling in what the string leaves out.
 *
 * `sslmode` defaults to `require` as in lib/pq (encrypted, certificate not checked); lib/pq
 * knows only `disable`, `require`, `verify-ca` and `verify-full`, and so does this.
 *
 * @throws StateError `io` for a malformed string, an unknown key, an unsupported sslmode
 *   or an unreadable certificate file.
 */
export function pgClientConfig(connStr: string, env: Readonly<Record<string, string | undefined>>): ClientConfig {
  const given = connStr.trim() === "" ? new Map<string, string>() : /^postgres(ql)?:\/\//i.test(connStr) ? parseUrl(connStr) : parseKeywords(connStr);
  const get = (key: string, envName: string): string | undefined => {
    const v = given.get(key);
    if (v !== undefined && v !== "") return v;
    const e = env[envName];
    return e === undefined || e === "" ? undefined : e;
  };
  const user = get("user", "PGUSER") ?? userInfo().username;
  const config: ClientConfig = {
    host: get("host", "PGHOST") ?? "localhost",
    port: parsePort(get("port", "PGPORT") ?? "5432"),
    user,
    database: get("dbname", "PGDATABASE") ?? user,
  };
  const password = get("password", "PGPASSWORD");
  if (password !== undefined) config.password = password;
  const app = get("application_name", "PGAPPNAME");
  if (app !== undefined) config.application_name = app;
  const timeout = get("connect_timeout", "PGCONNECT_TIMEOUT");
  if (timeout !== undefined) {
    const s = Number(timeout);
    if (!Number.isInteger(s) || s < 0) throw bad(`connect_timeout must be a whole number of seconds, got "${timeout}"`);
    if (s > 0) config.connectionTimeoutMillis = s * 1000;
  }
  const mode = get("sslmode", "PGSSLMODE") ?? "require";
  const file = (key: string, envName: string): string | undefined => {
    const path = get(key, envName);
    if (path === undefined) return undefined;
    try {
      return readFileSync(path, "utf8");
    } catch (e) {
      throw bad(`cannot read ${key} "${path}": ${(e as Error).message}`);
    }
  };
  switch (mode) {
    case "disable":
      config.ssl = false;
      break;
    case "require":
    case "verify-ca":
    case "verify-full": {
      const ca = file("sslrootcert", "PGSSLROOTCERT");
      const cert = file("sslcert", "PGSSLCERT");
      const key = file("sslkey", "PGSSLKEY");
      // lib/pq: `require` with a root certificate checks the chain, like `verify-ca`.
      const verify = mode !== "require" || ca !== undefined;
      config.ssl = {
        rejectUnauthorized: verify,
        ...(ca !== undefined ? { ca } : {}),
        ...(cert !== undefined ? { cert } : {}),
        ...(key !== undefined ? { key } : {}),
        ...(mode === "verify-full" ? {} : { checkServerIdentity: () => undefined }),
      };
      break;
    }
    default:
      throw bad(`unsupported sslmode "${mode}": Terraform's pg backend (lib/pq) supports "disable", "require" (the default), "verify-ca" and "verify-full"`);
  }
  return config;
}

const KNOWN_KEYS = new Set(["host", "port", "dbname", "user", "password", "sslmode", "sslrootcert", "sslcert", "sslkey", "application_name", "connect_timeout"]);

function bad(message: string): StateError {
  return new StateError("io", `pg backend conn_str: ${message}`);
}

function parsePort(s: string): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw bad(`invalid port "${s}"`);
  return n;
}

function put(out: Map<string, string>, key: string, value: string): void {
  if (!KNOWN_KEYS.has(key)) throw bad(`unsupported parameter "${key}" (supported: ${[...KNOWN_KEYS].join(", ")})`);
  out.set(key, value);
}

function parseUrl(s: string): Map<string, string> {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw bad("not a valid postgres:// URL");
  }
  const out = new Map<string, string>();
  if (url.hostname !== "") put(out, "host", decodeURIComponent(url.hostname.replace(/^\[(.*)\]$/, "$1")));
  if (url.port !== "") put(out, "port", url.port);
  if (url.username !== "") put(out, "user", decodeURIComponent(url.username));
  if (url.password !== "") put(out, "password", decodeURIComponent(url.password));
  const db = url.pathname.replace(/^\//, "");
  if (db !== "") put(out, "dbname", decodeURIComponent(db));
  for (const [k, v] of url.searchParams) put(out, k, v);
  return out;
}

/** libpq `key=value` pairs separated by spaces; values may be single-quoted with `\'` and `\\` escapes. */
function parseKeywords(s: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  const n = s.length;
  const space = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n" || c === "\r";
  while (i < n) {
    while (i < n && space(s[i])) i++;
    if (i >= n) break;
    let key = "";
    while (i < n && s[i] !== "=" && !space(s[i])) key += s[i++];
    while (i < n && space(s[i])) i++;
    if (s[i] !== "=") throw bad(`expected "=" after "${key}" at offset ${i}`);
    i++;
    while (i < n && space(s[i])) i++;
    let value = "";
    if (s[i] === "'") {
      i++;
      for (;;) {
        if (i >= n) throw bad(`unterminated quoted value for "${key}"`);
        const c = s[i++];
        if (c === "'") break;
        if (c === "\\") {
          if (i >= n) throw bad(`unterminated quoted value for "${key}"`);
          value += s[i++];
        } else value += c;
      }
    } else {
      while (i < n && !space(s[i])) {
        const c = s[i++];
        if (c === "\\" && i < n) value += s[i++];
        else value += c;
      }
    }
    if (key === "") throw bad(`empty key at offset ${i}`);
    put(out, key, value);
  }
  return out;
}
