import { newStateFile, type StateFile } from "@magma/state";
import { ApplyState, type StoredObject } from "./apply-state.js";

const PROVIDER = 'provider["registry.terraform.io/hashicorp/random"]';

function object(id: string): StoredObject {
  return { schemaVersion: 0, attributesJson: JSON.stringify({ id }), sensitiveAttributes: [], tainted: false, dependencies: [], createBeforeDestroy: false } as unknown as StoredObject;
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
});
