import { httpGet, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";

/**
 * Terraform's remote service discovery: which URL serves a service (`providers.v1`,
 * `modules.v1`) on a host. A CLI configuration `host` block answers for its host without a
 * request; otherwise `https://<host>/.well-known/terraform.json` is read once per host.
 */
export class ServiceDiscovery {
  readonly #hosts: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly #http: HttpOptions;
  readonly #cache = new Map<string, Promise<{ base: URL; services: Readonly<Record<string, unknown>> }>>();

  /** `hosts` are the CLI configuration's `host` blocks (hostname → service → definition). */
  constructor(hosts: ReadonlyMap<string, Readonly<Record<string, unknown>>>, http: HttpOptions) {
    this.#hosts = hosts;
    this.#http = http;
  }

  #discover(hostname: string): Promise<{ base: URL; services: Readonly<Record<string, unknown>> }> {
    const host = hostname.toLowerCase();
    let p = this.#cache.get(host);
    if (p === undefined) {
      const given = this.#hosts.get(host);
      p =
        given !== undefined
          ? Promise.resolve({ base: new URL(`https://${host}/`), services: given })
          : (async () => {
              const url = new URL(`https://${host}/.well-known/terraform.json`);
              const res = await httpGet(url, this.#http);
              if (res.status === 404) return { base: url, services: {} };
              if (res.status !== 200) throw new StepError(InstallErrorCode.QueryFailed, `failed to request discovery document: ${res.status} ${res.statusText}`);
              let doc: unknown;
              try {
                doc = JSON.parse(res.body.toString("utf8"));
              } catch (e) {
                throw new StepError(InstallErrorCode.QueryFailed, `failed to decode discovery document as a JSON object: ${(e as Error).message}`);
              }
              if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new StepError(InstallErrorCode.QueryFailed, "failed to decode discovery document as a JSON object");
              return { base: res.url, services: doc as Record<string, unknown> };
            })();
      this.#cache.set(host, p);
    }
    return p;
  }

  /**
   * The URL of `service` on `hostname` (ending in `/`), or `undefined` when the host does
   * not offer it.
   *
   * @throws StepError `query_failed`/`download`/`timeout` when the host cannot be reached:
   *   `could not connect to <host>: …` as terraform words it.
   */
  /**
   * Everything `hostname` offers: its services by id (a URL string, or an object such as
   * `login.v1`'s) and the URL relative service URLs resolve against (the discovery document's,
   * or `https://<host>/` for a `host` block).
   *
   * @throws StepError `query_failed`/`download`/`timeout` when the discovery document cannot
   *   be read: `failed to request discovery document: …` as terraform's words.
   */
  async services(hostname: string): Promise<{ readonly base: URL; readonly services: Readonly<Record<string, unknown>> }> {
    return this.#discover(hostname);
  }

  async serviceUrl(hostname: string, service: string): Promise<URL | undefined> {
    let found;
    try {
      found = await this.#discover(hostname);
    } catch (e) {
      const err = e as StepError;
      throw new StepError(err.code ?? InstallErrorCode.QueryFailed, `could not connect to ${hostname}: ${err.message}`, e);
    }
    const raw = found.services[service];
    if (typeof raw !== "string") return undefined;
    const url = new URL(raw, found.base);
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    return url;
  }
}
