import type { Config, Resource } from "@magma/config";
import type { Value } from "@magma/cty";
import { isConfigValidator, isEphemeralResourceOpener, isProviderError, type Diag } from "@magma/provider-api";
import type { ResourceValidator } from "../eval/validate-expressions.js";
import { providerDiagsInBody, type PlanDiagnostic } from "./plan-diagnostic.js";

/**
 * The provider instance that validates a resource's configuration (unconfigured is enough),
 * or `undefined` when there is none to ask (not installed, cannot be opened: the static
 * checks and the plan report why).
 */
export type ValidatingProvider = (c: Config, r: Resource) => Promise<unknown>;

/**
 * Terraform's provider validation in its validate walk (node_resource_validate.go): each
 * resource's configuration sent to ValidateResourceConfig, each data source's to
 * ValidateDataResourceConfig, each ephemeral resource's to ValidateEphemeralResourceConfig
 * (the contract's `ConfigValidator` and `EphemeralResourceOpener`; a provider that offers
 * neither is not asked), and the diagnostics that come back placed as Terraform's
 * `InConfigBody` places them: at the attribute or block their path names (else the resource's
 * block, see `inConfigBody`), with the resource's configuration address
 * (`module.m.aws_s3_bucket.b`: the walk is unexpanded).
 *
 * A type the provider does not have is not asked about (the static checks report it); any
 * other failure of the call is reported as an error at the resource.
 */
export function providerResourceValidator(providerFor: ValidatingProvider): ResourceValidator {
  return async (c: Config, r: Resource, value: Value): Promise<readonly PlanDiagnostic[]> => {
    const address = `${c.path.map((n) => `module.${n}.`).join("")}${r.mode === "managed" ? "" : `${r.mode}.`}${r.type}.${r.name}`;
    const place = (diags: readonly Diag[]): PlanDiagnostic[] => providerDiagsInBody(diags, r, address);
    let p: unknown;
    try {
      p = await providerFor(c, r);
    } catch {
      return [];
    }
    try {
      if (r.mode === "ephemeral") {
        if (!isEphemeralResourceOpener(p)) return [];
        return place((await p.validateEphemeralResourceConfig(r.type, value)).warnings);
      }
      if (!isConfigValidator(p)) return [];
      const said = r.mode === "managed" ? await p.validateResourceConfig(r.type, value) : await p.validateDataResourceConfig(r.type, value);
      return place(said.warnings);
    } catch (e) {
      if (isProviderError(e) && e.code === "unknown_type") return [];
      if (isProviderError(e) && e.code === "diagnostics") {
        const diags = (e.detail as { diagnostics?: readonly Diag[] }).diagnostics ?? [];
        if (diags.length > 0) return place(diags);
      }
      const code = (e as { code?: unknown })?.code;
      return [{ severity: "error", summary: code === undefined ? "Provider validation failed" : String(code), detail: e instanceof Error ? e.message : String(e), subject: r.declRange, address }];
    }
  };
}
