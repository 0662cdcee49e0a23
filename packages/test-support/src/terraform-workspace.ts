/**
 * Running the real `terraform` CLI as an oracle, offline, in a temporary working directory
 * with its own CLI configuration. The configuration and the automation variables are set for
 * the child only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTerraform } from "./binaries.js";
import {
  terraformEnv,
  writeTerraformCliConfig,
  type TerraformCliConfigOptions,
} from "./terraform-cli-config.js";

export interface TerraformResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Thrown when terraform exits non-zero (or is killed) where success was expected. */
export class TerraformRunError extends Error {
  readonly code = "terraform_failed";
  readonly result: TerraformResult;
  constructor(args: readonly string[], result: TerraformResult) {
    super(
      `[terraform_failed] terraform ${args.join(" ")} exited ${result.code}:\n${result.stderr}\n${result.stdout}`.slice(
        0,
        8000,
      ),
    );
    this.name = "TerraformRunError";
    this.result = result;
  }
}

/** Options of {@link TerraformWorkspace.create}. */
export interface TerraformWorkspaceOptions {
  /** The CLI configuration (mirrors, dev_overrides). */
  readonly cliConfig?: Omit<TerraformCliConfigOptions, "fileName">;
  /** Extra environment of every terraform child (`undefined` removes a variable). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A temporary terraform working directory. Create it with {@link TerraformWorkspace.create},
 * write files, run `init` once, then any number of commands; {@link TerraformWorkspace.dispose}
 * kills anything still running and removes the directory.
 */
export class TerraformWorkspace {
  readonly dir: string;
  readonly #terraform: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #children = new Set<ChildProcess>();

  private constructor(terraform: string, dir: string, options: TerraformWorkspaceOptions) {
    this.#terraform = terraform;
    this.dir = dir;
    const cliConfig = writeTerraformCliConfig(dir, {
      ...options.cliConfig,
      fileName: ".terraformrc",
    });
    this.#env = terraformEnv(cliConfig, options.env);
  }

  /**
   * Makes a new empty working directory with its CLI configuration (by default the
   * filesystem mirror `PLUGIN_MIRROR` alone).
   *
   * @throws Error when terraform is not found (check `hasTerraform()` first)
   */
  static create(prefix = "magma-tf-", options: TerraformWorkspaceOptions = {}): TerraformWorkspace {
    const terraform = findTerraform();
    if (terraform === undefined)
      throw new Error("terraform is not on PATH (or at MAGMA_TERRAFORM)");
    return new TerraformWorkspace(terraform, mkdtempSync(join(tmpdir(), prefix)), options);
  }

  /** Writes (replaces) a file in the working directory. */
  write(name: string, content: string): void {
    writeFileSync(join(this.dir, name), content);
  }

  /** Removes a file from the working directory, if present. */
  remove(name: string): void {
    rmSync(join(this.dir, name), { force: true });
  }

  /** `terraform init` (offline, from the mirror). */
  async init(): Promise<void> {
    await this.run(["init", "-input=false", "-no-color"]);
  }

  /**
   * Runs terraform with the given arguments in the working directory.
   *
   * @throws TerraformRunError when it exits non-zero, unless `allowFailure`.
   */
  async run(
    args: readonly string[],
    options: { allowFailure?: boolean; timeoutMs?: number } = {},
  ): Promise<TerraformResult> {
    const child = spawn(this.#terraform, [...args], {
      cwd: this.dir,
      env: this.#env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#children.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (c) => resolve(c));
      });
      const result = {
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      };
      if (code !== 0 && options.allowFailure !== true) throw new TerraformRunError(args, result);
      return result;
    } finally {
      clearTimeout(timer);
      this.#children.delete(child);
    }
  }

  /** Runs terraform and parses its standard output as JSON. */
  async json(args: readonly string[]): Promise<unknown> {
    const r = await this.run(args);
    return JSON.parse(r.stdout) as unknown;
  }

  /** Kills anything still running and removes the directory. */
  dispose(): void {
    for (const c of this.#children) c.kill("SIGKILL");
    this.#children.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
