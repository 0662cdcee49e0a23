// Issue 20 item 3 at the engine API level: two applies on one state (local backend and pg),
// a saved plan applied after the state moved on, and two engines in one process. The
// provider is the native random provider (fast, no process), so the races are about the
// engine and the state stores, not the provider.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPlan, ProviderPool, readPlanFile, writePlanFile } from "@magma/engine";
import { createRandomProvider } from "@magma/provider-random";
import { createLocalBackend, loadState, newStateFile, openPgBackend, saveState, withStateLock, type StateFile, type StateStore } from "@magma/state";
import { startPostgres, type TestPostgres } from "../../state/test/support/postgres.js";
import { engineFor, lockWithTimeout, nativeSource, planAndApply, workDir, type RecordedCall } from "./engine-support.js";

const PROVIDERS = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
`;

function config(n: number, prefix: string): string {
  const out = [PROVIDERS];
  for (let i = 0; i < n; i++) out.push(`resource "random_string" "${prefix}${i}" {\n  length  = ${8 + (i % 5)}\n  special = false\n}\n`);
  return out.join("\n");
}

function ids(state: StateFile | undefined): string[] {
  return (state?.resources ?? []).map((r) => `${r.type}.${r.name}`).sort();
}

const calls: RecordedCall[] = [];
const source = nativeSource(createRandomProvider, calls);
let root: string;
const cleanups: (() => void)[] = [];
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "magma-races-"));
});
afterAll(() => {
  for (const c of cleanups) c();
  rmSync(root, { recursive: true, force: true });
});

/** A store that records the serial and lineage of every snapshot written through it. */
function watched(store: StateStore): { store: StateStore; written: { serial: number; lineage: string }[] } {
  const written: { serial: number; lineage: string }[] = [];
  return {
    written,
    store: {
      workspace: store.workspace,
      read: () => store.read(),
      write: async (bytes) => {
        const j = JSON.parse(new TextDecoder().decode(bytes)) as { serial: number; lineage: string };
        written.push({ serial: j.serial, lineage: j.lineage });
        await store.write(bytes);
      },
      lock: (r) => store.lock(r),
      unlock: (id) => store.unlock(id),
      forceUnlock: (id) => store.forceUnlock(id),
    },
  };
}

async function twoApplies(storeA: StateStore, storeB: StateStore, backend: string): Promise<void> {
  const w1 = workDir({ "main.tf": config(8, "a") });
  const w2 = workDir({ "main.tf": `${config(8, "a")}\n${config(4, "b").replace(PROVIDERS, "")}` });
  cleanups.push(w1.cleanup, w2.cleanup);
  const e1 = engineFor(source, w1.dir);
  const e2 = engineFor(source, w2.dir);
  const A = watched(storeA);
  const B = watched(storeB);
  try {
    // A holds the lock for its whole plan + apply; B, on the same state, fails fast naming A.
    let refusal: unknown;
    const first = await withStateLock(A.store, { operation: "OperationTypeApply", info: "apply A" }, async () => {
      try {
        await B.store.lock({ operation: "OperationTypeApply" });
      } catch (e) {
        refusal = e;
      }
      return planAndApply(e1, source, w1.dir, A.store);
    });
    expect(first.result!.success).toBe(true);
    expect(refusal).toMatchObject({ code: "locked" });
    expect((refusal as Error).message).toContain("OperationTypeApply");
    expect((refusal as Error).message).toContain("apply A");
    expect((refusal as { detail?: { operation?: string; info?: string } }).detail).toMatchObject({ operation: "OperationTypeApply", info: "apply A" });

    // Now A holds it again while B waits with a lock timeout: B gets it once A lets go, and plans on A's state.
    const idA = await A.store.lock({ operation: "OperationTypeApply", info: "apply A again" });
    let bLocked = false;
    const waiting = lockWithTimeout(B.store, "OperationTypeApply", 60_000).then((id) => {
      bLocked = true;
      return id;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(bLocked).toBe(false);
    // A short timeout gives up, naming the holder.
    await expect(lockWithTimeout(B.store, "OperationTypeApply", 200)).rejects.toMatchObject({ code: "locked", message: expect.stringContaining("apply A again") as unknown });
    await A.store.unlock(idA);
    const idB = await waiting;
    let second;
    try {
      second = await planAndApply(e2, source, w2.dir, B.store);
    } finally {
      await B.store.unlock(idB);
    }
    expect(second.result!.success).toBe(true);
    // B planned on A's state: A's 8 kept (no-op), 4 created.
    expect(second.planned.plan.changes.filter((c) => c.action === "create").map((c) => c.address).sort()).toEqual(["random_string.b0", "random_string.b1", "random_string.b2", "random_string.b3"]);
    const final = (await loadState(storeA))!;
    expect(ids(final)).toHaveLength(12);

    // Serial and lineage never regress across both writers.
    const all = [...A.written, ...B.written];
    expect(new Set(all.map((w) => w.lineage)).size).toBe(1);
    const serials = [...A.written.map((w) => w.serial), ...B.written.map((w) => w.serial)];
    for (let i = 1; i < serials.length; i++) expect(serials[i]!).toBeGreaterThan(serials[i - 1]!);
    expect(final.serial).toBe(serials[serials.length - 1]);

    // A writer holding an older snapshot cannot move the state back, nor write another lineage.
    await expect(saveState(storeB, first.state)).rejects.toMatchObject({ code: "serial_regression" });
    await expect(saveState(storeB, { ...final, lineage: newStateFile().lineage })).rejects.toMatchObject({ code: "lineage_mismatch" });
    expect((await loadState(storeA))!.serial).toBe(final.serial);
    process.stdout.write(`[races:${backend}] writes=${all.length} serials=${serials.join(",")} objects=${ids(final).length}\n`);
  } finally {
    await e1.close();
    await e2.close();
  }
}

describe("two applies on one state", () => {
  test("local backend: one holds the lock, the other fails fast naming it or waits with a lock timeout; serial and lineage never regress", async () => {
    const dir = join(root, "local");
    // Two backends (two store objects) over the same directory, as two commands would have.
    await twoApplies(createLocalBackend({ dir }).store("default"), createLocalBackend({ dir }).store("default"), "local");
  }, 120_000);

  describe("pg backend", () => {
    let pg: TestPostgres | undefined;
    beforeAll(async () => {
      pg = await startPostgres();
    }, 180_000);
    afterAll(async () => {
      await pg?.stop();
    }, 60_000);

    test("one holds the lock, the other fails fast naming it or waits with a lock timeout; serial and lineage never regress", async () => {
      const url = await pg!.createDatabase("races");
      const a = await openPgBackend({ connStr: url, env: {}, who: "writer-a" });
      const b = await openPgBackend({ connStr: url, env: {}, who: "writer-b" });
      try {
        await twoApplies(a.store("default"), b.store("default"), "pg");
      } finally {
        await a.close();
        await b.close();
      }
    }, 180_000);
  });
});

test("a saved plan applied after the state moved on is refused (stale_plan) before any provider call; the plan file is 0600", async () => {
  const w = workDir({ "main.tf": config(3, "s") });
  cleanups.push(w.cleanup);
  const store = createLocalBackend({ dir: join(root, "stale") }).store("default");
  const engine = engineFor(source, w.dir);
  try {
    await planAndApply(engine, source, w.dir, store);
    const before = (await loadState(store))!;
    // A saved plan (a replace of s0), written to disk.
    const saved = await engine.plan(w.dir, before, { env: {}, replace: ["random_string.s0"] });
    expect(saved.hasErrors).toBe(false);
    const file = join(w.dir, "tfplan");
    await writePlanFile(file, saved.plan);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The state moves on: another apply (a replace of s1).
    const other = await engine.plan(w.dir, before, { env: {}, replace: ["random_string.s1"] });
    const pool1 = new ProviderPool(source);
    try {
      const r = await applyPlan(other.plan, { providers: pool1, state: before, scope: other.applyScope, persist: async (s) => void (await saveState(store, s)) });
      expect(r.success).toBe(true);
    } finally {
      await pool1.close();
    }
    const moved = (await loadState(store))!;
    expect(moved.serial).toBeGreaterThan(before.serial);
    // The saved plan, read back and applied to the current state: refused, nothing called.
    const back = await readPlanFile(file);
    const n = calls.length;
    const pool2 = new ProviderPool(source);
    try {
      let err: unknown;
      try {
        await applyPlan(back, { providers: pool2, state: moved, scope: await engine.applyScope(w.dir, back), persist: () => Promise.reject(new Error("must not persist")) });
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code: "stale_plan" });
      expect((err as Error).message).toContain(`made against serial ${before.serial}`);
      expect((err as Error).message).toContain(`now at serial ${moved.serial}`);
    } finally {
      await pool2.close();
    }
    expect(calls.slice(n).filter((c) => c.op !== "getSchema")).toEqual([]);
    expect((await loadState(store))!.serial).toBe(moved.serial);
  } finally {
    await engine.close();
  }
}, 120_000);

test("two engines in one process on different states do not interfere", async () => {
  const w1 = workDir({ "main.tf": config(10, "x") });
  const w2 = workDir({ "main.tf": config(7, "y") });
  cleanups.push(w1.cleanup, w2.cleanup);
  const s1 = createLocalBackend({ dir: join(root, "e1") }).store("default");
  const s2 = createLocalBackend({ dir: join(root, "e2") }).store("default");
  const e1 = engineFor(source, w1.dir, 4);
  const e2 = engineFor(source, w2.dir, 3);
  try {
    for (let round = 0; round < 3; round++) {
      const [r1, r2] = await Promise.all([planAndApply(e1, source, w1.dir, s1), planAndApply(e2, source, w2.dir, s2)]);
      expect(r1.result!.success).toBe(true);
      expect(r2.result!.success).toBe(true);
      expect(r1.result!.applied.every((a) => a.address.startsWith("random_string.x"))).toBe(true);
      expect(r2.result!.applied.every((a) => a.address.startsWith("random_string.y"))).toBe(true);
    }
    const st1 = (await loadState(s1))!;
    const st2 = (await loadState(s2))!;
    expect(ids(st1)).toEqual(Array.from({ length: 10 }, (_, i) => `random_string.x${i}`).sort());
    expect(ids(st2)).toEqual(Array.from({ length: 7 }, (_, i) => `random_string.y${i}`).sort());
    expect(st1.lineage).not.toBe(st2.lineage);
    // Converged: a further plan of each changes nothing.
    const again1 = await e1.plan(w1.dir, st1, { env: {} });
    const again2 = await e2.plan(w2.dir, st2, { env: {} });
    expect(again1.plan.changes.filter((c) => c.action !== "no-op")).toEqual([]);
    expect(again2.plan.changes.filter((c) => c.action !== "no-op")).toEqual([]);
  } finally {
    await e1.close();
    await e2.close();
  }
}, 120_000);
