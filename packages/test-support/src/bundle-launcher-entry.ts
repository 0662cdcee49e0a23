/**
 * A native provider launcher (`@magma/provider-server`'s `writeProviderLauncher`) with its
 * entry bundled into one file, for tests where terraform only uses the provider as an
 * oracle's provider.
 *
 * Why: terraform starts a fresh provider process for every phase of every command (schema,
 * validate, plan, apply), and a launcher's node process spends most of its start-up (about
 * 0.8 s of CPU) loading the few hundred ES modules of provider-server, its gRPC stack and cty
 * one file at a time. The same code as one file starts in about half the CPU; on the 2-core
 * CI machine, where the test run is CPU-bound, that is the largest single cost of the
 * terraform oracle tests with native providers. The launcher, its arguments, its handshake
 * and the provider code are unchanged: only how node loads the code differs.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

/**
 * The environment variable that turns bundling off (`MAGMA_BUNDLE_LAUNCHERS=0`: the launchers
 * keep the entry `writeProviderLauncher` wrote), to compare or to rule the bundling out.
 */
export const BUNDLE_LAUNCHERS_ENV = "MAGMA_BUNDLE_LAUNCHERS";

/** Bundled entries by the entry's source text (with file: URLs turned into paths). */
const bundles = new Map<string, string>();

/** What {@link bundleLauncherEntry} needs of a written launcher: the path of its entry module. */
export interface LauncherWithEntry {
  /** The launcher's entry module (`magma-entry.mjs`), which the launcher script runs with node. */
  readonly entry: string;
}

/** Thrown (code `launcher_bundle_failed`) when the entry cannot be bundled. */
export class LauncherBundleError extends Error {
  /** Stable code. */
  readonly code = "launcher_bundle_failed";
  constructor(entry: string, detail: string) {
    super(`[launcher_bundle_failed] cannot bundle the launcher entry ${entry}: ${detail}`);
    this.name = "LauncherBundleError";
  }
}

/**
 * Rewrites `launcher.entry` in place as one self-contained ES module (esbuild: every import,
 * the provider module's included; node built-ins stay imports) and returns `launcher`, so that
 * `bundleLauncherEntry(writeProviderLauncher({...}))` reads as the plain call.
 *
 * Does nothing when {@link BUNDLE_LAUNCHERS_ENV} is `0`.
 *
 * @throws LauncherBundleError when esbuild cannot resolve or parse what the entry imports
 */
export function bundleLauncherEntry<T extends LauncherWithEntry>(launcher: T): T {
  if (process.env[BUNDLE_LAUNCHERS_ENV] === "0") return launcher;
  const entry = launcher.entry;
  // The generated entry imports by file: URL; esbuild resolves paths.
  const source = readFileSync(entry, "utf8").replace(/"(file:\/\/\/[^"]+)"/g, (_, url: string) =>
    JSON.stringify(fileURLToPath(url)),
  );
  // Launchers of the same module have the same entry text: bundle it once per process.
  const done = bundles.get(source);
  if (done !== undefined) {
    writeFileSync(entry, done);
    return launcher;
  }
  const temp = join(dirname(entry), ".magma-entry-source.mjs");
  writeFileSync(temp, source);
  try {
    buildSync({
      entryPoints: [temp],
      outfile: entry,
      allowOverwrite: true,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // CommonJS dependencies inside an ES module bundle call require() for node built-ins.
      banner: {
        js: 'import { createRequire as __magmaCreateRequire } from "node:module"; const require = __magmaCreateRequire(import.meta.url);',
      },
      logLevel: "silent",
    });
  } catch (e) {
    throw new LauncherBundleError(entry, e instanceof Error ? e.message : String(e));
  } finally {
    rmSync(temp, { force: true });
  }
  bundles.set(source, readFileSync(entry, "utf8"));
  return launcher;
}
