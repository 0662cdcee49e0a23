import { createWriteStream, readFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { rootCertificates } from "node:tls";
import { InstallErrorCode, StepError } from "./install-error.js";

/** How installation talks HTTP. */
export interface HttpOptions {
  /** Extra trusted CA certificates (PEM), added to node's roots. */
  readonly ca?: readonly string[];
  /** How long a request may wait for a response or for more of its body, in ms (default 10 000, terraform's). */
  readonly timeoutMs?: number;
  /** Tokens by hostname (`credentials` blocks, `TF_TOKEN_*`): sent as `Authorization: Bearer`. */
  readonly credentials?: ReadonlyMap<string, string>;
  /** The `User-Agent` and `X-Terraform-Version` to send. */
  readonly terraformVersion?: string;
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

/** The CA list for `https` requests: node's roots plus `ca`, plus `SSL_CERT_FILE` when set (what terraform trusts). */
export function trustedCas(ca: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string[] | undefined {
  const extra = [...(ca ?? [])];
  const file = env["SSL_CERT_FILE"];
  if (file !== undefined && file !== "") {
    try {
      extra.push(readFileSync(file, "utf8"));
    } catch {
      // terraform ignores an unreadable SSL_CERT_FILE too (the system roots remain)
    }
  }
  return extra.length === 0 ? undefined : [...rootCertificates, ...extra];
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
export function openGet(url: URL, options: HttpOptions, signal?: AbortSignal): Promise<{ res: IncomingMessage; url: URL }> {
  const ca = trustedCas(options.ca);
  const timeout = options.timeoutMs ?? 10_000;
  const go = (u: URL, hops: number): Promise<{ res: IncomingMessage; url: URL }> =>
    new Promise((resolve, reject) => {
      if (u.protocol !== "https:" && u.protocol !== "http:") {
        reject(new StepError(InstallErrorCode.Download, `Get ${JSON.stringify(u.href)}: unsupported protocol scheme ${JSON.stringify(u.protocol.replace(/:$/, ""))}`));
        return;
      }
      const headers: Record<string, string> = { "User-Agent": `magma (Terraform/${options.terraformVersion ?? "1.11.4"})`, "X-Terraform-Version": options.terraformVersion ?? "1.11.4" };
      const token = options.credentials?.get(u.hostname.toLowerCase()) ?? options.credentials?.get(u.host.toLowerCase());
      if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
      const req = (u.protocol === "https:" ? httpsRequest : httpRequest)(u, { method: "GET", headers, ...(ca === undefined ? {} : { ca }), ...(signal === undefined ? {} : { signal }) });
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
            reject(new StepError(InstallErrorCode.Download, `Get ${JSON.stringify(next.href)}: stopped after ${MAX_REDIRECTS} redirects`));
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

/** Reads a body to its end, failing when it stalls for longer than the timeout or ends short of its `Content-Length`. */
function pipeBody(res: IncomingMessage, url: URL, timeoutMs: number, sink: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const want = res.headers["content-length"] === undefined ? undefined : Number(res.headers["content-length"]);
    let got = 0;
    let timer = setTimeout(() => res.destroy(new StepError(InstallErrorCode.Timeout, `reading ${url.href}: context deadline exceeded (Client.Timeout or context cancellation while reading body)`)), timeoutMs);
    res.on("data", (c: Buffer) => {
      got += c.length;
      clearTimeout(timer);
      timer = setTimeout(() => res.destroy(new StepError(InstallErrorCode.Timeout, `reading ${url.href}: context deadline exceeded (Client.Timeout or context cancellation while reading body)`)), timeoutMs);
      sink(c);
    });
    res.once("error", (e) => {
      clearTimeout(timer);
      reject(e instanceof StepError ? e : new StepError(InstallErrorCode.Download, "unexpected EOF", e));
    });
    res.once("aborted", () => {
      clearTimeout(timer);
      reject(new StepError(InstallErrorCode.Download, "unexpected EOF"));
    });
    res.once("end", () => {
      clearTimeout(timer);
      if (want !== undefined && Number.isFinite(want) && got < want) reject(new StepError(InstallErrorCode.Download, "unexpected EOF"));
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
 * Downloads `url` into the file `dest` as go-getter does for provider packages: a status
 * other than 200 is `bad response code: N`, a body shorter than its `Content-Length` is
 * `unexpected EOF`. `onProgress` gets (bytes so far, total or undefined).
 *
 * @throws StepError `download` or `timeout`.
 */
export async function httpDownload(url: URL, dest: string, options: HttpOptions, onProgress?: (done: number, total: number | undefined) => void, signal?: AbortSignal): Promise<void> {
  const { res, url: final } = await openGet(url, options, signal);
  if (res.statusCode !== 200) {
    res.resume();
    throw new StepError(InstallErrorCode.Download, `bad response code: ${String(res.statusCode)}`);
  }
  const total = res.headers["content-length"] === undefined ? undefined : Number(res.headers["content-length"]);
  const out = createWriteStream(dest);
  let done = 0;
  try {
    await pipeBody(res, final, options.timeoutMs ?? 10_000, (c) => {
      out.write(c);
      done += c.length;
      onProgress?.(done, total);
    });
  } finally {
    await new Promise<void>((r) => out.end(r));
  }
}
