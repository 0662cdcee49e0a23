import type { Value } from "@magma/cty";
import type { HclFunction } from "./function.js";

/**
 * What an expression can refer to (HCL's `hcl.EvalContext`). Without `variables`, any
 * reference is an error ("Variables not allowed"); without `functions`, any call is
 * ("Function calls not allowed"). The evaluator's own forms `try`, `can`, `templatefile` and
 * `templatestring` are available whenever `functions` is given (`templatefile` only with `baseDir`), and
 * names may be written with Terraform's `core::` prefix.
 */
export interface EvalScope {
  /** Root names (`var`, `local`, `aws_instance`, …) and their values. */
  readonly variables?: ReadonlyMap<string, Value> | Readonly<Record<string, Value>>;
  /** Functions by name (e.g. Terraform's built-ins). */
  readonly functions?: ReadonlyMap<string, HclFunction>;
  /**
   * Resolves a provider-defined function `provider::<provider>::<name>` (Terraform's
   * CallFunction); `undefined` when the provider has no such function.
   */
  readonly providerFunction?: (provider: string, name: string) => HclFunction | undefined;
  /**
   * Whether the provider of a local name offers any function (for Terraform's wording of an
   * "Unknown provider function" diagnostic: a function the provider does not offer, or a
   * provider the module does not declare).
   */
  readonly hasProviderFunctions?: (provider: string) => boolean;
  /**
   * The directory `templatefile` reads from: a relative path resolves against it (Terraform
   * resolves against the working directory, which is why configurations write
   * `"${path.module}/x.tftpl"`).
   */
  readonly baseDir?: string;
}
