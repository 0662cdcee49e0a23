/**
 * Terraform's built-in provider, `terraform.io/builtin/terraform`, as a native magma
 * provider: the `terraform_data` resource, the `terraform_remote_state` data source over
 * `@magma/state`'s backends, and the `encode_tfvars`, `decode_tfvars` and `encode_expr`
 * provider functions.
 *
 * - {@link createTerraformProvider}: the provider.
 * - {@link TERRAFORM_PROVIDER_SOURCE}: its source address.
 *
 * @packageDocumentation
 */

export { createTerraformProvider, TERRAFORM_PROVIDER_SOURCE } from "./terraform-provider.js";
export type { TerraformProviderOptions } from "./terraform-provider.js";
