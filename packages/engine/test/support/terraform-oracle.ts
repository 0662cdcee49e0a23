/**
 * Test support for the render oracles: terraform with the in-memory provider
 * (`@magma/provider-api/testing`) and `@magma/provider-random` served by
 * `@magma/provider-server` from a filesystem mirror, a private CLI configuration, and the
 * same providers in-process, configured, for magma's side.
 */
import { PLUGIN_MIRROR, TerraformWorkspace, bundleLauncherEntry } from "@magma/test-support";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configValue, type PlainConfig, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { writeProviderLauncher } from "@magma/provider-server";
import type { Value } from "@magma/cty";
import type { InstanceTarget } from "../../src/index.js";

const require = createRequire(import.meta.url);

/** A working directory for terraform with both providers in its mirror. */
export interface OracleDir {
  readonly work: string;
  /** Runs terraform; resolves with its standard output, rejects with its output unless it exits 0. */
  tf(...args: string[]): Promise<string>;
  /** Writes `main.tf` (and any other files) into the working directory. */
  write(files: Readonly<Record<string, string>>): void;
  cleanup(): void;
}

/** The `terraform { required_providers }` block for the two providers. */
export const REQUIRED_PROVIDERS = `terraform {
  required_providers {
    memory = { source = "example.com/magma/memory", version = "1.0.0" }
    random = { source = "example.com/magma/random", version = "1.0.0" }
  }
}
`;

/**
 * A @magma/test-support terraform workspace whose CLI configuration has the two native
 * providers (launchers in a mirror of their own) and then the real providers' mirror.
 */
export function oracleDir(prefix: string): OracleDir {
  // The mirror, and the temp dir of terraform and its providers (their plugin sockets).
  const base = mkdtempSync(join(tmpdir(), `${prefix}base-`));
  const mirrorDir = join(base, "mirror");
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir, hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: require.resolve("@magma/provider-api/testing"), exportName: "createMemoryProvider", protocolVersions: [6] }));
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir, hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: require.resolve("@magma/provider-random"), exportName: "createRandomProvider", protocolVersions: [6] }));
  const ws = TerraformWorkspace.create(prefix, { cliConfig: { mirrors: [{ path: mirrorDir, include: ["example.com/*/*"] }, { path: PLUGIN_MIRROR }] }, env: { TMPDIR: base } });
  return {
    work: ws.dir,
    tf: async (...args) => (await ws.run(args)).stdout,
    write: (files) => {
      for (const [name, text] of Object.entries(files)) ws.write(name, text);
    },
    cleanup: () => {
      ws.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** The two providers in-process, configured, with their targets and schemas by source address. */
export async function oracleProviders(): Promise<{ memory: InstanceTarget; random: InstanceTarget; schemas: Map<string, ProviderSchema> }> {
  const m = createMemoryProvider();
  const r = createRandomProvider();
  const ms = await m.getSchema();
  const rs = await r.getSchema();
  await m.configure(configValue(ms.provider.block, {}), "1.11.4");
  await r.configure(configValue(rs.provider.block, {}), "1.11.4");
  return {
    memory: { provider: m, schema: ms },
    random: { provider: r, schema: rs },
    schemas: new Map([
      ["example.com/magma/memory", ms],
      ["example.com/magma/random", rs],
    ]),
  };
}

/** A resource configuration value from plain values. */
export function resourceConfig(target: InstanceTarget, type: string, plain: PlainConfig): Value {
  const entry = target.schema.resources.get(type) ?? target.schema.dataSources.get(type);
  if (entry === undefined) throw new Error(`no schema for ${type}`);
  return configValue(entry.block, plain);
}
