import { impliedProvider, providerAddrString, walkConfig, type Config, type ProviderAddr, type VersionConstraint } from "@magma/config";

/** One provider a configuration needs, with every version constraint on it across its modules. */
export interface ProviderRequirement {
  /** The provider's address. */
  readonly provider: ProviderAddr;
  /** `registry.terraform.io/hashicorp/aws`. */
  readonly address: string;
  /** The constraints of every module's `required_providers` entry for it. */
  readonly constraints: readonly VersionConstraint[];
}

/** How Terraform shows a provider: without the default registry host (`hashicorp/aws`). */
export function providerForDisplay(p: ProviderAddr): string {
  return p.hostname === "registry.terraform.io" ? `${p.namespace}/${p.type}` : providerAddrString(p);
}

/** Whether `p` is in Terraform's `terraform.io/builtin/` namespace. */
export function isBuiltInProvider(p: ProviderAddr): boolean {
  return p.hostname === "terraform.io" && p.namespace === "builtin";
}

/**
 * The providers a configuration needs, as `terraform init` collects them: every module's
 * `required_providers`, and the providers implied by resources and `provider` blocks that no
 * entry names. Providers in `terraform.io/builtin/` (Terraform's built-in provider) are left
 * out unless `options.builtIn` asks for them (init reports them).
 */
export function providerRequirements(config: Config, options: { readonly builtIn?: boolean } = {}): ProviderRequirement[] {
  const found = new Map<string, { provider: ProviderAddr; constraints: VersionConstraint[] }>();
  const need = (p: ProviderAddr, constraints: readonly VersionConstraint[] = []): void => {
    if (options.builtIn !== true && isBuiltInProvider(p)) return;
    const key = providerAddrString(p);
    const e = found.get(key) ?? { provider: p, constraints: [] };
    e.constraints.push(...constraints);
    found.set(key, e);
  };
  for (const c of walkConfig(config)) {
    const m = c.module;
    for (const rp of m.requiredProviders.values()) need(rp.provider, rp.versionConstraints);
    for (const pc of m.providerConfigs.values()) need(m.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name));
    for (const r of [...m.managedResources.values(), ...m.dataResources.values(), ...m.ephemeralResources.values()]) need(r.provider);
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([address, e]) => ({ address, provider: e.provider, constraints: e.constraints }));
}
