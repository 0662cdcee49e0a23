import { newStateFile, readStateFile, StateFormatter, formatStateFile, type StateFile } from "@magma/state";
import { ApplyState, type StoredObject } from "./apply-state.js";

const PROVIDER = 'provider["registry.terraform.io/hashicorp/random"]';

function object(id: string): StoredObject {
  return { schemaVersion: 0, attributesJson: JSON.stringify({ id }), attributesFlat: undefined, sensitiveAttributesJson: "[]", private: undefined, tainted: false, dependencies: [], createBeforeDestroy: false };
}

function addresses(s: StateFile): string[] {
  return s.resources.flatMap((r) => r.instances.map((i) => `${r.type}.${r.name}[${String(i.indexKey)}]`)).sort();
}

describe("ApplyState", () => {
  it("group-commits the changes that arrive during a write, and resolves each commit only after a write holding it", async () => {
    const written: StateFile[] = [];
    const gates: (() => void)[] = [];
    const persist = (s: StateFile): Promise<void> =>
      new Promise((resolve) => {
        gates.push(() => {
          written.push(s);
          resolve();
        });
      });
    const store = new ApplyState(newStateFile(), persist);
    const done: number[] = [];
    const commits = Array.from({ length: 20 }, (_, i) => store.commit((w) => w.set(`random_id.x[${i}]`, PROVIDER, undefined, object(`id-${i}`))).then(() => done.push(i)));
    // The first write holds every commit made before it started: all 20, made synchronously.
    await new Promise((r) => setImmediate(r));
    expect(gates).toHaveLength(1);
    expect(done).toEqual([]);
    const late = store.commit((w) => w.set("random_id.y[0]", PROVIDER, undefined, object("late")));
    let lateDone = false;
    void late.then(() => (lateDone = true));
    gates.shift()!();
    await Promise.all(commits);
    expect(done).toHaveLength(20);
    expect(written[0]!.serial).toBe(1);
    expect(addresses(written[0]!)).toHaveLength(20);
    // The late commit waits for the next write.
    await new Promise((r) => setImmediate(r));
    expect(lateDone).toBe(false);
    expect(gates).toHaveLength(1);
    gates.shift()!();
    await late;
    expect(written).toHaveLength(2);
    expect(written[1]!.serial).toBe(2);
    expect(addresses(written[1]!)).toContain("random_id.y[0]");
    expect(store.persists).toBe(2);
    // Nothing changed since: a flush writes nothing.
    await store.flush();
    expect(store.persists).toBe(2);
  });

  it("rejects the commits of a failed write and carries their changes into the next write", async () => {
    let fail = true;
    const written: StateFile[] = [];
    const store = new ApplyState(newStateFile(), async (s) => {
      if (fail) throw new Error("disk full");
      written.push(s);
    });
    await expect(store.commit((w) => w.set("random_id.a[0]", PROVIDER, undefined, object("a")))).rejects.toThrow("disk full");
    fail = false;
    await store.commit((w) => w.set("random_id.b[0]", PROVIDER, undefined, object("b")));
    expect(written).toHaveLength(1);
    expect(written[0]!.serial).toBe(1);
    expect(addresses(written[0]!)).toEqual(["random_id.a[0]", "random_id.b[0]"]);
  });

  it("does not write for a change that changes nothing", async () => {
    const store = new ApplyState(newStateFile(), () => Promise.reject(new Error("must not write")));
    await store.commit((w) => w.set("random_id.none[0]", PROVIDER, undefined, null));
    await store.commit((w) => w.depose("random_id.none[0]", "00000001"));
    expect(store.persists).toBe(0);
  });

  it("hands persist snapshots that share every unchanged object, so that formatting after every object formats each object once", async () => {
    const formatter = new StateFormatter();
    const written: string[] = [];
    const snaps: StateFile[] = [];
    const store = new ApplyState(newStateFile(), async (s) => {
      snaps.push(s);
      written.push(formatter.format(s));
      await new Promise((r) => setImmediate(r));
    });
    const n = 200;
    // One object at a time, each committed after the previous write: a write per object.
    for (let i = 0; i < n; i++) await store.commit((w) => w.set(`random_id.x[${i}]`, PROVIDER, undefined, object(`id-${i}`)));
    expect(store.persists).toBe(n);
    // Whole-state formatting per write would be 1 + 2 + … + n = 20,100 objects.
    expect(formatter.objectsFormatted).toBe(n);
    // Unchanged objects are the same (frozen) objects from one snapshot to the next.
    expect(snaps[n - 1]!.resources[0]!.instances[0]).toBe(snaps[1]!.resources[0]!.instances[0]);
    expect(Object.isFrozen(snaps[1]!.resources[0]!.instances[0])).toBe(true);
    // And the text is what formatting the whole state afresh gives.
    expect(written[n - 1]).toBe(formatStateFile(store.snapshot()));
    expect(readStateFile(written[n - 1]!)!.resources[0]!.instances.map((i) => i.indexKey)).toEqual(Array.from({ length: n }, (_, i) => i));
    // Replacing, deposing and restoring an object format that object again, and nothing else.
    await store.commit((w) => w.set("random_id.x[7]", PROVIDER, undefined, object("changed")));
    await store.commit((w) => w.depose("random_id.x[8]", "0000000a"));
    await store.commit((w) => w.restore("random_id.x[8]", "0000000a"));
    expect(formatter.objectsFormatted).toBe(n + 3);
    expect(store.get("random_id.x[7]", undefined)!.attributesJson).toContain("changed");
    expect(store.get("random_id.x[8]", undefined)).toBeDefined();
    expect(written.at(-1)).toBe(formatStateFile(store.snapshot()));
  });

  it("keeps a state read from a file in the file's order, and a snapshot is a copy the apply does not change", async () => {
    const prior = newStateFile();
    const store = new ApplyState(prior, async () => undefined);
    for (const k of [3, 1, 2]) await store.commit((w) => w.set(`random_id.x[${k}]`, PROVIDER, undefined, object(`id-${k}`)));
    await store.commit((w) => w.depose("random_id.x[2]", "00000001"));
    await store.commit((w) => w.set("random_id.x[2]", PROVIDER, undefined, object("new-2")));
    const snap = store.snapshot();
    expect(snap.resources[0]!.instances.map((i) => `${String(i.indexKey)}${i.deposed === undefined ? "" : `/${i.deposed}`}`)).toEqual(["1", "2", "2/00000001", "3"]);
    await store.commit((w) => w.set("random_id.x[1]", PROVIDER, undefined, null));
    expect(snap.resources[0]!.instances).toHaveLength(4);
    expect(prior.resources).toEqual([]);
    const again = new ApplyState(snap, async () => undefined);
    expect(again.get("random_id.x[2]", "00000001")!.attributesJson).toContain("id-2");
  });
});
