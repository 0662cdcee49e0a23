import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isVersion, providerAddressString, SourceError, type PackageMeta, type ProviderAddress, type ProviderSource } from "./provider-source.js";

/**
 * A local directory in terraform's mirror layouts: unpacked
 * (`<host>/<ns>/<type>/<version>/<os>_<arch>/`) or packed
 * (`<host>/<ns>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip`). Packages from
 * it are not authenticated (only the lock file's hashes are checked).
 */
export class FilesystemMirrorSource implements ProviderSource {
  readonly #dir: string;

  /** A mirror rooted at `dir`. */
  constructor(dir: string) {
    this.#dir = dir;
  }

  #packages(p: ProviderAddress): Map<string, Map<string, PackageMeta>> {
    const out = new Map<string, Map<string, PackageMeta>>();
    const base = join(this.#dir, p.hostname, p.namespace, p.type);
    if (!existsSync(base)) return out;
    const add = (version: string, platform: string, meta: PackageMeta): void => {
      const v = out.get(version) ?? new Map<string, PackageMeta>();
      if (!v.has(platform)) v.set(platform, meta);
      out.set(version, v);
    };
    for (const name of readdirSync(base).sort()) {
      const full = join(base, name);
      let st;
      try {
        st = statSync(full);
      } catch {
        continue;
      }
      if (st.isDirectory() && isVersion(name)) {
        for (const platform of readdirSync(full).sort()) {
          if (!/^[a-z0-9]+_[a-z0-9]+$/.test(platform) || !statSync(join(full, platform)).isDirectory()) continue;
          add(name, platform, { provider: p, version: name, platform, filename: `terraform-provider-${p.type}_${name}_${platform}.zip`, location: { kind: "dir", path: join(full, platform) } });
        }
      } else if (st.isFile()) {
        const prefix = `terraform-provider-${p.type}_`;
        if (!name.startsWith(prefix) || !name.endsWith(".zip")) continue;
        const parts = name.slice(prefix.length, -4).split("_");
        if (parts.length !== 3 || !isVersion(parts[0]!)) continue;
        const platform = `${parts[1]!}_${parts[2]!}`;
        add(parts[0]!, platform, { provider: p, version: parts[0]!, platform, filename: name, location: { kind: "archive", path: full } });
      }
    }
    return out;
  }

  /** @inheritdoc */
  availableVersions(p: ProviderAddress): Promise<{ versions: string[]; warnings: string[] }> {
    const found = this.#packages(p);
    if (found.size === 0) return Promise.reject(new SourceError("provider_not_found", `provider ${providerAddressString(p)} was not found in any of the search locations`, { sources: [this.#dir] }));
    return Promise.resolve({ versions: [...found.keys()], warnings: [] });
  }

  /** @inheritdoc */
  packageMeta(p: ProviderAddress, version: string, platform: string): Promise<PackageMeta> {
    const meta = this.#packages(p).get(version)?.get(platform);
    if (meta === undefined) return Promise.reject(new SourceError("platform_not_supported", `provider ${providerAddressString(p)} ${version} is not available for ${platform}`));
    return Promise.resolve(meta);
  }

  /** @inheritdoc */
  forDisplay(): string {
    return this.#dir;
  }
}
