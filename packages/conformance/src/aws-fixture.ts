import { dialConfiguredProvider, type LiveProvider, type PluginLogger } from "@magma/plugin";
import { AWS_BINARY } from "./terraform-oracle.js";

/** How many times the AWS SDK inside the provider retries a failed call (terraform and magma alike). */
export const AWS_MAX_RETRIES = 2;

/** The service endpoint keys of the provider's `endpoints` block pointed at the fake. */
export const AWS_ENDPOINT_KEYS = ["ssm", "logs", "ec2", "sts", "iam"] as const;

/**
 * The AWS provider configuration that talks only to a fake endpoint at `url`: static test
 * credentials, no credential validation, account look-up, metadata API or region check,
 * every used service's endpoint set to `url`, and few SDK retries. As plain data for
 * `configValue`.
 */
export function awsProviderConfig(url: string): Record<string, unknown> {
  return {
    region: "us-east-1",
    access_key: "test",
    secret_key: "test",
    skip_credentials_validation: true,
    skip_requesting_account_id: true,
    skip_metadata_api_check: "true",
    skip_region_validation: true,
    max_retries: AWS_MAX_RETRIES,
    endpoints: [Object.fromEntries(AWS_ENDPOINT_KEYS.map((k) => [k, url]))],
  };
}

/** The same configuration as HCL (`terraform` block pinning 5.100.0 plus the `provider` block). */
export function awsProviderHcl(url: string): string {
  return `terraform {
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
  max_retries                 = ${AWS_MAX_RETRIES}
  endpoints {
${AWS_ENDPOINT_KEYS.map((k) => `    ${k} = "${url}"`).join("\n")}
  }
}
`;
}

/** Launches the real AWS provider binary and configures it against the fake at `url`. */
export function dialAwsAgainst(url: string, logger?: PluginLogger): Promise<LiveProvider> {
  return dialConfiguredProvider({ binary: AWS_BINARY, config: awsProviderConfig(url), ...(logger === undefined ? {} : { logger }) });
}
