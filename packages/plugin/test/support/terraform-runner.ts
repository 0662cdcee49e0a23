/**
 * Kept only for `packages/cli/test/aws.test.ts`, which imports this file by path (cli was
 * being edited by another engineer when the helpers moved): everything here is
 * `@magma/test-support`'s. Remove once cli imports `@magma/test-support` itself.
 */
export {
  AWS_ADDRESS,
  AWS_BINARY,
  AWS_OFFLINE_CONFIG,
  AWS_OFFLINE_HCL,
  PLUGIN_MIRROR,
  TerraformRunError,
  TerraformWorkspace,
  findTerraform,
  hasTerraformAndAws as terraformAndAwsAvailable,
} from "@magma/test-support";
export type { TerraformResult } from "@magma/test-support";
