import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadState, objectsFormattedFor, saveState, withStateLock } from "../persist-state.js";
import { readStateFile } from "../read-state-file.js";
import { newStateFile, type StateFile } from "../state-file.js";
import { formatStateFile } from "../write-state-file.js";
import { encodeJournal } from "../internal/state-journal.js";
import { createLocalBackend, type LocalStateStore } from "./local.js";
import { rejection } from "../../test/support/state-errors.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "magma-local-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function withOutput(f: StateFile, name: string, value: string): StateFile {
  const outputs = new Map(f.outputs);
  outputs.set(name, { valueJson: JSON.stringify(value), typeJson: '"string"', sensitive: false });
  return { ...f, outputs };
}

describe("local backend", () => {
  it("uses an absolute path as it is (CDKTF writes one), not under the working directory", async () => {
    const elsewhere = join(dir, "project", "terraform.hello.tfstate");
    const store = createLocalBackend({ dir: join(dir, "stack"), path: elsewhere }).store("default");
    await saveState(store, withOutput(newStateFile(), "a", "1"));
    expect(existsSync(elsewhere)).toBe(true);
    expect(existsSync(join(dir, "stack", dir))).toBe(false);
  });

  it("stores the default workspace in terraform.tfstate and keeps the previous version as .backup", async () => {
    const store = createLocalBackend({ dir }).store("default");
    expect(await store.read()).toBeUndefined();
    const s1 = await saveState(store, withOutput(newStateFile(), "a", "1"));
    expect(s1.serial).toBe(1);
    const first = readFileSync(join(dir, "terraform.tfstate"), "utf8");
    expect(first).toBe(formatStateFile(s1));
    expect(existsSync(join(dir, "terraform.tfstate.backup"))).toBe(false);

    // The backup is the state before the run: this store's writes leave none (there was no state), the next run's (a new store) the state it found.
    const s1b = await saveState(store, withOutput(s1, "a", "1b"));
    expect(s1b.serial).toBe(2);
    expect(existsSync(join(dir, "terraform.tfstate.backup"))).toBe(false);
    const next = createLocalBackend({ dir }).store("default");
    const s2 = await saveState(next, withOutput(readStateFile(readFileSync(join(dir, "terraform.tfstate")))!, "a", "2"));
    expect(s2.serial).toBe(3);
    const atStart = formatStateFile(s1b);
    expect(readFileSync(join(dir, "terraform.tfstate.backup"), "utf8")).toBe(atStart);
    const s2b = await saveState(next, withOutput(s2, "a", "2b"));
    expect(s2b.serial).toBe(4);
    expect(readFileSync(join(dir, "terraform.tfstate.backup"), "utf8")).toBe(atStart);
    expect((await loadState(next))!.outputs.get("a")!.valueJson).toBe('"2b"');
    expect(existsSync(next.journalPath)).toBe(false);

    // Unchanged content is not written again.
    const s3 = await saveState(next, s2b);
    expect(s3.serial).toBe(4);
  });

  it("runs a read, a write and an unlock of the same file one after the other, though a write awaits its fsyncs", async () => {
    const notices: string[] = [];
    const store = createLocalBackend({ dir, onRecovery: (m) => notices.push(m) }).store("default");
    const other = createLocalBackend({ dir, onRecovery: (m) => notices.push(m) }).store("default");
    const s1 = await saveState(store, withOutput(newStateFile(), "a", "1"));
    const id = await store.lock({ operation: "OperationTypeApply" });
    const next = formatStateFile({ ...withOutput(s1, "a", "2"), serial: 2 });
    // Started together: the read must neither see the write's journal (and "recover" it) nor
    // the file half written, and the unlock must not close the descriptor the write is using.
    const writing = store.write(new TextEncoder().encode(next));
    const reading = store.read();
    const unlocking = store.unlock(id);
    const readingAfter = other.read();
    await writing;
    expect(new TextDecoder().decode(await reading)).toBe(next);
    await unlocking;
    expect(new TextDecoder().decode(await readingAfter)).toBe(next);
    expect(notices).toEqual([]);
    expect(existsSync(store.journalPath)).toBe(false);
    expect(readFileSync(store.path, "utf8")).toBe(next);
    // The lock is released: another store can take it.
    await other.unlock(await other.lock({ operation: "OperationTypeApply" }));
  });

  it("refuses another lineage and an older serial", async () => {
    const store = createLocalBackend({ dir }).store("default");
    const s1 = await saveState(store, withOutput(newStateFile(), "a", "1"));
    const s2 = await saveState(store, withOutput(s1, "a", "2"));
    const before = readFileSync(store.path);
    expect((await rejection(saveState(store, withOutput(newStateFile(), "a", "x")))).code).toBe("lineage_mismatch");
    expect((await rejection(saveState(store, withOutput(s1, "a", "3")))).code).toBe("serial_regression");
    expect(readFileSync(store.path)).toEqual(before);
    expect((await saveState(store, withOutput(s2, "a", "3"))).serial).toBe(3);
  });

  it("writes from what it wrote last: another writer in between is noticed (compare-and-swap), and its serial and lineage are checked", async () => {
    const store = createLocalBackend({ dir }).store("default");
    const s1 = await saveState(store, withOutput(newStateFile(), "a", "1"));
    // Someone else (another process, terraform) writes a newer serial of the same lineage.
    writeFileSync(store.path, formatStateFile({ ...withOutput(s1, "a", "other"), serial: 7 }));
    expect((await rejection(saveState(store, withOutput(s1, "a", "2")))).code).toBe("serial_regression");
    expect((await loadState(store))!.outputs.get("a")!.valueJson).toBe('"other"');
    // ... or an unrelated state.
    writeFileSync(store.path, formatStateFile({ ...withOutput(newStateFile(), "a", "x"), serial: 1 }));
    expect((await rejection(saveState(store, withOutput({ ...s1, serial: 9 }, "a", "3")))).code).toBe("lineage_mismatch");
    // The store's compare-and-swap itself.
    const now = readFileSync(store.path);
    expect(await store.replace(new TextEncoder().encode("{}"), new TextEncoder().encode("x"))).toBe(false);
    expect(readFileSync(store.path)).toEqual(now);
    expect(await store.replace(now, new TextEncoder().encode(formatStateFile(s1)))).toBe(true);
    expect(readFileSync(store.path, "utf8")).toBe(formatStateFile(s1));
  });

  it("formats only the instance objects that changed since the last write", async () => {
    const store = createLocalBackend({ dir }).store("default");
    const instance = (i: number): StateFile["resources"][number]["instances"][number] => ({
      indexKey: i,
      deposed: undefined,
      tainted: false,
      schemaVersion: 0,
      attributesJson: JSON.stringify({ id: `id-${i}` }),
      attributesFlat: undefined,
      sensitiveAttributesJson: "[]",
      private: undefined,
      dependencies: [],
      createBeforeDestroy: false,
    });
    const base = newStateFile();
    const resource = { module: [], mode: "managed" as const, type: "random_id", name: "x", provider: { module: [], provider: { hostname: "registry.terraform.io", namespace: "hashicorp", type: "random" }, alias: undefined }, instances: [] as StateFile["resources"][number]["instances"] };
    let state: StateFile = { ...base, resources: [resource] };
    for (let i = 0; i < 50; i++) {
      resource.instances = [...resource.instances, instance(i)];
      state = await saveState(store, { ...state, resources: [{ ...resource }] });
    }
    // One format per object, however many writes (not 1 + 2 + … + 50).
    expect(objectsFormattedFor(store)).toBe(50);
    expect(state.serial).toBe(50);
    expect(readFileSync(store.path, "utf8")).toBe(formatStateFile(state));
    // An object changed in place is formatted again, not taken from memory.
    resource.instances[3]!.attributesJson = JSON.stringify({ id: "changed" });
    state = await saveState(store, { ...state, resources: [{ ...resource }] });
    expect(objectsFormattedFor(store)).toBe(51);
    expect(readFileSync(store.path, "utf8")).toContain('"id": "changed"');
    expect((await loadState(store))!.resources[0]!.instances).toHaveLength(50);
  });

  it("refuses a corrupt or truncated state and leaves it untouched", async () => {
    const store = createLocalBackend({ dir }).store("default");
    const good = formatStateFile({ ...withOutput(newStateFile(), "a", "1"), serial: 4 });
    for (const bad of [good.slice(0, good.length - 10), "{not json", '{"version": 3, "serial": 1}']) {
      writeFileSync(store.path, bad);
      const e = await rejection(saveState(store, readStateFile(good)!));
      expect(["corrupt", "unsupported_version"]).toContain(e.code);
      expect(readFileSync(store.path, "utf8")).toBe(bad);
      expect((await rejection(loadState(store))).code).toBe(e.code);
      expect(existsSync(`${store.path}.backup`)).toBe(false);
    }
  });

  it("keeps workspaces in terraform.tfstate.d/<name>/", async () => {
    const backend = createLocalBackend({ dir });
    expect(await backend.listWorkspaces()).toEqual(["default"]);
    await saveState(backend.store("prod"), newStateFile());
    await saveState(backend.store("dev"), newStateFile());
    expect(existsSync(join(dir, "terraform.tfstate.d", "prod", "terraform.tfstate"))).toBe(true);
    expect(await backend.listWorkspaces()).toEqual(["default", "dev", "prod"]);
    await backend.deleteWorkspace("dev");
    expect(await backend.listWorkspaces()).toEqual(["default", "prod"]);
    expect((await rejection(backend.deleteWorkspace("default"))).code).toBe("invalid_argument");
    expect((await rejection(backend.deleteWorkspace("nope"))).code).toBe("not_found");
    expect(() => backend.store("a/b")).toThrow(/invalid workspace name/);
  });

  it("locks: a second lock is refused naming the holder; unlock needs the right id", async () => {
    const backend = createLocalBackend({ dir });
    const a = backend.store("default");
    const b = createLocalBackend({ dir }).store("default");
    const id = await a.lock({ operation: "OperationTypeApply", info: "first" });
    const info = JSON.parse(readFileSync(join(dir, ".terraform.tfstate.lock.info"), "utf8")) as Record<string, string>;
    expect(Object.keys(info)).toEqual(["ID", "Operation", "Info", "Who", "Version", "Created", "Path"]);
    expect(info).toMatchObject({ ID: id, Operation: "OperationTypeApply", Info: "first", Path: "terraform.tfstate" });
    expect(info["Created"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const e = await rejection(b.lock({ operation: "x" }));
    expect(e.code).toBe("locked");
    expect(e.detail?.id).toBe(id);
    expect(e.message).toContain(id);
    expect((await rejection(b.write(new Uint8Array([1])))).code).toBe("locked");
    // Reading through another store of this process goes through the locked descriptor.
    await a.write(Buffer.from(formatStateFile(newStateFile())));
    expect(await b.read()).toBeDefined();

    expect((await rejection(a.unlock("wrong"))).code).toBe("lock_id_mismatch");
    await a.unlock(id);
    expect(existsSync(join(dir, ".terraform.tfstate.lock.info"))).toBe(false);
    const id2 = await b.lock({ operation: "y" });
    await b.unlock(id2);
    expect((await rejection(b.unlock(id2))).code).toBe("not_found");
  });

  it("force-unlock releases this process's lock by id and refuses an unknown id", async () => {
    const store = createLocalBackend({ dir }).store("default");
    const id = await store.lock({ operation: "x" });
    expect((await rejection(store.forceUnlock("other"))).code).toBe("lock_id_mismatch");
    await store.forceUnlock(id);
    expect((await rejection(store.forceUnlock(id))).code).toBe("not_found");
  });

  it("withStateLock releases the lock when the work fails", async () => {
    const store = createLocalBackend({ dir }).store("default");
    await expect(withStateLock(store, { operation: "x" }, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const id = await store.lock({ operation: "y" });
    await store.unlock(id);
    // A lock taken on a state that did not exist, and never written, leaves at most an empty file: no state.
    expect(await store.read()).toBeUndefined();
  });

  it("removes at unlock a state file its lock created and nothing wrote to (Terraform's Unlock), and keeps one that existed", async () => {
    const path = join(dir, "terraform.tfstate");
    const store = createLocalBackend({ dir }).store("default");
    await store.unlock(await store.lock({ operation: "OperationTypePlan" }));
    expect(existsSync(path)).toBe(false);
    // Written under the lock: kept.
    const id = await store.lock({ operation: "OperationTypeApply" });
    await store.write(Buffer.from(formatStateFile(newStateFile())));
    await store.unlock(id);
    expect(existsSync(path)).toBe(true);
    // An empty file that was there before the lock: left as it was.
    writeFileSync(path, "");
    await store.unlock(await store.lock({ operation: "OperationTypePlan" }));
    expect(readFileSync(path, "utf8")).toBe("");
  });

  describe("recovery from a write interrupted at each point", () => {
    const lineage = newStateFile().lineage;
    const state = (serial: number, value: string): Buffer => Buffer.from(formatStateFile({ ...withOutput({ ...newStateFile(), lineage }, "a", value), serial }));
    const oldState = state(1, "old ".repeat(50));
    const newState = state(2, "new");
    let notices: string[];
    let store: LocalStateStore;
    beforeEach(() => {
      notices = [];
      store = createLocalBackend({ dir, onRecovery: (m) => notices.push(m) }).store("default");
    });
    // What every write leaves before the state file is touched: the backup of the previous version.
    const crashed = (stateBytes: Uint8Array, journal: Uint8Array | undefined): void => {
      writeFileSync(store.backupPath, oldState);
      writeFileSync(store.path, stateBytes);
      if (journal !== undefined) writeFileSync(store.journalPath, journal);
    };
    const expectRecovered = async (expected: Buffer): Promise<void> => {
      const loaded = await loadState(store);
      expect(formatStateFile(loaded!)).toBe(expected.toString());
      // What terraform reads next: the file itself, byte for byte, and no journal left.
      expect(readFileSync(store.path)).toEqual(expected);
      expect(existsSync(store.journalPath)).toBe(false);
      expect(readFileSync(store.backupPath)).toEqual(oldState);
    };

    it("crash before the journal is in place: the temp journal is ignored, the old state stays", async () => {
      crashed(oldState, undefined);
      writeFileSync(`${store.journalPath}.123.abcd.tmp`, encodeJournal(newState, oldState).subarray(0, 100));
      writeFileSync(`${store.journalPath}.123.abcd0123.tmp`, encodeJournal(newState, oldState).subarray(0, 100));
      await expectRecovered(oldState);
      expect(notices).toEqual([]);
      // The next write (under the lock) removes what the killed write left behind.
      writeFileSync(`${store.backupPath}.123.abcd0123.tmp`, "x");
      writeFileSync(`${store.path}.other.123.abcd0123.tmp`, "not ours");
      await saveState(store, readStateFile(newState)!);
      expect(existsSync(`${store.journalPath}.123.abcd.tmp`)).toBe(true); // not a name a write makes
      expect(existsSync(`${store.backupPath}.123.abcd0123.tmp`)).toBe(false);
      expect(existsSync(`${store.journalPath}.123.abcd0123.tmp`)).toBe(false);
      expect(existsSync(`${store.path}.other.123.abcd0123.tmp`)).toBe(true);
    });

    it("torn journal (truncated at any length) and the old state: the journal is discarded", async () => {
      const journal = encodeJournal(newState, oldState);
      for (const cut of [0, 1, newState.length - 1, newState.length, journal.length - 1]) {
        crashed(oldState, journal.subarray(0, cut));
        notices = [];
        await expectRecovered(oldState);
        expect(notices.join()).toMatch(/incomplete journal/);
      }
      // A journal whose checksum does not match (a torn page inside) is not trusted either.
      const corrupted = Buffer.from(journal);
      corrupted[10] = corrupted[10]! ^ 1;
      crashed(oldState, corrupted);
      await expectRecovered(oldState);
      // A bare state without the trailer is not a journal.
      crashed(oldState, newState);
      await expectRecovered(oldState);
    });

    it("complete journal, state file not touched yet: rolled forward to the new state", async () => {
      crashed(oldState, encodeJournal(newState, oldState));
      await expectRecovered(newState);
      expect(notices.join()).toMatch(/completed an interrupted write/);
    });

    it("complete journal, state file torn at any point of the rewrite: rolled forward", async () => {
      const journal = encodeJournal(newState, oldState);
      const torn = [
        newState.subarray(0, 1),
        newState.subarray(0, newState.length >> 1),
        newState.subarray(0, newState.length - 1),
        // New state written over a longer old one, before the truncate.
        Buffer.concat([newState, oldState.subarray(newState.length)]),
        // Most of the new state, then the old state's rest.
        Buffer.concat([newState.subarray(0, newState.length - 5), oldState.subarray(newState.length - 5)]),
      ];
      for (const t of torn) {
        crashed(t, journal);
        notices = [];
        await expectRecovered(newState);
        expect(notices.join()).toMatch(/was torn/);
      }
    });

    it("complete journal, state file torn into valid JSON (new start, old rest): rolled forward, not taken for a newer state", async () => {
      // Found by the kill trials (issue 20): the new state differs from the old one in the
      // serial's digits and in a resource added after the cut, so the new state's first half
      // followed by the old state's second half is a complete, parsable state — the old content
      // under the new serial. It was taken for a state written since the crash and the
      // committed write was dropped.
      const base = withOutput(readStateFile(oldState)!, "a", "x".repeat(200));
      const before = Buffer.from(formatStateFile({ ...base, serial: 5 }));
      const after = Buffer.from(formatStateFile(withOutput({ ...base, serial: 6 }, "zz", "added at the end")));
      const cut = before.length >> 1;
      const spliced = Buffer.concat([after.subarray(0, cut), before.subarray(cut)]);
      expect(readStateFile(spliced)!.serial).toBe(6); // it does parse
      crashed(spliced, encodeJournal(after, before));
      writeFileSync(store.backupPath, before);
      notices = [];
      const loaded = await loadState(store);
      expect(formatStateFile(loaded!)).toBe(after.toString());
      expect(readFileSync(store.path)).toEqual(after);
      expect(existsSync(store.journalPath)).toBe(false);
      expect(notices.join()).toMatch(/was torn/);
      // Without a backup matching the journal's record, a complete state still wins (terraform's).
      crashed(spliced, encodeJournal(after, before));
      writeFileSync(store.backupPath, oldState);
      expect(formatStateFile((await loadState(store))!)).toBe(spliced.toString());
    });

    it("complete journal, state file fully rewritten (journal not yet removed): the new state, journal removed", async () => {
      crashed(newState, encodeJournal(newState, oldState));
      await expectRecovered(newState);
      expect(notices).toEqual([]);
    });

    it("a journal superseded by a complete state written since (terraform) is discarded", async () => {
      const third = state(2, "terraform");
      crashed(third, encodeJournal(newState, oldState));
      await expectRecovered(third);
      expect(notices.join()).toMatch(/supersedes it/);
    });

    it("read() recovers too, and so does a write, keeping the recovered state as the backup", async () => {
      crashed(newState.subarray(0, 30), encodeJournal(newState, oldState));
      expect(Buffer.from((await store.read())!)).toEqual(newState);
      crashed(newState.subarray(0, 30), encodeJournal(newState, oldState));
      const s3 = await saveState(store, withOutput(readStateFile(newState)!, "a", "three"));
      expect(s3.serial).toBe(3);
      expect(readFileSync(store.backupPath)).toEqual(newState);
      expect(existsSync(store.journalPath)).toBe(false);
    });

    it("recovers under this process's lock, through another store too", async () => {
      const id = await store.lock({ operation: "x" });
      crashed(newState.subarray(0, 30), encodeJournal(newState, oldState));
      const other = createLocalBackend({ dir, onRecovery: (m) => notices.push(m) }).store("default");
      expect(Buffer.from((await other.read())!)).toEqual(newState);
      expect(readFileSync(store.path)).toEqual(newState);
      await store.unlock(id);
    });

    it("a corrupt state's error names the backup (and it is left untouched)", async () => {
      crashed(Buffer.from("{torn"), undefined);
      const e = await rejection(loadState(store));
      expect(e.code).toBe("corrupt");
      expect(e.message).toContain(store.backupPath);
      expect(readFileSync(store.path, "utf8")).toBe("{torn");
    });
  });
});
