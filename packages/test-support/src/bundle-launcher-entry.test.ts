import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE_LAUNCHERS_ENV, bundleLauncherEntry } from "./bundle-launcher-entry.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "magma-bundle-entry-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("bundleLauncherEntry", () => {
  test("rewrites the entry as one module that runs the same code, file: URL imports and dynamic imports included", () => {
    writeFileSync(
      join(dir, "lib.mjs"),
      'import { createHash } from "node:crypto";\nexport const greet = (n) => `hello ${n} ${createHash("sha256").update(n).digest("hex").slice(0, 8)}`;\n',
    );
    writeFileSync(
      join(dir, "provider.mjs"),
      "export function createProvider() { return { kind: 'fixture' }; }\n",
    );
    const entry = join(dir, "magma-entry.mjs");
    writeFileSync(
      entry,
      `import { greet } from ${JSON.stringify(pathToFileURL(join(dir, "lib.mjs")).href)};\n` +
        `const mod = await import(${JSON.stringify(pathToFileURL(join(dir, "provider.mjs")).href)});\n` +
        `console.log(greet("terraform"), mod["createProvider"]().kind);\n`,
    );
    const before = spawnSync(process.execPath, [entry], { encoding: "utf8" });
    const launcher = { entry, executable: "unchanged" };
    expect(bundleLauncherEntry(launcher)).toBe(launcher);
    // The modules are gone from the imports: removing them does not matter any more.
    rmSync(join(dir, "lib.mjs"));
    rmSync(join(dir, "provider.mjs"));
    const bundled = readFileSync(entry, "utf8");
    expect(bundled).not.toContain("file://");
    const after = spawnSync(process.execPath, [entry], { encoding: "utf8" });
    expect({ code: after.status, stdout: after.stdout, stderr: after.stderr }).toEqual({
      code: 0,
      stdout: before.stdout,
      stderr: "",
    });
    expect(before.stdout).toMatch(/^hello terraform [0-9a-f]{8} fixture\n$/);
  });

  test("a second launcher of the same entry text gets the same bundle (bundled once per process)", () => {
    writeFileSync(join(dir, "lib.mjs"), "export const n = 42;\n");
    const text = `import { n } from ${JSON.stringify(pathToFileURL(join(dir, "lib.mjs")).href)};\nconsole.log(n);\n`;
    const first = join(dir, "a", "magma-entry.mjs");
    const second = join(dir, "b", "magma-entry.mjs");
    for (const e of [first, second]) {
      mkdirSync(dirname(e));
      writeFileSync(e, text);
    }
    bundleLauncherEntry({ entry: first });
    rmSync(join(dir, "lib.mjs"));
    bundleLauncherEntry({ entry: second });
    expect(readFileSync(second, "utf8")).toBe(readFileSync(first, "utf8"));
    expect(spawnSync(process.execPath, [second], { encoding: "utf8" }).stdout).toBe("42\n");
  });

  test("MAGMA_BUNDLE_LAUNCHERS=0 leaves the entry as written", () => {
    const entry = join(dir, "magma-entry.mjs");
    const text = `import { x } from ${JSON.stringify(pathToFileURL(join(dir, "lib.mjs")).href)};\nconsole.log(x);\n`;
    writeFileSync(entry, text);
    process.env[BUNDLE_LAUNCHERS_ENV] = "0";
    try {
      bundleLauncherEntry({ entry });
    } finally {
      delete process.env[BUNDLE_LAUNCHERS_ENV];
    }
    expect(readFileSync(entry, "utf8")).toBe(text);
  });

  test("an import that cannot be resolved is a launcher_bundle_failed error naming the entry", () => {
    const entry = join(dir, "magma-entry.mjs");
    writeFileSync(
      entry,
      `import { x } from ${JSON.stringify(pathToFileURL(join(dir, "missing.mjs")).href)};\nconsole.log(x);\n`,
    );
    let caught: unknown;
    try {
      bundleLauncherEntry({ entry });
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: "launcher_bundle_failed" });
    expect(String(caught)).toContain(entry);
    expect(String(caught)).toContain("missing.mjs");
  });
});
