import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalBackend } from "../backends/local.js";
import { loadState, saveState } from "../persist-state.js";
import { isStateError } from "../state-error.js";
import { newStateFile, type StateFile } from "../state-file.js";
import { STATE_WRITE_PAUSE_ENV, stateWritesSoFar } from "./state-write-pause.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "magma-pause-"));
});
afterEach(() => {
  delete process.env[STATE_WRITE_PAUSE_ENV];
  rmSync(dir, { recursive: true, force: true });
});

function withOutput(f: StateFile, value: string): StateFile {
  const outputs = new Map(f.outputs);
  outputs.set("o", { valueJson: JSON.stringify(value), typeJson: '"string"', sensitive: false });
  return { ...f, outputs };
}

describe("the state write pause hook (MAGMA_TEST_STATE_WRITE_PAUSE)", () => {
  it("is inert unless set, and pauses only the write and phase it names", async () => {
    const store = createLocalBackend({ dir }).store("default");
    const first = await saveState(store, withOutput(newStateFile(), "1"));
    const before = stateWritesSoFar();
    expect(before).toBeGreaterThan(0);
    for (const phase of ["begin", "journal", "torn", "written"] as const) {
      const started = Date.now();
      process.env[STATE_WRITE_PAUSE_ENV] = `${stateWritesSoFar() + 1}:${phase}:200`;
      await saveState(store, withOutput((await loadState(store))!, phase));
      // The pause happened (generous lower bound only: no upper bound on a loaded machine).
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      // The write completed as usual.
      expect(JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")).outputs.o.value).toBe(phase);
    }
    // Another write number: no pause, and the count goes on.
    process.env[STATE_WRITE_PAUSE_ENV] = `${stateWritesSoFar() + 5}:begin:60000`;
    await saveState(store, withOutput((await loadState(store))!, "later"));
    expect(stateWritesSoFar()).toBe(before + 5);
    expect((await loadState(store))!.lineage).toBe(first.lineage);
  });

  it("refuses an unparsable value with invalid_argument", async () => {
    process.env[STATE_WRITE_PAUSE_ENV] = "1:middle:100";
    const store = createLocalBackend({ dir }).store("default");
    let err: unknown;
    try {
      await saveState(store, withOutput(newStateFile(), "x"));
    } catch (e) {
      err = e;
    }
    expect(isStateError(err) && err.code === "invalid_argument" && /N:PHASE:MS/.test(err.message)).toBe(true);
  });
});
