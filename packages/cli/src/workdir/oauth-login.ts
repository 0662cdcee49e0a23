import { createHash, randomInt, randomUUID } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { trustedCas } from "@magma/install";
import { CliError, CliErrorCode } from "../cli-error.js";

// The OAuth 2.0 authorization-code login of `terraform login` (RFC 6749 with PKCE, RFC 7636),
// against a host's `login.v1` service: a temporary callback server on localhost, the
// authorization URL for the user's browser, then the code exchanged for a token.

/** A host's `login.v1` service, as terraform-svchost's `OAuthClient` reads it. */
export interface OAuthClient {
  /** The OAuth client id (`client`). */
  readonly id: string;
  /** The grant types the host allows (`grant_types`, default `authz_code`). */
  readonly grantTypes: ReadonlySet<string>;
  /** The authorization endpoint (`authz`). */
  readonly authorizationUrl: URL | undefined;
  /** The token endpoint (`token`). */
  readonly tokenUrl: URL | undefined;
  /** The ports the callback server may listen on (`ports`, default 1024–65535). */
  readonly minPort: number;
  /** See {@link minPort}. */
  readonly maxPort: number;
  /** The scopes to request (`scopes`). */
  readonly scopes: readonly string[];
}

function resolveServiceUrl(raw: string, base: URL): URL {
  const u = new URL(raw, base);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(`unsupported scheme ${u.protocol.replace(/:$/, "")}`);
  if (u.username !== "" || u.password !== "") throw new Error("embedded username/password information is not permitted");
  u.hash = "";
  return u;
}

/**
 * Reads a `login.v1` service definition as terraform-svchost does, with its error texts.
 *
 * @throws Error for a definition terraform refuses.
 */
export function parseOAuthClient(id: string, def: unknown, base: URL): OAuthClient {
  if (def === null || typeof def !== "object" || Array.isArray(def)) throw new Error(`Service ${id} must be declared with an object value in the service discovery document`);
  const raw = def as Record<string, unknown>;
  let grantTypes = new Set(["authz_code"]);
  if ("grant_types" in raw) {
    if (!Array.isArray(raw["grant_types"])) throw new Error(`Service ${id} is defined with invalid grant_types property: must be an array of grant type strings`);
    grantTypes = new Set((raw["grant_types"] as unknown[]).filter((g): g is string => typeof g === "string"));
  }
  if (typeof raw["client"] !== "string") throw new Error(`Service ${id} definition is missing required property "client"`);
  const urlOf = (key: "authz" | "token", what: string, required: boolean): URL | undefined => {
    const v = raw[key];
    if (typeof v === "string") {
      try {
        return resolveServiceUrl(v, base);
      } catch (e) {
        throw new Error(`Failed to parse ${what} URL: ${(e as Error).message}`);
      }
    }
    if (required) throw new Error(`Service ${id} definition is missing required property "${key}"`);
    return undefined;
  };
  const authorizationUrl = urlOf("authz", "authorization", grantTypes.has("authz_code"));
  const tokenUrl = urlOf("token", "token", grantTypes.has("authz_code") || grantTypes.has("password"));
  let minPort = 1024;
  let maxPort = 65535;
  if (Array.isArray(raw["ports"])) {
    const ports = raw["ports"] as unknown[];
    if (ports.length !== 2) throw new Error(`Invalid "ports" definition for service ${id}: must be a two-element array`);
    if (!ports.every((p) => typeof p === "number" && Number.isInteger(p) && p >= 1024 && p <= 65535)) {
      throw new Error(`Invalid "ports" definition for service ${id}: both ports must be whole numbers between 1024 and 65535`);
    }
    [minPort, maxPort] = ports as [number, number];
    if (maxPort < minPort) throw new Error(`Invalid "ports" definition for service ${id}: minimum port cannot be greater than maximum port`);
  }
  let scopes: string[] = [];
  if (Array.isArray(raw["scopes"])) {
    const given = raw["scopes"] as unknown[];
    if (!given.every((s): s is string => typeof s === "string")) throw new Error(`Invalid "scopes" for service ${id}: all scopes must be strings`);
    scopes = given;
  }
  return { id: raw["client"], grantTypes, authorizationUrl, tokenUrl, minPort, maxPort, scopes };
}

/** A login under way: the URL to open, then the code the host sends back. */
export interface PendingLogin {
  /** The authorization URL the user opens in a browser. */
  readonly authCodeUrl: string;
  /** Resolves with the token once the host has called back and the code is exchanged. */
  readonly token: Promise<string>;
  /** Stops the callback server (also done when the token is obtained or the login fails). */
  close(): void;
}

function listen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onError = (): void => resolve(false);
    server.once("error", onError);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", onError);
      resolve(true);
    });
  });
}

/** Go's `url.Values.Encode`: keys sorted, `+` for spaces. */
function formEncode(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!).replace(/%20/g, "+")}`)
    .join("&")
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** POSTs a form and reads the whole answer. */
function postForm(url: URL, body: string, env: Readonly<Record<string, string | undefined>>): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const ca = trustedCas(undefined, env);
    const options = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body), accept: "application/json" }, timeout: 30_000 };
    const req = url.protocol === "https:" ? httpsRequest(url, { ...options, ...(ca === undefined ? {} : { ca }) }) : httpRequest(url, options);
    req.on("timeout", () => req.destroy(new Error("timeout awaiting response headers")));
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.end(body);
  });
}

/** The token of a token endpoint's answer, or Go oauth2's error text for it. */
function tokenOf(res: { status: number; contentType: string; text: string }): string {
  const form = /application\/x-www-form-urlencoded|text\/plain/.test(res.contentType);
  let fields: Record<string, unknown> = {};
  try {
    fields = form ? Object.fromEntries(new URLSearchParams(res.text)) : (JSON.parse(res.text) as Record<string, unknown>);
  } catch {
    fields = {};
  }
  if (res.status < 200 || res.status > 299) {
    const code = typeof fields["error"] === "string" ? fields["error"] : "";
    if (code === "") throw new Error(`oauth2: cannot fetch token: ${res.status}\nResponse: ${res.text}`);
    const desc = typeof fields["error_description"] === "string" && fields["error_description"] !== "" ? ` ${JSON.stringify(fields["error_description"])}` : "";
    throw new Error(`oauth2: ${JSON.stringify(code)}${desc}`);
  }
  const token = fields["access_token"];
  if (typeof token !== "string" || token === "") throw new Error("oauth2: server response missing access_token");
  return token;
}

/**
 * Starts an authorization-code login: a callback server on a free port in the client's range
 * (`http://localhost:PORT/login`), the authorization URL with a random `state` and a PKCE
 * challenge; the returned token promise exchanges the code the host sends back.
 *
 * @throws CliError when no port in the range is free (terraform's "Can't start temporary login server").
 */
export async function startAuthCodeLogin(client: OAuthClient, env: Readonly<Record<string, string | undefined>>): Promise<PendingLogin> {
  const state = randomUUID();
  const verifier = `${randomUUID()}.${String(randomInt(999_999_999)).padStart(9, "0")}`;
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  let deliver: (code: string) => void = () => undefined;
  const code = new Promise<string>((resolve) => (deliver = resolve));
  const server = createServer((req, res) => {
    const params = new URL(req.url ?? "/", "http://localhost").searchParams;
    if (params.get("state") !== state || (params.get("code") ?? "") === "") {
      res.writeHead(400).end();
      return;
    }
    deliver(params.get("code")!);
    res.writeHead(200, { "content-type": "text/html" });
    res.end(CALLBACK_PAGE);
  });
  const span = client.maxPort - client.minPort;
  let port: number | undefined;
  for (let tries = 0; tries < Math.max(1, span + Math.floor(span / 2)) && port === undefined; tries++) {
    const candidate = client.minPort + (span > 0 ? randomInt(span) : 0);
    if (await listen(server, candidate)) port = (server.address() as AddressInfo).port;
  }
  if (port === undefined) {
    throw new CliError(CliErrorCode.BadInput, "Can't start temporary login server", {
      detail: `The login process uses OAuth, which requires starting a temporary HTTP server on localhost. However, no TCP port numbers between ${client.minPort} and ${client.maxPort} are available to create such a server.`,
    });
  }
  const redirectUri = `http://localhost:${port}/login`;
  const query: Record<string, string> = { client_id: client.id, code_challenge: challenge, code_challenge_method: "S256", redirect_uri: redirectUri, response_type: "code", state };
  if (client.scopes.length > 0) query["scope"] = client.scopes.join(" ");
  const authz = client.authorizationUrl!;
  const authCodeUrl = `${authz.href}${authz.search === "" ? "?" : "&"}${formEncode(query)}`;
  const close = (): void => {
    server.close();
    server.closeAllConnections();
  };
  const token = (async () => {
    const got = await code;
    close();
    let res;
    try {
      res = await postForm(client.tokenUrl!, formEncode({ client_id: client.id, code: got, code_verifier: verifier, grant_type: "authorization_code", redirect_uri: redirectUri }), env);
    } catch (e) {
      throw new CliError(CliErrorCode.BadInput, "Failed to obtain auth token", { detail: `The remote server did not assign an auth token: Post ${JSON.stringify(client.tokenUrl!.href)}: ${(e as Error).message}.` });
    }
    try {
      return tokenOf(res);
    } catch (e) {
      throw new CliError(CliErrorCode.BadInput, "Failed to obtain auth token", { detail: `The remote server did not assign an auth token: ${(e as Error).message}.` });
    }
  })();
  return { authCodeUrl, token, close };
}

/** The page the browser shows after the host has sent the code back. */
const CALLBACK_PAGE = `<!DOCTYPE html>
<html>
<head><title>magma login</title></head>
<body style="font-family: monospace">
<p>The host has sent the authorization code back to magma.</p>
<p>You can close this page: the terminal running <code>magma login</code> shows the result.</p>
</body>
</html>
`;
