import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { magmaBin, snapshotMagma } from "./magma-snapshot.js";

describe("snapshotMagma", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-snapshot-test-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("copies the built bundle, without source maps, into a directory of its own that runs on its own and is removed by dispose", () => {
    const snap = snapshotMagma(join(dir, "copy"));
    expect(snap.command.preArgs[0]).toBe(join(dir, "copy", "dist", "bin", "magma.js"));
    expect(readdirSync(snap.binDir).filter((f) => f.endsWith(".js")).sort()).toEqual(readdirSync(dirname(magmaBin())).filter((f) => f.endsWith(".js")).sort());
    expect(readdirSync(snap.binDir).filter((f) => f.endsWith(".map"))).toEqual([]);
    const version = execFileSync(snap.command.executable, [...snap.command.preArgs, "version"], { encoding: "utf8" });
    expect(version).toMatch(/^magma v\d|^Terraform v\d/m);
    snap.dispose();
    expect(existsSync(join(dir, "copy"))).toBe(false);
  }, 120_000);
});
