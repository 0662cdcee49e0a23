import { descendantConfig, impliedProvider, providerAddrString, type Config, type ProviderAddr, type Resource } from "@magma/config";
import type { Value } from "@magma/cty";
import type { Body } from "@magma/hcl";
import { isConfigValidator, isEphemeralResourceOpener, isProviderError, type Block, type Diag } from "@magma/provider-api";
import { formatProviderConfig } from "@magma/state";
import type { ProviderConfigValidation, ResourceValidator } from "../eval/validate-expressions.js";
import { inBody } from "./in-config-body.js";
import { resolveResourceProviderConfig } from "./plan-configuration.js";
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

/**
 * Terraform's ValidateProvider in its validate walk (node_provider.go): a `provider` block's
 * value sent to ValidateProviderConfig (the contract's `ConfigValidator`; a provider that does
 * not offer it is not asked) and the diagnostics that come back placed in the block at the
 * attribute they name, with the configuration's address (`provider["registry.terraform.io/hashicorp/aws"].west`).
 *
 * @param root the configuration (to find the block each resource uses).
 * @param providerFor the provider instance (unconfigured) of a source address and configuration address, or undefined.
 * @param schemaOf the provider configuration schema of a source address, or undefined when it is not known.
 */
export function providerConfigValidator(root: Config, providerFor: (source: string, address: string) => Promise<unknown>, schemaOf: (source: string) => Block | undefined): ProviderConfigValidation {
  const where = (c: Config, key: string): { source: string; address: string; body: Body } | undefined => {
    const pc = c.module.providerConfigs.get(key);
    if (pc === undefined) return undefined;
    const provider: ProviderAddr = c.module.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name);
    return { source: providerAddrString(provider), address: formatProviderConfig({ module: c.path, provider, alias: pc.alias }), body: pc.config };
  };
  return {
    blockOf: (c, r) => {
      const resolved = resolveResourceProviderConfig(root, c.path, r);
      if ("error" in resolved || resolved.body === undefined) return undefined;
      const module = descendantConfig(root, resolved.modulePath);
      const key = module === undefined ? undefined : [...module.module.providerConfigs].find(([, pc]) => pc.config === resolved.body)?.[0];
      return module === undefined || key === undefined ? undefined : { module, key };
    },
    schema: (c, key) => {
      const w = where(c, key);
      return w === undefined ? undefined : schemaOf(w.source);
    },
    validate: async (c, key, value) => {
      const w = where(c, key);
      if (w === undefined) return [];
      const place = (diags: readonly Diag[]): PlanDiagnostic[] => diags.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "", subject: inBody(w.body, d), address: w.address, inConfigBody: true }));
      let p: unknown;
      try {
        p = await providerFor(w.source, w.address);
      } catch {
        return [];
      }
      if (!isConfigValidator(p)) return [];
      try {
        return place((await p.validateProviderConfig(value)).warnings);
      } catch (e) {
        if (isProviderError(e) && e.code === "diagnostics") {
          const diags = (e.detail as { diagnostics?: readonly Diag[] }).diagnostics ?? [];
          if (diags.length > 0) return place(diags);
        }
        const code = (e as { code?: unknown })?.code;
        return [{ severity: "error", summary: code === undefined ? "Provider validation failed" : String(code), detail: e instanceof Error ? e.message : String(e), subject: w.body.range, address: w.address }];
      }
    },
  };
}
