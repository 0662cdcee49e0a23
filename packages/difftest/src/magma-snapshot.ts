import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import type { ToolCommand } from "./tool-run.js";

/** The built `magma` executable of @magma/cli. */
export function magmaBin(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@magma/cli/package.json")), "dist", "bin", "magma.js");
}

/** A copy of the built magma: how to run it, where it is, and how to remove it. */
export interface MagmaSnapshot {
  readonly command: ToolCommand;
  /** The copy's `dist/bin` (the bundle's chunks). */
  readonly binDir: string;
  dispose(): void;
}

/** Thrown (code `no_magma_build`) when @magma/cli has no built bundle to copy. */
export class NoMagmaBuildError extends Error {
  /** Stable code. */
  readonly code = "no_magma_build";
  constructor(path: string) {
    super(`[no_magma_build] ${path} does not exist: build @magma/cli first (cd packages/cli && pnpm run build)`);
    this.name = "NoMagmaBuildError";
  }
}

/**
 * Copies the built `magma` (@magma/cli's package.json and dist/, without source maps or other
 * copies) into `dir` (created; replaced if it exists), with a `node_modules` link to the cli's
 * own, so that a batch runs one fixed build: rebuilding magma while it runs does not change
 * what is tested. The bundle finds its package's files relative to itself and other packages
 * through `node_modules`, both of which the copy keeps. `dispose` removes `dir`.
 *
 * @throws NoMagmaBuildError when the bundle is not built.
 */
export function snapshotMagma(dir: string): MagmaSnapshot {
  const bin = magmaBin();
  if (!existsSync(bin)) throw new NoMagmaBuildError(bin);
  const cli = dirname(dirname(dirname(bin)));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    cpSync(join(cli, "package.json"), join(dir, "package.json"));
    cpSync(join(cli, "dist"), join(dir, "dist"), {
      recursive: true,
      // Neither source maps nor the copies other runs left in dist/ (a mutant's).
      filter: (src) => !src.endsWith(".map") && !(dirname(src) === join(cli, "dist") && basename(src).startsWith("difftest-")),
    });
    symlinkSync(join(cli, "node_modules"), join(dir, "node_modules"), "dir");
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const binDir = join(dir, "dist", "bin");
  return {
    command: { executable: process.execPath, preArgs: [join(binDir, "magma.js")] },
    binDir,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
