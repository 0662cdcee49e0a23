/**
 * Test support for the working-directory commands: temporary Terraform working directories,
 * and terraform itself run on them with a CLI configuration whose only provider source is
 * the filesystem mirror (so `terraform init` never reaches the network).
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { findTerraform, hasTerraform, bundleLauncherEntry } from "@magma/test-support";
import { PLUGIN_MIRROR } from "./run-magma.js";

/** The terraform executable, or undefined (tests that need it skip). */
export const TERRAFORM = hasTerraform() ? findTerraform() : undefined;

const made: string[] = [];

/** A new temporary directory holding `files` (paths relative to it). */
export function workdir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "magma-workdir-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A copy of a working directory (state, lock file and `.terraform` included). */
export function copyWorkdir(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), "magma-workdir-"));
  made.push(copy);
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

/** A Terraform CLI configuration with the filesystem mirror as the only installation method. */
export function mirrorCliConfig(): string {
  const dir = workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path = "${PLUGIN_MIRROR}"\n  }\n}\n` });
  return join(dir, "cli.tfrc");
}

/**
 * A Terraform CLI configuration whose filesystem mirror serves `@magma/provider-random` as
 * `registry.terraform.io/magma/random` 1.0.0 (through `@magma/provider-server`'s launcher), for
 * working directories that terraform and magma both run.
 */
export function randomMirrorCliConfig(): string {
  const mirror = workdir();
  bundleLauncherEntry(writeProviderLauncher({
    mirrorDir: mirror,
    hostname: "registry.terraform.io",
    namespace: "magma",
    type: "random",
    version: "1.0.0",
    module: createRequire(import.meta.url).resolve("@magma/provider-random"),
    exportName: "createRandomProvider",
  }));
  return join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n` }), "cli.tfrc");
}

/**
 * Runs terraform in `cwd` without blocking (so that a test can run terraform and magma side
 * by side); rejects with its output when the exit code is not `expect`.
 */
export function terraformAsync(args: readonly string[], cwd: string, options: { env?: Record<string, string>; expect?: number } = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  if (TERRAFORM === undefined) return Promise.reject(new Error("terraform is not installed"));
  const child = spawn(TERRAFORM, [...args], {
    cwd,
    env: { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: mirrorCliConfig(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  return new Promise((resolve, reject) => {
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (status) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      const code = status ?? -1;
      if (code !== (options.expect ?? 0)) reject(new Error(`terraform ${args.join(" ")} exited ${code}:\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr, code });
    });
  });
}

/** Runs terraform in `cwd`; throws with its output when the exit code is not `expect`. */
export function terraform(args: readonly string[], cwd: string, options: { env?: Record<string, string>; expect?: number } = {}): { stdout: string; stderr: string; code: number } {
  if (TERRAFORM === undefined) throw new Error("terraform is not installed");
  const r = spawnSync(TERRAFORM, [...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: mirrorCliConfig(), ...options.env },
    timeout: 240_000,
  });
  const code = r.status ?? -1;
  if (code !== (options.expect ?? 0)) throw new Error(`terraform ${args.join(" ")} exited ${code}:\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr, code };
}

/** Removes every directory made here (call in afterAll). */
export function removeWorkdirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
