import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { downloadArchive } from "./http-client.js";

const BODY = randomBytes(256 * 1024 + 3);
const SHA = createHash("sha256").update(BODY).digest("hex");

/** What the server does with a request for /pkg.zip: given how many requests came before it and the request. */
type Behaviour = (n: number, req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let base: string;
let behaviour: Behaviour;
let seen: { range: string; ifRange: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ range: req.headers.range ?? "", ifRange: String(req.headers["if-range"] ?? "") });
    behaviour(seen.length - 1, req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

beforeEach(() => {
  seen = [];
});

/** Sends `from`.. of BODY announcing all of it, but only up to `upTo`, then resets the connection. */
function cut(res: ServerResponse, from: number, upTo: number, status: 200 | 206): void {
  res.writeHead(status, { "Content-Length": BODY.length - from, ETag: '"v1"', ...(status === 206 ? { "Content-Range": `bytes ${from}-${BODY.length - 1}/${BODY.length}` } : {}) });
  res.write(BODY.subarray(from, upTo), () => setTimeout(() => res.destroy(), 20));
}

function rangeStart(req: IncomingMessage): number {
  return Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? "0");
}

const url = (): URL => new URL(`${base}/pkg.zip`);

describe("downloadArchive", () => {
  test("a body cut twice continues with Range requests naming the ETag; the bytes and SHA-256 are the whole archive's", async () => {
    behaviour = (n, req, res) => {
      const from = rangeStart(req);
      if (n === 0) cut(res, 0, 1000, 200);
      else if (n === 1) cut(res, from, from + 70_000, 206);
      else {
        res.writeHead(206, { "Content-Length": BODY.length - from, ETag: '"v1"', "Content-Range": `bytes ${from}-${BODY.length - 1}/${BODY.length}` });
        res.end(BODY.subarray(from));
      }
    };
    const progress: number[] = [];
    const got = await downloadArchive(url(), { timeoutMs: 5000 }, (done) => progress.push(done));
    expect(seen).toEqual([
      { range: "", ifRange: "" },
      { range: "bytes=1000-", ifRange: '"v1"' },
      { range: "bytes=71000-", ifRange: '"v1"' },
    ]);
    expect(got.resumed).toBe(2);
    expect(got.data.equals(BODY)).toBe(true);
    expect(got.sha256).toBe(SHA);
    expect(progress[progress.length - 1]).toBe(BODY.length);
  }, 30_000);

  test("a server that ignores the Range (200) starts the archive again", async () => {
    behaviour = (n, _req, res) => {
      if (n === 0) cut(res, 0, 5000, 200);
      else {
        res.writeHead(200, { "Content-Length": BODY.length });
        res.end(BODY);
      }
    };
    const got = await downloadArchive(url(), { timeoutMs: 5000 });
    expect(seen.map((s) => s.range)).toEqual(["", "bytes=5000-"]);
    expect(got.data.equals(BODY)).toBe(true);
    expect(got.sha256).toBe(SHA);
  }, 30_000);

  test("a 206 that does not continue where the body stopped is refused", async () => {
    behaviour = (n, _req, res) => {
      if (n === 0) cut(res, 0, 5000, 200);
      else {
        res.writeHead(206, { "Content-Length": BODY.length - 10, "Content-Range": `bytes 10-${BODY.length - 1}/${BODY.length}` });
        res.end(BODY.subarray(10));
      }
    };
    const e = await downloadArchive(url(), { timeoutMs: 5000 }).catch((x: unknown) => x);
    expect((e as { code?: string }).code).toBe("download");
    expect((e as Error).message).toBe(`bad response code: 206 (Content-Range "bytes 10-${BODY.length - 1}/${BODY.length}" does not continue at byte 5000)`);
  }, 30_000);

  test("a body cut every time fails as terraform's does (unexpected EOF) after 5 continuations", async () => {
    behaviour = (_n, req, res) => {
      const from = rangeStart(req);
      cut(res, from, from + 100, from === 0 ? 200 : 206);
    };
    const e = await downloadArchive(url(), { timeoutMs: 5000 }).catch((x: unknown) => x);
    expect((e as Error).message).toBe("unexpected EOF");
    expect((e as { code?: string }).code).toBe("download");
    expect(seen.length).toBe(6);
  }, 30_000);

  test("a status other than 200 is go-getter's error, not retried", async () => {
    behaviour = (_n, _req, res) => {
      res.writeHead(404, { "Content-Length": 0 });
      res.end();
    };
    await expect(downloadArchive(url(), { timeoutMs: 5000 })).rejects.toThrow("bad response code: 404");
    expect(seen.length).toBe(1);
  }, 30_000);
});
