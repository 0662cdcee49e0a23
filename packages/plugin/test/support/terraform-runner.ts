/**
 * Test support: running the real `terraform` CLI as an oracle, offline, in a temporary
 * working directory with its own CLI configuration (a filesystem mirror at
 * /opt/tf-plugins). The CLI configuration and `TF_IN_AUTOMATION` are set for the child
 * only. Nothing here is part of the package API.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** The filesystem mirror that holds the real providers. */
export const PLUGIN_MIRROR = "/opt/tf-plugins";

/** The real AWS provider binary (protocol 5). */
export const AWS_BINARY = `${PLUGIN_MIRROR}/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5`;

/** The AWS provider address as Terraform prints it. */
export const AWS_ADDRESS = "registry.terraform.io/hashicorp/aws";

/**
 * The provider configuration that works offline (no credentials, no metadata API, no
 * account look-up), as a plain object for `configValue`.
 */
export const AWS_OFFLINE_CONFIG = {
  region: "us-east-1",
  access_key: "test",
  secret_key: "test",
  skip_credentials_validation: true,
  skip_requesting_account_id: true,
  skip_metadata_api_check: "true",
  skip_region_validation: true,
} as const;

/** The same configuration as HCL, with the `required_providers` block pinning 5.100.0. */
export const AWS_OFFLINE_HCL = `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}

provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
}
`;

/** The path of the `terraform` executable on PATH, or undefined. */
export function findTerraform(): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const p = join(dir, "terraform");
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether both the terraform CLI and the AWS provider binary are present. */
export function terraformAndAwsAvailable(): boolean {
  return findTerraform() !== undefined && existsSync(AWS_BINARY);
}

/** What one terraform run produced. */
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

/**
 * A temporary terraform working directory. Create it with {@link TerraformWorkspace.create},
 * write files, run `init` once, then any number of commands; {@link TerraformWorkspace.dispose}
 * kills anything still running and removes the directory.
 */
export class TerraformWorkspace {
  readonly dir: string;
  readonly #terraform: string;
  readonly #env: Record<string, string | undefined>;
  readonly #children = new Set<ChildProcess>();

  private constructor(terraform: string, dir: string) {
    this.#terraform = terraform;
    this.dir = dir;
    const cliConfig = join(dir, ".terraformrc");
    writeFileSync(
      cliConfig,
      `provider_installation {\n  filesystem_mirror {\n    path = "${PLUGIN_MIRROR}"\n  }\n}\n`,
    );
    this.#env = {
      ...process.env,
      TF_CLI_CONFIG_FILE: cliConfig,
      TF_IN_AUTOMATION: "1",
      TF_INPUT: "0",
      CHECKPOINT_DISABLE: "1",
      TF_LOG: undefined,
      TF_PLUGIN_CACHE_DIR: undefined,
      TF_DATA_DIR: undefined,
      // The provider makes no AWS calls with the offline flags; make sure nothing leaves the host.
      AWS_EC2_METADATA_DISABLED: "true",
    };
  }

  /** Makes a new empty working directory with its CLI configuration. */
  static create(prefix = "magma-tf-"): TerraformWorkspace {
    const terraform = findTerraform();
    if (terraform === undefined) throw new Error("terraform is not on PATH");
    return new TerraformWorkspace(terraform, mkdtempSync(join(tmpdir(), prefix)));
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
