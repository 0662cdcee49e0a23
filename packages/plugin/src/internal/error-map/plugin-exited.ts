import { pluginExitedError, type ProviderError } from "@magma/provider-api";

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
 * A `plugin_exited` error. The message says when and how the plugin ended, names the
 * binary (when given) and quotes the panic line, else the last stderr lines (bounded).
 *
 * @internal
 */
export function pluginExited(detail: PluginExitedDetail, when: string, cause?: unknown, binary?: string): ProviderError<"plugin_exited"> {
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
