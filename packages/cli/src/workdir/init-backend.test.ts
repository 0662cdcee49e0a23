import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backendConfigHash, backendRecord, formatBackendState, recordBackend } from "./init-backend.js";
import { formatModuleManifest, normalizeLocalSource } from "./init-modules.js";

describe("the backend record terraform init writes", () => {
  test("terraform 1.11.4's hash of a local backend block (value taken from terraform init)", () => {
    // backend "local" { path = "state/my.tfstate" } → "hash": 2506906902 in .terraform/terraform.tfstate
    expect(backendConfigHash("local", { path: "state/my.tfstate", workspace_dir: null })).toBe(2506906902);
    expect(backendRecord({ type: "local", values: { path: "state/my.tfstate" } }).hash).toBe(2506906902);
    expect(backendConfigHash("local", { path: "a\"b\n", workspace_dir: null })).not.toBe(backendConfigHash("local", { path: "a'b\n", workspace_dir: null }));
    expect(formatBackendState(backendRecord({ type: "local", values: { path: "state/my.tfstate" } }))).toBe(
      '{\n  "version": 3,\n  "terraform_version": "1.11.4",\n  "backend": {\n    "type": "local",\n    "config": {\n      "path": "state/my.tfstate",\n      "workspace_dir": null\n    },\n    "hash": 2506906902\n  }\n}',
    );
  });

  test("a changed backend needs -reconfigure; a removed one is forgotten with it", () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-backend-"));
    try {
      expect(recordBackend(dir, undefined, false)).toBe("none");
      expect(recordBackend(dir, { type: "local", values: {} }, false)).toBe("configured");
      expect(recordBackend(dir, { type: "local", values: {} }, false)).toBe("unchanged");
      expect(() => recordBackend(dir, { type: "local", values: { path: "x.tfstate" } }, false)).toThrow(expect.objectContaining({ code: "bad_input", message: expect.stringContaining("Backend configuration changed") }));
      expect(recordBackend(dir, { type: "local", values: { path: "x.tfstate" } }, true)).toBe("configured");
      expect(JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8"))).toMatchObject({ backend: { config: { path: "x.tfstate" } } });
      expect(() => recordBackend(dir, undefined, false)).toThrow(expect.objectContaining({ code: "bad_input" }));
      expect(recordBackend(dir, undefined, true)).toBe("unset");
      writeFileSync(join(dir, "terraform.tfstate"), "{not json");
      expect(() => recordBackend(dir, { type: "local", values: {} }, false)).toThrow(expect.objectContaining({ code: "bad_input", message: expect.stringContaining("cannot read the recorded backend") }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the module manifest", () => {
  test("local sources normalised as terraform's addrs.ParseModuleSource; records by key", () => {
    expect(normalizeLocalSource("./mod/")).toBe("./mod");
    expect(normalizeLocalSource(".//mod")).toBe("./mod");
    expect(normalizeLocalSource("./a/../b")).toBe("./b");
    expect(normalizeLocalSource("../shared")).toBe("../shared");
    expect(normalizeLocalSource(".\\win\\mod")).toBe("./win/mod");
    expect(formatModuleManifest([{ key: "b", source: "./m", dir: "m" }, { key: "", source: "", dir: "." }, { key: "a.c", source: "./s", dir: "m/s" }])).toBe(
      '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a.c","Source":"./s","Dir":"m/s"},{"Key":"b","Source":"./m","Dir":"m"}]}',
    );
  });
});
