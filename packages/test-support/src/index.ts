/**
 * Private test support shared by magma's packages (never published): where the real
 * binaries are, terraform runs with a private CLI configuration, and provider configurations
 * that never reach AWS. The cty arbitraries are at `@magma/test-support/cty-arbitraries`.
 * @packageDocumentation
 */
export {
  AWS_ADDRESS,
  AWS_BINARY,
  AWS_PROVIDER_VERSION,
  MissingBinaryError,
  PLUGIN_MIRROR,
  REQUIRE_BINARIES_ENV,
  binariesRequired,
  findAwsProvider,
  findTerraform,
  hasAwsProvider,
  hasTerraform,
  hasTerraformAndAws,
} from "./binaries.js";
export {
  terraformCliConfigText,
  terraformEnv,
  writeTerraformCliConfig,
} from "./terraform-cli-config.js";
export type { FilesystemMirror, TerraformCliConfigOptions } from "./terraform-cli-config.js";
export { TerraformRunError, TerraformWorkspace } from "./terraform-workspace.js";
export type { TerraformResult, TerraformWorkspaceOptions } from "./terraform-workspace.js";
export {
  AWS_FAKE_ENDPOINT_KEYS,
  AWS_FAKE_MAX_RETRIES,
  AWS_OFFLINE_CONFIG,
  AWS_OFFLINE_HCL,
  AWS_REQUIRED_PROVIDERS_HCL,
  awsFakeConfig,
  awsFakeHcl,
} from "./aws-configs.js";
export type { AwsFakeOptions } from "./aws-configs.js";
export { comparablePlanJson } from "./comparable-plan-json.js";
export {
  BUNDLE_LAUNCHERS_ENV,
  LauncherBundleError,
  bundleLauncherEntry,
} from "./bundle-launcher-entry.js";
export type { LauncherWithEntry } from "./bundle-launcher-entry.js";
export { TfToJsonError, tfToJson } from "./tf-to-json.js";
export { startLocalRegistry } from "./local-registry.js";
export type { LocalRegistry, RegistryFault, RegistryRelease, PublishedRelease, RegistryModule } from "./local-registry.js";
export { writeZip } from "./zip-writer.js";
export type { ZipWriterEntry } from "./zip-writer.js";
