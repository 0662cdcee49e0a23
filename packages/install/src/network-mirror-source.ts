import { httpGet, withoutCredentials, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";
import { providerAddressString, SourceError, type ArchiveDigests, type PackageMeta, type ProviderAddress, type ProviderSource } from "./provider-source.js";
import { AuthResult } from "./verify-signature.js";
import { zipHash, zipPackageHashV1 } from "./zip-archive.js";

/**
 * Terraform's provider network mirror protocol: `<base>/<host>/<ns>/<type>/index.json` lists
 * the versions, `<version>.json` each platform's archive URL and hashes; a downloaded
 * archive must match one of those hashes (`h1:` or `zh:`).
 */
export class NetworkMirrorSource implements ProviderSource {
  readonly #base: URL;
  readonly #http: HttpOptions;

  /** A mirror at `baseUrl` (an `https:` URL). */
  constructor(baseUrl: string, http: HttpOptions) {
    this.#base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
    this.#http = http;
  }

  #failed(p: ProviderAddress, message: string): StepError {
    return new StepError(InstallErrorCode.QueryFailed, `failed to query provider mirror ${this.#base.href} for ${providerAddressString(p)}: ${message}`);
  }

  /** The token of the mirror's host (with its port, as terraform names it); a failing credentials helper fails the request as terraform's. */
  #token(p: ProviderAddress): string | undefined {
    const c = this.#http.credentials;
    const host = this.#base.host.toLowerCase();
    try {
      return c?.forHost !== undefined ? c.forHost(host) : c?.get(host);
    } catch (e) {
      throw this.#failed(p, `failed to determine request credentials: ${(e as Error).message}`);
    }
  }

  async #json(url: URL, p: ProviderAddress, notFound: () => Error): Promise<{ doc: Record<string, unknown>; url: URL }> {
    const token = this.#token(p);
    let res;
    try {
      res = await httpGet(url, token === undefined ? withoutCredentials(this.#http) : { ...this.#http, token });
    } catch (e) {
      throw this.#failed(p, (e as Error).message);
    }
    if (res.status === 404) throw notFound();
    if (res.status === 401 || res.status === 403) throw new StepError(InstallErrorCode.Unauthorized, `host ${this.#base.host} requires authentication credentials`);
    if (res.status !== 200) throw this.#failed(p, `server returned unsuccessful status ${res.status}`);
    const type = String(res.headers["content-type"] ?? "").split(";")[0]!.trim();
    if (type !== "application/json") throw this.#failed(p, "response has invalid Content-Type: must be application/json");
    try {
      const doc: unknown = JSON.parse(res.body.toString("utf8"));
      if (doc !== null && typeof doc === "object" && !Array.isArray(doc)) return { doc: doc as Record<string, unknown>, url: res.url };
    } catch {
      // fall through
    }
    throw this.#failed(p, "invalid response content from mirror server");
  }

  /** @inheritdoc */
  async availableVersions(p: ProviderAddress): Promise<{ versions: string[]; warnings: string[] }> {
    const { doc } = await this.#json(
      new URL(`${p.hostname}/${p.namespace}/${p.type}/index.json`, this.#base),
      p,
      () => new SourceError("provider_not_found", `provider ${providerAddressString(p)} was not found in any of the search locations`),
    );
    const versions = doc["versions"];
    return { versions: versions !== null && typeof versions === "object" ? Object.keys(versions) : [], warnings: [] };
  }

  /** @inheritdoc */
  async packageMeta(p: ProviderAddress, version: string, platform: string): Promise<PackageMeta> {
    const { doc, url } = await this.#json(new URL(`${p.hostname}/${p.namespace}/${p.type}/${version}.json`, this.#base), p, () =>
      this.#failed(p, `provider mirror does not have archive index for previously-reported ${providerAddressString(p)} version ${version}`),
    );
    const archives = (doc["archives"] ?? {}) as Record<string, { url?: unknown; hashes?: unknown } | undefined>;
    const meta = archives[platform];
    if (meta === undefined || typeof meta.url !== "string") {
      throw new SourceError("platform_not_supported", `provider ${providerAddressString(p)} ${version} is not available for ${platform}`, { mirrorUrl: this.#base.href });
    }
    let location: URL;
    try {
      location = new URL(meta.url, url);
    } catch (e) {
      throw this.#failed(p, `provider mirror returned invalid URL ${JSON.stringify(meta.url)}: ${(e as Error).message}`);
    }
    const hashes = Array.isArray(meta.hashes) ? (meta.hashes as unknown[]).filter((h): h is string => typeof h === "string") : [];
    for (const h of hashes) if (!/^[a-z0-9]+:/.test(h)) throw this.#failed(p, `provider mirror returned invalid provider hash ${JSON.stringify(h)}: hash string must start with a scheme keyword followed by a colon`);
    const usable = hashes.filter((h) => h.startsWith("h1:") || h.startsWith("zh:"));
    const authenticate = async (archive: Buffer, digests?: ArchiveDigests): Promise<{ result: AuthResult; signedHashes: string[] }> => {
      if (usable.length === 0) throw new StepError(InstallErrorCode.ChecksumMismatch, "this version of Terraform does not support any of the checksum formats given for this provider");
      const zh = digests?.zh ?? zipHash(archive);
      if (usable.includes(zh)) return { result: AuthResult.VerifiedChecksum, signedHashes: [] };
      const h1 = digests !== undefined ? await digests.h1() : zipPackageHashV1(archive);
      if (usable.includes(h1)) return { result: AuthResult.VerifiedChecksum, signedHashes: [] };
      throw new StepError(
        InstallErrorCode.ChecksumMismatch,
        usable.length === 1 ? `provider package doesn't match the expected checksum ${JSON.stringify(usable[0])}` : "provider package doesn't match the any of the expected checksums",
      );
    };
    return {
      provider: p,
      version,
      platform,
      filename: `terraform-provider-${p.type}_${version}_${platform}.zip`,
      location: { kind: "http", url: location },
      authenticate,
      mirrorHashes: hashes,
    };
  }

  /** @inheritdoc */
  forDisplay(): string {
    return `provider mirror at ${this.#base.href}`;
  }
}
