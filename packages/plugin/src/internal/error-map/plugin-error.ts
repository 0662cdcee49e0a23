/**
 * The one place where the process/transport layer builds its errors.
 *
 * Every failure of launching, connecting to or talking to a provider process is a
 * {@link PluginError} with a stable `code` taken from the contract's `ProviderError` code
 * list (`handshake_failed`, `protocol_mismatch`, `plugin_exited`, `transport`, `canceled`,
 * `deadline_exceeded`). When `@magma/provider-api`'s `ProviderError` is available, the
 * factories below are the only code that has to change.
 *
 * @internal
 * @packageDocumentation
 */

/**
 * The error codes produced by the process/transport layer; a subset of the contract's
 * `ProviderError` codes.
 *
 * @internal
 */
export const PluginErrorCode = {
  /** The handshake line was missing, malformed or not what go-plugin allows. */
  HandshakeFailed: "handshake_failed",
  /** The plugin answered with a protocol version we did not offer. */
  ProtocolMismatch: "protocol_mismatch",
  /** The plugin process exited (before the handshake, or while in use). */
  PluginExited: "plugin_exited",
  /** The connection to the plugin failed (spawn error, socket error, TLS, gRPC transport). */
  Transport: "transport",
  /** The operation was canceled by the caller. */
  Canceled: "canceled",
  /** The operation ran out of time. */
  DeadlineExceeded: "deadline_exceeded",
} as const;

/** @internal */
export type PluginErrorCode = (typeof PluginErrorCode)[keyof typeof PluginErrorCode];

/**
 * How a plugin process ended: exactly one of `exitCode` and `signal` is non-null once it
 * has exited.
 *
 * @internal
 */
export type PluginExitStatus = {
  /** The exit code, or `null` when the process was ended by a signal. */
  readonly exitCode: number | null;
  /** The signal name (e.g. `"SIGKILL"`), or `null` when the process exited by itself. */
  readonly signal: string | null;
};

/**
 * The detail of a `plugin_exited` error.
 *
 * @internal
 */
export type PluginExitedDetail = PluginExitStatus & {
  /** The last lines of the plugin's stderr (bounded). */
  readonly stderrTail: string;
  /** The text from the first `panic: ` / `fatal error: ` line to the end (bounded), if any. */
  readonly panicExcerpt: string | undefined;
};

/**
 * The detail carried by a {@link PluginError}; its shape depends on the code.
 *
 * @internal
 */
export type PluginErrorDetail =
  | { readonly code: "handshake_failed"; readonly line?: string; readonly stderrTail?: string }
  | {
      readonly code: "protocol_mismatch";
      readonly pluginVersion: number;
      readonly clientVersions: readonly number[];
    }
  | ({ readonly code: "plugin_exited" } & PluginExitedDetail)
  | { readonly code: "transport"; readonly grpcCode?: string }
  | { readonly code: "canceled" }
  | { readonly code: "deadline_exceeded"; readonly timeoutMs?: number };

/**
 * The error of the process/transport layer: a stable `code`, a `detail` whose shape
 * depends on the code, a message prefixed with `[code]`, and the original `cause`.
 *
 * @internal
 */
export class PluginError extends Error {
  /** The stable error code. */
  readonly code: PluginErrorCode;
  /** Code-specific detail; `detail.code === code`. */
  readonly detail: PluginErrorDetail;

  /** Prefer the factory functions of this module. */
  constructor(detail: PluginErrorDetail, message: string, cause?: unknown) {
    super(`[${detail.code}] ${message}`, cause === undefined ? undefined : { cause });
    this.name = "PluginError";
    this.code = detail.code;
    this.detail = detail;
  }
}

/**
 * Whether `value` is a {@link PluginError} (checked by shape, so duplicated package copies
 * match too).
 *
 * @internal
 */
export function isPluginError(value: unknown): value is PluginError {
  if (typeof value !== "object" || value === null) return false;
  const v = value as { name?: unknown; code?: unknown; detail?: unknown };
  return (
    v.name === "PluginError" &&
    typeof v.code === "string" &&
    (Object.values(PluginErrorCode) as string[]).includes(v.code) &&
    typeof v.detail === "object" &&
    v.detail !== null
  );
}

/**
 * A `handshake_failed` error; `line` is the offending handshake line, if one was read.
 *
 * @internal
 */
export function handshakeFailed(
  message: string,
  extra: { line?: string; stderrTail?: string; cause?: unknown } = {},
): PluginError {
  const detail: { code: "handshake_failed"; line?: string; stderrTail?: string } = {
    code: "handshake_failed",
  };
  if (extra.line !== undefined) detail.line = extra.line;
  if (extra.stderrTail !== undefined) detail.stderrTail = extra.stderrTail;
  return new PluginError(detail, message, extra.cause);
}

/**
 * A `protocol_mismatch` error in go-plugin's words: "incompatible API version with plugin".
 *
 * @internal
 */
export function protocolMismatch(
  pluginVersion: number,
  clientVersions: readonly number[],
): PluginError {
  return new PluginError(
    { code: "protocol_mismatch", pluginVersion, clientVersions: [...clientVersions] },
    `incompatible API version with plugin. Plugin version: ${pluginVersion}, Client versions: [${clientVersions.join(" ")}]`,
  );
}

/**
 * A `plugin_exited` error; `when` says at which point the exit was noticed (e.g. "before
 * we could connect").
 *
 * @internal
 */
export function pluginExited(detail: PluginExitedDetail, when: string, cause?: unknown): PluginError {
  const how =
    detail.signal !== null ? `killed by signal ${detail.signal}` : `exit code ${String(detail.exitCode)}`;
  const crash = detail.panicExcerpt !== undefined ? " (the plugin crashed)" : "";
  return new PluginError(
    { code: "plugin_exited", ...detail },
    `plugin exited ${when}: ${how}${crash}`,
    cause,
  );
}

/**
 * A `transport` error (spawn failures, socket/TLS errors, gRPC transport failures).
 *
 * @internal
 */
export function transportError(message: string, cause?: unknown, grpcCode?: string): PluginError {
  return new PluginError(
    grpcCode === undefined ? { code: "transport" } : { code: "transport", grpcCode },
    message,
    cause,
  );
}

/**
 * A `canceled` error (the caller's abort signal fired).
 *
 * @internal
 */
export function canceled(message: string, cause?: unknown): PluginError {
  return new PluginError({ code: "canceled" }, message, cause);
}

/**
 * A `deadline_exceeded` error (a configured timeout elapsed).
 *
 * @internal
 */
export function deadlineExceeded(message: string, timeoutMs?: number): PluginError {
  return new PluginError(
    timeoutMs === undefined ? { code: "deadline_exceeded" } : { code: "deadline_exceeded", timeoutMs },
    message,
  );
}

/**
 * Maps a failure of `child_process.spawn` (an errno error such as ENOENT or EACCES) to a
 * `transport` error naming the binary.
 *
 * @internal
 */
export function errorFromSpawn(command: string, cause: unknown): PluginError {
  const errno = (cause as { code?: unknown } | null)?.code;
  const reason =
    errno === "ENOENT"
      ? "no such file"
      : errno === "EACCES"
        ? "permission denied (is it executable?)"
        : cause instanceof Error
          ? cause.message
          : String(cause);
  return transportError(`cannot start plugin ${JSON.stringify(command)}: ${reason}`, cause);
}
