import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AwsError, isAwsError } from "./aws-error.js";
import { Ec2Service, type ElasticIp } from "./ec2-service.js";
import { FakeAwsError, FakeAwsErrorCode } from "./fake-aws-error.js";
import { FaultInjector, type FaultOptions, type InjectedFault } from "./fault-injector.js";
import { parseJsonBody, type JsonObject } from "./json-input.js";
import { LogsService, type LogGroup } from "./logs-service.js";
import { parseQueryParams, type QueryTree } from "./query-params.js";
import type { JsonHandler, QueryHandler, ServiceContext } from "./service-context.js";
import { SsmService, type SsmParameter } from "./ssm-service.js";
import { S3Service, s3ActionOf, s3ErrorXml, type S3Object } from "./s3-service.js";
import { StsService } from "./sts-service.js";
import { escapeXml, escapeXmlAttribute, toXml } from "./xml-writer.js";

/** The services the fake answers for; `unknown` marks requests it could not route. */
export const FakeAwsService = {
  Ssm: "ssm",
  Logs: "logs",
  Ec2: "ec2",
  Sts: "sts",
  S3: "s3",
  Unknown: "unknown",
} as const;

/** One of the {@link FakeAwsService} values. */
export type FakeAwsService = (typeof FakeAwsService)[keyof typeof FakeAwsService];

/** One request the fake received, recorded after it was answered. */
export interface FakeAwsCall {
  /** 1-based sequence number in arrival order. */
  readonly seq: number;
  /** The routed service (`unknown` if the request could not be routed at all). */
  readonly service: FakeAwsService;
  /** The operation name (`X-Amz-Target` suffix or the `Action` parameter; `""` if none). */
  readonly action: string;
  /** The parsed parameters: the JSON body, or the decoded Query tree without `Action`/`Version`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The HTTP status answered. */
  readonly status: number;
  /** The AWS error code answered, if the call failed. */
  readonly errorCode?: string;
  /** Whether the fake has no handler for the action (or service): tests should fail on these. */
  readonly unknown: boolean;
  /** The ids of the injected faults that fired on this call (empty if none). */
  readonly faultIds: readonly number[];
  /** The region from the SigV4 credential scope of the `Authorization` header, if present. */
  readonly region?: string;
  /** The request id answered in `x-amzn-RequestId` / `<requestId>`. */
  readonly requestId: string;
  /** The access key id of the SigV4 credential of the `Authorization` header, if signed. */
  readonly accessKeyId?: string;
}

/** Everything the fake stores, as plain snapshots. */
export interface FakeAwsState {
  /** SSM parameters, sorted by name. */
  readonly ssmParameters: readonly SsmParameter[];
  /** CloudWatch Logs log groups, sorted by name. */
  readonly logGroups: readonly LogGroup[];
  /** EC2 Elastic IPs, in allocation order. */
  readonly addresses: readonly ElasticIp[];
  /** S3 objects, sorted by bucket and key. */
  readonly s3Objects: readonly S3Object[];
}

/** Options of {@link startFakeAws}. */
export interface FakeAwsOptions {
  /** The TCP port on 127.0.0.1; default 0 (a free port). */
  readonly port?: number;
  /** The account id used in ARNs; default `123456789012`. */
  readonly accountId?: string;
  /** The region used in ARNs; default `us-east-1`. */
  readonly region?: string;
}

/** A running fake AWS endpoint. */
export interface FakeAws {
  /** `http://127.0.0.1:<port>`: use it as every service's endpoint. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** The account id in ARNs. */
  readonly accountId: string;
  /** The region in ARNs. */
  readonly region: string;
  /** Every call received so far, in order (a live, read-only view). */
  readonly calls: readonly FakeAwsCall[];
  /** The calls whose action or service the fake does not implement. */
  unknownCalls(): FakeAwsCall[];
  /** The calls of one action (optionally of one service). */
  callsOf(action: string, service?: FakeAwsService): FakeAwsCall[];
  /** Forgets the recorded calls (state and faults are kept). */
  resetCalls(): void;
  /** Fails or delays upcoming calls; see {@link FaultOptions}. @throws FakeAwsError `invalid_fault`. */
  inject(options: FaultOptions): InjectedFault;
  /** Removes every injected fault. */
  clearFaults(): void;
  /** Creates an S3 bucket (as `PUT /<bucket>` does). */
  createBucket(name: string): void;
  /** A snapshot of the stored resources. */
  state(): FakeAwsState;
  /** Whether no resource of any kind is stored. */
  isEmpty(): boolean;
  /** Stops the server (closing idle keep-alive connections); resolves when it is closed. */
  close(): Promise<void>;
}

type Route =
  | { readonly kind: "json"; readonly service: FakeAwsService; readonly action: string; readonly handler: JsonHandler | undefined; readonly params: JsonObject }
  | {
      readonly kind: "query";
      readonly style: "ec2" | "query";
      readonly namespace: string;
      readonly service: FakeAwsService;
      readonly action: string;
      readonly handler: QueryHandler | undefined;
      readonly params: QueryTree;
    };

const MAX_BODY = 16 * 1024 * 1024;

/**
 * Starts a fake AWS endpoint on 127.0.0.1 answering SSM and CloudWatch Logs (JSON 1.1),
 * EC2 Elastic IPs (EC2 Query) and STS `GetCallerIdentity` (AWS Query) from in-memory state.
 * SigV4 signatures are not checked. Unknown actions are answered with
 * `UnknownOperationException` (JSON) or `InvalidAction` (Query) and recorded with `unknown: true`.
 *
 * @throws {@link FakeAwsError} `invalid_options` for a bad port, account id or region.
 */
export async function startFakeAws(options: FakeAwsOptions = {}): Promise<FakeAws> {
  const accountId = options.accountId ?? "123456789012";
  const region = options.region ?? "us-east-1";
  const port = options.port ?? 0;
  if (!/^\d{12}$/.test(accountId)) throw new FakeAwsError(FakeAwsErrorCode.InvalidOptions, `accountId must be 12 digits, got '${accountId}'`);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) throw new FakeAwsError(FakeAwsErrorCode.InvalidOptions, `region must look like us-east-1, got '${region}'`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new FakeAwsError(FakeAwsErrorCode.InvalidOptions, `port must be 0-65535, got ${String(port)}`);

  const ctx: ServiceContext = { accountId, region };
  const ssm = new SsmService(ctx);
  const logs = new LogsService(ctx);
  const ec2 = new Ec2Service(ctx);
  const sts = new StsService(ctx);
  const s3 = new S3Service();
  const faults = new FaultInjector();
  const calls: FakeAwsCall[] = [];
  let seq = 0;

  const jsonServices = new Map<string, { service: FakeAwsService; handlers: ReadonlyMap<string, JsonHandler> }>([
    [SsmService.targetPrefix, { service: FakeAwsService.Ssm, handlers: ssm.handlers }],
    [LogsService.targetPrefix, { service: FakeAwsService.Logs, handlers: logs.handlers }],
  ]);

  const route = (req: IncomingMessage, body: string): Route => {
    const target = req.headers["x-amz-target"];
    if (typeof target === "string") {
      const dot = target.lastIndexOf(".");
      const prefix = dot < 0 ? "" : target.slice(0, dot);
      const action = dot < 0 ? target : target.slice(dot + 1);
      const svc = jsonServices.get(prefix);
      const params = parseJsonBody(body);
      return { kind: "json", service: svc?.service ?? FakeAwsService.Unknown, action, handler: svc?.handlers.get(action), params };
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const contentType = req.headers["content-type"] ?? "";
    const form = req.method === "POST" && contentType.startsWith("application/x-www-form-urlencoded") ? body : url.search.slice(1);
    const tree = parseQueryParams(form);
    const action = typeof tree["Action"] === "string" ? tree["Action"] : "";
    const version = typeof tree["Version"] === "string" ? tree["Version"] : "";
    delete tree["Action"];
    delete tree["Version"];
    const scoped = credentialScope(req)?.service;
    const isEc2 = scoped === "ec2" || (scoped === undefined && version === Ec2Service.apiVersion);
    const isSts = scoped === "sts" || (scoped === undefined && version === StsService.apiVersion);
    if (isEc2) {
      return { kind: "query", style: "ec2", namespace: Ec2Service.namespace, service: FakeAwsService.Ec2, action, handler: ec2.handlers.get(action), params: tree };
    }
    if (isSts) {
      return { kind: "query", style: "query", namespace: StsService.namespace, service: FakeAwsService.Sts, action, handler: sts.handlers.get(action), params: tree };
    }
    return { kind: "query", style: "query", namespace: "", service: FakeAwsService.Unknown, action, handler: undefined, params: tree };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const bytes = await readBody(req);
    const body = bytes.toString("utf8");
    const scope = credentialScope(req);
    const region = scope?.region;
    const signer = scope === undefined ? {} : { accessKeyId: scope.accessKeyId };
    if (scope?.service === "s3") {
      await handleS3(req, res, bytes, requestId, region, signer);
      return;
    }
    let r: Route;
    try {
      r = route(req, body);
    } catch (e) {
      const err = isAwsError(e) ? e : new AwsError("InternalFailure", String(e), 500);
      const jsonish = typeof req.headers["x-amz-target"] === "string";
      if (jsonish) sendJsonError(res, err, requestId);
      else sendXml(res, err.status, ec2ErrorXml(err, requestId), requestId);
      calls.push({ seq: ++seq, service: FakeAwsService.Unknown, action: String(req.headers["x-amz-target"] ?? ""), params: {}, status: err.status, errorCode: err.code, unknown: true, faultIds: [], requestId, ...(region === undefined ? {} : { region }), ...signer });
      return;
    }
    const effect = faults.onCall(r.service, r.action);
    if (effect !== undefined && effect.delayMs > 0) await sleep(effect.delayMs);
    if (effect?.dropConnection === true) {
      req.socket.destroy();
      calls.push({ seq: ++seq, service: r.service, action: r.action, params: r.params, status: 0, unknown: false, faultIds: effect.faultIds, requestId, ...(region === undefined ? {} : { region }), ...signer });
      return;
    }
    const unknown = r.handler === undefined && effect?.error === undefined;
    let status = 200;
    let errorCode: string | undefined;
    try {
      if (effect?.error !== undefined) throw new AwsError(effect.error.code, effect.error.message, effect.error.status);
      if (r.kind === "json") {
        if (r.handler === undefined) {
          throw new AwsError("UnknownOperationException", r.service === FakeAwsService.Unknown ? `Unknown service target '${String(req.headers["x-amz-target"])}'.` : `The fake does not implement ${r.action}.`);
        }
        sendJson(res, 200, r.handler(r.params), requestId);
      } else {
        if (r.handler === undefined) {
          throw new AwsError("InvalidAction", r.action === "" ? "The request must contain the parameter Action." : `The action ${r.action} is not valid for this web service.`);
        }
        const fields = r.handler(r.params);
        const xml =
          r.style === "ec2"
            ? toXml(`${r.action}Response`, r.namespace, { requestId, ...fields })
            : toXml(`${r.action}Response`, r.namespace, { [`${r.action}Result`]: fields, ResponseMetadata: { RequestId: requestId } });
        sendXml(res, 200, xml, requestId);
      }
    } catch (e) {
      const err = isAwsError(e) ? e : new AwsError("InternalFailure", `fake-aws handler failed: ${(e as Error).message}`, 500);
      status = err.status;
      errorCode = err.code;
      if (r.kind === "json") sendJsonError(res, err, requestId);
      else if (r.style === "ec2") sendXml(res, err.status, ec2ErrorXml(err, requestId), requestId);
      else sendXml(res, err.status, queryErrorXml(err, r.namespace, requestId), requestId);
    }
    calls.push({
      seq: ++seq,
      service: r.service,
      action: r.action,
      params: r.params,
      status,
      ...(errorCode === undefined ? {} : { errorCode }),
      unknown,
      faultIds: effect?.faultIds ?? [],
      ...(region === undefined ? {} : { region }),
      requestId,
      ...signer,
    });
  };

  const handleS3 = async (req: IncomingMessage, res: ServerResponse, bytes: Buffer, requestId: string, region: string | undefined, signer: { accessKeyId?: string }): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const action = s3ActionOf(method, url.pathname, url.searchParams);
    const params = { path: decodeURIComponent(url.pathname), ...Object.fromEntries(url.searchParams) };
    const effect = faults.onCall(FakeAwsService.S3, action);
    if (effect !== undefined && effect.delayMs > 0) await sleep(effect.delayMs);
    const record = (status: number, errorCode?: string): void => {
      calls.push({ seq: ++seq, service: FakeAwsService.S3, action, params, status, ...(errorCode === undefined ? {} : { errorCode }), unknown: false, faultIds: effect?.faultIds ?? [], requestId, ...(region === undefined ? {} : { region }), ...signer });
    };
    if (effect?.dropConnection === true) {
      req.socket.destroy();
      record(0);
      return;
    }
    try {
      if (effect?.error !== undefined) throw new AwsError(effect.error.code, effect.error.message, effect.error.status);
      const out = s3.handle({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body: bytes });
      const payload = typeof out.body === "string" ? Buffer.from(out.body, "utf8") : Buffer.from(out.body);
      res.writeHead(out.status, { "x-amz-request-id": requestId, "content-length": String(payload.byteLength), ...out.headers });
      res.end(method === "HEAD" ? undefined : payload);
      record(out.status);
    } catch (e) {
      const err = isAwsError(e) ? e : new AwsError("InternalError", `fake-aws handler failed: ${(e as Error).message}`, 500);
      const xml = s3ErrorXml(err, decodeURIComponent(url.pathname), requestId);
      res.writeHead(err.status, { "content-type": "application/xml", "x-amz-request-id": requestId, ...(method === "HEAD" ? {} : { "content-length": String(Buffer.byteLength(xml)) }) });
      res.end(method === "HEAD" ? undefined : xml);
      record(err.status, err.code);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain" });
      }
      res.end(`fake-aws: ${String(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;

  const state = (): FakeAwsState => ({ ssmParameters: ssm.parameters(), logGroups: logs.logGroups(), addresses: ec2.addresses(), s3Objects: s3.objects() });
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    accountId,
    region,
    calls,
    unknownCalls: () => calls.filter((c) => c.unknown),
    callsOf: (action, service) => calls.filter((c) => c.action === action && (service === undefined || c.service === service)),
    resetCalls: () => {
      calls.length = 0;
    },
    inject: (o) => faults.inject(o),
    clearFaults: () => faults.clear(),
    createBucket: (name) => s3.createBucket(name),
    state,
    isEmpty: () => {
      const s = state();
      return s.ssmParameters.length === 0 && s.logGroups.length === 0 && s.addresses.length === 0 && s3.isEmpty();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e === undefined ? resolve() : reject(e)));
        server.closeIdleConnections();
      }),
  };
}

/** The SigV4 credential scope (`Credential=AKID/date/region/service/aws4_request`) of a request. */
function credentialScope(req: IncomingMessage): { accessKeyId: string; region: string; service: string } | undefined {
  const auth = req.headers["authorization"];
  if (typeof auth !== "string") return undefined;
  const m = /Credential=([^/,\s]+)\/\d{8}\/([^/,\s]+)\/([^/,\s]+)\/aws4_request/.exec(auth);
  if (m === null) return undefined;
  return { accessKeyId: m[1] as string, region: m[2] as string, service: m[3] as string };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new Error(`request body larger than ${MAX_BODY} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: JsonObject, requestId: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/x-amz-json-1.1",
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": requestId,
  });
  res.end(text);
}

function sendJsonError(res: ServerResponse, err: AwsError, requestId: string): void {
  const text = JSON.stringify({ __type: err.code, message: err.message });
  res.writeHead(err.status, {
    "content-type": "application/x-amz-json-1.1",
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": requestId,
    "x-amzn-errortype": err.code,
  });
  res.end(text);
}

function sendXml(res: ServerResponse, status: number, xml: string, requestId: string): void {
  res.writeHead(status, {
    "content-type": "text/xml;charset=UTF-8",
    "content-length": Buffer.byteLength(xml),
    "x-amzn-requestid": requestId,
  });
  res.end(xml);
}

/** The EC2 error document: `<Response><Errors><Error><Code>…</Code><Message>…</Message></Error></Errors><RequestID>…`. */
export function ec2ErrorXml(err: AwsError, requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message></Error></Errors><RequestID>${escapeXml(requestId)}</RequestID></Response>`;
}

/** The AWS Query error document (`<ErrorResponse><Error><Type>…`), as STS and IAM answer. */
export function queryErrorXml(err: AwsError, namespace: string, requestId: string): string {
  const ns = namespace === "" ? "" : ` xmlns="${escapeXmlAttribute(namespace)}"`;
  const type = err.status >= 500 ? "Receiver" : "Sender";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse${ns}><Error><Type>${type}</Type><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message></Error><RequestId>${escapeXml(requestId)}</RequestId></ErrorResponse>`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
