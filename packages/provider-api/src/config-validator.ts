import type { Value } from "@magma/cty";
import type { Diag } from "./diagnostic.js";
import type { CallOptions } from "./provider.js";

/** Options of the {@link ConfigValidator} calls. */
export type ValidateConfigOptions = CallOptions;

/** The result of a {@link ConfigValidator} call that found no error. */
export interface ConfigValidation {
  /** Warning diagnostics ("Argument is deprecated", …), each naming the attribute it is about when it is about one. */
  readonly warnings: readonly Diag[];
}

/**
 * The optional capability of validating configurations (tfplugin's ValidateProviderConfig,
 * ValidateResourceConfig and ValidateDataResourceConfig), kept apart from the 8 operations of
 * {@link Provider} as {@link FunctionCaller} is: a provider offers it or not, and
 * {@link isConfigValidator} tells which. Terraform calls these in its validate walk (before
 * every plan, and for `terraform validate`) and reports what they find at the configuration
 * of the attribute each diagnostic names. Ephemeral resources are validated by
 * {@link EphemeralResourceOpener.validateEphemeralResourceConfig}, with the same rules.
 *
 * Rules every implementation follows:
 *
 * - **No `configure` needed.** Terraform validates with an unconfigured provider instance.
 * - **Names.** A type that is not in the schema rejects with `unknown_type` (kind `resource`
 *   or `data_source`).
 * - **Values.** The configuration is of the type's (or the provider configuration's) implied
 *   type and may hold unknown values: Terraform's validate walk evaluates with every input
 *   variable, resource attribute and repetition key unknown. A value that does not fit the
 *   type rejects with `schema`. Marks never cross the contract.
 * - **Diagnostics.** Warnings come back on the result; error-severity diagnostics reject with
 *   `diagnostics` carrying all of them (warnings included).
 * - **Failures of the call itself** reject as the other operations do (`transport`,
 *   `plugin_exited`, `canceled`, …).
 */
export interface ConfigValidator {
  /** Validates the configuration of the provider (its `provider` block's value). */
  validateProviderConfig(config: Value, options?: ValidateConfigOptions): Promise<ConfigValidation>;
  /** Validates the configuration of a managed resource type. */
  validateResourceConfig(typeName: string, config: Value, options?: ValidateConfigOptions): Promise<ConfigValidation>;
  /** Validates the configuration of a data source. */
  validateDataResourceConfig(typeName: string, config: Value, options?: ValidateConfigOptions): Promise<ConfigValidation>;
}

/** Whether `x` (a {@link Provider}, typically) offers {@link ConfigValidator}'s calls, by shape. */
export function isConfigValidator(x: unknown): x is ConfigValidator {
  if (typeof x !== "object" || x === null) return false;
  const o = x as Record<string, unknown>;
  return typeof o["validateProviderConfig"] === "function" && typeof o["validateResourceConfig"] === "function" && typeof o["validateDataResourceConfig"] === "function";
}
