import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ProcessGroups, killGroupsOnExit } from "./process-groups.js";

/** Whether `pid` is a process still running (absent or a zombie counts as ended). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Reads `n` lines of pids from a child's stdout. */
function pidsFrom(child: ChildProcess, n: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (b: Buffer) => {
      text += b.toString("utf8");
      const pids = text.split("\n").filter((l) => /^\d+$/.test(l.trim())).map(Number);
      if (pids.length >= n) resolve(pids.slice(0, n));
    });
    child.once("exit", (code) => reject(new Error(`exited (${String(code)}) before printing ${n} pids: ${text}`)));
  });
}

// A stand-in for a tool run: a leader in its own group that starts two more processes (as terraform starts providers).
const TOOL = "sleep 300 & echo $!; sleep 300 & echo $!; wait";

describe("killGroupsOnExit", () => {
  const started: number[] = [];
  afterAll(() => {
    for (const pid of started) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  });

  test("on SIGTERM kills every recorded group, runs onSignal and exits with 143; exit kills what is left", async () => {
    const groups = new ProcessGroups();
    const target = new EventEmitter();
    const exits: number[] = [];
    const signalled: string[] = [];
    const remove = killGroupsOnExit(groups, { target, exit: (c) => exits.push(c), onSignal: (s) => signalled.push(s) });
    const leader = spawn("sh", ["-c", TOOL], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    const kids = await pidsFrom(leader, 2);
    started.push(leader.pid!, ...kids);
    const forget = groups.add(leader.pid!);
    expect(kids.every(running)).toBe(true);

    target.emit("SIGTERM");
    expect(exits).toEqual([143]);
    expect(signalled).toEqual(["SIGTERM"]);
    expect(await until(() => !kids.some(running))).toBe(true);
    expect(groups.pids()).toEqual([]);
    forget();

    // A group recorded later is killed by the exit handler; after remove() nothing listens.
    const second = spawn("sh", ["-c", TOOL], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    const more = await pidsFrom(second, 2);
    started.push(second.pid!, ...more);
    groups.add(second.pid!);
    target.emit("exit");
    expect(await until(() => !more.some(running))).toBe(true);
    remove();
    expect(target.listenerCount("SIGINT") + target.listenerCount("SIGTERM") + target.listenerCount("exit")).toBe(0);
  }, 60_000);

  test("a real driver process stopped by SIGINT leaves none of its tools' processes running", async () => {
    const built = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "process-groups.js");
    expect(existsSync(built)).toBe(true);
    const script = `
      import { spawn } from "node:child_process";
      import { ProcessGroups, killGroupsOnExit } from ${JSON.stringify(built)};
      const groups = new ProcessGroups();
      killGroupsOnExit(groups);
      const c = spawn("sh", ["-c", ${JSON.stringify(TOOL)}], { detached: true, stdio: ["ignore", "inherit", "ignore"] });
      groups.add(c.pid);
      setInterval(() => {}, 1000);
    `;
    const driver = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    const kids = await pidsFrom(driver, 2);
    started.push(...kids);
    expect(kids.every(running)).toBe(true);
    const ended = new Promise<{ code: number | null; stderr: string }>((resolve) => {
      let stderr = "";
      driver.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
      driver.once("close", (code) => resolve({ code, stderr }));
    });
    driver.kill("SIGINT");
    const { code, stderr } = await ended;
    expect(code).toBe(130);
    expect(stderr).toContain("SIGINT: killed 1 process group");
    expect(await until(() => !kids.some(running))).toBe(true);
  }, 60_000);
});
