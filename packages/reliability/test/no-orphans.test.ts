// Item 2 — no orphans: a host that dials several providers at once (dialProvider) and then
// ends normally, by an uncaught exception or unhandled rejection, by SIGTERM or by SIGINT
// (which providers ignore) leaves no provider process and no socket directory. And what
// happens when the host is SIGKILLed (nothing can run in it then): documented, measured, and
// the mitigation: a later host's reapOrphanedProviders (called, or lazily at its first launch)
// ends the orphaned providers and removes their socket directories. The SIGKILL tests give
// each host its own TMPDIR, so that no other process's reaper sweeps what they measure.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { reapOrphanedProviders, ReapOutcome } from "@magma/plugin";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";
import { faultWorkspace, isGone, readRecord, waitUntil } from "./support.js";

const host = fileURLToPath(new URL("./testdata/multi-host.mjs", import.meta.url));
let ws: ReturnType<typeof faultWorkspace>;
let n = 0;
beforeAll(() => {
  ws = faultWorkspace();
});
afterAll(() => ws.cleanup());

interface Run {
  readonly pids: number[];
  readonly socketDirs: string[];
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stderr: () => string;
  kill(signal: NodeJS.Signals): void;
}

/** A fresh temp dir for a host (its TMPDIR: where its providers' socket directories go). */
function privateTmp(): string {
  return mkdtempSync(join(ws.dir, "tmp-"));
}

async function startHost(mode: string, binaries: string[], detached = false, tmp?: string): Promise<Run> {
  const recordDir = join(ws.dir, `host-${++n}`);
  mkdirSync(recordDir);
  const env = tmp === undefined ? process.env : { ...process.env, TMPDIR: tmp };
  const child = spawn(process.execPath, [host, mode, recordDir, ...binaries], { stdio: ["ignore", "pipe", "pipe"], detached, env });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const { pids } = await new Promise<{ pids: number[] }>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { pids: number[] });
    });
    void exit.then((s) => reject(new Error(`host ended early (${JSON.stringify(s)}): ${stderr}`)));
  });
  const socketDirs = readdirSync(recordDir)
    .map((f) => readRecord(join(recordDir, f)).find((e) => e.event === "env")?.env?.["PLUGIN_UNIX_SOCKET_DIR"])
    .filter((d): d is string => d !== undefined);
  return { pids, socketDirs, exit, stderr: () => stderr, kill: (s) => child.kill(s) };
}

function cleanup(run: Run | undefined): void {
  if (run === undefined) return;
  run.kill("SIGKILL");
  for (const pid of run.pids) {
    if (isGone(pid)) continue;
    // A provider that outlived its host: remove its socket directory too (from its environment).
    // It may still be exiting on its own, so it can vanish between the check and the read.
    let dir: string | undefined;
    try {
      dir = /(?:^|\0)PLUGIN_UNIX_SOCKET_DIR=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, "utf8"))?.[1];
      process.kill(pid, "SIGKILL");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ESRCH" && (e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (dir !== undefined && /magma-plugin-/.test(dir)) rmSync(dir, { recursive: true, force: true });
  }
  for (const d of run.socketDirs) rmSync(d, { recursive: true, force: true });
}

const endings = [
  ["exits normally (process.exit)", "exit", undefined, { code: 0, signal: null }],
  ["throws an uncaught exception", "throw", undefined, { code: 1, signal: null }],
  ["has an unhandled rejection", "reject", undefined, { code: 1, signal: null }],
  ["gets SIGTERM", "wait", "SIGTERM", { code: null, signal: "SIGTERM" }],
  ["gets SIGINT (which providers ignore)", "wait", "SIGINT", { code: null, signal: "SIGINT" }],
] as const;

describe("no orphans: a host with three providers dialed at once", () => {
  test.each(endings)("the host %s: no provider process, no socket directory", async (_name, mode, signal, expected) => {
    let run: Run | undefined;
    try {
      run = await startHost(mode, [ws.binary, ws.binary, ws.binary]);
      expect(run.pids).toHaveLength(3);
      expect(run.socketDirs).toHaveLength(3);
      for (const pid of run.pids) expect(isGone(pid)).toBe(false);
      for (const d of run.socketDirs) expect(existsSync(d)).toBe(true);
      if (signal !== undefined) run.kill(signal);
      expect(await run.exit).toEqual(expected);
      for (const pid of run.pids) expect(await waitUntil(() => isGone(pid))).toBe(true);
      for (const d of run.socketDirs) expect(existsSync(d)).toBe(false);
      if (mode === "throw") expect(run.stderr()).toMatch(/the host crashed/);
    } finally {
      cleanup(run);
    }
  }, 60_000);
});

describe("the host is SIGKILLed (no code runs in it): what is left", () => {
  test("a provider keeps running (idle) after its host is SIGKILLed, and its socket directory stays", async () => {
    let run: Run | undefined;
    try {
      run = await startHost("wait", [ws.binary], false, privateTmp());
      run.kill("SIGKILL");
      expect(await run.exit).toEqual({ code: null, signal: "SIGKILL" });
      // Measured: nothing tells the provider; it would end only when it next writes to a closed pipe.
      expect(await waitUntil(() => isGone(run!.pids[0]!), 3000)).toBe(false);
      expect(existsSync(run.socketDirs[0]!)).toBe(true);
    } finally {
      cleanup(run);
    }
  }, 60_000);

  test("the mitigation: providers share the host's process group, so killing the group (kill -9 -PGID, a supervisor, a CI runner) ends them too", async () => {
    let run: Run | undefined;
    let hostPid = 0;
    try {
      run = await startHost("wait", [ws.binary, ws.binary], true, privateTmp());
      const pgrp = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[2]);
      hostPid = pgrp(run.pids[0]!);
      for (const pid of run.pids) expect(pgrp(pid)).toBe(hostPid);
      process.kill(-hostPid, "SIGKILL");
      expect(await run.exit).toEqual({ code: null, signal: "SIGKILL" });
      for (const pid of run.pids) expect(await waitUntil(() => isGone(pid))).toBe(true);
      // The socket directories are left: removed by the next reap (below).
      for (const d of run.socketDirs) expect(existsSync(d)).toBe(true);
    } finally {
      cleanup(run);
    }
  }, 60_000);

  const awsTest = hasAwsProvider() ? test : test.skip;
  awsTest("the real AWS provider (go-plugin) keeps running after the host's SIGKILL", async () => {
    let run: Run | undefined;
    try {
      run = await startHost("wait", [AWS_BINARY], false, privateTmp());
      run.kill("SIGKILL");
      await run.exit;
      expect(await waitUntil(() => isGone(run!.pids[0]!), 3000)).toBe(false);
    } finally {
      cleanup(run);
    }
  }, 90_000);
});

describe("the mitigation: a later host reaps what a SIGKILLed host left", () => {
  async function orphans(binaries: string[]): Promise<{ run: Run; tmp: string }> {
    const tmp = privateTmp();
    const run = await startHost("wait", binaries, false, tmp);
    run.kill("SIGKILL");
    expect(await run.exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(await waitUntil(() => run.pids.some((pid) => isGone(pid)), 1000)).toBe(false);
    for (const d of run.socketDirs) expect(existsSync(d)).toBe(true);
    return { run, tmp };
  }

  test("reapOrphanedProviders (in this process, a new host): each provider pid is gone and its socket directory removed", async () => {
    let o: { run: Run; tmp: string } | undefined;
    try {
      o = await orphans([ws.binary, ws.binary]);
      const reaped = await reapOrphanedProviders({ directories: [o.tmp] });
      expect(reaped.map((r) => r.outcome)).toEqual([ReapOutcome.Killed, ReapOutcome.Killed]);
      expect(reaped.map((r) => r.providerPid).sort()).toEqual([...o.run.pids].sort());
      expect(reaped.map((r) => r.directory).sort()).toEqual([...o.run.socketDirs].sort());
      for (const r of reaped) expect(r.binary).toBe(ws.binary);
      for (const pid of o.run.pids) expect(await waitUntil(() => isGone(pid))).toBe(true);
      for (const d of o.run.socketDirs) expect(existsSync(d)).toBe(false);
      // A second sweep finds nothing.
      expect(await reapOrphanedProviders({ directories: [o.tmp] })).toEqual([]);
    } finally {
      cleanup(o?.run);
    }
  }, 60_000);

  test("lazily: the first launch of the next host process (same temp dir) reaps them", async () => {
    let o: { run: Run; tmp: string } | undefined;
    let next: Run | undefined;
    try {
      o = await orphans([ws.binary]);
      next = await startHost("exit", [ws.binary], false, o.tmp);
      expect(await next.exit).toEqual({ code: 0, signal: null });
      expect(await waitUntil(() => isGone(o!.run.pids[0]!))).toBe(true);
      expect(existsSync(o.run.socketDirs[0]!)).toBe(false);
      expect(readdirSync(o.tmp).filter((f) => f.startsWith("magma-plugin-"))).toEqual([]);
    } finally {
      cleanup(o?.run);
      cleanup(next);
    }
  }, 60_000);

  test("a live host's providers are untouched", async () => {
    let run: Run | undefined;
    try {
      const tmp = privateTmp();
      run = await startHost("wait", [ws.binary, ws.binary], false, tmp);
      expect(await reapOrphanedProviders({ directories: [tmp] })).toEqual([]);
      for (const pid of run.pids) expect(isGone(pid)).toBe(false);
      for (const d of run.socketDirs) expect(existsSync(d)).toBe(true);
      run.kill("SIGTERM");
      expect(await run.exit).toEqual({ code: null, signal: "SIGTERM" });
    } finally {
      cleanup(run);
    }
  }, 60_000);

  const awsTest = hasAwsProvider() ? test : test.skip;
  awsTest("the real AWS provider left by a SIGKILLed host is reaped", async () => {
    let o: { run: Run; tmp: string } | undefined;
    try {
      o = await orphans([AWS_BINARY]);
      const reaped = await reapOrphanedProviders({ directories: [o.tmp] });
      expect(reaped.map((r) => [r.providerPid, r.outcome])).toEqual([[o.run.pids[0], ReapOutcome.Killed]]);
      expect(await waitUntil(() => isGone(o!.run.pids[0]!))).toBe(true);
      expect(reaped[0]!.directory.startsWith(join(o.tmp, "magma-plugin-"))).toBe(true);
      expect(existsSync(reaped[0]!.directory)).toBe(false);
    } finally {
      cleanup(o?.run);
    }
  }, 90_000);
});
