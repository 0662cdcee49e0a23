import { createHash } from "node:crypto";
import { AwsError } from "./aws-error.js";
import { escapeXml } from "./xml-writer.js";

/** One stored S3 object, as {@link S3Service.objects} lists it. */
export interface S3Object {
  /** The bucket. */
  readonly bucket: string;
  /** The key. */
  readonly key: string;
  /** The bytes. */
  readonly body: Uint8Array;
  /** The `Content-Type` it was written with (default `binary/octet-stream`). */
  readonly contentType: string;
  /** The quoted MD5 ETag. */
  readonly etag: string;
  /** The base64 MD5 of the SSE-C key it was written with, if any. */
  readonly sseCustomerKeyMd5?: string;
  /** The `x-amz-server-side-encryption` it was written with, if any (`AES256`, `aws:kms`). */
  readonly serverSideEncryption?: string;
  /** When it was written. */
  readonly lastModified: Date;
}

/** One S3 REST request, as the server hands it to {@link S3Service.handle}. */
export interface S3Request {
  readonly method: string;
  /** The path, still percent-encoded (`/bucket/key`). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
}

/** What {@link S3Service.handle} answers. */
export interface S3Response {
  /** The operation's name (`PutObject`, …), for the call log and fault matching. */
  readonly action: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | string;
}

const XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";

function header(req: S3Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The S3 operation a REST request names (path-style addressing only), without running it:
 * so faults can be matched before the handler runs.
 */
export function s3ActionOf(method: string, path: string, query: URLSearchParams): string {
  const parts = path.replace(/^\//, "").split("/");
  const hasKey = parts.length > 1 && parts.slice(1).join("/") !== "";
  if (!hasKey) {
    if (method === "PUT") return "CreateBucket";
    if (method === "HEAD") return "HeadBucket";
    if (method === "DELETE") return "DeleteBucket";
    if (method === "GET") return query.get("list-type") === "2" ? "ListObjectsV2" : "ListObjects";
    return `${method}Bucket`;
  }
  if (method === "PUT") return "PutObject";
  if (method === "GET") return "GetObject";
  if (method === "HEAD") return "HeadObject";
  if (method === "DELETE") return "DeleteObject";
  return `${method}Object`;
}

/**
 * A minimal S3 (REST-XML, path-style): buckets; PutObject with conditional writes
 * (`If-None-Match: *`, `If-Match: <etag>`), SSE-C and a `x-amz-checksum-sha256` check;
 * GetObject (with `Range`) and HeadObject, refusing a read of an SSE-C object without its
 * key; DeleteObject; ListObjectsV2 (prefix, max-keys, continuation token). What Terraform's
 * s3 backend calls, so that `use_lockfile` locks can conflict.
 */
export class S3Service {
  readonly #buckets = new Map<string, Map<string, S3Object>>();

  /** Creates a bucket (what a `PUT /<bucket>` does); an existing one is kept. */
  createBucket(name: string): void {
    if (!this.#buckets.has(name)) this.#buckets.set(name, new Map());
  }

  /** Every stored object, sorted by bucket then key. */
  objects(): S3Object[] {
    return [...this.#buckets.values()].flatMap((b) => [...b.values()]).sort((a, b) => (a.bucket === b.bucket ? cmp(a.key, b.key) : cmp(a.bucket, b.bucket)));
  }

  /** Whether no bucket exists. */
  isEmpty(): boolean {
    return this.#buckets.size === 0;
  }

  /**
   * Answers one request.
   * @throws AwsError for S3's errors (`NoSuchBucket`, `NoSuchKey`, `PreconditionFailed`, …).
   */
  handle(req: S3Request): S3Response {
    const action = s3ActionOf(req.method, req.path, req.query);
    const parts = req.path.replace(/^\//, "").split("/");
    const bucketName = decodeURIComponent(parts[0] ?? "");
    const key = parts
      .slice(1)
      .map((p) => decodeURIComponent(p))
      .join("/");
    const ok = (status: number, headers: Record<string, string> = {}, body: Uint8Array | string = ""): S3Response => ({ action, status, headers, body });
    if (action === "CreateBucket") {
      this.createBucket(bucketName);
      return ok(200, { location: `/${bucketName}` });
    }
    const bucket = this.#buckets.get(bucketName);
    if (bucket === undefined) throw new AwsError("NoSuchBucket", "The specified bucket does not exist", 404);
    switch (action) {
      case "HeadBucket":
        return ok(200);
      case "DeleteBucket":
        if (bucket.size > 0) throw new AwsError("BucketNotEmpty", "The bucket you tried to delete is not empty", 409);
        this.#buckets.delete(bucketName);
        return ok(204);
      case "ListObjectsV2":
        return ok(200, { "content-type": "application/xml" }, this.#list(bucketName, bucket, req.query));
      case "PutObject":
        return ok(200, this.#put(bucketName, bucket, key, req));
      case "GetObject":
      case "HeadObject": {
        const obj = bucket.get(key);
        if (obj === undefined) throw new AwsError("NoSuchKey", "The specified key does not exist.", 404);
        checkSseC(obj, req);
        const headers: Record<string, string> = {
          "content-type": obj.contentType,
          etag: obj.etag,
          "last-modified": obj.lastModified.toUTCString(),
          "accept-ranges": "bytes",
          ...(obj.serverSideEncryption === undefined ? {} : { "x-amz-server-side-encryption": obj.serverSideEncryption }),
          ...(obj.sseCustomerKeyMd5 === undefined ? {} : { "x-amz-server-side-encryption-customer-algorithm": "AES256", "x-amz-server-side-encryption-customer-key-md5": obj.sseCustomerKeyMd5 }),
        };
        const range = action === "GetObject" ? header(req, "range") : undefined;
        const m = range === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
        if (m !== null && obj.body.byteLength > 0) {
          const start = Number(m[1]);
          const end = Math.min(m[2] === "" ? obj.body.byteLength - 1 : Number(m[2]), obj.body.byteLength - 1);
          if (start > end) throw new AwsError("InvalidRange", "The requested range is not satisfiable", 416);
          return ok(206, { ...headers, "content-range": `bytes ${start}-${end}/${obj.body.byteLength}`, "content-length": String(end - start + 1) }, obj.body.subarray(start, end + 1));
        }
        return ok(200, { ...headers, "content-length": String(obj.body.byteLength) }, action === "GetObject" ? obj.body : "");
      }
      case "DeleteObject":
        bucket.delete(key);
        return ok(204);
      default:
        throw new AwsError("NotImplemented", `The fake does not implement ${action}.`, 501);
    }
  }

  #put(bucketName: string, bucket: Map<string, S3Object>, key: string, raw: S3Request): Record<string, string> {
    const req = (header(raw, "content-encoding") ?? "").includes("aws-chunked") ? decodeAwsChunked(raw) : raw;
    const existing = bucket.get(key);
    const noneMatch = header(req, "if-none-match");
    const match = header(req, "if-match");
    if (noneMatch !== undefined) {
      if (noneMatch !== "*") throw new AwsError("NotImplemented", "A header you provided implies functionality that is not implemented", 501);
      if (existing !== undefined) throw new AwsError("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", 412);
    }
    if (match !== undefined) {
      if (existing === undefined) throw new AwsError("NoSuchKey", "The specified key does not exist.", 404);
      if (match.replace(/"/g, "") !== existing.etag.replace(/"/g, "")) throw new AwsError("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", 412);
    }
    const sha = header(req, "x-amz-checksum-sha256");
    if (sha !== undefined && sha !== createHash("sha256").update(req.body).digest("base64")) {
      throw new AwsError("BadDigest", "The SHA256 you specified did not match the calculated checksum.", 400);
    }
    const sseCKey = header(req, "x-amz-server-side-encryption-customer-key");
    let sseCustomerKeyMd5: string | undefined;
    if (sseCKey !== undefined) {
      const raw = Buffer.from(sseCKey, "base64");
      const md5 = createHash("md5").update(raw).digest("base64");
      if (raw.byteLength !== 32) throw new AwsError("InvalidArgument", "The secret key was invalid for the specified algorithm.", 400);
      if (header(req, "x-amz-server-side-encryption-customer-key-md5") !== md5) throw new AwsError("InvalidArgument", "The calculated MD5 hash of the key did not match the hash that was provided.", 400);
      sseCustomerKeyMd5 = md5;
    }
    const etag = `"${createHash("md5").update(req.body).digest("hex")}"`;
    const sse = header(req, "x-amz-server-side-encryption");
    bucket.set(key, {
      bucket: bucketName,
      key,
      body: new Uint8Array(req.body),
      contentType: header(req, "content-type") ?? "binary/octet-stream",
      etag,
      lastModified: new Date(),
      ...(sseCustomerKeyMd5 === undefined ? {} : { sseCustomerKeyMd5 }),
      ...(sse === undefined ? {} : { serverSideEncryption: sse }),
    });
    return {
      etag,
      ...(sse === undefined ? {} : { "x-amz-server-side-encryption": sse }),
      ...(sseCustomerKeyMd5 === undefined ? {} : { "x-amz-server-side-encryption-customer-algorithm": "AES256", "x-amz-server-side-encryption-customer-key-md5": sseCustomerKeyMd5 }),
    };
  }

  #list(name: string, bucket: Map<string, S3Object>, q: URLSearchParams): string {
    const prefix = q.get("prefix") ?? "";
    const max = Math.min(Number(q.get("max-keys") ?? "1000") || 1000, 1000);
    const after = q.get("continuation-token") ?? q.get("start-after") ?? "";
    const keys = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort(cmp);
    const page = keys.slice(0, max);
    const truncated = keys.length > page.length;
    const contents = page
      .map((k) => {
        const o = bucket.get(k)!;
        return `<Contents><Key>${escapeXml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${escapeXml(o.etag)}</ETag><Size>${o.body.byteLength}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join("");
    const next = truncated ? `<NextContinuationToken>${escapeXml(page[page.length - 1]!)}</NextContinuationToken>` : "";
    return `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="${XMLNS}"><Name>${escapeXml(name)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`;
  }
}

/** S3's checks of a read against an object's SSE-C key. */
function checkSseC(obj: S3Object, req: S3Request): void {
  const given = header(req, "x-amz-server-side-encryption-customer-key");
  if (obj.sseCustomerKeyMd5 === undefined) {
    if (given !== undefined) throw new AwsError("InvalidRequest", "The encryption parameters are not applicable to this object.", 400);
    return;
  }
  if (given === undefined) throw new AwsError("InvalidRequest", "The object was stored using a form of Server Side Encryption. The correct parameters must be provided to retrieve the object.", 400);
  if (createHash("md5").update(Buffer.from(given, "base64")).digest("base64") !== obj.sseCustomerKeyMd5) {
    throw new AwsError("AccessDenied", "Access Denied", 403);
  }
}

/** The S3 error document. */
export function s3ErrorXml(err: AwsError, resource: string, requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message><Resource>${escapeXml(resource)}</Resource><RequestId>${escapeXml(requestId)}</RequestId></Error>`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An `aws-chunked` upload (`Content-Encoding: aws-chunked`, as the SDKs stream a body with a
 * trailing checksum over HTTPS) as a plain one: the chunks (`<hex size>[;chunk-signature=…]\r\n
 * <data>\r\n`, ending with a zero-size chunk) joined, the trailers (`x-amz-checksum-sha256:…`)
 * as headers. The decoded length must be `x-amz-decoded-content-length`.
 */
function decodeAwsChunked(req: S3Request): S3Request {
  const body = Buffer.from(req.body);
  const parts: Buffer[] = [];
  const trailers: Record<string, string> = {};
  let at = 0;
  const line = (): string => {
    const end = body.indexOf("\r\n", at);
    if (end < 0) throw new AwsError("IncompleteBody", "The aws-chunked body ends inside a chunk header.", 400);
    const text = body.subarray(at, end).toString("latin1");
    at = end + 2;
    return text;
  };
  for (;;) {
    const head = line();
    const size = Number.parseInt(head.split(";")[0] ?? "", 16);
    if (!Number.isInteger(size) || size < 0) throw new AwsError("InvalidArgument", `Bad aws-chunked chunk header ${JSON.stringify(head)}.`, 400);
    if (size === 0) break;
    if (at + size + 2 > body.length) throw new AwsError("IncompleteBody", "The aws-chunked body ends inside a chunk.", 400);
    parts.push(body.subarray(at, at + size));
    at += size + 2;
  }
  while (at < body.length) {
    const t = line();
    if (t === "") break;
    const colon = t.indexOf(":");
    if (colon > 0) trailers[t.slice(0, colon).trim().toLowerCase()] = t.slice(colon + 1).trim();
  }
  const decoded = Buffer.concat(parts);
  const declared = header(req, "x-amz-decoded-content-length");
  if (declared !== undefined && Number(declared) !== decoded.length) throw new AwsError("IncompleteBody", "The decoded length does not match x-amz-decoded-content-length.", 400);
  return { ...req, headers: { ...req.headers, ...trailers }, body: new Uint8Array(decoded) };
}
