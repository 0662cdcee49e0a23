/**
 * The local lock between processes: two magma processes racing for it, a holder killed while
 * holding it, and force-unlock of what a dead holder left behind. The child processes run the
 * built package (dist).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalBackend } from "../src/backends/local.js";
import { isStateError, type StateError } from "../src/state-error.js";

const holder = join(dirname(fileURLToPath(import.meta.url)), "testdata", "lock-holder.mjs");

interface Child {
  readonly child: ChildProcess;
  readonly line: Promise<Record<string, unknown>>;
  readonly exited: Promise<void>;
}

function startHolder(args: string[]): Child {
  const child = spawn(process.execPath, [holder, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  const line = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const i = out.indexOf("\n");
      if (i >= 0) resolve(JSON.parse(out.slice(0, i)) as Record<string, unknown>);
    });
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => reject(new Error(`holder exited ${code} before printing; stderr: ${err}`)));
  });
  line.catch(() => undefined);
  return { child, line, exited };
}

async function rejection(p: Promise<unknown>): Promise<StateError> {
  try {
    await p;
  } catch (e) {
    if (isStateError(e)) return e;
    throw e;
  }
  throw new Error("expected a StateError");
}

let dir: string;
const children: Child[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "magma-lock-"));
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    await c.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test("two processes race for one lock: exactly one wins, the loser's error names the holder", async () => {
  const go = join(dir, "go");
  const racers = [startHolder([dir, "race", go]), startHolder([dir, "race", go])];
  children.push(...racers);
  // Let both processes load and wait at the barrier, then release them together.
  await new Promise((r) => setTimeout(r, 1500));
  writeFileSync(go, "");
  const results = await Promise.all(racers.map((r) => r.line));
  writeFileSync(`${go}.release`, "");
  await Promise.all(racers.map((r) => r.exited));
  const winners = results.filter((r) => r["ok"] === true);
  const losers = results.filter((r) => r["ok"] === false);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(1);
  const loser = losers[0]!;
  expect(loser["code"]).toBe("locked");
  // The lock info may still be being written when the loser looks; it names the holder either way.
  const detail = loser["detail"] as { id?: string } | undefined;
  if (detail !== undefined) expect(detail.id).toBe(winners[0]!["id"]);
  expect(String(loser["message"])).toMatch(new RegExp(`${String(winners[0]!["id"])}|process ${String(winners[0]!["pid"])}`));
}, 60_000);

test("a killed holder's lock goes with its process; force-unlock clears what it left", async () => {
  const h = startHolder([dir, "hold"]);
  children.push(h);
  const { id, pid } = (await h.line) as { id: string; pid: number };
  const store = createLocalBackend({ dir }).store("default");

  const e = await rejection(store.lock({ operation: "test" }));
  expect(e.code).toBe("locked");
  expect(e.detail).toMatchObject({ id, operation: "magma-test-hold", info: `pid ${pid}` });
  expect(e.message).toContain(id);

  // A live holder's local lock cannot be broken.
  const f = await rejection(store.forceUnlock(id));
  expect(f.code).toBe("locked");
  expect(f.message).toContain(`process ${pid}`);

  h.child.kill("SIGKILL");
  await h.exited;
  // The OS released the lock; the stale lock info is still there, and force-unlock removes it.
  expect(existsSync(store.lockInfoPath)).toBe(true);
  expect((await rejection(store.forceUnlock("not-the-id"))).code).toBe("lock_id_mismatch");
  await store.forceUnlock(id);
  expect(existsSync(store.lockInfoPath)).toBe(false);
  const mine = await store.lock({ operation: "test" });
  await store.unlock(mine);
}, 60_000);

test("a killed holder's lock can be taken without force-unlock", async () => {
  const h = startHolder([dir, "hold"]);
  children.push(h);
  await h.line;
  h.child.kill("SIGKILL");
  await h.exited;
  const store = createLocalBackend({ dir }).store("default");
  const id = await store.lock({ operation: "test" });
  expect(store.readLockInfo()?.id).toBe(id);
  await store.unlock(id);
}, 60_000);
