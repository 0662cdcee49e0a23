import { createHash } from "node:crypto";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { LockRequest, StateBackend, StateStore } from "../backend.js";
import { marshalLockInfo, newLockInfo, parseLockInfo } from "../internal/lock-info-json.js";
import { StateError } from "../state-error.js";
import { TERRAFORM_VERSION } from "../state-file.js";

/**
 * The settings of Terraform's `http` backend, each falling back to its `TF_HTTP_*`
 * environment variable as Terraform's do (`address` → `TF_HTTP_ADDRESS`, …).
 */
export interface HttpBackendOptions {
  /** `address`: the state's URL (http or https). Required here or in `TF_HTTP_ADDRESS`. */
  readonly address?: string;
  /** `update_method`: the method that writes the state. Default `POST`. */
  readonly updateMethod?: string;
  /** `lock_address`: the lock's URL; without it the state is not locked. */
  readonly lockAddress?: string;
  /** `lock_method`. Default `LOCK`. */
  readonly lockMethod?: string;
  /** `unlock_address`: the unlock URL; without it unlocking does nothing. */
  readonly unlockAddress?: string;
  /** `unlock_method`. Default `UNLOCK`. */
  readonly unlockMethod?: string;
  /** `username` for HTTP basic authentication (sent when not empty). */
  readonly username?: string;
  /** `password` for HTTP basic authentication. */
  readonly password?: string;
  /** `skip_cert_verification`: accept any server certificate. Default false. */
  readonly skipCertVerification?: boolean;
  /** `retry_max`: retries of a request that failed to connect or got a 5xx (not 501) or 429. Default 2. */
  readonly retryMax?: number;
  /** `retry_wait_min`: seconds before the first retry (doubling each time). Default 1. */
  readonly retryWaitMin?: number;
  /** `retry_wait_max`: the longest wait between attempts, in seconds. Default 30. */
  readonly retryWaitMax?: number;
  /** `client_ca_certificate_pem`: the CAs that verify the server. */
  readonly clientCaCertificatePem?: string;
  /** `client_certificate_pem`: the client certificate for mutual TLS (with the key). */
  readonly clientCertificatePem?: string;
  /** `client_private_key_pem`: the key of `client_certificate_pem`. */
  readonly clientPrivateKeyPem?: string;
  /** Where the `TF_HTTP_*` variables are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The version written into lock info. Default {@link TERRAFORM_VERSION}. */
  readonly version?: string;
}

interface Resolved {
  readonly url: URL;
  readonly updateMethod: string;
  readonly lockUrl: URL | undefined;
  readonly lockMethod: string;
  readonly unlockUrl: URL | undefined;
  readonly unlockMethod: string;
  readonly username: string;
  readonly password: string;
  readonly retryMax: number;
  readonly retryWaitMin: number;
  readonly retryWaitMax: number;
  readonly tls: RequestOptions;
  readonly version: string;
}

const bad = (message: string): StateError => new StateError("invalid_argument", `http backend: ${message}`);

function parseUrl(text: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch (e) {
    throw bad(`failed to parse ${what} URL: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw bad(`${what === "address" ? "address" : what} must be HTTP or HTTPS`);
  return u;
}

function envInt(v: number | undefined, env: string | undefined, dflt: number, name: string): number {
  if (v !== undefined) {
    if (!Number.isInteger(v) || v < 0) throw bad(`invalid ${name}: must be a whole number, not ${v}`);
    return v;
  }
  if (env === undefined || env === "") return dflt;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0) throw bad(`invalid ${name}: ${JSON.stringify(env)} is not a whole number`);
  return n;
}

function resolve(o: HttpBackendOptions): Resolved {
  const env = o.env ?? process.env;
  const pick = (v: string | undefined, name: string): string | undefined => (v !== undefined ? v : env[name] !== undefined && env[name] !== "" ? env[name] : undefined);
  const address = pick(o.address, "TF_HTTP_ADDRESS") ?? "";
  if (address === "") throw bad("address argument is required");
  const url = parseUrl(address, "address");
  const lockAddress = pick(o.lockAddress, "TF_HTTP_LOCK_ADDRESS");
  const unlockAddress = pick(o.unlockAddress, "TF_HTTP_UNLOCK_ADDRESS");
  const ca = pick(o.clientCaCertificatePem, "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM") ?? "";
  const cert = pick(o.clientCertificatePem, "TF_HTTP_CLIENT_CERTIFICATE_PEM") ?? "";
  const key = pick(o.clientPrivateKeyPem, "TF_HTTP_CLIENT_PRIVATE_KEY_PEM") ?? "";
  if (cert !== "" && key === "") throw bad("client_certificate_pem is set but client_private_key_pem is not");
  if (key !== "" && cert === "") throw bad("client_private_key_pem is set but client_certificate_pem is not");
  const tls: { -readonly [K in keyof RequestOptions]: RequestOptions[K] } = {};
  if (o.skipCertVerification === true) tls.rejectUnauthorized = false;
  if (ca !== "") tls.ca = ca;
  if (cert !== "") {
    tls.cert = cert;
    tls.key = key;
  }
  return {
    url,
    updateMethod: pick(o.updateMethod, "TF_HTTP_UPDATE_METHOD") ?? "POST",
    lockUrl: lockAddress === undefined ? undefined : parseUrl(lockAddress, "lock_address"),
    lockMethod: pick(o.lockMethod, "TF_HTTP_LOCK_METHOD") ?? "LOCK",
    unlockUrl: unlockAddress === undefined ? undefined : parseUrl(unlockAddress, "unlock_address"),
    unlockMethod: pick(o.unlockMethod, "TF_HTTP_UNLOCK_METHOD") ?? "UNLOCK",
    username: pick(o.username, "TF_HTTP_USERNAME") ?? "",
    password: pick(o.password, "TF_HTTP_PASSWORD") ?? "",
    retryMax: envInt(o.retryMax, env["TF_HTTP_RETRY_MAX"], 2, "retry_max"),
    retryWaitMin: envInt(o.retryWaitMin, env["TF_HTTP_RETRY_WAIT_MIN"], 1, "retry_wait_min"),
    retryWaitMax: envInt(o.retryWaitMax, env["TF_HTTP_RETRY_WAIT_MAX"], 30, "retry_wait_max"),
    tls,
    version: o.version ?? TERRAFORM_VERSION,
  };
}

interface Response {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly body: Uint8Array;
}

/** The URL as go-retryablehttp prints it: a password in it replaced by `xxxxx`. */
function redact(u: URL): string {
  if (u.password === "") return u.href;
  const c = new URL(u.href);
  c.password = "xxxxx";
  return c.href;
}

/** One HTTP exchange; rejects on a transport failure (no response). */
function once(r: Resolved, method: string, url: URL, body: Uint8Array | undefined): Promise<Response> {
  return new Promise((resolvePromise, reject) => {
    const headers: Record<string, string> = {};
    if (r.username !== "") headers["Authorization"] = `Basic ${Buffer.from(`${r.username}:${r.password}`).toString("base64")}`;
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(body.byteLength);
      headers["Content-MD5"] = createHash("md5").update(body).digest("base64");
    }
    const options: RequestOptions = { method, headers, ...(url.protocol === "https:" ? r.tls : {}) };
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: new Uint8Array(Buffer.concat(chunks)) }));
    });
    req.on("error", reject);
    req.setTimeout(60_000, () => req.destroy(new Error("timeout awaiting response")));
    req.end(body === undefined ? undefined : Buffer.from(body));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether go-retryablehttp's default policy retries this status (429, 5xx but 501, or 0). */
function retryableStatus(s: number): boolean {
  return s === 429 || s === 0 || (s >= 500 && s !== 501);
}

/**
 * A request with go-retryablehttp's retries as Terraform's http backend makes it: transport
 * failures and retryable statuses are tried again `retry_max` times, waiting
 * `retry_wait_min · 2^n` seconds (at most `retry_wait_max`; a 429/503 `Retry-After` is
 * honoured). Exhausted retries fail as Terraform words it: `Failed to <what>: <METHOD> <url>
 * giving up after N attempt(s)[: cause]`.
 */
async function send(r: Resolved, method: string, url: URL, body: Uint8Array | undefined, what: string): Promise<Response> {
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    let res: Response | undefined;
    try {
      res = await once(r, method, url, body);
      lastError = undefined;
      if (!retryableStatus(res.status)) return res;
    } catch (e) {
      lastError = e;
    }
    if (attempt >= r.retryMax) {
      const cause = lastError === undefined ? "" : `: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
      throw new StateError("io", `Failed to ${what}: ${method} ${redact(url)} giving up after ${attempt + 1} attempt(s)${cause}`, lastError === undefined ? {} : { cause: lastError });
    }
    let wait = Math.min(r.retryWaitMin * 1000 * 2 ** attempt, r.retryWaitMax * 1000);
    const after = res?.headers["retry-after"];
    if ((res?.status === 429 || res?.status === 503) && typeof after === "string" && /^\d+$/.test(after)) wait = Number(after) * 1000;
    await sleep(wait);
  }
}

function decode(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8");
}

/** The state of the http backend's one workspace. */
class HttpStateStore implements StateStore {
  readonly workspace = "default";
  readonly #r: Resolved;
  #lockId = "";
  #lockJson: Uint8Array = new Uint8Array(0);

  constructor(r: Resolved) {
    this.#r = r;
  }

  /**
   * GETs the state: 200 with a body is the state; 204, 404 and an empty body mean none.
   *
   * @throws StateError `io` for 401 ("requires auth"), 403 ("invalid auth"), other statuses and exhausted retries.
   */
  async read(): Promise<Uint8Array | undefined> {
    const res = await send(this.#r, "GET", this.#r.url, undefined, "get state");
    switch (res.status) {
      case 200:
        break;
      case 204:
      case 404:
        return undefined;
      case 401:
        throw new StateError("io", "HTTP remote state endpoint requires auth");
      case 403:
        throw new StateError("io", "HTTP remote state endpoint invalid auth");
      case 500:
        throw new StateError("io", "HTTP remote state internal server error");
      default:
        throw new StateError("io", `Unexpected HTTP response code ${res.status}`);
    }
    return res.body.byteLength === 0 ? undefined : res.body;
  }

  /**
   * Sends the state with `update_method` (`?ID=<lock id>` added while this store holds a lock).
   *
   * @throws StateError `io` ("HTTP error: <status>") unless the server answers 200, 201 or 204.
   */
  async write(bytes: Uint8Array): Promise<void> {
    const url = new URL(this.#r.url.href);
    if (this.#lockId !== "") url.searchParams.set("ID", this.#lockId);
    const res = await send(this.#r, this.#r.updateMethod, url, bytes, "upload state");
    if (res.status !== 200 && res.status !== 201 && res.status !== 204) throw new StateError("io", `HTTP error: ${res.status}`);
  }

  /**
   * Sends the lock info to `lock_address` with `lock_method`; without a lock address the
   * state is not locked (the id is "").
   *
   * @throws StateError `locked` (the holder's info from a 409 or 423 body in `detail`), `io` otherwise.
   */
  async lock(request: LockRequest): Promise<string> {
    const url = this.#r.lockUrl;
    if (url === undefined) return "";
    this.#lockId = "";
    const info = newLockInfo(request, this.#r.version, "");
    const json = new TextEncoder().encode(marshalLockInfo(info));
    const res = await send(this.#r, this.#r.lockMethod, url, json, "lock");
    switch (res.status) {
      case 200:
        this.#lockId = info.id;
        this.#lockJson = json;
        return info.id;
      case 401:
        throw new StateError("io", "HTTP remote state endpoint requires auth");
      case 403:
        throw new StateError("io", "HTTP remote state endpoint invalid auth");
      case 409:
      case 423: {
        const holder = parseLockInfo(decode(res.body));
        if (holder === undefined) throw new StateError("locked", "HTTP remote state already locked, failed to unmarshal body");
        throw new StateError("locked", `HTTP remote state already locked: ID=${holder.id}`, { detail: holder });
      }
      default:
        throw new StateError("io", `Unexpected HTTP response code ${res.status}`);
    }
  }

  /**
   * Sends the held lock's info to `unlock_address` with `unlock_method` (nothing without an
   * unlock address).
   *
   * @throws StateError `io` unless the server answers 200.
   */
  async unlock(_id: string): Promise<void> {
    const url = this.#r.unlockUrl;
    if (url === undefined) return;
    const res = await send(this.#r, this.#r.unlockMethod, url, this.#lockJson, "unlock");
    if (res.status !== 200) throw new StateError("io", `Unexpected HTTP response code ${res.status}`);
    this.#lockId = "";
    this.#lockJson = new Uint8Array(0);
  }

  /** Terraform's force-unlock over http: the unlock request with an empty body (the server decides). */
  async forceUnlock(_id: string): Promise<void> {
    const url = this.#r.unlockUrl;
    if (url === undefined) return;
    const res = await send(this.#r, this.#r.unlockMethod, url, new Uint8Array(0), "unlock");
    if (res.status !== 200) throw new StateError("io", `Unexpected HTTP response code ${res.status}`);
  }
}

/** A store that refuses everything: the http backend has no workspaces but `default`. */
function noWorkspaces(): never {
  throw new StateError("invalid_argument", "workspaces not supported");
}

/** The http backend: one state (workspace `default`) behind a REST endpoint. */
export interface HttpBackend extends StateBackend {
  /** Always `"http"`. */
  readonly kind: "http";
}

/**
 * Terraform's `http` backend: the state at `address` (GET to read, `update_method` to write), locked with `lock_method`/`unlock_method` requests carrying Terraform's
 * lock info JSON, HTTP basic auth, TLS options and go-retryablehttp's retries, so that
 * terraform and magma share one server. Only the `default` workspace exists: others fail with
 * `invalid_argument` "workspaces not supported", as in Terraform.
 *
 * @throws StateError `invalid_argument` for a missing or non-HTTP address, a bad lock or
 *   unlock address, a client certificate without its key (or the reverse), a bad retry setting.
 */
export function createHttpBackend(options: HttpBackendOptions = {}): HttpBackend {
  const r = resolve(options);
  const store = new HttpStateStore(r);
  return {
    kind: "http",
    listWorkspaces: () => Promise.resolve(["default"]),
    deleteWorkspace: () => Promise.reject(new StateError("invalid_argument", "workspaces not supported")),
    store(workspace: string): StateStore {
      if (workspace !== "default") noWorkspaces();
      return store;
    },
  };
}
