import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry, findTerraform } from "@magma/test-support";
import { snapshotMagma } from "./magma-snapshot.js";
import type { ToolCommand } from "./tool-run.js";

/** What the twin runs share: the testbed provider's mirror, the CLI configuration and the tools. */
export interface DifftestSetup {
  /** The CLI configuration file (a filesystem mirror serving `magma/testbed`). */
  readonly cliConfig: string;
  /** XDG_CACHE_HOME of the magma runs (its schema cache, shared by every run). */
  readonly cacheHome: string;
  readonly terraform: ToolCommand;
  readonly magma: ToolCommand;
}

/** Thrown (code `no_terraform`) when terraform is not on PATH (nor at `MAGMA_TERRAFORM`). */
export class NoTerraformError extends Error {
  /** Stable code. */
  readonly code = "no_terraform";
  constructor() {
    super("[no_terraform] terraform was not found on PATH (or at MAGMA_TERRAFORM): the differential test needs it as the oracle");
    this.name = "NoTerraformError";
  }
}

/**
 * Prepares `dir` for twin runs: a filesystem mirror with the testbed provider's launcher
 * (its entry bundled, so each provider process loads one file), a CLI configuration using it,
 * a cache directory and a copy of the built magma (`dir/magma`, {@link snapshotMagma}: a
 * rebuild while the runs go on does not change what they test). `magma` overrides the magma
 * command (e.g. a mutant build; then nothing is copied).
 *
 * @throws NoTerraformError when terraform cannot be found.
 */
export function prepareDifftest(dir: string, magma?: ToolCommand): DifftestSetup {
  const tf = findTerraform();
  if (tf === undefined) throw new NoTerraformError();
  const mirror = join(dir, "mirror");
  const testbed = createRequire(import.meta.url).resolve("@magma/provider-testbed");
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, namespace: "magma", type: "testbed", version: "1.0.0", module: testbed }));
  const cliConfig = join(dir, "cli.tfrc");
  writeFileSync(cliConfig, `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n`);
  const cacheHome = join(dir, "cache");
  mkdirSync(cacheHome, { recursive: true });
  return {
    cliConfig,
    cacheHome,
    terraform: { executable: tf, preArgs: [] },
    magma: magma ?? snapshotMagma(join(dir, "magma")).command,
  };
}
