import { lstat, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  OWNER_FILE,
  SOCKET_DIR_PREFIX,
  parseOwnerRecord,
  processCmdline,
  processStartTime,
  processState,
  type OwnerRecord,
} from "./internal/child-registry/owner-record.js";

/** What {@link reapOrphanedProviders} did about one provider whose host is gone. */
export const ReapOutcome = {
  /** The provider was still running (the same process, by start time and command line) and was SIGKILLed. */
  Killed: "killed",
  /** The provider process had already exited. */
  Gone: "gone",
  /** The host died before it recorded the provider's pid (or before spawning it). */
  NotRecorded: "not_recorded",
  /** The pid now belongs to another process (a different start time or command line): left alone. */
  DifferentProcess: "different_process",
  /** The pid is in use but its identity cannot be checked (no `/proc`): left alone. */
  Unverified: "unverified",
} as const;

/** One of the {@link ReapOutcome} values. */
export type ReapOutcome = (typeof ReapOutcome)[keyof typeof ReapOutcome];

/** One private socket directory removed by {@link reapOrphanedProviders}. */
export interface ReapedProvider {
  /** The directory (removed). */
  readonly directory: string;
  /** The pid of the host that launched the provider (no longer running). */
  readonly hostPid: number;
  /** The provider's recorded pid, or null when none was recorded. */
  readonly providerPid: number | null;
  /** The provider binary as it was spawned. */
  readonly binary: string;
  /** What was done about the provider process. */
  readonly outcome: ReapOutcome;
}

/** Options of {@link reapOrphanedProviders}. */
export interface ReapOrphanedProvidersOptions {
  /**
   * The directories to look in for magma's private socket directories (`magma-plugin-*`).
   * Default: the OS temp dir (`os.tmpdir()`, i.e. `TMPDIR`), where they are made unless a
   * launch was given another `socketDirParent`.
   */
  readonly directories?: readonly string[];
}

/**
 * Ends the providers whose host was killed without a chance to clean up (SIGKILL, OOM
 * killer, power loss of a container), and removes their private socket directories.
 *
 * Every launch records in its 0700 socket directory an `owner.json` (mode 0600) with the
 * host's pid and start time, the provider's pid and start time, the binary, and — once the
 * handshake is done — the provider's command line. This looks at the `magma-plugin-*`
 * directories in `directories` that are owned by the current user and hold such a
 * record, and for each whose host is no longer running (no such pid, a zombie, or a pid
 * now used by a process with another start time):
 *
 * - SIGKILLs the provider only if that pid is still running *and* is the same process:
 *   its start time matches the recorded one (where `/proc` is available) and its command
 *   line is the recorded one or runs the recorded binary (`argv[0]`, or `argv[1]` for a
 *   script run by an interpreter). A pid that now belongs to anything else is never
 *   signalled; without `/proc` nothing is signalled;
 * - removes the directory.
 *
 * Directories of running hosts (including this one), of other users, without a valid
 * owner record, and symlinks are not touched. Launches call this lazily, once per host
 * process and directory, before their first spawn; errors there are ignored.
 *
 * @returns The directories removed, with what was done about each provider.
 */
export async function reapOrphanedProviders(options: ReapOrphanedProvidersOptions = {}): Promise<ReapedProvider[]> {
  const uid = process.getuid?.();
  if (uid === undefined) return []; // Not a POSIX host: no private socket directories.
  const reaped: ReapedProvider[] = [];
  for (const parent of [...new Set((options.directories ?? [tmpdir()]).map((d) => resolve(d)))]) {
    let names: string[];
    try {
      names = await readdir(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.startsWith(SOCKET_DIR_PREFIX)) continue;
      const directory = join(parent, name);
      const record = await ownedRecord(directory, uid);
      if (record === undefined || hostAlive(record)) continue;
      const outcome = endProvider(record);
      await rm(directory, { recursive: true, force: true });
      reaped.push({ directory, hostPid: record.hostPid, providerPid: record.providerPid, binary: record.binary[0]!, outcome });
    }
  }
  return reaped;
}

const reapedParents = new Set<string>();

/**
 * {@link reapOrphanedProviders} for the directories not yet looked at by this process;
 * never rejects.
 *
 * @internal
 */
export async function reapOrphanedProvidersOnce(directories: readonly string[]): Promise<void> {
  const todo = directories.map((d) => resolve(d)).filter((d) => !reapedParents.has(d));
  if (todo.length === 0) return;
  for (const d of todo) reapedParents.add(d);
  try {
    await reapOrphanedProviders({ directories: todo });
  } catch {
    // A best-effort sweep: it must never fail a launch.
  }
}

/** The owner record of a directory that is ours (our uid, a real directory, a regular record file), else undefined. */
async function ownedRecord(directory: string, uid: number): Promise<OwnerRecord | undefined> {
  try {
    const d = await lstat(directory);
    if (!d.isDirectory() || d.uid !== uid) return undefined;
    const file = join(directory, OWNER_FILE);
    const f = await lstat(file);
    if (!f.isFile() || f.uid !== uid || f.size > 64 * 1024) return undefined;
    return parseOwnerRecord(await readFile(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether a pid names a running (not zombie) process. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const state = processState(pid);
  return state !== "Z" && state !== "X";
}

function hostAlive(r: OwnerRecord): boolean {
  if (!running(r.hostPid)) return false;
  if (r.hostStartTime === null) return true;
  const now = processStartTime(r.hostPid);
  return now === null || now === r.hostStartTime;
}

function endProvider(r: OwnerRecord): ReapOutcome {
  const pid = r.providerPid;
  if (pid === null) return ReapOutcome.NotRecorded;
  if (!running(pid)) return ReapOutcome.Gone;
  const cmdline = processCmdline(pid);
  const start = processStartTime(pid);
  if (cmdline === null || start === null) return running(pid) ? ReapOutcome.Unverified : ReapOutcome.Gone;
  if (r.providerStartTime !== null && start !== r.providerStartTime) return ReapOutcome.DifferentProcess;
  const sameCmdline = r.cmdline !== null && r.cmdline.length === cmdline.length && r.cmdline.every((a, i) => a === cmdline[i]);
  const runsBinary = cmdline.slice(0, 2).some((a) => r.binary.includes(a));
  if (!sameCmdline && !runsBinary) return ReapOutcome.DifferentProcess;
  try {
    process.kill(pid, "SIGKILL");
    return ReapOutcome.Killed;
  } catch {
    return ReapOutcome.Gone;
  }
}
