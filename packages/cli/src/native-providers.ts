import type { NativeProviderConstructor } from "@magma/plugin";

/**
 * The native providers the CLI knows by name: `random` (also `magma/random`), the
 * `@magma/provider-random` provider, and Terraform's built-in provider
 * (`terraform.io/builtin/terraform`, `@magma/provider-terraform`; working-directory commands
 * give it their directory and environment, see `workdirProviders`). A bare name given on the command line is looked up
 * here first; `hashicorp/random` still means the real binary. Each is imported when it is
 * first opened (a command that uses none does not load it).
 */
export const nativeProviders: Readonly<Record<string, NativeProviderConstructor>> = Object.freeze({
  "magma/random": async () => (await import("@magma/provider-random")).createRandomProvider(),
  "terraform.io/builtin/terraform": async () => (await import("@magma/provider-terraform")).createTerraformProvider(),
});
