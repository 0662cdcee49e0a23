import { dialConfiguredProvider, type LiveProvider, type PluginLogger } from "@magma/plugin";
import { AWS_BINARY, AWS_FAKE_ENDPOINT_KEYS, AWS_FAKE_MAX_RETRIES, awsFakeConfig, awsFakeHcl } from "@magma/test-support";

/** How many times the AWS SDK inside the provider retries a failed call (terraform and magma alike). */
export const AWS_MAX_RETRIES = AWS_FAKE_MAX_RETRIES;

/** The service endpoint keys of the provider's `endpoints` block pointed at the fake. */
export const AWS_ENDPOINT_KEYS = AWS_FAKE_ENDPOINT_KEYS;

/**
 * The AWS provider configuration that talks only to a fake endpoint at `url` (test-support's
 * `awsFakeConfig`): static test credentials, no credential validation, account look-up,
 * metadata API or region check, every used service's endpoint set to `url`, few SDK retries.
 */
export function awsProviderConfig(url: string): Record<string, unknown> {
  return awsFakeConfig(url);
}

/** The same configuration as HCL (`terraform` block pinning 5.100.0 plus the `provider` block). */
export function awsProviderHcl(url: string): string {
  return awsFakeHcl(url);
}

/** Launches the real AWS provider binary and configures it against the fake at `url`. */
export function dialAwsAgainst(url: string, logger?: PluginLogger): Promise<LiveProvider> {
  return dialConfiguredProvider({ binary: AWS_BINARY, config: awsProviderConfig(url), ...(logger === undefined ? {} : { logger }) });
}
