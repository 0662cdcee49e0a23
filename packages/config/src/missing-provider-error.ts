import type { Diagnostic } from "@magma/hcl";
import type { Config, Module, ProviderAddr } from "./model.js";
import { impliedProvider, providerAddrString } from "./provider-addr.js";

/** The provider a module's local name means (Terraform's `Module.ProviderForLocalConfig`). */
function providerForLocalName(mod: Module, name: string): ProviderAddr {
  return mod.requiredProviders.get(name)?.provider ?? impliedProvider(name);
}

/** An absolute provider configuration address as Terraform prints it: `module.a.provider["registry.terraform.io/hashicorp/aws"].west`. */
function absProviderConfig(path: readonly string[], provider: ProviderAddr, alias: string | undefined): string {
  const mod = path.map((p) => `module.${p}.`).join("");
  return `${mod}provider[${JSON.stringify(providerAddrString(provider))}]${alias === undefined ? "" : `.${alias}`}`;
}

/**
 * The error Terraform's graph builders stop on when a module call passes a provider
 * configuration its calling module does not have (the `ProviderConfigTransformer`'s
 * "missing provider …", before any walk): a module has the configurations of its own
 * `provider` blocks, those its call passes it and, in the root only, one for each
 * `required_providers` entry — not the default configurations it would inherit or that a
 * root resource implies. The configuration a call passes is looked up in the calling module
 * under the provider the child's local name means and the alias in the parent. Modules are
 * visited from the root down; the first missing configuration is the error (a plain one: no
 * detail, no source range). Undefined when every passed configuration exists.
 */
export function missingProviderError(config: Config): Diagnostic | undefined {
  const present = new Set<string>();
  const visit = (cfg: Config): Diagnostic | undefined => {
    const mod = cfg.module;
    if (cfg.path.length === 0) {
      for (const rp of mod.requiredProviders.values()) present.add(absProviderConfig([], rp.provider, undefined));
    }
    for (const pc of mod.providerConfigs.values()) present.add(absProviderConfig(cfg.path, providerForLocalName(mod, pc.name), pc.alias));
    if (cfg.call !== undefined) {
      const parentPath = cfg.path.slice(0, -1);
      for (const passed of cfg.call.providers) {
        const provider = providerForLocalName(mod, passed.inChild.name);
        const inParent = absProviderConfig(parentPath, provider, passed.inParent.alias);
        if (!present.has(inParent)) return { severity: "error", summary: `missing provider ${inParent}`, detail: "" };
        present.add(absProviderConfig(cfg.path, provider, passed.inChild.alias));
      }
    }
    for (const child of cfg.children.values()) {
      const found = visit(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(config);
}
