import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Compiles `entries` (files under this package's src/, e.g. "launch.ts") and what they import to
 * JavaScript in a fresh temp directory named after `prefix`, next to a node_modules link so their
 * dependencies resolve: for tests whose host must be a plain node process rather than jest's.
 * Returns the directory (the JavaScript is in its `out/`); the caller removes it.
 */
export function compileForPlainNode(prefix: string, entries: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  symlinkSync(join(pkg, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "out"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: join(pkg, "tsconfig.build.json"),
      compilerOptions: {
        rootDir: join(pkg, "src"),
        outDir: join(dir, "out"),
        declaration: false,
        declarationMap: false,
        sourceMap: false,
        inlineSources: false,
      },
      files: entries.map((e) => join(pkg, "src", e)),
      include: [],
    }),
  );
  execFileSync(process.execPath, [join(pkg, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")], {
    stdio: "inherit",
  });
  return dir;
}
