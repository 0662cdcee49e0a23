/**
 * Where the real binaries are: the `terraform` CLI and the hashicorp/aws provider in a
 * filesystem mirror. Each location can be set by environment:
 *
 * - `MAGMA_TERRAFORM`: the terraform executable (default: `terraform` on `PATH`);
 * - `MAGMA_TF_PLUGIN_MIRROR`: the filesystem mirror (default `/opt/tf-plugins`);
 * - `MAGMA_AWS_PROVIDER_BINARY`: the hashicorp/aws binary (default: 5.100.0 in the mirror).
 *
 * Tests that need a binary are skipped where it is absent, unless `MAGMA_REQUIRE_BINARIES=1`
 * (set by `.ci/run`): then asking for an absent binary throws {@link MissingBinaryError}, so
 * the suite fails instead of reporting "skipped".
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The hashicorp/aws version the tests pin. */
export const AWS_PROVIDER_VERSION = "5.100.0";

/** The AWS provider address as Terraform prints it. */
export const AWS_ADDRESS = "registry.terraform.io/hashicorp/aws";

/** The filesystem mirror holding the real providers (`MAGMA_TF_PLUGIN_MIRROR`, default `/opt/tf-plugins`). */
export const PLUGIN_MIRROR: string = env("MAGMA_TF_PLUGIN_MIRROR") ?? "/opt/tf-plugins";

/** The hashicorp/aws binary (protocol 5), `MAGMA_AWS_PROVIDER_BINARY` or the one in {@link PLUGIN_MIRROR}. */
export const AWS_BINARY: string =
  env("MAGMA_AWS_PROVIDER_BINARY") ??
  `${PLUGIN_MIRROR}/registry.terraform.io/hashicorp/aws/${AWS_PROVIDER_VERSION}/linux_amd64/terraform-provider-aws_v${AWS_PROVIDER_VERSION}_x5`;

/** The environment variable that turns an absent binary from "skip" into a failure. */
export const REQUIRE_BINARIES_ENV = "MAGMA_REQUIRE_BINARIES";

/** Thrown (code `missing_binary`) when a required binary is absent. */
export class MissingBinaryError extends Error {
  /** Stable code. */
  readonly code = "missing_binary";
  /** Which binary: `terraform` or `aws`. */
  readonly binary: "terraform" | "aws";
  constructor(binary: "terraform" | "aws", where: string) {
    super(
      `[missing_binary] ${binary === "terraform" ? "terraform" : "the hashicorp/aws provider"} is required here ` +
        `(${REQUIRE_BINARIES_ENV}=1) but is not at ${where}; install it or set ` +
        `${binary === "terraform" ? "MAGMA_TERRAFORM" : "MAGMA_AWS_PROVIDER_BINARY"}`,
    );
    this.name = "MissingBinaryError";
    this.binary = binary;
  }
}

/** True when `MAGMA_REQUIRE_BINARIES=1`: absent binaries fail instead of skipping. */
export function binariesRequired(): boolean {
  return env(REQUIRE_BINARIES_ENV) === "1";
}

/** The terraform executable (`MAGMA_TERRAFORM`, else `terraform` on `PATH`), or undefined. */
export function findTerraform(): string | undefined {
  const set = env("MAGMA_TERRAFORM");
  if (set !== undefined) return executable(set) ? set : undefined;
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const p = join(dir, "terraform");
    if (executable(p)) return p;
  }
  return undefined;
}

/** The hashicorp/aws binary when it is there, or undefined. */
export function findAwsProvider(): string | undefined {
  return executable(AWS_BINARY) ? AWS_BINARY : undefined;
}

/**
 * Whether terraform is there, for `(hasTerraform() ? describe : describe.skip)(…)`.
 *
 * @throws MissingBinaryError when it is absent and {@link binariesRequired}
 */
export function hasTerraform(): boolean {
  if (findTerraform() !== undefined) return true;
  if (binariesRequired())
    throw new MissingBinaryError("terraform", env("MAGMA_TERRAFORM") ?? "PATH");
  return false;
}

/**
 * Whether the hashicorp/aws binary is there.
 *
 * @throws MissingBinaryError when it is absent and {@link binariesRequired}
 */
export function hasAwsProvider(): boolean {
  if (findAwsProvider() !== undefined) return true;
  if (binariesRequired()) throw new MissingBinaryError("aws", AWS_BINARY);
  return false;
}

/** Both terraform and the AWS binary (each checked as {@link hasTerraform} / {@link hasAwsProvider}). */
export function hasTerraformAndAws(): boolean {
  const tf = hasTerraform();
  return hasAwsProvider() && tf;
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function env(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === "" ? undefined : v;
}
