/**
 * The local lock between processes: two magma processes racing for it, a holder killed while
 * holding it, and force-unlock of what a dead holder left behind. The child processes run the
 * built package (dist).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalBackend } from "../src/backends/local.js";
import { encodeJournal } from "../src/internal/state-journal.js";
import { loadState } from "../src/persist-state.js";
import { newStateFile } from "../src/state-file.js";
import { formatStateFile } from "../src/write-state-file.js";
import { rejection } from "./support/state-errors.js";

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

test("an interrupted write while another process holds the lock: read without rewriting, and say so", async () => {
  const lineage = newStateFile().lineage;
  const oldState = Buffer.from(formatStateFile({ ...newStateFile(), lineage, serial: 1 }));
  const newState = Buffer.from(formatStateFile({ ...newStateFile(), lineage, serial: 2 }));
  const notices: string[] = [];
  const store = createLocalBackend({ dir, onRecovery: (m) => notices.push(m) }).store("default");
  writeFileSync(store.backupPath, oldState);
  writeFileSync(store.path, newState.subarray(0, 20));
  writeFileSync(store.journalPath, encodeJournal(newState, oldState));

  const h = startHolder([dir, "hold"]);
  children.push(h);
  await h.line;
  expect(Buffer.from((await store.read())!)).toEqual(newState);
  expect(notices.join()).toMatch(/without rewriting the file, because the lock is held by another process/);
  expect(notices.join()).toContain(store.journalPath);
  // Nothing was touched under the other process's lock.
  expect(readFileSync(store.path)).toEqual(newState.subarray(0, 20));
  expect(existsSync(store.journalPath)).toBe(true);

  // A corrupt state (here with an incomplete journal) is refused, naming the journal and the backup.
  writeFileSync(store.journalPath, encodeJournal(newState, oldState).subarray(0, 50));
  const e = await rejection(loadState(store));
  expect(e.code).toBe("corrupt");
  expect(e.message).toContain(`the journal ${store.journalPath} of an interrupted write is incomplete`);
  expect(e.message).toContain(store.backupPath);

  // Once the holder is gone, the next read recovers under the lock: the incomplete journal goes.
  h.child.kill("SIGKILL");
  await h.exited;
  writeFileSync(store.journalPath, encodeJournal(newState, oldState));
  expect(Buffer.from((await store.read())!)).toEqual(newState);
  expect(readFileSync(store.path)).toEqual(newState);
  expect(existsSync(store.journalPath)).toBe(false);
}, 60_000);

test("a writer killed at random moments of writing a large state: every next read is one of the written versions", async () => {
  // Versions of a few MB, of different sizes, so that a rewrite in place tears the file in
  // every way (longer over shorter, shorter over longer before the truncate).
  const lineage = newStateFile().lineage;
  const versionsDir = join(dir, "versions");
  mkdirSync(versionsDir);
  const sizes = [3_000_000, 1_000_000, 4_000_000, 2_000_000];
  const versions = sizes.map((size, i) => {
    const outputs = new Map([["big", { valueJson: JSON.stringify(String(i).repeat(size)), typeJson: '"string"', sensitive: false }]]);
    const bytes = Buffer.from(formatStateFile({ ...newStateFile(), lineage, serial: i + 1, outputs }));
    writeFileSync(join(versionsDir, `v${i}`), bytes);
    return bytes;
  });
  const stateDir = join(dir, "work");
  mkdirSync(stateDir);
  const notices: string[] = [];
  const store = createLocalBackend({ dir: stateDir, onRecovery: (m) => notices.push(m) }).store("default");
  let recovered = 0;
  for (let trial = 0; trial < 20; trial++) {
    const w = startHolder([stateDir, "write-loop", versionsDir]);
    children.push(w);
    await w.line;
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 1500)));
    w.child.kill("SIGKILL");
    await w.exited;
    if (existsSync(store.journalPath)) recovered++;
    const loaded = await loadState(store);
    if (trial === 0 && loaded === undefined) continue; // killed before the first write
    const text = formatStateFile(loaded!);
    const match = versions.findIndex((v) => v.toString() === text);
    expect(match).toBeGreaterThanOrEqual(0);
    // What terraform would read next: the file, byte for byte that version, and no journal.
    expect(readFileSync(store.path).equals(versions[match]!)).toBe(true); // (toEqual on MBs is slow)
    expect(existsSync(store.journalPath)).toBe(false);
    if (existsSync(store.backupPath)) expect(versions.some((v) => v.equals(readFileSync(store.backupPath)))).toBe(true);
  }
  // Not asserted (it depends on timing): how many kills left a journal to recover from.
  process.stdout.write(`killed 20 writers; ${recovered} left a journal; notices: ${notices.length}\n`);
}, 300_000);
