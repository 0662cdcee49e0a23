import { httpGet, withoutCredentials, type HttpResponse, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";
import { compareVersions } from "./provider-source.js";
import type { ServiceDiscovery } from "./service-discovery.js";

/** The module registry protocol (`modules.v1`): a module's versions and a version's package address. */
export class ModuleRegistryClient {
  readonly #discovery: ServiceDiscovery;
  readonly #http: HttpOptions;
  readonly #retries: number;

  /** A client over the registries `discovery` finds; `retries` failed requests are retried (default 1, terraform's `TF_REGISTRY_DISCOVERY_RETRY`). */
  constructor(discovery: ServiceDiscovery, http: HttpOptions, retries = 1) {
    this.#discovery = discovery;
    this.#http = http;
    this.#retries = retries;
  }

  /**
   * GETs as terraform's registry client: with the registry hostname's token (wherever a
   * `host` block points it; a failing credentials helper is ignored), retrying connection
   * failures and 5xx answers other than 501.
   *
   * @throws StepError worded as terraform's `the request failed after N attempts, please try again later: …`.
   */
  async #get(url: URL, hostname: string): Promise<HttpResponse> {
    const token = this.#http.credentials?.get(hostname.toLowerCase());
    const http = token === undefined ? withoutCredentials(this.#http) : { ...this.#http, token };
    const attempts = 1 + this.#retries;
    let last = "";
    let code: StepError["code"] = InstallErrorCode.QueryFailed;
    for (let i = 0; i < attempts; i++) {
      try {
        const r = await httpGet(url, http);
        if (r.status < 500 || r.status === 501) return r;
        last = `${r.status} ${r.statusText} returned from ${r.url.href}`;
      } catch (e) {
        last = (e as Error).message;
        code = (e as StepError).code ?? InstallErrorCode.QueryFailed;
      }
    }
    throw new StepError(code, `the request failed${attempts > 1 ? ` after ${attempts} attempts` : ""}, please try again later: ${last}`);
  }

  async #base(hostname: string): Promise<URL> {
    const u = await this.#discovery.serviceUrl(hostname, "modules.v1");
    if (u === undefined) throw new StepError(InstallErrorCode.NotFound, `host ${hostname} does not provide a module registry`);
    return u;
  }

  /**
   * The module's versions, newest first.
   *
   * @throws StepError `not_found` for a 404, `query_failed` otherwise.
   */
  async versions(hostname: string, namespace: string, name: string, provider: string): Promise<string[]> {
    const url = new URL(`${namespace}/${name}/${provider}/versions`, await this.#base(hostname));
    const res = await this.#get(url, hostname);
    if (res.status === 404) throw new StepError(InstallErrorCode.NotFound, "module not found");
    if (res.status !== 200) throw new StepError(InstallErrorCode.QueryFailed, `error looking up module versions: ${res.status} ${res.statusText}`);
    const doc = JSON.parse(res.body.toString("utf8")) as { modules?: { versions?: { version?: unknown }[] }[] };
    const out = (doc.modules?.[0]?.versions ?? []).map((v) => v.version).filter((v): v is string => typeof v === "string");
    return out.sort(compareVersions).reverse();
  }

  /**
   * The package address of a version (its `X-Terraform-Get`, resolved against the request).
   *
   * @throws StepError `query_failed`.
   */
  async location(hostname: string, namespace: string, name: string, provider: string, version: string): Promise<string> {
    const url = new URL(`${namespace}/${name}/${provider}/${version}/download`, await this.#base(hostname));
    const res = await this.#get(url, hostname);
    if (res.status !== 200 && res.status !== 204) throw new StepError(InstallErrorCode.QueryFailed, `error getting download location for ${JSON.stringify(`${namespace}/${name}/${provider}`)}: ${res.status} ${res.statusText} resp:${res.body.toString("utf8")}`);
    const loc = res.headers["x-terraform-get"];
    if (typeof loc !== "string" || loc === "") throw new StepError(InstallErrorCode.QueryFailed, `failed to get download URL for ${JSON.stringify(`${namespace}/${name}/${provider}`)}: ${res.status} ${res.statusText} resp:${res.body.toString("utf8")}`);
    return /^[a-z0-9]+::/.test(loc) || /^[a-z]+:\/\//.test(loc) ? loc : new URL(loc, res.url).href;
  }
}
