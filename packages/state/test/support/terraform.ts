/**
 * Test support: terraform on PATH with the native random provider (@magma/provider-random,
 * served by @magma/provider-server) installed from a private filesystem mirror.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { findTerraform, terraformEnv, writeTerraformCliConfig, bundleLauncherEntry } from "@magma/test-support";

export { findTerraform };

/** A temp directory removed by `cleanup`. */
export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The result of one process run. */
export interface Run {
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion (killed after `timeoutMs`). */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    });
  });
}

/** A terraform working directory using the native random provider as `example.com/magma/random`. */
export interface TerraformWorkspace {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  tf(...args: string[]): Promise<Run>;
  cleanup(): void;
}

/** Makes a working directory with `main.tf`, the provider mirror and a private CLI config. */
export function terraformWorkspace(prefix: string, mainTf: string): TerraformWorkspace {
  const tmp = tempDir(prefix);
  const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");
  const mirror = join(tmp.dir, "mirror");
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: randomModule, exportName: "createRandomProvider", protocolVersions: [6] }));
  const work = join(tmp.dir, "work");
  mkdirSync(work);
  writeFileSync(join(work, "main.tf"), mainTf);
  const cli = writeTerraformCliConfig(tmp.dir, { mirrors: [{ path: mirror, include: ["example.com/*/*"] }] });
  const env = terraformEnv(cli, { TMPDIR: tmp.dir });
  return {
    dir: work,
    env,
    tf: (...args) => run(findTerraform() ?? "terraform", args, work, env),
    cleanup: tmp.cleanup,
  };
}

/** Fails with the run's output when it did not exit with `expected`. */
export function expectExit(r: Run, expected: number, what: string): void {
  if (r.code !== expected) throw new Error(`${what}: exited ${r.code}, expected ${expected}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
}
