import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Agent as HttpAgent } from "node:http";
import { rootCertificates } from "node:tls";
import { InstallErrorCode, StepError } from "./install-error.js";

/** Tokens by hostname: a `Map`, or a credentials source such as `HostCredentials`. */
export interface CredentialsLookup {
  /** The token for a (lower-case) hostname, or `undefined`; never throws. */
  get(host: string): string | undefined;
  /**
   * The token for a hostname where a failing credentials helper is an error (terraform's
   * provider registry client).
   *
   * @throws StepError `credentials`.
   */
  forHost?(host: string): string | undefined;
}

/** How installation talks HTTP. */
export interface HttpOptions {
  /** Extra trusted CA certificates (PEM), added to node's roots. */
  readonly ca?: readonly string[];
  /** How long a request may wait for a response or for more of its body, in ms (default 10 000, terraform's). */
  readonly timeoutMs?: number;
  /** Tokens by hostname (`credentials` blocks, `TF_TOKEN_*`, a helper): sent as `Authorization: Bearer`. */
  readonly credentials?: CredentialsLookup;
  /**
   * A token to send on the first request instead of the URL host's (terraform's registry
   * client sends the registry hostname's token wherever a `host` block points it).
   */
  readonly token?: string;
  /** The `User-Agent` and `X-Terraform-Version` to send. */
  readonly terraformVersion?: string;
}

/** `options` sending no token: terraform fetches provider packages and their checksum lists with a plain client. */
export function withoutCredentials(options: HttpOptions): HttpOptions {
  const { credentials: _credentials, token: _token, ...rest } = options;
  return rest;
}

/** A whole response. */
export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Buffer;
  /** The URL that answered, after redirects. */
  readonly url: URL;
}

const MAX_REDIRECTS = 10;

/**
 * The CA list for `https` requests, as terraform's: `SSL_CERT_FILE`, when set, replaces the
 * system roots (Go's rule); `ca` is added to whichever roots apply. `undefined`: node's roots.
 */
export function trustedCas(ca: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string[] | undefined {
  const file = env["SSL_CERT_FILE"];
  if (file !== undefined && file !== "") {
    try {
      return [readFileSync(file, "utf8"), ...(ca ?? [])];
    } catch {
      // an unreadable file: Go falls back to the system roots
    }
  }
  return ca === undefined || ca.length === 0 ? undefined : [...rootCertificates, ...ca];
}

/** One keep-alive agent per trusted-CA list: a TLS context is built once and connections are reused across requests. */
const agents = new Map<string, HttpsAgent>();
const httpAgent = new HttpAgent({ keepAlive: true });

function httpsAgent(ca: string[] | undefined): HttpsAgent {
  const key = ca === undefined ? "" : ca.join("\n");
  let a = agents.get(key);
  if (a === undefined) {
    a = new HttpsAgent({ keepAlive: true, maxSockets: 8, ...(ca === undefined ? {} : { ca }) });
    agents.set(key, a);
  }
  return a;
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === "ECONNREFUSED") return `dial tcp ${String((err as { address?: string }).address ?? "")}:${String((err as { port?: number }).port ?? "")}: connect: connection refused`;
  return err.message;
}

/**
 * Opens a GET request, following up to 10 redirects (as Go's HTTP client does), with a
 * timeout for the response headers.
 *
 * @throws StepError `download` (connection, redirect loop), `timeout`.
 */
export function openGet(url: URL, options: HttpOptions, signal?: AbortSignal, extraHeaders: Readonly<Record<string, string>> = {}): Promise<{ res: IncomingMessage; url: URL }> {
  const ca = trustedCas(options.ca);
  const timeout = options.timeoutMs ?? 10_000;
  const go = (u: URL, hops: number): Promise<{ res: IncomingMessage; url: URL }> =>
    new Promise((resolve, reject) => {
      if (u.protocol !== "https:" && u.protocol !== "http:") {
        reject(new StepError(InstallErrorCode.Download, `Get ${JSON.stringify(u.href)}: unsupported protocol scheme ${JSON.stringify(u.protocol.replace(/:$/, ""))}`));
        return;
      }
      const headers: Record<string, string> = { "User-Agent": `magma (Terraform/${options.terraformVersion ?? "1.11.4"})`, "X-Terraform-Version": options.terraformVersion ?? "1.11.4", ...extraHeaders };
      const token = hops === 0 && options.token !== undefined ? options.token : (options.credentials?.get(u.hostname.toLowerCase()) ?? options.credentials?.get(u.host.toLowerCase()));
      if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
      const req =
        u.protocol === "https:"
          ? httpsRequest(u, { method: "GET", headers, agent: httpsAgent(ca), ...(signal === undefined ? {} : { signal }) })
          : httpRequest(u, { method: "GET", headers, agent: httpAgent, ...(signal === undefined ? {} : { signal }) });
      const timer = setTimeout(() => req.destroy(new StepError(InstallErrorCode.Timeout, `Get ${JSON.stringify(u.href)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)), timeout);
      req.once("error", (e) => {
        clearTimeout(timer);
        reject(e instanceof StepError ? e : new StepError(InstallErrorCode.Download, `Get ${JSON.stringify(u.href)}: ${describe(e)}`, e));
      });
      req.once("response", (res) => {
        clearTimeout(timer);
        const loc = res.headers.location;
        if (res.statusCode !== undefined && [301, 302, 303, 307, 308].includes(res.statusCode) && loc !== undefined) {
          res.resume();
          const next = new URL(loc, u);
          if (hops >= MAX_REDIRECTS) {
            // Go names the redirect as the Location header gave it
            reject(new StepError(InstallErrorCode.Download, `Get ${JSON.stringify(loc)}: stopped after ${MAX_REDIRECTS} redirects`));
            return;
          }
          go(next, hops + 1).then(resolve, reject);
          return;
        }
        resolve({ res, url: u });
      });
      req.end();
    });
  return go(url, 0);
}

/** Errors of a body cut short (the connection closed or reset before its end): a download may resume after them. */
const cutShort = new WeakSet<Error>();

function eof(cause?: unknown): StepError {
  const e = new StepError(InstallErrorCode.Download, "unexpected EOF", cause);
  cutShort.add(e);
  return e;
}

/** Reads a body to its end, failing when it stalls for longer than the timeout or ends short of its `Content-Length`. */
function pipeBody(res: IncomingMessage, url: URL, timeoutMs: number, sink: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const want = res.headers["content-length"] === undefined ? undefined : Number(res.headers["content-length"]);
    let got = 0;
    const timer = setTimeout(() => res.destroy(new StepError(InstallErrorCode.Timeout, `reading ${url.href}: context deadline exceeded (Client.Timeout or context cancellation while reading body)`)), timeoutMs);
    res.on("data", (c: Buffer) => {
      got += c.length;
      // the stall timeout starts again (re-armed in place: no new timer per piece)
      timer.refresh();
      sink(c);
    });
    res.once("error", (e) => {
      clearTimeout(timer);
      reject(e instanceof StepError ? e : eof(e));
    });
    res.once("aborted", () => {
      clearTimeout(timer);
      reject(eof());
    });
    res.once("end", () => {
      clearTimeout(timer);
      if (want !== undefined && Number.isFinite(want) && got < want) reject(eof());
      else resolve();
    });
  });
}

/**
 * GETs a whole (small) document: registry and mirror JSON, `SHA256SUMS`, signatures.
 *
 * @throws StepError `download` or `timeout`; any status is returned, not thrown.
 */
export async function httpGet(url: URL, options: HttpOptions, signal?: AbortSignal): Promise<HttpResponse> {
  const { res, url: final } = await openGet(url, options, signal);
  const chunks: Buffer[] = [];
  await pipeBody(res, final, options.timeoutMs ?? 10_000, (c) => chunks.push(c));
  return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers, body: Buffer.concat(chunks), url: final };
}

/**
 * Downloads a package as go-getter does for provider packages: a status other than 200 is
 * `bad response code: N`, a body shorter than its `Content-Length` is `unexpected EOF`.
 * `onProgress` gets (bytes so far, total or undefined).
 *
 * @returns the whole body (packages are checked and unpacked from memory).
 * @throws StepError `download` or `timeout`.
 */
export async function httpDownloadBuffer(url: URL, options: HttpOptions, onProgress?: (done: number, total: number | undefined) => void, signal?: AbortSignal): Promise<Buffer> {
  const { res, url: final } = await openGet(url, options, signal);
  if (res.statusCode !== 200) {
    res.resume();
    throw new StepError(InstallErrorCode.Download, `bad response code: ${String(res.statusCode)}`);
  }
  const total = res.headers["content-length"] === undefined ? undefined : Number(res.headers["content-length"]);
  const chunks: Buffer[] = [];
  let done = 0;
  await pipeBody(res, final, options.timeoutMs ?? 10_000, (c) => {
    chunks.push(c);
    done += c.length;
    onProgress?.(done, total);
  });
  return Buffer.concat(chunks, done);
}

/**
 * {@link httpDownloadBuffer} into the file `dest`.
 *
 * @throws StepError `download` or `timeout`.
 */
export async function httpDownload(url: URL, dest: string, options: HttpOptions, onProgress?: (done: number, total: number | undefined) => void, signal?: AbortSignal): Promise<void> {
  writeFileSync(dest, await httpDownloadBuffer(url, options, onProgress, signal));
}

/** A package archive as {@link downloadArchive} received it. */
export interface DownloadedArchive {
  /** The whole archive. */
  readonly data: Buffer;
  /** Its SHA-256 (hex), computed as the bytes arrived. */
  readonly sha256: string;
  /** How many times the download continued after its connection was cut. */
  readonly resumed: number;
}

/** How many times a download continues after its connection was cut before it fails as terraform's does (`unexpected EOF`). */
const MAX_RESUMES = 5;

/**
 * Downloads a package archive into memory, hashing it (SHA-256) as it arrives, with
 * {@link httpDownloadBuffer}'s errors. A body cut short (the connection closed or reset
 * before its `Content-Length`) after some bytes arrived continues from there with an HTTP
 * `Range` request (`If-Range` naming the first response's `ETag` or `Last-Modified`): a
 * `206` answer whose `Content-Range` starts there is appended, a `200` answer starts the
 * archive again; at most 5 times, then the cut is the error. A stalled body (the timeout)
 * is not resumed. The result is only bytes: the caller checks them (checksums, signature)
 * before use, a resumed archive like any other.
 *
 * @throws StepError `download` or `timeout`.
 */
export async function downloadArchive(url: URL, options: HttpOptions, onProgress?: (done: number, total: number | undefined) => void, signal?: AbortSignal): Promise<DownloadedArchive> {
  let hash = createHash("sha256");
  let buf: Buffer | undefined;
  let chunks: Buffer[] = [];
  let got = 0;
  let total: number | undefined;
  let validator: string | undefined;
  let resumed = 0;
  const restart = (res: IncomingMessage): void => {
    hash = createHash("sha256");
    got = 0;
    chunks = [];
    const length = res.headers["content-length"] === undefined ? NaN : Number(res.headers["content-length"]);
    total = Number.isSafeInteger(length) && length >= 0 ? length : undefined;
    buf = total !== undefined && total <= 1 << 30 ? Buffer.allocUnsafe(total) : undefined;
    const v = res.headers.etag ?? res.headers["last-modified"];
    validator = typeof v === "string" && v !== "" ? v : undefined;
  };
  for (;;) {
    const ranged = got > 0;
    const { res, url: final } = await openGet(url, options, signal, ranged ? { Range: `bytes=${got}-`, ...(validator !== undefined ? { "If-Range": validator } : {}) } : {});
    if (res.statusCode === 206 && ranged) {
      // only the rest, from where it stopped, of the same length
      const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(String(res.headers["content-range"] ?? ""));
      if (m === null || Number(m[1]) !== got || (total !== undefined && m[3] !== "*" && Number(m[3]) !== total)) {
        res.resume();
        throw new StepError(InstallErrorCode.Download, `bad response code: 206 (Content-Range ${JSON.stringify(res.headers["content-range"] ?? "")} does not continue at byte ${got})`);
      }
    } else if (res.statusCode === 200) restart(res);
    else {
      res.resume();
      throw new StepError(InstallErrorCode.Download, `bad response code: ${String(res.statusCode)}`);
    }
    const before = got;
    try {
      await pipeBody(res, final, options.timeoutMs ?? 10_000, (c) => {
        if (buf !== undefined && got + c.length <= buf.length) c.copy(buf, got);
        else {
          if (buf !== undefined) {
            // longer than announced: keep what came (pipeBody checks only for short bodies)
            chunks.push(buf.subarray(0, got));
            buf = undefined;
          }
          chunks.push(c);
        }
        hash.update(c);
        got += c.length;
        onProgress?.(got, total);
      });
    } catch (e) {
      if (!(e instanceof Error && cutShort.has(e)) || got === before || resumed >= MAX_RESUMES || signal?.aborted === true) throw e;
      resumed++;
      continue;
    }
    const data = buf !== undefined ? buf.subarray(0, got) : Buffer.concat(chunks, got);
    return { data, sha256: hash.digest("hex"), resumed };
  }
}
