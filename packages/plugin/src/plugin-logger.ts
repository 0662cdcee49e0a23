/**
 * Log levels of plugin output, from most to least verbose (hclog's levels).
 */
export const PluginLogLevel = {
  Trace: "trace",
  Debug: "debug",
  Info: "info",
  Warn: "warn",
  Error: "error",
} as const;

/** One of {@link PluginLogLevel}. */
export type PluginLogLevel = (typeof PluginLogLevel)[keyof typeof PluginLogLevel];

/**
 * Where a plugin log entry came from.
 */
export const PluginLogSource = {
  /** A line the plugin process wrote to its stderr pipe. */
  Stderr: "stderr",
  /** Data of the `plugin.GRPCStdio` stream's stdout channel. */
  StdioStdout: "stdio_stdout",
  /** Data of the `plugin.GRPCStdio` stream's stderr channel. */
  StdioStderr: "stdio_stderr",
  /** A lifecycle message of magma itself about the plugin (started, exited, killed). */
  Host: "host",
} as const;

/** One of {@link PluginLogSource}. */
export type PluginLogSource = (typeof PluginLogSource)[keyof typeof PluginLogSource];

/**
 * One log entry produced by a plugin process.
 */
export type PluginLogEntry = {
  /** The level: hclog's `@level` for JSON lines, the `[LEVEL]` prefix for plain lines, else debug (error after a panic). */
  readonly level: PluginLogLevel;
  /** The message: hclog's `@message`, or the whole plain line. */
  readonly message: string;
  /** hclog's `@timestamp`, as written by the plugin. */
  readonly timestamp?: string;
  /** hclog's `@module` (e.g. `provider.terraform-provider-aws_v5.100.0_x5`). */
  readonly module?: string;
  /** All other keys of an hclog JSON line (including `@caller`); empty for plain lines. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Where the entry came from. */
  readonly source: PluginLogSource;
  /** The plugin process id, when known. */
  readonly pid?: number;
  /** Set when the line was longer than the line limit and was cut; the original length in bytes. */
  readonly truncatedFrom?: number;
};

/**
 * Receives the log output of plugin processes. Implementations must not throw; they are
 * called synchronously while the plugin's output is read.
 */
export type PluginLogger = {
  /** Handles one entry. */
  log(entry: PluginLogEntry): void;
};

/**
 * A {@link PluginLogger} that discards everything (the default).
 */
export const discardPluginLogger: PluginLogger = Object.freeze({
  log(): void {},
});
