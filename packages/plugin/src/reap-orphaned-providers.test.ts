// The reaper against real processes: `sleep` stands in for a provider, a process that has
// exited stands in for a SIGKILLed host. Everything lives in a private parent directory.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { OWNER_FILE, parseOwnerRecord, processStartTime, writeOwnerRecord, type OwnerRecord } from "./internal/child-registry/owner-record.js";
import { launchPlugin } from "./launch.js";
import { reapOrphanedProviders, ReapOutcome } from "./reap-orphaned-providers.js";

const hasProc = existsSync(`/proc/${process.pid}/stat`);
const d = hasProc ? describe : describe.skip;

let parent: string;
const sleepers: ChildProcess[] = [];
let deadPid: number;

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), "magma-reap-test-"));
  // A pid whose process has exited (and was waited for): the "SIGKILLed host".
  deadPid = spawnSync("true").pid!;
});

afterAll(() => {
  for (const s of sleepers) if (s.exitCode === null && s.signalCode === null) s.kill("SIGKILL");
  rmSync(parent, { recursive: true, force: true });
});

function sleeper(): ChildProcess & { pid: number } {
  const s = spawn("sleep", ["1000"], { stdio: "ignore" });
  sleepers.push(s);
  return s as ChildProcess & { pid: number };
}

function alive(p: ChildProcess): boolean {
  return p.exitCode === null && p.signalCode === null;
}

async function exited(p: ChildProcess): Promise<NodeJS.Signals | null> {
  if (!alive(p)) return p.signalCode;
  return new Promise((resolve) => p.once("exit", (_c, s) => resolve(s)));
}

let n = 0;
function socketDir(record: Omit<OwnerRecord, "kind"> | undefined, name = `magma-plugin-t${++n}`): string {
  const dir = join(parent, name);
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(join(dir, "plugin123"), ""); // where go-plugin's socket would be
  if (record !== undefined) writeOwnerRecord(dir, record);
  return dir;
}

function record(over: Partial<Omit<OwnerRecord, "kind">>): Omit<OwnerRecord, "kind"> {
  return { hostPid: deadPid, hostStartTime: null, providerPid: null, providerStartTime: null, binary: ["/nonexistent/terraform-provider-x"], cmdline: null, ...over };
}

d("reapOrphanedProviders", () => {
  test("a dead host's provider (same start time, runs the recorded binary) is SIGKILLed and its directory removed", async () => {
    const p = sleeper();
    const dir = socketDir(record({ providerPid: p.pid, providerStartTime: processStartTime(p.pid), binary: ["sleep"] }));
    const reaped = await reapOrphanedProviders({ directories: [parent] });
    expect(reaped).toEqual([{ directory: dir, hostPid: deadPid, providerPid: p.pid, binary: "sleep", outcome: ReapOutcome.Killed }]);
    expect(await exited(p)).toBe("SIGKILL");
    expect(existsSync(dir)).toBe(false);
  });

  test("the recorded command line (as read after the handshake) also identifies the provider", async () => {
    const p = sleeper();
    const dir = socketDir(record({ providerPid: p.pid, providerStartTime: processStartTime(p.pid), cmdline: ["sleep", "1000"] }));
    expect((await reapOrphanedProviders({ directories: [parent] })).map((r) => r.outcome)).toEqual([ReapOutcome.Killed]);
    expect(await exited(p)).toBe("SIGKILL");
    expect(existsSync(dir)).toBe(false);
  });

  test("a pid that now runs another command is never signalled (the directory of the dead host goes)", async () => {
    const p = sleeper();
    const dir = socketDir(record({ providerPid: p.pid, providerStartTime: processStartTime(p.pid), binary: ["/nonexistent/terraform-provider-fake"] }));
    const reaped = await reapOrphanedProviders({ directories: [parent] });
    expect(reaped.map((r) => r.outcome)).toEqual([ReapOutcome.DifferentProcess]);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(p)).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  test("a pid with another start time than recorded (reused) is never signalled, even with a matching command line", async () => {
    const p = sleeper();
    socketDir(record({ providerPid: p.pid, providerStartTime: processStartTime(p.pid)! + 1, binary: ["sleep"] }));
    expect((await reapOrphanedProviders({ directories: [parent] })).map((r) => r.outcome)).toEqual([ReapOutcome.DifferentProcess]);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(p)).toBe(true);
  });

  test("a live host's directory is untouched; a host pid now used by a process with another start time counts as dead", async () => {
    const p = sleeper();
    const mine = socketDir(record({ hostPid: process.pid, hostStartTime: processStartTime(process.pid), providerPid: p.pid, providerStartTime: processStartTime(p.pid), binary: ["sleep"] }));
    const liveHost = sleeper();
    const other = socketDir(record({ hostPid: liveHost.pid, hostStartTime: processStartTime(liveHost.pid), providerPid: p.pid, providerStartTime: processStartTime(p.pid), binary: ["sleep"] }));
    expect(await reapOrphanedProviders({ directories: [parent] })).toEqual([]);
    expect(alive(p)).toBe(true);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(other)).toBe(true);

    // The same live pid recorded with another start time: the recorded host is gone, the pid was reused.
    rmSync(other, { recursive: true });
    const reused = socketDir(record({ hostPid: liveHost.pid, hostStartTime: processStartTime(liveHost.pid)! + 7, providerPid: null }));
    expect(await reapOrphanedProviders({ directories: [parent] })).toEqual([{ directory: reused, hostPid: liveHost.pid, providerPid: null, binary: "/nonexistent/terraform-provider-x", outcome: ReapOutcome.NotRecorded }]);
    expect(alive(liveHost)).toBe(true);
    expect(existsSync(mine)).toBe(true);
    rmSync(mine, { recursive: true });
  });

  test("a provider that already exited: the directory is removed", async () => {
    const dir = socketDir(record({ providerPid: deadPid, binary: ["sleep"] }));
    expect((await reapOrphanedProviders({ directories: [parent] })).map((r) => [r.directory, r.outcome])).toEqual([[dir, ReapOutcome.Gone]]);
    expect(existsSync(dir)).toBe(false);
  });

  test("only magma's directories with a valid owner record are touched", async () => {
    const keep = [
      socketDir(undefined), // no owner.json
      socketDir(record({}), "other-prefix-dir"), // not magma-plugin-*
    ];
    const bad = socketDir(undefined);
    writeFileSync(join(bad, OWNER_FILE), JSON.stringify({ hostPid: deadPid, providerPid: null, binary: ["x"] })); // no kind
    keep.push(bad);
    const target = socketDir(record({}), "real-target");
    symlinkSync(target, join(parent, "magma-plugin-link")); // a symlink is never followed
    keep.push(target);
    expect(await reapOrphanedProviders({ directories: [parent] })).toEqual([]);
    for (const k of keep) expect(existsSync(k)).toBe(true);
    expect(existsSync(join(parent, "magma-plugin-link"))).toBe(true);
    for (const name of readdirSync(parent)) rmSync(join(parent, name), { recursive: true, force: true });
  });

  test("a missing directory is no error", async () => {
    expect(await reapOrphanedProviders({ directories: [join(parent, "nope")] })).toEqual([]);
  });
});

d("the owner record of a launch", () => {
  test("owner.json (0600) records this host and the provider, with its command line after the handshake; it goes with the directory", async () => {
    const fakePlugin = fileURLToPath(new URL("../test/testdata/fake-plugin.mjs", import.meta.url));
    const p = await launchPlugin({ command: fakePlugin, tls: false, socketDirParent: parent });
    let dir: string;
    try {
      dir = join(parent, readdirSync(parent).find((f) => f.startsWith("magma-plugin-"))!);
      const file = join(dir, OWNER_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const r = parseOwnerRecord(readFileSync(file, "utf8"))!;
      expect(r).toEqual({
        kind: "magma-provider-socket-dir",
        hostPid: process.pid,
        hostStartTime: processStartTime(process.pid),
        providerPid: p.pid,
        providerStartTime: processStartTime(p.pid),
        binary: [fakePlugin],
        cmdline: readFileSync(`/proc/${p.pid}/cmdline`, "utf8").replace(/\0$/, "").split("\0"),
      });
      expect(r.cmdline).toContain(fakePlugin);
      // This host is alive: a sweep leaves its provider alone.
      expect(await reapOrphanedProviders({ directories: [parent] })).toEqual([]);
    } finally {
      await p.close();
    }
    expect(existsSync(dir)).toBe(false);
  });
});
