import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringType, stringVal } from "@magma/cty";
import { createLocalBackend, encodeOutput, loadState, newStateFile, type StateFile } from "@magma/state";
import { ApplySnapshots } from "./apply-snapshots.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A local backend's default workspace in a new directory. */
function store(): ReturnType<ReturnType<typeof createLocalBackend>["store"]> {
  const dir = mkdtempSync(join(tmpdir(), "magma-apply-snapshots-"));
  dirs.push(dir);
  return createLocalBackend({ dir }).store("default");
}

const withOutput = (s: StateFile, v: string): StateFile => ({ ...s, outputs: new Map([["o", encodeOutput(stringVal(v), stringType)]]) });

describe("ApplySnapshots", () => {
  test("before the apply starts nothing is saved; then the prior state is (an empty state, serial 1, where there was none)", async () => {
    const st = store();
    const snapshots = new ApplySnapshots(st);
    await snapshots.saveLatest();
    expect(await st.read()).toBeUndefined();
    const prior = newStateFile();
    snapshots.start(prior);
    await snapshots.saveLatest();
    expect(await loadState(st)).toMatchObject({ lineage: prior.lineage, serial: 1, resources: [] });
  });

  test("snapshots are stored in the order given, even when not awaited one by one; the latest is saved again unchanged", async () => {
    const st = store();
    const snapshots = new ApplySnapshots(st);
    const prior = newStateFile();
    snapshots.start(prior);
    // As the engine gives them: each snapshot one serial on.
    await Promise.all([snapshots.save({ ...withOutput(prior, "a"), serial: 1 }), snapshots.save({ ...withOutput(prior, "b"), serial: 2 }), snapshots.saveLatest()]);
    const stored = await loadState(st);
    expect(stored?.outputs.get("o")?.valueJson).toBe('"b"');
    const serial = stored?.serial;
    expect(serial).toBe(2);
    await snapshots.saveLatest();
    expect((await loadState(st))?.serial).toBe(serial);
  });

  test("a snapshot the backend refused is not the durable one: the one stored before it is saved again", async () => {
    const st = store();
    const snapshots = new ApplySnapshots(st);
    const prior = newStateFile();
    snapshots.start(prior);
    await snapshots.save(withOutput(prior, "a"));
    // Another lineage: saveState refuses it.
    await expect(snapshots.save({ ...withOutput(prior, "z"), lineage: "another" })).rejects.toMatchObject({ code: "lineage_mismatch" });
    await snapshots.saveLatest();
    expect((await loadState(st))?.outputs.get("o")?.valueJson).toBe('"a"');
  });
});
