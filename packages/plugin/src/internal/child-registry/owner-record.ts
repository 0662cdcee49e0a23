import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

/**
 * The name prefix of magma's private socket directories (`<tmp>/magma-plugin-XXXXXX`).
 *
 * @internal
 */
export const SOCKET_DIR_PREFIX = "magma-plugin-";

/**
 * The file in a private socket directory that says who made it (see {@link OwnerRecord}).
 *
 * @internal
 */
export const OWNER_FILE = "owner.json";

/** The `kind` tag of an owner record, so no other JSON file is ever taken for one. */
const OWNER_KIND = "magma-provider-socket-dir";

/**
 * Who owns a private socket directory: the host process that launched the provider and
 * the provider process, each with its start time (clock ticks after boot, from
 * `/proc/<pid>/stat`; `null` where `/proc` is not available) so that a reused pid is not
 * taken for the original process, and the binary the provider was started from.
 *
 * @internal
 */
export type OwnerRecord = {
  /** Always `"magma-provider-socket-dir"`. */
  readonly kind: typeof OWNER_KIND;
  /** The host's pid. */
  readonly hostPid: number;
  /** The host's start time, or null when unknown. */
  readonly hostStartTime: number | null;
  /** The provider's pid, or null before it was spawned. */
  readonly providerPid: number | null;
  /** The provider's start time, or null when unknown. */
  readonly providerStartTime: number | null;
  /** The command the provider was spawned with, as given to `spawn` and resolved to an absolute path when it has a slash. */
  readonly binary: readonly string[];
  /** The provider's command line (argv) read once it completed the handshake, or null before. */
  readonly cmdline: readonly string[] | null;
};

/**
 * The start time of a process (field 22 of `/proc/<pid>/stat`, clock ticks after boot),
 * or null when it cannot be read (no such process, no `/proc`).
 *
 * @internal
 */
export function processStartTime(pid: number): number | null {
  const stat = readProc(pid, "stat");
  if (stat === undefined) return null;
  // The command name (field 2) is in parentheses and may contain spaces or ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const t = Number(fields[19]);
  return Number.isSafeInteger(t) ? t : null;
}

/**
 * The state letter of a process (`R`, `S`, `Z` …) from `/proc/<pid>/stat`, or undefined.
 *
 * @internal
 */
export function processState(pid: number): string | undefined {
  const stat = readProc(pid, "stat");
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
}

/**
 * A process's argv from `/proc/<pid>/cmdline`, or null when it cannot be read.
 *
 * @internal
 */
export function processCmdline(pid: number): string[] | null {
  const text = readProc(pid, "cmdline");
  if (text === undefined || text === "") return null;
  return text.replace(/\0$/, "").split("\0");
}

/**
 * The forms in which a spawned command can show up in the process's argv: as given, and
 * absolute when it contains a slash (a bare name is looked up on `PATH`).
 *
 * @internal
 */
export function binaryForms(command: string, cwd: string = process.cwd()): string[] {
  if (!command.includes("/")) return [command];
  const abs = isAbsolute(command) ? command : resolve(cwd, command);
  return abs === command ? [command] : [command, abs];
}

/**
 * Writes the owner record into `dir` atomically (a temporary file with mode 0600, then a
 * rename), so a reader never sees half of it.
 *
 * @internal
 */
export function writeOwnerRecord(dir: string, record: Omit<OwnerRecord, "kind">): void {
  const tmp = join(dir, `.${OWNER_FILE}.tmp`);
  writeFileSync(tmp, `${JSON.stringify({ kind: OWNER_KIND, ...record })}\n`, { mode: 0o600 });
  renameSync(tmp, join(dir, OWNER_FILE));
}

/**
 * The owner record of the host itself and a provider (pid may be undefined before or
 * without a spawn).
 *
 * @internal
 */
export function ownerRecordFor(binary: readonly string[], providerPid: number | undefined, cmdline: readonly string[] | null = null): Omit<OwnerRecord, "kind"> {
  return {
    hostPid: process.pid,
    hostStartTime: processStartTime(process.pid),
    providerPid: providerPid ?? null,
    providerStartTime: providerPid === undefined ? null : processStartTime(providerPid),
    binary,
    cmdline,
  };
}

/**
 * Parses an owner record; undefined for anything that is not exactly one (wrong kind,
 * missing or mistyped fields).
 *
 * @internal
 */
export function parseOwnerRecord(text: string): OwnerRecord | undefined {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof j !== "object" || j === null) return undefined;
  const o = j as Record<string, unknown>;
  const pid = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;
  const time = (v: unknown): v is number | null => v === null || (typeof v === "number" && Number.isSafeInteger(v) && v >= 0);
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
  if (o["kind"] !== OWNER_KIND || !pid(o["hostPid"]) || !time(o["hostStartTime"])) return undefined;
  if (!(o["providerPid"] === null || pid(o["providerPid"])) || !time(o["providerStartTime"])) return undefined;
  if (!strings(o["binary"]) || o["binary"].length === 0 || !(o["cmdline"] === null || strings(o["cmdline"]))) return undefined;
  return {
    kind: OWNER_KIND,
    hostPid: o["hostPid"],
    hostStartTime: o["hostStartTime"],
    providerPid: o["providerPid"],
    providerStartTime: o["providerStartTime"],
    binary: o["binary"],
    cmdline: o["cmdline"],
  };
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}
