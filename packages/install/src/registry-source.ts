import { createHash } from "node:crypto";
import { httpGet, withoutCredentials, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";
import { providerAddressString, SourceError, type ArchiveDigests, type Authentication, type PackageMeta, type ProviderAddress, type ProviderSource } from "./provider-source.js";
import type { ServiceDiscovery } from "./service-discovery.js";
import { preloadOpenpgp, verifySignature, type SigningKey } from "./verify-signature.js";

function queryFailed(p: ProviderAddress, message: string): StepError {
  return new StepError(InstallErrorCode.QueryFailed, `could not query provider registry for ${providerAddressString(p)}: ${message}`);
}

function json(body: Buffer, p: ProviderAddress): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(body.toString("utf8"));
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch (e) {
    throw queryFailed(p, (e as Error).message);
  }
  throw queryFailed(p, "the response is not a JSON object");
}

/**
 * The provider registry protocol (`providers.v1`): versions, download metadata, the
 * `SHA256SUMS` document and its detached signature, checked against the registry's keys
 * before a package is used.
 */
export class RegistrySource implements ProviderSource {
  readonly #discovery: ServiceDiscovery;
  readonly #http: HttpOptions;
  readonly #retries: number;

  /** A source over the registries `discovery` finds; `retries` failed requests are retried (default 1, terraform's). */
  constructor(discovery: ServiceDiscovery, http: HttpOptions, retries = 1) {
    this.#discovery = discovery;
    this.#http = http;
    this.#retries = retries;
  }

  async #base(p: ProviderAddress): Promise<URL> {
    const url = await this.#discovery.serviceUrl(p.hostname, "providers.v1");
    if (url === undefined) throw new SourceError("registry_not_known", `host ${p.hostname} does not offer a Terraform provider registry`);
    return url;
  }

  /**
   * GETs with terraform's registry client retries (`TF_REGISTRY_DISCOVERY_RETRY`, default one
   * retry) for connection failures, timeouts and 5xx answers.
   *
   * @throws StepError worded as terraform's `the request failed after N attempts, …`.
   */
  async #get(url: URL, token: string | false | undefined): Promise<{ status: number; body: Buffer; url: URL; statusText: string }> {
    const http = token === false ? withoutCredentials(this.#http) : token === undefined ? this.#http : { ...this.#http, token };
    const attempts = 1 + this.#retries;
    let last = "";
    let code: StepError["code"] = InstallErrorCode.QueryFailed;
    for (let i = 0; i < attempts; i++) {
      try {
        const r = await httpGet(url, http);
        if (r.status < 500) return r;
        last = `${r.status} ${r.statusText} returned from ${r.url.host}`;
      } catch (e) {
        last = (e as Error).message;
        code = (e as StepError).code ?? InstallErrorCode.QueryFailed;
      }
    }
    throw new StepError(code, `the request failed${attempts > 1 ? ` after ${attempts} attempts` : ""}, please try again later: ${last}`);
  }

  /**
   * The registry hostname's token (terraform's registry client asks for it by the provider's
   * hostname, wherever discovery points).
   *
   * @throws StepError `credentials`: `failed to retrieve credentials for <host>: …`.
   */
  #token(p: ProviderAddress): string | undefined {
    const c = this.#http.credentials;
    try {
      return c?.forHost !== undefined ? c.forHost(p.hostname) : c?.get(p.hostname.toLowerCase());
    } catch (e) {
      throw new StepError((e as StepError).code ?? InstallErrorCode.Credentials, `failed to retrieve credentials for ${p.hostname}: ${(e as Error).message}`, e);
    }
  }

  async #query(url: URL, p: ProviderAddress): Promise<{ status: number; body: Buffer; url: URL; statusText: string }> {
    const token = this.#token(p);
    try {
      return await this.#get(url, token ?? false);
    } catch (e) {
      throw new StepError((e as StepError).code, `could not query provider registry for ${providerAddressString(p)}: ${(e as Error).message}`, e);
    }
  }

  /** @inheritdoc */
  async availableVersions(p: ProviderAddress): Promise<{ versions: string[]; warnings: string[] }> {
    const base = await this.#base(p);
    const res = await this.#query(new URL(`${p.namespace}/${p.type}/versions`, base), p);
    if (res.status === 404) throw new SourceError("registry_not_known", `provider registry ${p.hostname} does not have a provider named ${providerAddressString(p)}`);
    if (res.status === 401 || res.status === 403) throw new StepError(InstallErrorCode.Unauthorized, `host ${p.hostname} requires authentication credentials`);
    if (res.status !== 200) throw queryFailed(p, `${res.status} ${res.statusText}`);
    const body = json(res.body, p);
    const versions = Array.isArray(body["versions"]) ? (body["versions"] as { version?: unknown }[]).map((v) => v.version).filter((v): v is string => typeof v === "string") : [];
    const warnings = Array.isArray(body["warnings"]) ? (body["warnings"] as unknown[]).filter((w): w is string => typeof w === "string") : [];
    return { versions, warnings };
  }

  /** @inheritdoc */
  async packageMeta(p: ProviderAddress, version: string, platform: string): Promise<PackageMeta> {
    void preloadOpenpgp().catch(() => undefined);
    const base = await this.#base(p);
    const [os, arch] = platform.split("_") as [string, string];
    const res = await this.#query(new URL(`${p.namespace}/${p.type}/${version}/download/${os}/${arch}`, base), p);
    if (res.status === 404) throw new SourceError("platform_not_supported", `provider ${providerAddressString(p)} ${version} is not available for ${platform}`);
    if (res.status === 401 || res.status === 403) throw new StepError(InstallErrorCode.Unauthorized, `host ${p.hostname} requires authentication credentials`);
    if (res.status !== 200) throw queryFailed(p, `${res.status} ${res.statusText}`);
    const body = json(res.body, p);
    const str = (k: string): string => (typeof body[k] === "string" ? (body[k] as string) : "");
    if (str("os") !== os || str("arch") !== arch) throw new StepError(InstallErrorCode.QueryFailed, `registry response to request for ${platform} archive has incorrect target ${str("os")}_${str("arch")}`);
    const abs = (what: string, raw: string): URL => {
      let u: URL;
      try {
        u = new URL(raw, res.url);
      } catch (e) {
        throw new StepError(InstallErrorCode.QueryFailed, `registry response includes invalid ${what}: ${(e as Error).message}`);
      }
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new StepError(InstallErrorCode.QueryFailed, `registry response includes invalid ${what}: must use http or https scheme`);
      return u;
    };
    const download = abs("download URL", str("download_url"));
    const shasum = str("shasum");
    if (!/^[0-9a-fA-F]{64}$/.test(shasum)) throw queryFailed(p, `registry response includes invalid SHA256 hash ${JSON.stringify(shasum)}`);
    const fetchDoc = async (what: string, u: URL): Promise<Buffer> => {
      let r;
      try {
        r = await this.#get(u, false);
      } catch (e) {
        throw queryFailed(p, `failed to retrieve ${what} for provider: ${(e as Error).message}`);
      }
      if (r.status !== 200) throw queryFailed(p, `failed to retrieve ${what} for provider: ${r.status} ${r.statusText} returned from ${r.url.host}`);
      return r.body;
    };
    // The checksum list and its signature are fetched at once, and the signature checked while
    // the archive downloads; the errors are still terraform's, in its order (the list's URL and
    // fetch, then the signature's, then — in authenticate — the checksums before the signature).
    const settle = <T>(p: Promise<T>): Promise<T> => {
      p.catch(() => undefined);
      return p;
    };
    const documentP = settle(fetchDoc("authentication checksums", abs("SHASUMS URL", str("shasums_url"))));
    let signatureUrl: URL;
    try {
      signatureUrl = abs("SHASUMS signature URL", str("shasums_signature_url"));
    } catch (e) {
      await documentP;
      throw e;
    }
    const signatureP = settle(fetchDoc("cryptographic signature", signatureUrl));
    const document = await documentP;
    const signature = await signatureP;
    const keyList = (body["signing_keys"] as { gpg_public_keys?: unknown } | undefined)?.gpg_public_keys;
    const keys: SigningKey[] = Array.isArray(keyList) ? (keyList as SigningKey[]).filter((k) => typeof k?.ascii_armor === "string") : [];
    const verified = settle(verifySignature(document, signature, keys));
    const filename = str("filename");
    const want = shasum.toLowerCase();
    const authenticate = async (archive: Buffer, digests?: ArchiveDigests): Promise<Authentication> => {
      // terraform's order: the checksum list names the file with the registry's hash, the archive has that hash, the list is signed.
      let listed: string | undefined;
      for (const line of document.toString("utf8").split("\n")) {
        const parts = line.trim().split(/\s+/);
        if (parts.length > 1 && parts[1] === filename) {
          listed = parts[0]!.toLowerCase();
          break;
        }
      }
      if (listed === undefined) throw new StepError(InstallErrorCode.ChecksumMismatch, `checksum list has no SHA-256 hash for ${JSON.stringify(filename)}`);
      if (listed !== want) throw new StepError(InstallErrorCode.ChecksumMismatch, `checksum list has unexpected SHA-256 hash ${listed} (expected ${want})`);
      const got = digests !== undefined ? digests.zh.slice("zh:".length) : createHash("sha256").update(archive).digest("hex");
      if (got !== want) throw new StepError(InstallErrorCode.ChecksumMismatch, `archive has incorrect checksum zh:${got} (expected zh:${want})`);
      const { result, keyId } = await verified;
      const signedHashes: string[] = [];
      for (const line of document.toString("utf8").split("\n")) {
        const parts = line.trim().split(/\s+/);
        if (parts[0] === "" || parts[0] === undefined) continue;
        if (parts.length < 2 || !/^[0-9a-fA-F]{64}$/.test(parts[0])) return { result, keyId, signedHashes: [] };
        signedHashes.push(`zh:${parts[0].toLowerCase()}`);
      }
      return { result, keyId, signedHashes };
    };
    return { provider: p, version, platform, filename, location: { kind: "http", url: download }, authenticate };
  }

  /** @inheritdoc */
  forDisplay(p: ProviderAddress): string {
    return `registry ${p.hostname}`;
  }
}
