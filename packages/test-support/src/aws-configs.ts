/**
 * hashicorp/aws provider configurations that never reach AWS: offline (static test
 * credentials; no credential validation, account look-up, metadata API or region check)
 * and pointed at a local fake endpoint (`@magma/fake-aws`).
 */
import { AWS_PROVIDER_VERSION } from "./binaries.js";

/** The offline provider configuration, as plain data for `configValue`. */
export const AWS_OFFLINE_CONFIG = {
  region: "us-east-1",
  access_key: "test",
  secret_key: "test",
  skip_credentials_validation: true,
  skip_requesting_account_id: true,
  skip_metadata_api_check: "true",
  skip_region_validation: true,
} as const;

/** The `terraform` block pinning hashicorp/aws {@link AWS_PROVIDER_VERSION}. */
export const AWS_REQUIRED_PROVIDERS_HCL = `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "${AWS_PROVIDER_VERSION}" }
  }
}
`;

/** The offline configuration as HCL: the `terraform` block and the `provider "aws"` block. */
export const AWS_OFFLINE_HCL = `
${AWS_REQUIRED_PROVIDERS_HCL}
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

/** How many times the AWS SDK inside the provider retries a failed call in {@link awsFakeConfig}. */
export const AWS_FAKE_MAX_RETRIES = 2;

/** The service endpoint keys that {@link awsFakeConfig} points at the fake. */
export const AWS_FAKE_ENDPOINT_KEYS = ["ssm", "logs", "ec2", "sts", "iam"] as const;

/** Options of {@link awsFakeConfig} and {@link awsFakeHcl}. */
export interface AwsFakeOptions {
  /** SDK retries (default {@link AWS_FAKE_MAX_RETRIES}). */
  readonly maxRetries?: number;
  /** Endpoint keys to point at the fake (default {@link AWS_FAKE_ENDPOINT_KEYS}). */
  readonly endpoints?: readonly string[];
}

/**
 * The offline configuration talking only to a fake endpoint at `url` (`startFakeAws().url`):
 * every used service's endpoint set to `url`, few SDK retries. Plain data for `configValue`.
 */
export function awsFakeConfig(url: string, options: AwsFakeOptions = {}): Record<string, unknown> {
  const keys = options.endpoints ?? AWS_FAKE_ENDPOINT_KEYS;
  return {
    ...AWS_OFFLINE_CONFIG,
    max_retries: options.maxRetries ?? AWS_FAKE_MAX_RETRIES,
    endpoints: [Object.fromEntries(keys.map((k) => [k, url]))],
  };
}

/** The same configuration as HCL (the `terraform` block pinning the version, then `provider "aws"`). */
export function awsFakeHcl(url: string, options: AwsFakeOptions = {}): string {
  const keys = options.endpoints ?? AWS_FAKE_ENDPOINT_KEYS;
  return `${AWS_REQUIRED_PROVIDERS_HCL}
provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
  max_retries                 = ${options.maxRetries ?? AWS_FAKE_MAX_RETRIES}
  endpoints {
${keys.map((k) => `    ${k} = "${url}"`).join("\n")}
  }
}
`;
}
