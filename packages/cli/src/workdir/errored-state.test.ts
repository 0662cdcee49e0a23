import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newStateFile, readStateFile } from "@magma/state";
import { ERRORED_STATE_FILE, saveErroredState } from "./errored-state.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "magma-errored-state-"));
  dirs.push(d);
  return d;
};

describe("saveErroredState", () => {
  test("writes the state to errored.tfstate with terraform's two diagnostics", () => {
    const d = dir();
    const state = { ...newStateFile(), serial: 7 };
    const r = saveErroredState(state, new Error("disk full"), d);
    expect(r.savedTo).toBe("file");
    expect(r.dump).toBeUndefined();
    expect(r.diagnostics.map((x) => x.summary)).toEqual(["Failed to save state", "Failed to persist state to backend"]);
    expect(r.diagnostics[0]?.detail).toBe("Error saving state: disk full");
    const saved = readStateFile(readFileSync(join(d, ERRORED_STATE_FILE)))!;
    expect({ lineage: saved.lineage, serial: saved.serial }).toEqual({ lineage: state.lineage, serial: 7 });
  });

  test("when errored.tfstate cannot be written, returns the state's text to print and says so", () => {
    const d = dir();
    mkdirSync(join(d, ERRORED_STATE_FILE));
    const state = newStateFile();
    const r = saveErroredState(state, "refused", d);
    expect(r.savedTo).toBe("dump");
    expect(readStateFile(r.dump ?? "")?.lineage).toBe(state.lineage);
    expect(r.diagnostics.map((x) => x.summary)).toEqual(["Failed to save state", "Failed to create local state file", "Failed to persist state to backend"]);
    expect(r.diagnostics[1]?.detail).toMatch(/^Error creating local state file for recovery: EISDIR/);
  });
});
