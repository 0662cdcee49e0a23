import { providerAddrString, walkConfig, type Config } from "@magma/config";
import type { ProviderPool } from "../providers/provider-pool.js";

/**
 * Records each provider's version constraints (from every module's `required_providers`) in
 * the pool, so that the instances it opens are the versions the configuration asks for;
 * returns them by source address.
 */
export function setProviderVersions(root: Config, pool: ProviderPool): Map<string, string[]> {
  const versions = new Map<string, string[]>();
  for (const c of walkConfig(root)) {
    for (const rp of c.module.requiredProviders.values()) {
      const src = providerAddrString(rp.provider);
      const list = versions.get(src) ?? [];
      for (const v of rp.versionConstraints) if (!list.includes(v.text)) list.push(v.text);
      versions.set(src, list);
    }
  }
  for (const [src, list] of versions) if (list.length > 0) pool.setVersion(src, list.join(", "));
  return versions;
}
