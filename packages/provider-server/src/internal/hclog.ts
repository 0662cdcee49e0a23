/**
 * The server's own log: hclog JSON lines on stderr, the format go-plugin's client parses
 * and re-logs at each line's level (protocol A7).
 *
 * @internal
 * @packageDocumentation
 */

/** hclog levels, lowest first. @internal */
export const LogLevel = {
  Trace: "trace",
  Debug: "debug",
  Info: "info",
  Warn: "warn",
  Error: "error",
  Off: "off",
} as const;

/** One of the {@link LogLevel} values. @internal */
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel];

const RANK: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

/** Where log lines go. @internal */
export interface LineSink {
  write(text: string): unknown;
}

/** A leveled JSON-lines logger. @internal */
export interface HclogLogger {
  /** Writes one line when `level` is enabled; `fields` become extra JSON keys. */
  log(level: Exclude<LogLevel, "off">, message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** Whether `level` is enabled. */
  enabled(level: Exclude<LogLevel, "off">): boolean;
}

/**
 * Parses a level name as Terraform's `TF_LOG` takes it (case-insensitive; `json` means
 * trace); anything else gives `undefined`.
 *
 * @internal
 */
export function parseLogLevel(text: string | undefined): LogLevel | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === "json") return LogLevel.Trace;
  return (Object.values(LogLevel) as string[]).includes(t) ? (t as LogLevel) : undefined;
}

/**
 * hclog's timestamp layout `2006-01-02T15:04:05.000000Z07:00`, in UTC (JavaScript clocks
 * have millisecond resolution, so the last three digits are zero).
 *
 * @internal
 */
export function hclogTimestamp(d: Date): string {
  const iso = d.toISOString(); // 2006-01-02T15:04:05.000Z
  return `${iso.slice(0, 23)}000Z`;
}

/**
 * Makes a logger writing `{"@level":…,"@message":…,"@module":…,"@timestamp":…,…}` lines.
 *
 * @internal
 */
export function createHclogLogger(sink: LineSink, level: LogLevel, module: string): HclogLogger {
  const min = RANK[level];
  return {
    enabled: (l) => RANK[l] >= min,
    log(l, message, fields = {}) {
      if (RANK[l] < min) return;
      const line: Record<string, unknown> = { "@level": l, "@message": message, "@module": module, "@timestamp": hclogTimestamp(new Date()) };
      for (const [k, v] of Object.entries(fields)) if (!(k in line)) line[k] = v;
      let text: string;
      try {
        text = JSON.stringify(line, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
      } catch {
        text = JSON.stringify({ "@level": l, "@message": message, "@module": module, "@timestamp": line["@timestamp"] });
      }
      try {
        sink.write(`${text}\n`);
      } catch {
        // Logging must never break a call.
      }
    },
  };
}
