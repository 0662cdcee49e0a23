import type { LockInfo } from "./backend.js";

/**
 * The stable codes of {@link StateError}. Switch on `error.code`; the message text may change
 * between versions, the codes do not.
 */
export const StateErrorCode = {
  /** Another process or tool holds the lock; the detail is the holder's {@link LockInfo}. */
  Locked: "locked",
  /** The stored bytes are not a valid state (or bytes to store are not valid text). */
  Corrupt: "corrupt",
  /** A state format version this package does not read. */
  UnsupportedVersion: "unsupported_version",
  /** The state to write belongs to another lineage than the stored one. */
  LineageMismatch: "lineage_mismatch",
  /** The state to write is older than the stored one. */
  SerialRegression: "serial_regression",
  /** A workspace, state or lock that does not exist. */
  NotFound: "not_found",
  /** The storage failed: file system, network or database. */
  Io: "io",
} as const;

/** One of the {@link StateErrorCode} values. */
export type StateErrorCode = (typeof StateErrorCode)[keyof typeof StateErrorCode];

/**
 * How reading, writing or locking a state failed: a stable `code`, a message naming what and
 * where, and for `locked` the holder's {@link LockInfo} in `detail`.
 */
export class StateError extends Error {
  override readonly name = "StateError";
  /** The stable code. */
  readonly code: StateErrorCode;
  /** The message without the `[code]` prefix. */
  readonly rawMessage: string;
  /** For `locked`: the holder's lock info. */
  readonly detail: LockInfo | undefined;

  /** Builds an error; the message is prefixed with `[code]`. */
  constructor(code: StateErrorCode, message: string, detail?: LockInfo, options?: { cause?: unknown }) {
    super(`[${code}] ${message}`, options);
    this.code = code;
    this.rawMessage = message;
    this.detail = detail;
  }
}

/** Whether `e` is a {@link StateError}, checked by shape (so duplicated package copies match). */
export function isStateError(e: unknown): e is StateError {
  if (typeof e !== "object" || e === null) return false;
  const r = e as Record<string, unknown>;
  return r["name"] === "StateError" && typeof r["code"] === "string" && Object.values(StateErrorCode).includes(r["code"] as StateErrorCode);
}
