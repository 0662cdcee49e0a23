// Its own module so that registering `--log-level` does not load the provider launcher.

/** The log levels `--log-level` takes: `off` or one of hclog's levels. */
export const LogLevels = ["off", "error", "warn", "info", "debug", "trace"] as const;

/** One of {@link LogLevels}. */
export type LogLevel = (typeof LogLevels)[number];
