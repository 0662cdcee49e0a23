import { PluginLogLevel } from "../../plugin-logger.js";

/**
 * A log line broken into its parts.
 *
 * @internal
 */
export type ParsedLogLine = {
  readonly level: PluginLogLevel;
  readonly message: string;
  readonly timestamp: string | undefined;
  readonly module: string | undefined;
  readonly fields: Record<string, unknown>;
  /** Whether this line starts a Go crash (`panic: ` or `fatal error: `). */
  readonly startsPanic: boolean;
  /** Whether the line was hclog JSON. */
  readonly json: boolean;
};

const LEVELS: Readonly<Record<string, PluginLogLevel>> = {
  trace: PluginLogLevel.Trace,
  debug: PluginLogLevel.Debug,
  info: PluginLogLevel.Info,
  warn: PluginLogLevel.Warn,
  warning: PluginLogLevel.Warn,
  error: PluginLogLevel.Error,
};

const PREFIX_LEVELS: ReadonlyArray<readonly [string, PluginLogLevel]> = [
  ["[TRACE]", PluginLogLevel.Trace],
  ["[DEBUG]", PluginLogLevel.Debug],
  ["[INFO]", PluginLogLevel.Info],
  ["[WARN]", PluginLogLevel.Warn],
  ["[ERROR]", PluginLogLevel.Error],
];

/** Go's standard `log` prefix, `2006/01/02 15:04:05 ` (optionally with microseconds). */
const GO_LOG_TIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? /;

/**
 * Whether a plain line starts a Go crash report.
 *
 * @internal
 */
export function isPanicStart(line: string): boolean {
  return line.startsWith("panic: ") || line.startsWith("fatal error: ");
}

/**
 * Parses one line of a plugin's stderr as go-plugin's client does: hclog JSON lines
 * (`@level`, `@message`, `@timestamp`, `@module`, other keys kept as fields) keep their
 * level; plain lines get the level of a `[TRACE]`…`[ERROR]` prefix (optionally after Go's
 * `log` timestamp), otherwise debug — or error once the stream is in panic mode, which a
 * `panic: ` / `fatal error: ` line starts.
 *
 * A line cut by the line limit (`truncated`) is not valid JSON; its `@level`, `@message`,
 * `@timestamp` and `@module` are then recovered from the kept prefix when present.
 *
 * @internal
 */
export function parseLogLine(line: string, panicMode: boolean, truncated = false): ParsedLogLine {
  if (line.startsWith("{")) {
    const parsed = truncated ? parseTruncatedJson(line) : parseJsonLine(line);
    if (parsed !== undefined) return parsed;
  }
  const startsPanic = !panicMode && isPanicStart(line);
  let level: PluginLogLevel = PluginLogLevel.Debug;
  if (panicMode || startsPanic) {
    level = PluginLogLevel.Error;
  } else {
    const rest = line.replace(GO_LOG_TIME, "");
    for (const [prefix, l] of PREFIX_LEVELS) {
      if (rest.startsWith(prefix)) {
        level = l;
        break;
      }
    }
  }
  return { level, message: line, timestamp: undefined, module: undefined, fields: {}, startsPanic, json: false };
}

function parseJsonLine(line: string): ParsedLogLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (!("@level" in record) && !("@message" in record)) return undefined;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k !== "@level" && k !== "@message" && k !== "@timestamp" && k !== "@module") fields[k] = v;
  }
  return {
    level: levelOf(record["@level"]),
    message: stringOf(record["@message"]) ?? "",
    timestamp: stringOf(record["@timestamp"]),
    module: stringOf(record["@module"]),
    fields,
    startsPanic: false,
    json: true,
  };
}

/** Extracts the leading hclog keys from a JSON line that was cut short. */
function parseTruncatedJson(line: string): ParsedLogLine | undefined {
  const key = (name: string): string | undefined => {
    const m = new RegExp(`"${name}":"((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (m === null) return undefined;
    try {
      return JSON.parse(`"${m[1]!}"`) as string;
    } catch {
      return m[1];
    }
  };
  const level = key("@level");
  if (level === undefined) return undefined;
  return {
    level: levelOf(level),
    message: key("@message") ?? line,
    timestamp: key("@timestamp"),
    module: key("@module"),
    fields: {},
    startsPanic: false,
    json: true,
  };
}

function levelOf(value: unknown): PluginLogLevel {
  return (typeof value === "string" ? LEVELS[value.toLowerCase()] : undefined) ?? PluginLogLevel.Debug;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
