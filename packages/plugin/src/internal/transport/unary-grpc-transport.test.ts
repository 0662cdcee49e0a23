import { createServer, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Session, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { GRPCStdio, grpcStdioPb, tfplugin5 } from "@magma/tfplugin";
import { createUnaryGrpcTransport } from "./unary-grpc-transport.js";

// Every case runs the same call through connect-node's gRPC transport (the behaviour to keep)
// and through createUnaryGrpcTransport, against a scripted HTTP/2 server, and compares.

type Scenario = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void | Promise<void>;

const RESPONSE = create(tfplugin5.ReadResource_ResponseSchema, {
  newState: { msgpack: new Uint8Array(3000).map((_, i) => i % 251) },
  private: new TextEncoder().encode("private"),
  diagnostics: [{ summary: "a warning", detail: "détail ✓" }],
});
const RESPONSE_BYTES = toBinary(tfplugin5.ReadResource_ResponseSchema, RESPONSE);

function frame(bytes: Uint8Array, flags = 0): Buffer {
  const out = Buffer.alloc(5 + bytes.length);
  out[0] = flags;
  out.writeUInt32BE(bytes.length, 1);
  out.set(bytes, 5);
  return out;
}

const OK_HEADERS = { ":status": 200, "content-type": "application/grpc+proto" };

let server: Http2Server;
const serverSessions = new Set<ServerHttp2Session>();
let url: string;
const scenarios = new Map<string, Scenario>();
/** What the server saw of each call: its headers, the request body, and how the stream ended. */
const seen: { scenario: string; headers: IncomingHttpHeaders; body: Buffer; rstCode: number | undefined }[] = [];

beforeAll(async () => {
  server = createServer();
  server.on("session", (s) => {
    serverSessions.add(s);
    s.on("close", () => serverSessions.delete(s));
  });
  server.on("stream", (stream, headers) => {
    const name = String(headers["x-scenario"]);
    const record = { scenario: name, headers, body: Buffer.alloc(0), rstCode: undefined as number | undefined };
    seen.push(record);
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => (record.body = Buffer.concat(chunks)));
    stream.on("close", () => (record.rstCode = stream.rstCode));
    stream.on("error", () => undefined);
    void scenarios.get(name)?.(stream, headers);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of serverSessions) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

type Limits = { readMaxBytes?: number; writeMaxBytes?: number };

function transports(limits: Limits = {}): { name: string; transport: Transport; session: Http2SessionManager }[] {
  const readMaxBytes = limits.readMaxBytes ?? 2 ** 31 - 1;
  const writeMaxBytes = limits.writeMaxBytes ?? 2 ** 31 - 1;
  const a = new Http2SessionManager(url);
  const b = new Http2SessionManager(url);
  const connect = createGrpcTransport({ baseUrl: url, sessionManager: a, readMaxBytes, writeMaxBytes });
  return [
    { name: "connect-node", transport: connect, session: a },
    {
      name: "unary",
      transport: createUnaryGrpcTransport({
        session: b,
        streaming: createGrpcTransport({ baseUrl: url, sessionManager: b, readMaxBytes, writeMaxBytes }),
        readMaxBytes,
        writeMaxBytes,
      }),
      session: b,
    },
  ];
}

type Outcome = { ok: true; message: unknown } | { ok: false; code: string; message: string };

async function call(
  transport: Transport,
  scenario: string,
  options: { signal?: AbortSignal; timeoutMs?: number; stateBytes?: number } = {},
): Promise<Outcome> {
  const client = createClient(tfplugin5.Provider, transport);
  try {
    const message = await client.readResource(
      { typeName: "aws_ssm_parameter", currentState: { msgpack: new Uint8Array(options.stateBytes ?? 16).fill(7) } },
      {
        headers: { "x-scenario": scenario },
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      },
    );
    return { ok: true, message };
  } catch (e) {
    expect(e).toBeInstanceOf(ConnectError);
    const ce = ConnectError.from(e);
    return { ok: false, code: Code[ce.code], message: ce.rawMessage };
  }
}

/** Runs `scenario` through both transports; expects the same outcome and returns it. */
async function same(name: string, scenario: Scenario, limits: Limits = {}, options: Parameters<typeof call>[2] = {}): Promise<Outcome> {
  scenarios.set(name, scenario);
  const outcomes: Outcome[] = [];
  for (const t of transports(limits)) {
    try {
      outcomes.push(await call(t.transport, name, options));
    } finally {
      t.session.abort();
    }
  }
  expect(outcomes[1]).toEqual(outcomes[0]);
  return outcomes[1]!;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("createUnaryGrpcTransport, beside connect-node's gRPC transport", () => {
  test("a response message and an OK status: the same message; the request is one frame of the encoded request", async () => {
    const out = await same("ok", (s) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
      s.end(frame(RESPONSE_BYTES));
    });
    expect(out).toEqual({ ok: true, message: RESPONSE });
    const [viaConnect, viaUnary] = seen.filter((x) => x.scenario === "ok");
    expect(viaUnary!.headers[":path"]).toBe("/tfplugin5.Provider/ReadResource");
    expect(viaUnary!.headers["content-type"]).toBe("application/grpc+proto");
    expect(viaUnary!.headers.te).toBe("trailers");
    expect(viaUnary!.body.equals(viaConnect!.body)).toBe(true);
    expect(viaUnary!.body.readUInt32BE(1)).toBe(viaUnary!.body.length - 5);
  });

  test("a response frame split across many DATA chunks (the prefix too) reads as one message", async () => {
    const out = await same("split", async (s) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
      const bytes = frame(RESPONSE_BYTES);
      const cuts = [0, 1, 3, 5, 6, 700, 701, 2000, bytes.length];
      for (let i = 0; i + 1 < cuts.length; i++) {
        await new Promise<void>((r) => s.write(bytes.subarray(cuts[i], cuts[i + 1]), () => r()));
        await sleep(5);
      }
      s.end();
    });
    expect(out).toEqual({ ok: true, message: RESPONSE });
    // The same through a session that counts the DATA chunks the client received: the
    // frame did arrive in pieces (the prefix itself split), so the reassembly was exercised.
    const sm = new Http2SessionManager(url);
    const sizes: number[] = [];
    const counting = {
      request: async (...args: Parameters<Http2SessionManager["request"]>) => {
        const stream = await sm.request(...args);
        stream.on("data", (c: Buffer) => sizes.push(c.length));
        return stream;
      },
      notifyResponseByteRead: (stream: Parameters<Http2SessionManager["notifyResponseByteRead"]>[0]) => sm.notifyResponseByteRead(stream),
    };
    const transport = createUnaryGrpcTransport({
      session: counting,
      streaming: createGrpcTransport({ baseUrl: url, sessionManager: sm }),
      readMaxBytes: 2 ** 31 - 1,
      writeMaxBytes: 2 ** 31 - 1,
    });
    try {
      await expect(call(transport, "split")).resolves.toEqual({ ok: true, message: RESPONSE });
    } finally {
      sm.abort();
    }
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(sizes[0]).toBeLessThan(5);
  });

  test("an empty response message (zero-length frame)", async () => {
    const out = await same("empty", (s) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
      s.end(frame(new Uint8Array(0)));
    });
    expect(out).toEqual({ ok: true, message: create(tfplugin5.ReadResource_ResponseSchema) });
  });

  test("a trailers-only response with an error status: its code and percent-decoded message", async () => {
    const out = await same("trailers-only", (s) => {
      s.respond({ ...OK_HEADERS, "grpc-status": "3", "grpc-message": "bad%20argument%3A%20%E2%9C%93" }, { endStream: true });
    });
    expect(out).toEqual({ ok: false, code: "InvalidArgument", message: "bad argument: ✓" });
  });

  test("a trailers-only OK response without a message", async () => {
    const out = await same("trailers-only-ok", (s) => {
      s.respond({ ...OK_HEADERS, "grpc-status": "0" }, { endStream: true });
    });
    expect(out).toMatchObject({ ok: false, code: "Unknown" });
  });

  test("an error status in the trailers (no message)", async () => {
    const out = await same("status-unimplemented", (s) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "12", "grpc-message": "unknown method ReadResource" }));
      s.end();
    });
    expect(out).toEqual({ ok: false, code: "Unimplemented", message: "unknown method ReadResource" });
  });

  test("an error status after a message wins over the message", async () => {
    const out = await same("status-after-message", (s) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "14", "grpc-message": "going away" }));
      s.end(frame(RESPONSE_BYTES));
    });
    expect(out).toEqual({ ok: false, code: "Unavailable", message: "going away" });
  });

  test("an unknown grpc-status number, a missing status, a non-200 HTTP status, a foreign content type", async () => {
    await expect(
      same("status-99", (s) => {
        s.respond({ ...OK_HEADERS, "grpc-status": "99" }, { endStream: true });
      }),
    ).resolves.toEqual({ ok: false, code: "Internal", message: "invalid grpc-status: 99" });
    await expect(
      same("no-status", (s) => {
        s.respond(OK_HEADERS);
        s.end(frame(RESPONSE_BYTES));
      }),
    ).resolves.toEqual({ ok: false, code: "Internal", message: "protocol error: missing status" });
    await expect(
      same("http-503", (s) => {
        s.respond({ ":status": 503 }, { endStream: true });
      }),
    ).resolves.toEqual({ ok: false, code: "Unavailable", message: "HTTP 503" });
    await expect(
      same("text-plain", (s) => {
        s.respond({ ":status": 200, "content-type": "text/plain" });
        s.end("hello");
      }),
    ).resolves.toEqual({ ok: false, code: "Unknown", message: "unsupported content type text/plain" });
  });

  test("two messages for a unary method, a compressed frame, a truncated frame", async () => {
    await expect(
      same("two-messages", (s) => {
        s.respond(OK_HEADERS, { waitForTrailers: true });
        s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
        s.end(Buffer.concat([frame(RESPONSE_BYTES), frame(RESPONSE_BYTES)]));
      }),
    ).resolves.toEqual({ ok: false, code: "Unimplemented", message: "protocol error: received extra output message for unary method" });
    await expect(
      same("compressed-flag", (s) => {
        s.respond(OK_HEADERS, { waitForTrailers: true });
        s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
        s.end(frame(RESPONSE_BYTES, 1));
      }),
    ).resolves.toEqual({ ok: false, code: "Internal", message: "received compressed envelope, but do not know how to decompress" });
    await expect(
      same("truncated", (s) => {
        s.respond(OK_HEADERS, { waitForTrailers: true });
        s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
        s.end(frame(RESPONSE_BYTES).subarray(0, 100));
      }),
    ).resolves.toEqual({ ok: false, code: "InvalidArgument", message: "protocol error: incomplete envelope" });
  });

  test("a response larger than readMaxBytes: RESOURCE_EXHAUSTED", async () => {
    const out = await same(
      "oversized-response",
      (s) => {
        s.respond(OK_HEADERS, { waitForTrailers: true });
        s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
        s.end(frame(RESPONSE_BYTES));
      },
      { readMaxBytes: 1000 },
    );
    expect(out).toEqual({
      ok: false,
      code: "ResourceExhausted",
      message: `message size ${RESPONSE_BYTES.length} is larger than configured readMaxBytes 1000`,
    });
  });

  test("a request larger than writeMaxBytes: RESOURCE_EXHAUSTED, nothing sent", async () => {
    const before = seen.filter((x) => x.scenario === "oversized-request").length;
    const out = await same("oversized-request", () => undefined, { writeMaxBytes: 500 }, { stateBytes: 1000 });
    expect(out).toMatchObject({ ok: false, code: "ResourceExhausted" });
    expect((out as { message: string }).message).toMatch(/^message size \d+ is larger than configured writeMaxBytes 500$/);
    expect(seen.filter((x) => x.scenario === "oversized-request").length).toBe(before);
  });

  test("an abort mid-call: CANCELED with the signal's reason, as connect-node's, and the stream is reset with CANCEL", async () => {
    const outcomes: Outcome[] = [];
    for (const t of transports()) {
      scenarios.set(`abort-${t.name}`, (s) => s.respond(OK_HEADERS));
      const ac = new AbortController();
      const pending = call(t.transport, `abort-${t.name}`, { signal: ac.signal });
      while (!seen.some((x) => x.scenario === `abort-${t.name}`)) await sleep(5);
      ac.abort();
      const out = await pending;
      expect(out).toMatchObject({ ok: false, code: "Canceled" });
      outcomes.push(out);
      const record = seen.find((x) => x.scenario === `abort-${t.name}`)!;
      while (record.rstCode === undefined) await sleep(5);
      // gRPC's HTTP/2 mapping: a cancelled call is RST_STREAM CANCEL (connect-node means to send
      // it, but node's stream.destroy() sends INTERNAL_ERROR; either cancels the server's call).
      if (t.name === "unary") expect(record.rstCode).toBe(8);
      else expect([2, 8]).toContain(record.rstCode);
      t.session.abort();
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    // A signal aborted before the call: nothing is sent.
    const t = transports()[1]!;
    const ac = new AbortController();
    ac.abort(new ConnectError("stopped by the test", Code.Canceled));
    await expect(call(t.transport, "never-sent", { signal: ac.signal })).resolves.toEqual({
      ok: false,
      code: "Canceled",
      message: "stopped by the test",
    });
    expect(seen.some((x) => x.scenario === "never-sent")).toBe(false);
    t.session.abort();
  });

  test("a deadline: grpc-timeout is sent and an unanswered call ends DEADLINE_EXCEEDED", async () => {
    const out = await same("deadline", (s) => s.respond(OK_HEADERS), {}, { timeoutMs: 200 });
    expect(out).toEqual({ ok: false, code: "DeadlineExceeded", message: "the operation timed out" });
    const [viaConnect, viaUnary] = seen.filter((x) => x.scenario === "deadline");
    expect(viaUnary!.headers["grpc-timeout"]).toBe(viaConnect!.headers["grpc-timeout"]);
    expect(viaUnary!.headers["grpc-timeout"]).toBe("200m");
  });

  test("the server resetting the stream: the code of the reset", async () => {
    // node reports a reset other than CANCEL as a stream error before the close.
    await expect(same("rst-refused", (s) => s.close(7))).resolves.toEqual({
      ok: false,
      code: "Internal",
      message: "Error [ERR_HTTP2_STREAM_ERROR]: Stream closed with error code NGHTTP2_REFUSED_STREAM",
    });
    await expect(same("rst-cancel", (s) => s.close(8))).resolves.toEqual({
      ok: false,
      code: "Canceled",
      message: "http/2 stream closed with error code CANCEL (0x8)",
    });
  });

  test("the server closing the session mid-call: the call fails (no hang), as connect-node's does", async () => {
    const outcomes: Outcome[] = [];
    for (const t of transports()) {
      scenarios.set(`destroy-${t.name}`, (s) => {
        s.respond(OK_HEADERS);
        s.write(frame(RESPONSE_BYTES).subarray(0, 50), () => s.session?.destroy());
      });
      outcomes.push(await call(t.transport, `destroy-${t.name}`));
      t.session.abort();
    }
    expect(outcomes[0]!.ok).toBe(false);
    expect(outcomes[1]).toEqual(outcomes[0]);
  });

  test("a connection refused: the same error as connect-node's", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const dead = `http://127.0.0.1:${port}`;
    const a = new Http2SessionManager(dead);
    const b = new Http2SessionManager(dead);
    const viaConnect = await call(createGrpcTransport({ baseUrl: dead, sessionManager: a }), "refused");
    const viaUnary = await call(
      createUnaryGrpcTransport({
        session: b,
        streaming: createGrpcTransport({ baseUrl: dead, sessionManager: b }),
        readMaxBytes: 2 ** 31 - 1,
        writeMaxBytes: 2 ** 31 - 1,
      }),
      "refused",
    );
    expect(viaConnect).toMatchObject({ ok: false });
    expect(viaUnary).toEqual(viaConnect);
    a.abort();
    b.abort();
  });

  test("many concurrent calls on one session each get their own response", async () => {
    scenarios.set("echo-type", (s, h) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
      s.end(frame(toBinary(tfplugin5.ReadResource_ResponseSchema, create(tfplugin5.ReadResource_ResponseSchema, { private: new TextEncoder().encode(String(h["x-n"])) }))));
    });
    const t = transports()[1]!;
    const client = createClient(tfplugin5.Provider, t.transport);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        client.readResource({ typeName: "x" }, { headers: { "x-scenario": "echo-type", "x-n": String(n) } }),
      ),
    );
    expect(replies.map((r) => new TextDecoder().decode(r.private))).toEqual(Array.from({ length: 50 }, (_, n) => String(n)));
    t.session.abort();
  });
});

describe("server-streaming calls (GRPCStdio/StreamStdio), beside connect-node's gRPC transport", () => {
  const data = (channel: number, text: string): Uint8Array =>
    toBinary(grpcStdioPb.StdioDataSchema, create(grpcStdioPb.StdioDataSchema, { channel: channel as grpcStdioPb.StdioData_Channel, data: new TextEncoder().encode(text) }));

  async function stream(transport: Transport, scenario: string, signal?: AbortSignal): Promise<{ got: string[]; end: string }> {
    const client = createClient(GRPCStdio, transport);
    const got: string[] = [];
    try {
      for await (const d of client.streamStdio({}, { headers: { "x-scenario": scenario }, ...(signal !== undefined ? { signal } : {}) })) {
        got.push(`${d.channel}:${new TextDecoder().decode(d.data)}`);
      }
      return { got, end: "ok" };
    } catch (e) {
      const ce = ConnectError.from(e);
      return { got, end: `${Code[ce.code]}: ${ce.rawMessage}` };
    }
  }

  async function sameStream(name: string, scenario: Scenario): Promise<{ got: string[]; end: string }> {
    scenarios.set(name, scenario);
    const outcomes: { got: string[]; end: string }[] = [];
    for (const t of transports()) {
      try {
        outcomes.push(await stream(t.transport, name));
      } finally {
        t.session.abort();
      }
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    return outcomes[1]!;
  }

  test("messages split across DATA chunks, then an OK status: every message in order", async () => {
    const out = await sameStream("stdio-ok", (s) => {
      s.respond(OK_HEADERS, { waitForTrailers: true });
      s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
      const all = Buffer.concat([frame(data(1, "out line\n")), frame(data(2, "err ✓\n")), frame(data(1, ""))]);
      for (let i = 0; i < all.length; i += 3) s.write(all.subarray(i, i + 3));
      s.end();
    });
    expect(out).toEqual({ got: ["1:out line\n", "2:err ✓\n", "1:"], end: "ok" });
  });

  test("an error status after messages; a trailers-only UNIMPLEMENTED", async () => {
    expect(
      await sameStream("stdio-err", (s) => {
        s.respond(OK_HEADERS, { waitForTrailers: true });
        s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "14", "grpc-message": "going%20away" }));
        s.end(frame(data(1, "a")));
      }),
    ).toEqual({ got: ["1:a"], end: "Unavailable: going away" });
    expect(
      await sameStream("stdio-unimpl", (s) => {
        s.respond({ ...OK_HEADERS, "grpc-status": "12", "grpc-message": "unknown service" }, { endStream: true });
      }),
    ).toEqual({ got: [], end: "Unimplemented: unknown service" });
  });

  test("an abort mid-stream ends the iteration with CANCELED and resets the stream", async () => {
    for (const t of transports()) {
      scenarios.set(`stdio-abort-${t.name}`, (s) => {
        s.respond(OK_HEADERS);
        s.write(frame(data(1, "first")));
      });
      const ac = new AbortController();
      const client = createClient(GRPCStdio, t.transport);
      const got: string[] = [];
      let end = "ok";
      try {
        for await (const d of client.streamStdio({}, { headers: { "x-scenario": `stdio-abort-${t.name}` }, signal: ac.signal })) {
          got.push(new TextDecoder().decode(d.data));
          ac.abort();
        }
      } catch (e) {
        end = Code[ConnectError.from(e).code];
      }
      expect({ transport: t.name, got, end }).toEqual({ transport: t.name, got: ["first"], end: "Canceled" });
      const record = seen.find((x) => x.scenario === `stdio-abort-${t.name}`)!;
      while (record.rstCode === undefined) await sleep(5);
      t.session.abort();
    }
  });
});
