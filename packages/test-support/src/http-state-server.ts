import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Options of {@link startHttpStateServer}. */
export interface HttpStateServerOptions {
  /** Require HTTP basic auth with this user and password (401 without, 403 with wrong ones). */
  readonly auth?: { readonly username: string; readonly password: string };
}

/** A running {@link startHttpStateServer}. */
export interface HttpStateServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The states held, by path (`/state/a`). */
  readonly states: Map<string, Buffer>;
  /** The lock infos held (their JSON text), by state path. */
  readonly locks: Map<string, string>;
  /** Every request seen: method, path with query, body length. */
  readonly requests: { method: string; url: string; length: number }[];
  /**
   * Failures to inject: each request whose `METHOD path` (without query) matches takes the
   * first matching entry: answered with `status` (or its connection destroyed for status 0);
   * `times` counts down, the entry removed at 0.
   */
  readonly faults: { match: RegExp; status: number; times: number }[];
  /** Stops the server. */
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function lockId(json: string): string | undefined {
  try {
    const id = (JSON.parse(json) as { ID?: unknown }).ID;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts an HTTP server speaking the protocol of Terraform's `http` backend, as REST state
 * stores (GitLab's, terraform's own test server) do: GET returns the state at a path (404
 * when none), POST stores it (refused with 423 when the state is locked and `?ID=` does not
 * name the lock), DELETE removes it; LOCK stores the lock info (409 with the holder's info
 * when already locked), UNLOCK releases it (a body naming another lock: 409; an empty body,
 * as `force-unlock` sends: released whatever holds it). Listens on 127.0.0.1, any free port.
 */
export async function startHttpStateServer(options: HttpStateServerOptions = {}): Promise<HttpStateServer> {
  const states = new Map<string, Buffer>();
  const locks = new Map<string, string>();
  const requests: { method: string; url: string; length: number }[] = [];
  const faults: { match: RegExp; status: number; times: number }[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const data = await body(req);
    const u = new URL(req.url ?? "/", "http://x");
    const method = req.method ?? "GET";
    requests.push({ method, url: req.url ?? "/", length: data.length });
    const fault = faults.find((f) => f.match.test(`${method} ${u.pathname}`));
    if (fault !== undefined) {
      if (--fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
      if (fault.status === 0) {
        req.socket.destroy();
        return;
      }
      res.writeHead(fault.status).end();
      return;
    }
    if (options.auth !== undefined) {
      const h = req.headers.authorization;
      if (h === undefined) return void res.writeHead(401).end();
      const want = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString("base64")}`;
      if (h !== want) return void res.writeHead(403).end();
    }
    const path = u.pathname;
    const held = locks.get(path);
    switch (method) {
      case "GET": {
        const s = states.get(path);
        if (s === undefined) return void res.writeHead(404).end();
        res.writeHead(200, { "Content-Type": "application/json" }).end(s);
        return;
      }
      case "POST":
      case "PUT": {
        if (held !== undefined && u.searchParams.get("ID") !== lockId(held)) return void res.writeHead(423, { "Content-Type": "application/json" }).end(held);
        states.set(path, data);
        res.writeHead(200).end();
        return;
      }
      case "DELETE":
        states.delete(path);
        res.writeHead(200).end();
        return;
      case "LOCK":
        if (held !== undefined) return void res.writeHead(409, { "Content-Type": "application/json" }).end(held);
        locks.set(path, data.toString("utf8"));
        res.writeHead(200).end();
        return;
      case "UNLOCK": {
        if (data.length > 0 && held !== undefined && lockId(data.toString("utf8")) !== lockId(held)) return void res.writeHead(409, { "Content-Type": "application/json" }).end(held);
        locks.delete(path);
        res.writeHead(200).end();
        return;
      }
      default:
        res.writeHead(405).end();
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    states,
    locks,
    requests,
    faults,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
