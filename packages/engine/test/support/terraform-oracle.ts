/**
 * Test support for the render oracles: terraform with the in-memory provider
 * (`@magma/provider-api/testing`) and `@magma/provider-random` served by
 * `@magma/provider-server` from a filesystem mirror, a private CLI configuration, and the
 * same providers in-process, configured, for magma's side.
 */
import { AWS_BINARY, PLUGIN_MIRROR } from "@magma/test-support";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { configValue, type PlainConfig, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { writeProviderLauncher } from "@magma/provider-server";
import type { Value } from "@magma/cty";
import type { InstanceTarget } from "../../src/index.js";

const require = createRequire(import.meta.url);

/** The filesystem mirror holding hashicorp/aws 5.100.0 (test-support's, configurable by environment). */
export const AWS_MIRROR = PLUGIN_MIRROR;
export { AWS_BINARY };

/** The terraform executable on PATH, or undefined. */
export function findTerraform(): string | undefined {
  for (const d of (process.env["PATH"] ?? "").split(delimiter)) {
    const p = join(d, "terraform");
    if (d !== "" && existsSync(p)) return p;
  }
  return undefined;
}

/** A working directory for terraform with both providers in its mirror. */
export interface OracleDir {
  readonly work: string;
  /** Runs terraform; rejects with its output unless it exits 0. */
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

/** Creates a temp dir with the mirror and the CLI configuration. */
export function oracleDir(prefix: string): OracleDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const mirrorDir = join(dir, "mirror");
  writeProviderLauncher({ mirrorDir, hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: require.resolve("@magma/provider-api/testing"), exportName: "createMemoryProvider", protocolVersions: [6] });
  writeProviderLauncher({ mirrorDir, hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: require.resolve("@magma/provider-random"), exportName: "createRandomProvider", protocolVersions: [6] });
  const cli = join(dir, "cli.tfrc");
  writeFileSync(cli, `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirrorDir)}\n    include = ["example.com/*/*"]\n  }\n  filesystem_mirror {\n    path = ${JSON.stringify(AWS_MIRROR)}\n  }\n}\n`);
  const work = join(dir, "work");
  mkdirSync(work);
  const env = { ...process.env, TF_CLI_CONFIG_FILE: cli, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TF_INPUT: "0", TMPDIR: dir };
  const tf = (...args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = spawn(findTerraform() ?? "terraform", args, { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
      child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
      const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`terraform ${args.join(" ")} exited ${code}\n--- stdout\n${out}\n--- stderr\n${err}`));
      });
    });
  return {
    work,
    tf,
    write: (files) => {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
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
