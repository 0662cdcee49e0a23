import type { ClientHttp2Stream, IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http2";
import { Code, ConnectError, type StreamResponse, type Transport, type UnaryResponse } from "@connectrpc/connect";
import {
  create,
  fromBinary,
  isMessage,
  toBinary,
  type DescMessage,
  type DescMethodServerStreaming,
  type DescMethodUnary,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";

/**
 * Where a unary call opens its HTTP/2 stream: connect-node's `Http2SessionManager` (the one
 * session of a plugin connection, shared with the streaming calls) satisfies it.
 *
 * @internal
 */
export type Http2StreamSource = {
  /** Opens a stream on the (connected, or now connecting) session. */
  request(method: "POST", path: string, headers: OutgoingHttpHeaders, options: object): Promise<ClientHttp2Stream>;
  /** Tells the keep-alive logic that the session is alive (called for every DATA chunk read). */
  notifyResponseByteRead(stream: ClientHttp2Stream): void;
};

/**
 * Options of {@link createUnaryGrpcTransport}.
 *
 * @internal
 */
export type UnaryGrpcTransportOptions = {
  /** The HTTP/2 session the unary calls use. */
  readonly session: Http2StreamSource;
  /** The transport that serves client- and bidi-streaming calls (connect-node's, over the same session). */
  readonly streaming: Transport;
  /** The largest response message accepted (bytes, after the 5-byte frame header). */
  readonly readMaxBytes: number;
  /** The largest request message sent (bytes). */
  readonly writeMaxBytes: number;
};

/** HTTP/2 RST_STREAM codes (RFC 9113 §7) that a unary call sends or maps. */
const H2 = {
  NO_ERROR: 0,
  PROTOCOL_ERROR: 1,
  INTERNAL_ERROR: 2,
  FLOW_CONTROL_ERROR: 3,
  SETTINGS_TIMEOUT: 4,
  STREAM_CLOSED: 5,
  FRAME_SIZE_ERROR: 6,
  REFUSED_STREAM: 7,
  CANCEL: 8,
  COMPRESSION_ERROR: 9,
  CONNECT_ERROR: 10,
  ENHANCE_YOUR_CALM: 11,
  INADEQUATE_SECURITY: 12,
  HTTP_1_1_REQUIRED: 13,
} as const;

const H2_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(H2).map(([k, v]) => [v, k]));

/**
 * The gRPC code of a stream reset (gRPC's HTTP/2 mapping, as connect-node reports it), or
 * `undefined` for NO_ERROR and STREAM_CLOSED, which say nothing about the call.
 */
function codeOfReset(rstCode: number): Code | undefined {
  switch (rstCode) {
    case H2.PROTOCOL_ERROR:
    case H2.INTERNAL_ERROR:
    case H2.FLOW_CONTROL_ERROR:
    case H2.SETTINGS_TIMEOUT:
    case H2.FRAME_SIZE_ERROR:
    case H2.COMPRESSION_ERROR:
    case H2.CONNECT_ERROR:
      return Code.Internal;
    case H2.REFUSED_STREAM:
      return Code.Unavailable;
    case H2.CANCEL:
      return Code.Canceled;
    case H2.ENHANCE_YOUR_CALM:
      return Code.ResourceExhausted;
    case H2.INADEQUATE_SECURITY:
    case H2.HTTP_1_1_REQUIRED:
      return Code.PermissionDenied;
    default:
      return undefined;
  }
}

function errorOfReset(rstCode: number): ConnectError | undefined {
  const code = codeOfReset(rstCode);
  if (code === undefined) return undefined;
  return new ConnectError(
    `http/2 stream closed with error code ${H2_NAMES.get(rstCode) ?? "UNKNOWN"} (0x${rstCode.toString(16)})`,
    code,
  );
}

/** The `code` strings of an error and its causes. */
function nodeCodes(reason: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  for (let r = reason; r instanceof Error && !seen.has(r); r = (r as { cause?: unknown }).cause) {
    seen.add(r);
    const code = (r as { code?: unknown }).code;
    if (typeof code === "string") out.push(code);
  }
  return out;
}

/**
 * A node error as a `ConnectError`, with the codes connect-node gives them: a write after
 * the server ended the stream, a destroyed stream or a reset connection → ABORTED; a refused
 * or timed-out connection → UNAVAILABLE; anything else → INTERNAL (a `ConnectError` stays as
 * it is).
 */
function errorOfNodeReason(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const codes = nodeCodes(reason);
  let code: Code = Code.Internal;
  if (codes.some((c) => c === "ERR_STREAM_WRITE_AFTER_END" || c === "ERR_STREAM_DESTROYED" || c === "ERR_HTTP2_INVALID_STREAM" || c === "ECONNRESET"))
    code = Code.Aborted;
  else if (codes.some((c) => c === "ETIMEDOUT" || c === "ENOTFOUND" || c === "EAI_AGAIN" || c === "ECONNREFUSED"))
    code = Code.Unavailable;
  const ce = ConnectError.from(reason, code);
  if (ce !== reason) ce.cause = reason;
  return ce;
}

/** gRPC's mapping of a non-200 HTTP status to a code. */
function codeOfHttpStatus(status: number): Code {
  switch (status) {
    case 400:
      return Code.Internal;
    case 401:
      return Code.Unauthenticated;
    case 403:
      return Code.PermissionDenied;
    case 404:
      return Code.Unimplemented;
    case 429:
    case 502:
    case 503:
    case 504:
      return Code.Unavailable;
    default:
      return Code.Unknown;
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Node's incoming HTTP/2 headers as web `Headers` (pseudo-headers left out). */
function toWebHeaders(h: IncomingHttpHeaders | undefined): Headers {
  const out = new Headers();
  if (h === undefined) return out;
  for (const [k, v] of Object.entries(h)) {
    if (k.startsWith(":") || v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) out.append(k, x);
    else out.append(k, String(v));
  }
  return out;
}

/**
 * The error a `grpc-status` in headers or trailers reports, or `undefined` when there is none
 * or it is 0 (OK). An unknown number is INTERNAL; the message is `grpc-message`, percent-decoded.
 */
function statusError(h: IncomingHttpHeaders | undefined, metadata: () => Headers): ConnectError | undefined {
  const status = first(h?.["grpc-status"]);
  if (status === undefined || status === "0") return undefined;
  const code = Number.parseInt(status, 10);
  if (!(code in Code)) return new ConnectError(`invalid grpc-status: ${status}`, Code.Internal, metadata());
  let message = first(h?.["grpc-message"]) ?? "";
  try {
    message = decodeURIComponent(message);
  } catch {
    // A malformed escape: keep the text as sent.
  }
  return new ConnectError(message, code as Code, metadata());
}

const CONTENT_TYPE = /^application\/grpc(?:\+(?:proto|json))?(?:;.*)?$/i;
const FLAG_COMPRESSED = 0b1;
const USER_AGENT = "magma-plugin (grpc unary)";

/** What a unary call resolves with. */
type UnaryResult<O extends DescMessage> = {
  readonly message: MessageShape<O>;
  readonly header: IncomingHttpHeaders;
  readonly trailer: IncomingHttpHeaders | undefined;
};

/**
 * One unary call: writes the framed request and reads the framed response of one HTTP/2
 * stream, settling once with the message or a `ConnectError`.
 */
class UnaryCall<O extends DescMessage> {
  readonly #options: UnaryGrpcTransportOptions;
  readonly #output: O;
  readonly #resolve: (r: UnaryResult<O>) => void;
  readonly #reject: (e: ConnectError) => void;
  #stream: ClientHttp2Stream | undefined;
  #settled = false;
  #header: IncomingHttpHeaders | undefined;
  #headerError: ConnectError | undefined;
  #trailer: IncomingHttpHeaders | undefined;
  // The response frame being read: its 5-byte prefix, then its body.
  #prefix: Buffer | undefined;
  #prefixHave = 0;
  #body: Uint8Array | undefined;
  #bodyHave = 0;
  #bodyLength = -1;
  #compressed = false;
  #message: Uint8Array | undefined;
  #cleanups: (() => void)[] = [];

  constructor(
    options: UnaryGrpcTransportOptions,
    output: O,
    resolve: (r: UnaryResult<O>) => void,
    reject: (e: ConnectError) => void,
  ) {
    this.#options = options;
    this.#output = output;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** Ends the call with an error, resetting the stream (CANCEL for a cancellation, else INTERNAL_ERROR). */
  fail(e: ConnectError): void {
    if (this.#settled) return;
    this.#settle();
    const stream = this.#stream;
    if (stream !== undefined && !stream.closed) stream.close(e.code === Code.Canceled ? H2.CANCEL : H2.INTERNAL_ERROR);
    this.#reject(e);
  }

  onCleanup(f: () => void): void {
    this.#cleanups.push(f);
  }

  get settled(): boolean {
    return this.#settled;
  }

  #settle(): void {
    this.#settled = true;
    for (const f of this.#cleanups) f();
    this.#cleanups = [];
  }

  start(stream: ClientHttp2Stream, frame: Uint8Array): void {
    this.#stream = stream;
    if (this.#settled) {
      // Aborted while the stream was being opened.
      if (!stream.closed) stream.close(H2.CANCEL);
      return;
    }
    stream.on("response", (h) => this.#onResponse(h));
    stream.on("data", (chunk: Buffer) => this.#onData(chunk));
    stream.on("trailers", (t) => {
      this.#trailer = t;
    });
    stream.on("error", (e) => {
      if (stream.writableEnded && nodeCodes(e).includes("ERR_STREAM_WRITE_AFTER_END")) return;
      this.fail(errorOfNodeReason(e));
    });
    stream.on("close", () => this.#onClose(stream));
    stream.end(frame);
  }

  #onResponse(h: IncomingHttpHeaders): void {
    if (this.#settled) return;
    this.#header = h;
    const status = Number(h[":status"] ?? 0);
    if (status !== 200) {
      this.fail(new ConnectError(`HTTP ${status}`, codeOfHttpStatus(status), toWebHeaders(h)));
      return;
    }
    const type = first(h["content-type"]);
    if (type === undefined || !CONTENT_TYPE.test(type)) {
      this.fail(new ConnectError(`unsupported content type ${type ?? "null"}`, Code.Unknown));
      return;
    }
    const encoding = first(h["grpc-encoding"]);
    if (encoding !== undefined && encoding.toLowerCase() !== "identity") {
      // Nothing is advertised in grpc-accept-encoding, so a server must not compress.
      this.fail(new ConnectError(`unsupported response encoding "${encoding}"`, Code.Internal, toWebHeaders(h)));
      return;
    }
    this.#headerError = statusError(h, () => toWebHeaders(h));
  }

  #onData(chunk: Buffer): void {
    if (this.#settled) return;
    this.#options.session.notifyResponseByteRead(this.#stream!);
    let at = 0;
    while (at < chunk.length) {
      if (this.#bodyLength < 0) {
        // The 5-byte prefix: flags, then the body length (big-endian uint32).
        if (this.#prefixHave === 0 && chunk.length - at >= 5) {
          this.#beginBody(chunk[at]!, chunk.readUInt32BE(at + 1));
          at += 5;
        } else {
          this.#prefix ??= Buffer.allocUnsafe(5);
          const n = Math.min(5 - this.#prefixHave, chunk.length - at);
          chunk.copy(this.#prefix, this.#prefixHave, at, at + n);
          this.#prefixHave += n;
          at += n;
          if (this.#prefixHave < 5) return;
          this.#prefixHave = 0;
          this.#beginBody(this.#prefix[0]!, this.#prefix.readUInt32BE(1));
        }
        if (this.#settled) return;
        if (this.#bodyLength === 0) {
          this.#endBody(new Uint8Array(0));
          if (this.#settled) return;
          continue;
        }
      }
      const want = this.#bodyLength - this.#bodyHave;
      const have = chunk.length - at;
      // The body is copied into memory of its own: decoded bytes fields (a DynamicValue, a
      // private blob kept in the state) are views of it, and must not pin node's read buffer,
      // which the chunk shares with the other streams' data.
      this.#body ??= new Uint8Array(this.#bodyLength);
      const n = Math.min(want, have);
      this.#body.set(chunk.subarray(at, at + n), this.#bodyHave);
      this.#bodyHave += n;
      at += n;
      if (this.#bodyHave === this.#bodyLength) {
        const body = this.#body;
        this.#body = undefined;
        this.#endBody(body);
        if (this.#settled) return;
      }
    }
  }

  #beginBody(flags: number, length: number): void {
    if (length > this.#options.readMaxBytes) {
      this.fail(
        new ConnectError(
          `message size ${length} is larger than configured readMaxBytes ${this.#options.readMaxBytes}`,
          Code.ResourceExhausted,
        ),
      );
      return;
    }
    this.#compressed = (flags & FLAG_COMPRESSED) !== 0;
    this.#bodyLength = length;
    this.#bodyHave = 0;
  }

  #endBody(body: Uint8Array): void {
    this.#bodyLength = -1;
    this.#bodyHave = 0;
    if (this.#compressed) {
      this.fail(new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal));
      return;
    }
    if (this.#message !== undefined) {
      this.fail(new ConnectError("protocol error: received extra output message for unary method", Code.Unimplemented));
      return;
    }
    this.#message = body;
  }

  #onClose(stream: ClientHttp2Stream): void {
    if (this.#settled) return;
    const reset = errorOfReset(stream.rstCode ?? H2.NO_ERROR);
    if (reset !== undefined) {
      this.fail(reset);
      return;
    }
    const header = this.#header;
    if (header === undefined) {
      this.fail(new ConnectError("http/2 stream closed before the response headers", Code.Unavailable));
      return;
    }
    if (this.#bodyLength >= 0 || this.#prefixHave > 0) {
      this.fail(new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument));
      return;
    }
    const trailer = this.#trailer;
    const trailerError = statusError(trailer, () => {
      const m = toWebHeaders(trailer);
      toWebHeaders(header).forEach((v, k) => m.append(k, v));
      return m;
    });
    if (trailerError !== undefined) {
      this.fail(trailerError);
      return;
    }
    if (header["grpc-status"] === undefined && trailer?.["grpc-status"] === undefined) {
      this.fail(new ConnectError("protocol error: missing status", Code.Internal));
      return;
    }
    const bytes = this.#message;
    if (bytes === undefined) {
      // A trailers-only response.
      this.fail(
        this.#headerError ??
          new ConnectError(
            "protocol error: missing output message for unary method",
            trailer?.["grpc-status"] !== undefined ? Code.Unimplemented : Code.Unknown,
          ),
      );
      return;
    }
    if (this.#headerError !== undefined) {
      this.fail(new ConnectError("protocol error: received output message for unary method with error status", Code.Unknown));
      return;
    }
    let message: MessageShape<O>;
    try {
      message = fromBinary(this.#output, bytes);
    } catch (e) {
      this.fail(ConnectError.from(e, Code.Internal));
      return;
    }
    this.#settle();
    this.#resolve({ message, header, trailer });
  }
}

/**
 * A connect `Transport` whose unary calls are written directly over node:http2 — one HTTP/2
 * stream per call on the plugin's one session, the request as a single 5-byte length-prefixed
 * gRPC frame, the response frame read as it arrives (copied once into a buffer of its own),
 * `grpc-status` / `grpc-message` from the trailers or a trailers-only response. Server-streaming
 * calls (`GRPCStdio/StreamStdio`) are written the same way; other streaming calls go to
 * `options.streaming`.
 *
 * It behaves as connect-node's gRPC transport does for the calls a plugin connection makes:
 * the same `ConnectError` codes and messages for gRPC statuses, HTTP statuses, stream resets,
 * node errors, message size limits (`RESOURCE_EXHAUSTED`), deadlines (`DEADLINE_EXCEEDED`,
 * "the operation timed out", sent as `grpc-timeout`) and aborts (`CANCELED`, or the signal's
 * own `ConnectError` reason; the stream is reset with CANCEL). It leaves out what those calls
 * never use: interceptors, compression (none is advertised, so a server sends none),
 * `grpc-status-details-bin` details (the code and message are read from `grpc-status` and
 * `grpc-message`, which gRPC servers always send beside it) and JSON.
 *
 * @internal
 */
export function createUnaryGrpcTransport(options: UnaryGrpcTransportOptions): Transport {
  const paths = new WeakMap<object, string>();
  const pathOf = (method: DescMethodUnary): string => {
    let p = paths.get(method);
    if (p === undefined) {
      p = `/${method.parent.typeName}/${method.name}`;
      paths.set(method, p);
    }
    return p;
  };
  return {
    unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0],
      input: MessageInitShape<I>,
    ): Promise<UnaryResponse<I, O>> {
      return new Promise<UnaryResponse<I, O>>((resolve, reject) => {
        const call = new UnaryCall<O>(
          options,
          method.output,
          ({ message, header: h, trailer: t }: UnaryResult<O>) =>
            resolve(unaryResponse(method, message, h, t)),
          reject,
        );
        if (signal !== undefined) {
          const onAbort = (): void => call.fail(ConnectError.from(signal.reason ?? abortError(), Code.Canceled));
          if (signal.aborted) {
            onAbort();
            return;
          }
          signal.addEventListener("abort", onAbort);
          call.onCleanup(() => signal.removeEventListener("abort", onAbort));
        }
        const timeout = timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined;
        if (timeout !== undefined) {
          const timer = setTimeout(() => call.fail(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeout);
          call.onCleanup(() => clearTimeout(timer));
        }
        let frame: Uint8Array;
        try {
          const message = isMessage(input, method.input) ? input : create(method.input, input);
          const bytes = toBinary(method.input, message as MessageShape<I>);
          if (bytes.byteLength > options.writeMaxBytes) {
            call.fail(
              new ConnectError(
                `message size ${bytes.byteLength} is larger than configured writeMaxBytes ${options.writeMaxBytes}`,
                Code.ResourceExhausted,
              ),
            );
            return;
          }
          frame = new Uint8Array(5 + bytes.byteLength);
          new DataView(frame.buffer).setUint32(1, bytes.byteLength);
          frame.set(bytes, 5);
        } catch (e) {
          call.fail(ConnectError.from(e, Code.Internal));
          return;
        }
        const headers: OutgoingHttpHeaders = {
          "content-type": "application/grpc+proto",
          "user-agent": USER_AGENT,
          te: "trailers",
        };
        if (timeout !== undefined) headers["grpc-timeout"] = `${timeout}m`;
        if (header !== undefined) new Headers(header).forEach((v, k) => (headers[k] = v));
        options.session.request("POST", pathOf(method as DescMethodUnary), headers, {}).then(
          (stream) => call.start(stream, frame),
          (e: unknown) => call.fail(errorOfNodeReason(e)),
        );
      });
    },
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      method.methodKind === "server_streaming"
        ? serverStreamingCall(options, method, signal, header, input)
        : options.streaming.stream(method, signal, timeoutMs, header, input, contextValues),
  };
}

function abortError(): Error {
  const e = new Error("This operation was aborted");
  e.name = "AbortError";
  return e;
}

/** The connect response of a unary call; its `header` and `trailer` are made when first read. */
function unaryResponse<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  message: MessageShape<O>,
  header: IncomingHttpHeaders,
  trailer: IncomingHttpHeaders | undefined,
): UnaryResponse<I, O> {
  let h: Headers | undefined;
  let t: Headers | undefined;
  return {
    stream: false,
    service: method.parent,
    method,
    message,
    get header(): Headers {
      return (h ??= toWebHeaders(header));
    },
    get trailer(): Headers {
      return (t ??= toWebHeaders(trailer));
    },
  };
}

/**
 * A server-streaming call (`plugin.GRPCStdio/StreamStdio`) over the session directly, as the
 * unary calls: one request frame, then the response frames as messages while they arrive,
 * the call's status from the trailers (or a trailers-only response). Written here rather than
 * through connect-node's transport, whose gRPC request header is a web `Headers`: the first
 * `Headers` of a process loads node's bundled undici (tens of ms of CPU in every dial).
 */
async function serverStreamingCall<I extends DescMessage, O extends DescMessage>(
  options: UnaryGrpcTransportOptions,
  method: DescMethodServerStreaming<I, O>,
  signal: AbortSignal | undefined,
  header: ConstructorParameters<typeof Headers>[0],
  input: AsyncIterable<MessageInitShape<I>>,
): Promise<StreamResponse<I, O>> {
  let request: MessageInitShape<I> | undefined;
  for await (const m of input) {
    request = m;
    break;
  }
  if (request === undefined) throw new ConnectError("a server-streaming call needs one request message", Code.Internal);
  const message = isMessage(request, method.input) ? request : create(method.input, request);
  const bytes = toBinary(method.input, message as MessageShape<I>);
  const frame = new Uint8Array(5 + bytes.byteLength);
  new DataView(frame.buffer).setUint32(1, bytes.byteLength);
  frame.set(bytes, 5);
  const headers: OutgoingHttpHeaders = { "content-type": "application/grpc+proto", "user-agent": USER_AGENT, te: "trailers" };
  if (header !== undefined) new Headers(header).forEach((v, k) => (headers[k] = v));
  const canceled = (): ConnectError => ConnectError.from(signal?.reason ?? abortError(), Code.Canceled);
  const isAborted = (): boolean => signal?.aborted === true;
  if (isAborted()) throw canceled();
  let stream: ClientHttp2Stream;
  try {
    stream = await options.session.request("POST", `/${method.parent.typeName}/${method.name}`, headers, {});
  } catch (e) {
    throw errorOfNodeReason(e);
  }
  const onAbort = (): void => {
    if (!stream.closed) stream.close(H2.CANCEL);
  };
  if (isAborted()) onAbort();
  signal?.addEventListener("abort", onAbort);
  let trailer: IncomingHttpHeaders | undefined;
  stream.on("trailers", (t) => (trailer = t));
  let gotResponse = false;
  const responded = new Promise<IncomingHttpHeaders>((resolve, reject) => {
    stream.once("response", (h) => {
      gotResponse = true;
      resolve(h);
    });
    stream.once("error", reject);
    stream.once("close", () => {
      if (gotResponse) return; // The messages' reader reports how the stream ended.
      reject(isAborted() ? canceled() : (errorOfReset(stream.rstCode) ?? new ConnectError("stream closed before a response", Code.Unavailable)));
    });
  });
  // Errors after the response are the messages' reader's to report.
  responded.catch(() => undefined);
  stream.end(frame);
  let h: IncomingHttpHeaders;
  try {
    h = await responded;
  } catch (e) {
    signal?.removeEventListener("abort", onAbort);
    if (!stream.closed) stream.close(H2.INTERNAL_ERROR);
    throw isAborted() ? canceled() : errorOfNodeReason(e);
  }
  const status = Number(h[":status"] ?? 0);
  const type = first(h["content-type"]);
  const early =
    status !== 200
      ? new ConnectError(`HTTP ${status}`, codeOfHttpStatus(status), toWebHeaders(h))
      : statusError(h, () => toWebHeaders(h)) ??
        (type === undefined || !CONTENT_TYPE.test(type) ? new ConnectError(`unsupported content type ${type ?? "null"}`, Code.Unknown) : undefined);
  if (early !== undefined) {
    signal?.removeEventListener("abort", onAbort);
    if (!stream.closed) stream.close(H2.NO_ERROR);
    throw early;
  }
  async function* messages(): AsyncGenerator<MessageShape<O>> {
    let pending: Buffer = Buffer.alloc(0);
    try {
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          options.session.notifyResponseByteRead(stream);
          pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
          while (pending.length >= 5) {
            const length = pending.readUInt32BE(1);
            if (length > options.readMaxBytes) {
              throw new ConnectError(`message size ${length} is larger than configured readMaxBytes ${options.readMaxBytes}`, Code.ResourceExhausted);
            }
            if (pending.length < 5 + length) break;
            if ((pending[0]! & FLAG_COMPRESSED) !== 0) throw new ConnectError("received a compressed message, but none was negotiated", Code.Internal);
            const body = pending.subarray(5, 5 + length);
            pending = pending.subarray(5 + length);
            yield fromBinary(method.output, body);
          }
        }
      } catch (e) {
        throw isAborted() ? canceled() : errorOfNodeReason(e);
      }
      if (isAborted()) throw canceled();
      if (pending.length > 0) throw new ConnectError("the stream ended inside a message", Code.Internal);
      if (trailer === undefined) throw errorOfReset(stream.rstCode) ?? new ConnectError("the stream ended without a gRPC status", Code.Internal);
      const end = statusError(trailer, () => toWebHeaders(trailer));
      if (end !== undefined) throw end;
      if (first(trailer["grpc-status"]) === undefined) throw new ConnectError("the stream ended without a gRPC status", Code.Internal);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (!stream.closed) stream.close(H2.CANCEL);
    }
  }
  return {
    stream: true,
    service: method.parent,
    method,
    get header(): Headers {
      return toWebHeaders(h);
    },
    get trailer(): Headers {
      return toWebHeaders(trailer);
    },
    message: messages(),
  };
}
