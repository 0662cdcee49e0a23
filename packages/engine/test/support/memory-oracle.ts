/**
 * Test support for the engine's terraform oracles over a native "memory" provider: a temp
 * directory whose filesystem mirror serves a provider module (a fixture `.mjs`) as
 * `example.com/magma/memory` 1.0.0, and optionally `@magma/provider-random` as
 * `example.com/magma/random`, both through @magma/provider-server's launcher (protocol 6),
 * made before the tests of the enclosing `describe` and removed after them.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry } from "@magma/test-support";
import { tempDir } from "../../../provider-server/test/support/harness.js";

/** What {@link memoryOracle} gives: the directory, once its `beforeAll` has run. */
export interface MemoryOracle {
  /** The temp directory (its `mirror/` holds the launchers); working directories go below it. */
  readonly dir: string;
}

/** Options of {@link memoryOracle}. */
export interface MemoryOracleOptions {
  /** The module's export that creates the provider (default `createProvider`). */
  readonly exportName?: string;
  /** Also serve `@magma/provider-random` as `example.com/magma/random` (default false). */
  readonly random?: boolean;
  /**
   * The `process.env` variables the tests set for the fixture provider they run in-process
   * (its item store, a stamp or log file); deleted after the tests.
   */
  readonly processEnv?: readonly string[];
}

/**
 * Registers `beforeAll`/`afterAll` hooks (call it inside a `describe`) that make and remove
 * a temp directory named with `prefix` whose mirror serves `module` as the memory provider.
 * Use `terraformEnv(oracle.dir, …)` from the provider-server harness for terraform's side.
 */
export function memoryOracle(prefix: string, module: string, options: MemoryOracleOptions = {}): MemoryOracle {
  let tmp: { dir: string; cleanup(): void } | undefined;
  beforeAll(() => {
    tmp = tempDir(prefix);
    const mirrorDir = join(tmp.dir, "mirror");
    bundleLauncherEntry(writeProviderLauncher({ mirrorDir, hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module, exportName: options.exportName ?? "createProvider", protocolVersions: [6] }));
    if (options.random === true) {
      const random = createRequire(import.meta.url).resolve("@magma/provider-random");
      bundleLauncherEntry(writeProviderLauncher({ mirrorDir, hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: random, exportName: "createRandomProvider", protocolVersions: [6] }));
    }
  });
  afterAll(() => {
    for (const name of options.processEnv ?? []) delete process.env[name];
    tmp?.cleanup();
  });
  return {
    get dir(): string {
      if (tmp === undefined) throw new Error("memoryOracle: the directory exists only inside the tests (after beforeAll)");
      return tmp.dir;
    },
  };
}
