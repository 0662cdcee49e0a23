import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { CliConfig, InstallationMethod } from "./cli-config.js";
import { FilesystemMirrorSource } from "./filesystem-mirror-source.js";
import type { HttpOptions } from "./http-client.js";
import { InstallError, InstallErrorCode } from "./install-error.js";
import { NetworkMirrorSource } from "./network-mirror-source.js";
import { providerAddressString, SourceError, type PackageMeta, type ProviderAddress, type ProviderSource } from "./provider-source.js";
import { RegistrySource } from "./registry-source.js";
import { ServiceDiscovery } from "./service-discovery.js";

/** A source with the provider patterns it is used for (`include`/`exclude` of an installation method). */
export interface SourceSelector {
  readonly source: ProviderSource;
  readonly include: readonly ProviderPattern[];
  readonly exclude: readonly ProviderPattern[];
}

/** A provider matching pattern (`registry.terraform.io/hashicorp/*`), `*` a wildcard per part. */
export interface ProviderPattern {
  readonly hostname: string;
  readonly namespace: string;
  readonly type: string;
}

/**
 * Parses an `include`/`exclude` pattern as terraform does: two or three slash-separated
 * parts (the default registry when the hostname is left out).
 *
 * @throws InstallError `bad_config`.
 */
export function parseProviderPattern(text: string): ProviderPattern {
  const parts = text.split("/");
  if (parts.length < 2 || parts.length > 3) throw new InstallError(InstallErrorCode.BadConfig, "Invalid provider installation method", `invalid provider matching pattern ${JSON.stringify(text)}: must have either two or three slash-separated segments`);
  const [hostname, namespace, type] = parts.length === 3 ? (parts as [string, string, string]) : ["registry.terraform.io", parts[0]!, parts[1]!];
  if (hostname === "*" && (namespace !== "*" || type !== "*")) throw new InstallError(InstallErrorCode.BadConfig, "Invalid provider installation method", `invalid provider matching pattern ${JSON.stringify(text)}: hostname can be a wildcard only if both namespace and provider type are also wildcards`);
  if (namespace === "*" && type !== "*") throw new InstallError(InstallErrorCode.BadConfig, "Invalid provider installation method", `invalid provider matching pattern ${JSON.stringify(text)}: namespace can be a wildcard only if the provider type is also a wildcard`);
  return { hostname: hostname.toLowerCase(), namespace: namespace.toLowerCase(), type: type.toLowerCase() };
}

function matches(pats: readonly ProviderPattern[], p: ProviderAddress): boolean {
  return pats.some((x) => (x.hostname === "*" || x.hostname === p.hostname) && (x.namespace === "*" || x.namespace === p.namespace.toLowerCase()) && (x.type === "*" || x.type === p.type.toLowerCase()));
}

/** Whether a selector is used for `p` (terraform's `CanHandleProvider`). */
function handles(s: SourceSelector, p: ProviderAddress): boolean {
  if (s.exclude.length > 0 && matches(s.exclude, p)) return false;
  return s.include.length === 0 || matches(s.include, p);
}

/**
 * Several sources in order, as terraform's `MultiSource`: the versions are the union of
 * every source that handles the provider; a package comes from the first source that has it.
 */
export class MultiSource implements ProviderSource {
  readonly #selectors: readonly SourceSelector[];

  /** The selectors, in the order of the CLI configuration. */
  constructor(selectors: readonly SourceSelector[]) {
    this.#selectors = selectors;
  }

  /** @inheritdoc */
  async availableVersions(p: ProviderAddress): Promise<{ versions: string[]; warnings: string[] }> {
    const versions = new Set<string>();
    const warnings: string[] = [];
    let registryError: SourceError | undefined;
    for (const s of this.#selectors) {
      if (!handles(s, p)) continue;
      try {
        const r = await s.source.availableVersions(p);
        for (const v of r.versions) versions.add(v);
        warnings.push(...r.warnings);
      } catch (e) {
        if (e instanceof SourceError && e.kind === "registry_not_known") registryError ??= e;
        else if (!(e instanceof SourceError && e.kind === "provider_not_found")) throw e;
      }
    }
    if (versions.size === 0) {
      if (registryError !== undefined) throw registryError;
      throw new SourceError("provider_not_found", `provider ${providerAddressString(p)} was not found in any of the search locations`, { sources: this.#sources(p) });
    }
    return { versions: [...versions], warnings };
  }

  /** @inheritdoc */
  async packageMeta(p: ProviderAddress, version: string, platform: string): Promise<PackageMeta> {
    let mirror: SourceError | undefined;
    for (const s of this.#selectors) {
      if (!handles(s, p)) continue;
      try {
        return await s.source.packageMeta(p, version, platform);
      } catch (e) {
        if (!(e instanceof SourceError)) throw e;
        if (e.mirrorUrl !== undefined) mirror ??= e;
      }
    }
    throw mirror ?? new SourceError("platform_not_supported", `provider ${providerAddressString(p)} ${version} is not available for ${platform}`);
  }

  #sources(p: ProviderAddress): string[] {
    return this.#selectors.filter((s) => handles(s, p)).map((s) => s.source.forDisplay(p));
  }

  /** @inheritdoc */
  forDisplay(p: ProviderAddress): string {
    return this.#sources(p).join("\n");
  }
}

/** Options of {@link createProviderSource}. */
export interface ProviderSourceOptions {
  /** The HTTP settings (CA, timeout, credentials). */
  readonly http: HttpOptions;
  /** `-plugin-dir`s: when given, the only sources. */
  readonly pluginDirs?: readonly string[];
  /** The working directory (for `terraform.d/plugins` and relative paths). */
  readonly cwd: string;
  /** Filesystem mirrors searched before every configured method (magma's `MAGMA_PLUGIN_DIRS`). */
  readonly extraMirrors?: readonly string[];
  /** The environment (for the implied XDG directories; default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function providersUnder(dir: string): ProviderPattern[] {
  const out: ProviderPattern[] = [];
  const list = (d: string): string[] => {
    try {
      return readdirSync(d).filter((n) => statSync(join(d, n)).isDirectory());
    } catch {
      return [];
    }
  };
  for (const h of list(dir)) for (const n of list(join(dir, h))) for (const t of list(join(dir, h, n))) out.push({ hostname: h.toLowerCase(), namespace: n.toLowerCase(), type: t.toLowerCase() });
  // packed layout: the type directory holds zips, already counted above
  return out;
}

/**
 * The provider source terraform builds from the CLI configuration: `-plugin-dir`s alone when
 * given; else the `provider_installation` methods in order; else terraform's implied methods
 * (each existing local plugin directory as a filesystem mirror, then the origin registries
 * for every other provider).
 */
export function createProviderSource(config: CliConfig, options: ProviderSourceOptions): MultiSource {
  const discovery = new ServiceDiscovery(config.hosts, options.http);
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(options.cwd, p));
  if (options.pluginDirs !== undefined && options.pluginDirs.length > 0) {
    return new MultiSource(options.pluginDirs.map((d) => ({ source: new FilesystemMirrorSource(abs(d)), include: [], exclude: [] })));
  }
  const selector = (m: InstallationMethod): SourceSelector => {
    const include = m.include.map(parseProviderPattern);
    const exclude = m.exclude.map(parseProviderPattern);
    if (m.kind === "direct") return { source: new RegistrySource(discovery, options.http), include, exclude };
    if (m.kind === "filesystem_mirror") return { source: new FilesystemMirrorSource(abs(m.path)), include, exclude };
    return { source: new NetworkMirrorSource(m.url, options.http), include, exclude };
  };
  const extra: SourceSelector[] = (options.extraMirrors ?? []).map((d) => ({ source: new FilesystemMirrorSource(abs(d)), include: [], exclude: [] }));
  if (config.providerInstallation !== undefined) return new MultiSource([...extra, ...config.providerInstallation.map(selector)]);
  const env = options.env ?? process.env;
  const home = homedir();
  const dataHome = env["XDG_DATA_HOME"] !== undefined && env["XDG_DATA_HOME"] !== "" ? env["XDG_DATA_HOME"] : join(home, ".local", "share");
  const dataDirs = (env["XDG_DATA_DIRS"] !== undefined && env["XDG_DATA_DIRS"] !== "" ? env["XDG_DATA_DIRS"] : "/usr/local/share/:/usr/share/").split(":").filter((d) => d !== "");
  const implied = [join(options.cwd, "terraform.d", "plugins"), join(home, ".terraform.d", "plugins"), join(dataHome, "terraform", "plugins"), ...dataDirs.map((d) => join(d, "terraform", "plugins"))];
  const selectors: SourceSelector[] = [...extra];
  const found: ProviderPattern[] = (options.extraMirrors ?? []).flatMap((d) => providersUnder(abs(d)));
  for (const d of implied) {
    if (!existsSync(d)) continue;
    selectors.push({ source: new FilesystemMirrorSource(d), include: [], exclude: [] });
    found.push(...providersUnder(d));
  }
  selectors.push({ source: new RegistrySource(discovery, options.http), include: [], exclude: found });
  return new MultiSource(selectors);
}
