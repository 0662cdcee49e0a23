import type { LockInfo } from "../backend.js";

/**
 * How a magma lock session names itself and its lock to other sessions.
 *
 * Terraform's pg backend keeps no lock info anywhere: its lock is a bare session-level
 * advisory lock. magma holds each lock on a dedicated connection whose `application_name` is
 * `magma-lock <lock id>` and whose every statement starts with a comment carrying the
 * {@link LockInfo} as base64 JSON. Postgres shows both in `pg_stat_activity` (the statement
 * text to the same role, a superuser or `pg_read_all_stats`; the application name to all), so
 * a blocked caller can name a magma holder fully, and any other holder (terraform) by its
 * session: pid, role, client address, application name.
 */
export const LOCK_APPLICATION_PREFIX = "magma-lock ";

const TAG = "magma-lock-info:";

/** The SQL comment that prefixes every statement of a lock session. */
export function lockInfoComment(info: LockInfo): string {
  return `/* ${TAG}${Buffer.from(JSON.stringify(info), "utf8").toString("base64")} */ `;
}

/** One session holding an advisory lock, as `pg_locks` and `pg_stat_activity` show it. */
export interface PgLockSession {
  readonly pid: number;
  readonly user: string | null;
  readonly applicationName: string | null;
  readonly clientAddr: string | null;
  readonly backendStart: Date | null;
  readonly query: string | null;
}

/** The lock id magma reports (and force-unlock takes) for a holder that published none. */
export function sessionLockId(pid: number): string {
  return `pg-backend-pid-${pid}`;
}

/**
 * The holder's {@link LockInfo}: the published one for a magma session, else one built from
 * what Postgres knows about the session (`operation` and `created` are then empty, `id` is
 * {@link sessionLockId}, `info` describes the session).
 */
export function holderLockInfo(session: PgLockSession, key: string): LockInfo {
  const published = publishedLockInfo(session.query, key);
  if (published !== undefined) return published;
  const app = session.applicationName ?? "";
  const magmaId = app.startsWith(LOCK_APPLICATION_PREFIX) ? app.slice(LOCK_APPLICATION_PREFIX.length) : undefined;
  const from = session.clientAddr ?? "a local socket";
  const since = session.backendStart !== null ? `, connected since ${session.backendStart.toISOString()}` : "";
  const tool = magmaId !== undefined ? "a magma session (its lock info is not visible to this role)" : "a Postgres session that recorded no lock info (e.g. terraform)";
  return {
    id: magmaId ?? sessionLockId(session.pid),
    operation: "",
    info: `${tool}: pid ${session.pid}, application "${app}", from ${from}${since}`,
    who: `${session.user ?? "?"}@${from}`,
    version: "",
    created: "",
    path: key,
  };
}

// The holder publishes its info with every statement, and the key only once it has the lock:
// read between its lock statement and the next, the published path is still empty.
function publishedLockInfo(query: string | null, key: string): LockInfo | undefined {
  if (query === null) return undefined;
  const m = new RegExp(`${TAG}([A-Za-z0-9+/=]+)`).exec(query);
  if (m === null) return undefined;
  try {
    const v = JSON.parse(Buffer.from(m[1] ?? "", "base64").toString("utf8")) as Record<string, unknown>;
    const s = (k: string): string => (typeof v[k] === "string" ? v[k] : "");
    if (s("id") === "") return undefined;
    return { id: s("id"), operation: s("operation"), info: s("info"), who: s("who"), version: s("version"), created: s("created"), path: s("path") !== "" ? s("path") : key };
  } catch {
    return undefined;
  }
}

/** A one-line description of a holder for error messages. */
export function describeHolder(info: LockInfo): string {
  const parts = [`lock id ${info.id}`];
  if (info.operation !== "") parts.push(`operation ${info.operation}`);
  if (info.who !== "") parts.push(`by ${info.who}`);
  if (info.version !== "") parts.push(`version ${info.version}`);
  if (info.created !== "") parts.push(`since ${info.created}`);
  if (info.info !== "") parts.push(info.info);
  return parts.join(", ");
}
