import type { LockInfo } from "./backend.js";

/** The stable codes of {@link StateError}. */
export const StateErrorCode = {
  /** The state is locked by someone else; `detail` is the holder's {@link LockInfo} when known. */
  Locked: "locked",
  /** The stored state is not valid JSON or not a valid state file; it was left untouched. */
  Corrupt: "corrupt",
  /** The state file's format version is not 4 (versions 1–3 need an older Terraform; >4 a newer one). */
  UnsupportedVersion: "unsupported_version",
  /** A write would replace a state of another lineage. */
  LineageMismatch: "lineage_mismatch",
  /** A write would replace a state with a newer serial. */
  SerialRegression: "serial_regression",
  /** A workspace, lock or object that was asked for does not exist. */
  NotFound: "not_found",
  /** Reading or writing the storage failed (file system, network, database). */
  Io: "io",
  /** An unlock named a lock id that does not match the held lock. */
  LockIdMismatch: "lock_id_mismatch",
  /** An address (resource, instance, module, provider) is malformed. */
  InvalidAddress: "invalid_address",
  /** A caller passed a bad argument (e.g. an invalid workspace name, deleting "default"). */
  InvalidArgument: "invalid_argument",
} as const;

/** One of the {@link StateErrorCode} values. */
export type StateErrorCode = (typeof StateErrorCode)[keyof typeof StateErrorCode];

/** Options of the {@link StateError} constructor. */
export interface StateErrorOptions {
  /** For `locked`: the holder's lock info, when it could be read. */
  readonly detail?: LockInfo;
  /** The underlying error, kept as `Error.cause`. */
  readonly cause?: unknown;
}

/**
 * The one error class of `@magma/state` (both the local and the pg backend, the state file
 * codec and the address parser). The message starts with `[code]` and names what and where;
 * `code` is stable. Check with {@link isStateError}, never `instanceof`.
 */
export class StateError extends Error {
  /** Always `"StateError"`. */
  override readonly name = "StateError" as const;
  /** What kind of failure this is. */
  readonly code: StateErrorCode;
  /** For `locked`: who holds the lock (when known). */
  readonly detail: LockInfo | undefined;

  /**
   * @param code - the stable error code.
   * @param message - what was wrong and where (the `[code] ` prefix is added here).
   * @param options - `detail` (the lock holder) and `cause`.
   */
  constructor(code: StateErrorCode, message: string, options: StateErrorOptions = {}) {
    super(`[${code}] ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options.detail;
  }
}

/** Whether `x` is a {@link StateError} (by shape, so duplicated package copies still match). */
export function isStateError(x: unknown): x is StateError {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as { name?: unknown }).name === "StateError" &&
    typeof (x as { code?: unknown }).code === "string"
  );
}
