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
import {
  ProviderErrorCode,
  canceledError,
  deadlineExceededError,
  handshakeFailedError,
  isProviderError,
  pluginExitedError,
  providerNotFoundError,
  ProviderError,
  transportError as providerTransportError,
  type AnyProviderError,
  type ProviderErrorDetail,
} from "@magma/provider-api";

/**
 * The error codes produced by the process/transport layer; a subset of the contract's
 * `ProviderError` codes.
 *
 * @internal
 */
export const PluginErrorCode = {
  HandshakeFailed: ProviderErrorCode.HandshakeFailed,
  ProtocolMismatch: ProviderErrorCode.ProtocolMismatch,
  PluginExited: ProviderErrorCode.PluginExited,
  Transport: ProviderErrorCode.Transport,
  Canceled: ProviderErrorCode.Canceled,
  DeadlineExceeded: ProviderErrorCode.DeadlineExceeded,
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
 * The errors of the process/transport layer are the contract's `ProviderError`s.
 *
 * @internal
 */
export type PluginError = AnyProviderError;

/** @internal */
export type PluginErrorDetail = ProviderErrorDetail;

/**
 * Whether `value` is a `ProviderError` (checked by shape).
 *
 * @internal
 */
export function isPluginError(value: unknown): value is PluginError {
  return isProviderError(value);
}

/** @internal */
export function handshakeFailed(
  message: string,
  extra: { line?: string; stderrTail?: string; cause?: unknown } = {},
): PluginError {
  return handshakeFailedError(message, extra);
}

/** @internal */
export function protocolMismatch(pluginVersion: number, clientVersions: readonly number[]): PluginError {
  return new ProviderError(
    { code: "protocol_mismatch", pluginVersion, clientVersions: Object.freeze([...clientVersions]) },
    `incompatible API version with plugin. Plugin version: ${pluginVersion}, Client versions: [${clientVersions.join(" ")}]`,
  );
}

/**
 * A `plugin_exited` error. The message says when and how the plugin ended, names the
 * binary (when given) and quotes the panic line, else the last stderr lines (bounded).
 *
 * @internal
 */
export function pluginExited(detail: PluginExitedDetail, when: string, cause?: unknown, binary?: string): PluginError {
  const how = detail.signal !== null ? `killed by signal ${detail.signal}` : `exit code ${String(detail.exitCode)}`;
  const crash = detail.panicExcerpt !== undefined ? " (the plugin crashed)" : "";
  const name = binary === undefined || binary === "" ? "" : ` [${binary}]`;
  const said = exitExcerpt(detail);
  const status: { exitCode: number | null; signal: string | null; stderrTail?: string; panicExcerpt?: string } = {
    exitCode: detail.exitCode,
    signal: detail.signal,
    stderrTail: detail.stderrTail,
  };
  if (detail.panicExcerpt !== undefined) status.panicExcerpt = detail.panicExcerpt;
  return pluginExitedError(`plugin exited ${when}: ${how}${crash}${name}${said === "" ? "" : `: ${said}`}`, status, cause === undefined ? undefined : { cause });
}

/** The panic line, else the last three non-empty stderr lines (each cut at 120 characters) joined with ` | `; at most 400 characters. */
function exitExcerpt(detail: PluginExitedDetail): string {
  const lines =
    detail.panicExcerpt !== undefined
      ? detail.panicExcerpt.split("\n").slice(0, 1)
      : detail.stderrTail
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "")
          .slice(-3)
          .map((l) => (l.length > 120 ? `${l.slice(0, 120)}…` : l));
  const text = lines.join(" | ");
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** @internal */
export function transportError(message: string, cause?: unknown, grpcCode?: string): PluginError {
  const options: { grpcCode?: string; cause?: unknown } = {};
  if (grpcCode !== undefined) options.grpcCode = grpcCode;
  if (cause !== undefined) options.cause = cause;
  return providerTransportError(message, options);
}

/** @internal */
export function canceled(message: string, cause?: unknown): PluginError {
  return canceledError(message, cause === undefined ? undefined : { cause });
}

/** @internal */
export function deadlineExceeded(message: string, timeoutMs?: number): PluginError {
  return deadlineExceededError(message, timeoutMs === undefined ? undefined : { timeoutMs });
}

/** @internal */
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
  if (errno === "ENOENT" || errno === "EACCES") {
    return providerNotFoundError(`cannot start plugin ${JSON.stringify(command)}: ${reason}`, { binary: command, cause });
  }
  return transportError(`cannot start plugin ${JSON.stringify(command)}: ${reason}`, cause);
}
