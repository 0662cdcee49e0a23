import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configFromSnapshot, loadConfigWithSnapshot, walkConfig } from "./load-config.js";

describe("configuration snapshots", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-config-snapshot-"));
    mkdirSync(join(dir, "mod"));
    writeFileSync(join(dir, "main.tf"), 'module "__proto__" {\n  source = "./mod"\n}\nresource "random_id" "a" {\n  count = 2\n  byte_length = 4\n}\n');
    writeFileSync(join(dir, "mod", "main.tf"), 'output "y" {\n  value = "m"\n}\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("keep every module's files; the configuration loads from them again whatever the disk holds since", () => {
    const { config, diags, snapshot } = loadConfigWithSnapshot(dir);
    expect(diags.filter((d) => d.severity === "error")).toEqual([]);
    expect(snapshot.modules.map((m) => [m.path, m.files.map(([name]) => name)])).toEqual([
      [[], ["main.tf"]],
      [["__proto__"], ["mod/main.tf"]],
    ]);
    // The files change on disk after the snapshot: the snapshot's configuration is the one read.
    writeFileSync(join(dir, "main.tf"), 'resource "random_id" "b" {\n  byte_length = 1\n}\n');
    rmSync(join(dir, "mod"), { recursive: true });
    const again = configFromSnapshot(JSON.parse(JSON.stringify(snapshot)) as typeof snapshot);
    expect(again.diags.filter((d) => d.severity === "error")).toEqual([]);
    expect([...again.config.module.managedResources.keys()]).toEqual([...config.module.managedResources.keys()]);
    expect([...walkConfig(again.config)].map((c) => c.path)).toEqual([[], ["__proto__"]]);
    expect([...again.config.children.get("__proto__")!.module.outputs.keys()]).toEqual(["y"]);
    expect(again.config.children.get("__proto__")!.call?.sourceAddr).toBe("./mod");
  });

  test("refuses a snapshot without its root module", () => {
    expect(() => configFromSnapshot({ modules: [] })).toThrow(/without its root module/);
  });
});
