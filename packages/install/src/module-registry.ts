import { httpGet, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";
import { compareVersions } from "./provider-source.js";
import type { ServiceDiscovery } from "./service-discovery.js";

/** The module registry protocol (`modules.v1`): a module's versions and a version's package address. */
export class ModuleRegistryClient {
  readonly #discovery: ServiceDiscovery;
  readonly #http: HttpOptions;

  /** A client over the registries `discovery` finds. */
  constructor(discovery: ServiceDiscovery, http: HttpOptions) {
    this.#discovery = discovery;
    this.#http = http;
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
    const res = await httpGet(url, this.#http);
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
    const res = await httpGet(url, this.#http);
    if (res.status !== 200 && res.status !== 204) throw new StepError(InstallErrorCode.QueryFailed, `error getting download location for ${JSON.stringify(`${namespace}/${name}/${provider}`)}: ${res.status} ${res.statusText} resp:${res.body.toString("utf8")}`);
    const loc = res.headers["x-terraform-get"];
    if (typeof loc !== "string" || loc === "") throw new StepError(InstallErrorCode.QueryFailed, `failed to get download URL for ${JSON.stringify(`${namespace}/${name}/${provider}`)}: ${res.status} ${res.statusText} resp:${res.body.toString("utf8")}`);
    return /^[a-z0-9]+::/.test(loc) || /^[a-z]+:\/\//.test(loc) ? loc : new URL(loc, res.url).href;
  }
}
