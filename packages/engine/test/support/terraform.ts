import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

import { AWS_BINARY, PLUGIN_MIRROR } from "@magma/test-support";

// The filesystem mirror and the hashicorp/aws binary, from the one place that knows them (configurable by environment).
export { AWS_BINARY, PLUGIN_MIRROR };

/** Whether `terraform` is on PATH. */
export function hasTerraform(): boolean {
  return (process.env["PATH"] ?? "").split(delimiter).some((dir) => {
    if (dir === "") return false;
    try {
      accessSync(join(dir, "terraform"), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether the integration tests with terraform and the AWS binary can run here. */
export function terraformAndAwsAvailable(): boolean {
  return hasTerraform() && existsSync(AWS_BINARY);
}

/** What a terraform command did. */
export interface TerraformRun {
  /** The exit code (null when killed). */
  readonly code: number | null;
  /** Standard output and error. */
  readonly output: string;
}

/** A temporary terraform working directory using the filesystem mirror (its own CLI config, for the child only). */
export class TerraformDir {
  /** The directory. */
  readonly dir = mkdtempSync(join(tmpdir(), "magma-engine-apply-"));
  readonly #cliConfig = join(this.dir, "cli.tfrc");

  constructor() {
    writeFileSync(this.#cliConfig, `provider_installation {\n  filesystem_mirror {\n    path = "${PLUGIN_MIRROR}"\n  }\n}\n`);
  }

  /** Writes `main.tf`. */
  write(text: string): void {
    writeFileSync(join(this.dir, "main.tf"), text);
  }

  /** Runs `terraform <args>` (killed after 5 minutes). */
  run(args: readonly string[]): Promise<TerraformRun> {
    return new Promise((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: this.#cliConfig, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
      delete env["TF_LOG"];
      delete env["TF_REATTACH_PROVIDERS"];
      const child = spawn("terraform", [...args], { cwd: this.dir, env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (b: Buffer) => (output += b.toString()));
      child.stderr.on("data", (b: Buffer) => (output += b.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
  }

  /** Removes the directory. */
  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
