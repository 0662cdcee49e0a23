import { closeSync, openSync, writeSync } from "node:fs";
import { basename } from "node:path";
import type { PluginLogEntry, PluginLogger } from "@magma/plugin";
import type { CliStream } from "../cli-io.js";

/** hclog's levels, most verbose first, and `off`. */
export const HclogLevel = { Trace: "trace", Debug: "debug", Info: "info", Warn: "warn", Error: "error", Off: "off" } as const;

/** One of {@link HclogLevel}. */
export type HclogLevel = (typeof HclogLevel)[keyof typeof HclogLevel];

const RANK: Readonly<Record<HclogLevel, number>> = { trace: 1, debug: 2, info: 3, warn: 4, error: 5, off: 6 };
const VALID = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"];

/** Keys whose values magma never writes to a log (credentials in provider configurations and requests). */
const SECRET_KEY = /(secret|password|passwd|token|private[_-]?key|access[_-]?key|credential)/i;

/** A log of a run, as terraform's `internal/logging` sets it up from the environment. */
export interface TerraformLog {
  /** The core's level (`TF_LOG`, else `TF_LOG_CORE`; `JSON` is trace in JSON). */
  readonly coreLevel: HclogLevel;
  /** The providers' level (`TF_LOG_PROVIDER`, else `TF_LOG`). */
  readonly providerLevel: HclogLevel;
  /** Whether lines are hclog JSON (`TF_LOG=JSON`). */
  readonly json: boolean;
  /** Writes a core line at `level` (when the core's level lets it through); secret-looking fields are redacted. */
  log(level: Exclude<HclogLevel, "off">, message: string, fields?: Readonly<Record<string, unknown>>, name?: string): void;
  /** The logger that passes provider processes' lines through as terraform's plugin client does (undefined when provider logging is off). */
  readonly providerLogger: PluginLogger | undefined;
  /** Closes `TF_LOG_PATH`'s file. */
  close(): void;
}

function parseLevel(text: string, warn: (s: string) => void): HclogLevel {
  if (text === "") return "off";
  const t = text === "JSON" ? "TRACE" : text;
  if (!VALID.includes(t)) {
    warn(`[WARN] Invalid log level: ${JSON.stringify(text)}. Defaulting to level: TRACE. Valid levels are: [${VALID.join(" ")}]`);
    return "trace";
  }
  return t.toLowerCase() as HclogLevel;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** hclog's `TimeFormat` (`2006-01-02T15:04:05.000Z0700`) in local time. */
export function hclogTime(d: Date, json = false): string {
  const off = -d.getTimezoneOffset();
  const zone = off === 0 ? "Z" : `${off > 0 ? "+" : "-"}${pad2(Math.floor(Math.abs(off) / 60))}${json ? ":" : ""}${pad2(Math.abs(off) % 60)}`;
  const frac = json ? `${String(d.getMilliseconds()).padStart(3, "0")}000` : String(d.getMilliseconds()).padStart(3, "0");
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${frac}${zone}`;
}

/** A value as hclog's text format writes it: bare when it needs no quoting, else Go-quoted. */
function textValue(v: unknown): string {
  const s = typeof v === "string" ? v : v === null || v === undefined ? "<nil>" : typeof v === "object" ? JSON.stringify(v) : String(v as number | boolean);
  return s === "" || /[\s"=\\]|[^\x20-\x7e\u00a0-\uffff]/.test(s) ? JSON.stringify(s) : s;
}

/**
 * Sets up the run's log from `TF_LOG`, `TF_LOG_CORE`, `TF_LOG_PROVIDER` and `TF_LOG_PATH` as
 * terraform 1.11 does: lines in hclog's format (`2006-01-02T15:04:05.000Z [DEBUG] name:
 * message: key=value`, or hclog JSON with `TF_LOG=JSON`) on stderr or appended to the
 * `TF_LOG_PATH` file; an invalid level warns and means TRACE.
 */
export function createTerraformLog(env: Readonly<Record<string, string | undefined>>, stderr: CliStream, now: () => Date = () => new Date()): TerraformLog {
  const warn = (s: string): void => void stderr.write(s);
  const tfLog = (env["TF_LOG"] ?? "").toUpperCase();
  const coreText = tfLog !== "" ? tfLog : (env["TF_LOG_CORE"] ?? "").toUpperCase();
  const json = coreText === "JSON";
  const coreLevel = parseLevel(coreText, warn);
  const providerText = (env["TF_LOG_PROVIDER"] ?? "").toUpperCase() || tfLog;
  const providerLevel = providerText === coreText ? coreLevel : parseLevel(providerText, warn);
  let fd: number | undefined;
  const path = env["TF_LOG_PATH"] ?? "";
  if (path !== "" && (coreLevel !== "off" || providerLevel !== "off")) {
    try {
      fd = openSync(path, "a", 0o666);
    } catch (e) {
      // Go's *PathError text: "open PATH: no such file or directory".
      const why = e instanceof Error ? (/^[A-Z]+: (.*?), open /.exec(e.message)?.[1] ?? e.message) : String(e);
      stderr.write(`Error opening log file: open ${path}: ${why}\n`);
    }
  }
  const out = (line: string): void => {
    if (fd !== undefined) writeSync(fd, line);
    else stderr.write(line);
  };
  const write = (level: Exclude<HclogLevel, "off">, message: string, fields: ReadonlyArray<readonly [string, unknown]>, name: string | undefined, at: Date): void => {
    if (json) {
      const doc: Record<string, unknown> = { "@level": level, "@message": message, "@timestamp": hclogTime(at, true) };
      if (name !== undefined) doc["@module"] = name;
      for (const [k, v] of fields) doc[k] = v;
      const keys = Object.keys(doc).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      out(`${JSON.stringify(Object.fromEntries(keys.map((k) => [k, doc[k]])))}\n`);
      return;
    }
    const tag = `[${level.toUpperCase()}]`.padEnd(7);
    const kv = fields.map(([k, v]) => `${k}=${textValue(v)}`).join(" ");
    out(`${hclogTime(at)} ${tag} ${name === undefined ? "" : `${name}: `}${message}${kv === "" ? "" : `: ${kv}`}\n`);
  };
  // go-plugin names a provider's logger after its command's base name; magma learns the command
  // from the launcher's "plugin started: COMMAND" entry, so a process's earlier lines wait for it.
  const names = new Map<number, string>();
  const waiting = new Map<number, PluginLogEntry[]>();
  const passThrough = (entry: PluginLogEntry, name: string): void => {
    const fields: [string, unknown][] = Object.entries(entry.fields);
    if (entry.module !== undefined) fields.push(["@module", entry.module]);
    // Terraform writes them in Go's map order; sorted here.
    fields.sort(([a], [b]) => (a < b ? -1 : 1));
    const ts = entry.timestamp === undefined ? undefined : new Date(entry.timestamp);
    if (ts !== undefined && !Number.isNaN(ts.getTime())) fields.push(["timestamp", hclogTime(ts, json)]);
    write(entry.level, entry.message, fields, name, now());
  };
  const flush = (pid: number, name: string): void => {
    for (const e of waiting.get(pid) ?? []) passThrough(e, name);
    waiting.delete(pid);
  };
  const providerLogger: PluginLogger | undefined =
    providerLevel === "off"
      ? undefined
      : {
          log(entry: PluginLogEntry): void {
            const pid = entry.pid;
            if (entry.source === "host") {
              const started = /^plugin started: (.*)$/s.exec(entry.message);
              if (started !== null && pid !== undefined) {
                names.set(pid, `provider.${basename(started[1]!)}`);
                flush(pid, names.get(pid)!);
              }
              if (RANK[entry.level] >= RANK[providerLevel]) write(entry.level, entry.message, Object.entries(entry.fields).sort(([a], [b]) => (a < b ? -1 : 1)), "provider", now());
              if (entry.message.startsWith("plugin process exited") && pid !== undefined) flush(pid, names.get(pid) ?? "provider");
              return;
            }
            if (RANK[entry.level] < RANK[providerLevel]) return;
            const name = pid === undefined ? "provider" : names.get(pid);
            if (name !== undefined) passThrough(entry, name);
            else waiting.set(pid!, [...(waiting.get(pid!) ?? []), entry]);
          },
        };
  return {
    coreLevel,
    providerLevel,
    json,
    providerLogger,
    log(level, message, fields = {}, name) {
      if (RANK[level] < RANK[coreLevel]) return;
      const redacted = Object.entries(fields).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[REDACTED]" : v] as const);
      write(level, message, redacted, name, now());
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

const logs = new WeakMap<object, TerraformLog>();

/** Records the log of the run whose environment is `env` (for the provider sources it opens). @internal */
export function registerTerraformLog(env: object, log: TerraformLog): void {
  logs.set(env, log);
}

/** The log of the run whose environment is `env`, if one was registered. @internal */
export function terraformLogFor(env: object): TerraformLog | undefined {
  return logs.get(env);
}
