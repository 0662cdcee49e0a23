import { createHash } from "node:crypto";
import { DeleteItemCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type PutObjectCommandInput } from "@aws-sdk/client-s3";
import { fromNodeProviderChain, fromTemporaryCredentials } from "@aws-sdk/credential-providers";
import type { LockInfo, LockRequest, StateBackend, StateStore } from "../backend.js";
import { marshalLockInfo, newLockInfo, parseLockInfo } from "../internal/lock-info-json.js";
import { StateError, isStateError } from "../state-error.js";
import { TERRAFORM_VERSION } from "../state-file.js";

/** The `endpoints` object of Terraform's s3 backend (custom service URLs, e.g. an S3-compatible store). */
export interface S3Endpoints {
  readonly s3?: string;
  readonly dynamodb?: string;
  readonly sts?: string;
  readonly iam?: string;
}

/** The `assume_role` object of Terraform's s3 backend. */
export interface S3AssumeRole {
  /** `role_arn` (required). */
  readonly roleArn: string;
  /** `session_name`. Default `magma-<time>` (Terraform: the SDK's default). */
  readonly sessionName?: string;
  /** `external_id`. */
  readonly externalId?: string;
  /** `duration` as a Go duration (`1h`, `15m`, `3600s`). */
  readonly duration?: string;
  /** `policy`: an IAM policy document (JSON). */
  readonly policy?: string;
}

/** The settings of Terraform 1.11's `s3` backend that magma implements (camel-cased). */
export interface S3BackendOptions {
  /** `bucket` (required). */
  readonly bucket: string;
  /** `key` (required): the default workspace's object key. */
  readonly key: string;
  /** `region`; else `AWS_REGION`/`AWS_DEFAULT_REGION`. */
  readonly region?: string;
  /** `workspace_key_prefix`. Default `env:` (other workspaces at `<prefix>/<name>/<key>`). */
  readonly workspaceKeyPrefix?: string;
  /** `use_lockfile`: lock with `<key>.tflock` written with S3's `If-None-Match: *`. */
  readonly useLockfile?: boolean;
  /** `dynamodb_table`: lock with an item `LockID = <bucket>/<key>` and keep the state's MD5 in `<bucket>/<key>-md5`. */
  readonly dynamodbTable?: string;
  /** `encrypt`: server-side encryption (AES256, or aws:kms with `kmsKeyId`). */
  readonly encrypt?: boolean;
  /** `kms_key_id`: the KMS key of server-side encryption. */
  readonly kmsKeyId?: string;
  /** `sse_customer_key`: a base64 256-bit key for SSE-C. */
  readonly sseCustomerKey?: string;
  /** `acl`: a canned ACL for the objects written. */
  readonly acl?: string;
  /** `endpoints` (and the deprecated `endpoint`/`dynamodb_endpoint`/`sts_endpoint`). */
  readonly endpoints?: S3Endpoints;
  /** `use_path_style` (also `force_path_style`). */
  readonly usePathStyle?: boolean;
  /** `skip_s3_checksum`: send no SHA-256 checksum with uploads (for S3-compatible stores). */
  readonly skipS3Checksum?: boolean;
  /** `access_key`, `secret_key`, `token`: static credentials; else the AWS chain (environment, profile, SSO, web identity, container, instance metadata). */
  readonly accessKey?: string;
  readonly secretKey?: string;
  readonly token?: string;
  /** `profile`: the shared configuration profile of the chain. */
  readonly profile?: string;
  /** `assume_role`: a role assumed with STS on top of those credentials. */
  readonly assumeRole?: S3AssumeRole;
  /** `max_retries`. Default 5 (the SDK makes max_retries + 1 attempts). */
  readonly maxRetries?: number;
  /** Where AWS variables are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The version written into lock info. Default {@link TERRAFORM_VERSION}. */
  readonly version?: string;
}

const ENCRYPTION = "AES256";

/** The S3 backend: states in a bucket, one object per workspace. */
export interface S3Backend extends StateBackend {
  /** Always `"s3"`. */
  readonly kind: "s3";
  /** Releases the SDK clients' connections. */
  close(): void;
}

function errName(e: unknown): string {
  return typeof e === "object" && e !== null && typeof (e as { name?: unknown }).name === "string" ? (e as { name: string }).name : "";
}

/**
 * An SDK failure worded as the Go SDK words it in Terraform's errors: `operation error S3:
 * PutObject, https response error StatusCode: 412, RequestID: …, HostID: …, api error
 * PreconditionFailed: …` (a failure without a response: `operation error S3: PutObject, <name>: <message>`).
 */
function errMessage(e: unknown, op?: string): string {
  if (isStateError(e)) return e.message.replace(/^\[[a-z_]+\] /, "");
  const meta = (e as { $metadata?: { httpStatusCode?: number; requestId?: string; extendedRequestId?: string } } | undefined)?.$metadata;
  const base = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const prefix = op === undefined ? "" : `operation error ${op.startsWith("DynamoDB") ? "DynamoDB" : "S3"}: ${op.replace(/^DynamoDB/, "")}, `;
  if (meta?.httpStatusCode === undefined) return `${prefix}${base}`;
  return `${prefix}https response error StatusCode: ${meta.httpStatusCode}, RequestID: ${meta.requestId ?? ""}, HostID: ${meta.extendedRequestId ?? ""}, api error ${base}`;
}

function noSuchBucket(bucket: string, e: unknown, op: string): StateError {
  return new StateError(
    "not_found",
    `S3 bucket ${JSON.stringify(bucket)} does not exist.\n\nThe referenced S3 bucket must have been previously created. If the S3 bucket\nwas created within the last minute, please wait for a minute or two and try\nagain.\n\nError: ${errMessage(e, op)}`,
    { cause: e },
  );
}

/** A Go duration (`1h30m`, `900s`) in seconds. */
function durationSeconds(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * unit[m[2]!]!;
    end = re.lastIndex;
  }
  if (end !== text.length || text === "") throw new StateError("invalid_argument", `s3 backend: assume_role.duration ${JSON.stringify(text)} is not a duration (e.g. "1h", "15m")`);
  return Math.round(total);
}

/** The state of one workspace in the bucket. */
class S3StateStore implements StateStore {
  readonly workspace: string;
  readonly #b: S3BackendImpl;
  readonly #path: string;

  constructor(b: S3BackendImpl, workspace: string) {
    this.#b = b;
    this.workspace = workspace;
    this.#path = b.path(workspace);
  }

  get #lockFile(): string {
    return `${this.#path}.tflock`;
  }

  get #lockId(): string {
    return `${this.#b.o.bucket}/${this.#path}`;
  }

  #sse(input: Record<string, unknown>, forRead = false): void {
    const o = this.#b.o;
    if (o.encrypt !== true) return;
    if (o.sseCustomerKey !== undefined) {
      input["SSECustomerAlgorithm"] = ENCRYPTION;
      input["SSECustomerKey"] = o.sseCustomerKey;
      input["SSECustomerKeyMD5"] = createHash("md5").update(Buffer.from(o.sseCustomerKey, "base64")).digest("base64");
    } else if (!forRead) {
      if (o.kmsKeyId !== undefined) {
        input["ServerSideEncryption"] = "aws:kms";
        input["SSEKMSKeyId"] = o.kmsKeyId;
      } else input["ServerSideEncryption"] = ENCRYPTION;
    }
  }

  async #getObject(key: string): Promise<Uint8Array | undefined> {
    const input: Record<string, unknown> = { Bucket: this.#b.o.bucket, Key: key };
    this.#sse(input, true);
    try {
      const out = await this.#b.s3.send(new GetObjectCommand(input as never));
      return out.Body === undefined ? new Uint8Array(0) : await out.Body.transformToByteArray();
    } catch (e) {
      const n = errName(e);
      if (n === "NoSuchKey" || n === "NotFound") return undefined;
      if (n === "NoSuchBucket") throw noSuchBucket(this.#b.o.bucket, e, "GetObject");
      throw new StateError("io", `Unable to access object ${JSON.stringify(key)} in S3 bucket ${JSON.stringify(this.#b.o.bucket)}: ${errMessage(e, "GetObject")}`, { cause: e });
    }
  }

  async #storedDigest(): Promise<string | undefined> {
    const table = this.#b.o.dynamodbTable;
    if (table === undefined) return undefined;
    try {
      const out = await this.#b.ddb.send(new GetItemCommand({ TableName: table, Key: { LockID: { S: `${this.#lockId}-md5` } }, ProjectionExpression: "LockID, Digest", ConsistentRead: true }));
      const d = out.Item?.["Digest"]?.S;
      return d !== undefined && /^[0-9a-f]{32}$/i.test(d) ? d.toLowerCase() : undefined;
    } catch {
      return undefined; // Terraform logs and reads on without the check.
    }
  }

  /**
   * Reads the workspace's object (none: undefined). With `dynamodb_table`, the object's MD5
   * must match the digest Terraform keeps in the table; a mismatch is retried for 10 s (S3's
   * eventual consistency), then refused as Terraform refuses it.
   *
   * @throws StateError `not_found` for a missing bucket, `corrupt` for a digest mismatch, `io` otherwise.
   */
  async read(): Promise<Uint8Array | undefined> {
    const deadline = Date.now() + this.#b.consistencyRetryMs;
    for (;;) {
      const data = await this.#getObject(this.#path);
      const payload = data === undefined || data.byteLength === 0 ? undefined : data;
      const expected = await this.#storedDigest();
      const actual = payload === undefined ? undefined : createHash("md5").update(payload).digest("hex");
      if (expected !== undefined && expected !== actual) {
        if (Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, Math.min(2000, this.#b.consistencyRetryMs)));
          continue;
        }
        throw new StateError(
          "corrupt",
          `state data in S3 does not have the expected content.\n\nThe checksum calculated for the state stored in S3 does not match the checksum\nstored in DynamoDB.\n\nBucket: ${this.#b.o.bucket}\nKey:    ${this.#path}\nCalculated checksum: ${actual ?? ""}\nStored checksum:     ${expected}\n\nThis may be caused by unusually long delays in S3 processing a previous state\nupdate. Please wait for a minute or two and try again.\n\nIf this problem persists, and neither S3 nor DynamoDB are experiencing an\noutage, you may need to manually verify the remote state and update the Digest\nvalue stored in the DynamoDB table to the following value: ${actual ?? ""}`,
        );
      }
      return payload;
    }
  }

  /**
   * Uploads the state (with the encryption, ACL and checksum settings), then records its MD5
   * in the DynamoDB table when there is one.
   *
   * @throws StateError `io` (`failed to upload state: …`; the object is untouched when the upload fails),
   *   or `failed to store state MD5: …` when the table refuses the digest.
   */
  async write(bytes: Uint8Array): Promise<void> {
    const o = this.#b.o;
    const input: Record<string, unknown> = { Bucket: o.bucket, Key: this.#path, Body: bytes, ContentType: "application/json" };
    if (o.skipS3Checksum !== true) input["ChecksumAlgorithm"] = "SHA256";
    this.#sse(input);
    if (o.acl !== undefined) input["ACL"] = o.acl;
    try {
      await this.#b.s3.send(new PutObjectCommand(input as unknown as PutObjectCommandInput));
    } catch (e) {
      if (errName(e) === "NoSuchBucket") throw noSuchBucket(o.bucket, e, "PutObject");
      throw new StateError("io", `failed to upload state: ${errMessage(e, "PutObject")}`, { cause: e });
    }
    if (o.dynamodbTable !== undefined) {
      try {
        await this.#b.ddb.send(new PutItemCommand({ TableName: o.dynamodbTable, Item: { LockID: { S: `${this.#lockId}-md5` }, Digest: { S: createHash("md5").update(bytes).digest("hex") } } }));
      } catch (e) {
        // As terraform: the next read would refuse the state, so the write fails.
        throw new StateError("io", `failed to store state MD5: ${errMessage(e, "DynamoDBPutItem")}`, { cause: e });
      }
    }
  }

  async #holderFromFile(): Promise<LockInfo | undefined> {
    try {
      const data = await this.#getObject(this.#lockFile);
      return data === undefined ? undefined : parseLockInfo(Buffer.from(data).toString("utf8"));
    } catch {
      return undefined;
    }
  }

  async #holderFromTable(): Promise<LockInfo | undefined> {
    try {
      const out = await this.#b.ddb.send(new GetItemCommand({ TableName: this.#b.o.dynamodbTable!, Key: { LockID: { S: this.#lockId } }, ProjectionExpression: "LockID, Info", ConsistentRead: true }));
      const info = out.Item?.["Info"]?.S;
      return info === undefined ? undefined : parseLockInfo(info);
    } catch {
      return undefined;
    }
  }

  #locked(e: unknown, holder: LockInfo | undefined, op: string): StateError {
    return new StateError("locked", `${errMessage(e, op)}${holder === undefined ? "" : ` (held by ${holder.who}, lock ID ${holder.id})`}`, holder === undefined ? { cause: e } : { cause: e, detail: holder });
  }

  async #lockFileTake(info: LockInfo): Promise<void> {
    const o = this.#b.o;
    const input: Record<string, unknown> = { Bucket: o.bucket, Key: this.#lockFile, Body: new TextEncoder().encode(marshalLockInfo(info)), ContentType: "application/json", IfNoneMatch: "*" };
    if (o.skipS3Checksum !== true) input["ChecksumAlgorithm"] = "SHA256";
    this.#sse(input);
    if (o.acl !== undefined) input["ACL"] = o.acl;
    try {
      await this.#b.s3.send(new PutObjectCommand(input as unknown as PutObjectCommandInput));
    } catch (e) {
      if (errName(e) === "NoSuchBucket") throw noSuchBucket(o.bucket, e, "PutObject");
      throw this.#locked(e, await this.#holderFromFile(), "PutObject");
    }
  }

  async #tableTake(info: LockInfo): Promise<void> {
    try {
      await this.#b.ddb.send(
        new PutItemCommand({
          TableName: this.#b.o.dynamodbTable!,
          Item: { LockID: { S: this.#lockId }, Info: { S: marshalLockInfo(info) } },
          ConditionExpression: "attribute_not_exists(LockID)",
        }),
      );
    } catch (e) {
      if (errName(e) !== "ConditionalCheckFailedException") throw new StateError("io", `DynamoDB lock on ${JSON.stringify(this.#b.o.dynamodbTable)}: ${errMessage(e, "DynamoDBPutItem")}`, { cause: e });
      throw this.#locked(e, await this.#holderFromTable(), "DynamoDBPutItem");
    }
  }

  /**
   * Takes Terraform's s3 lock: the lock file (`use_lockfile`), the DynamoDB item
   * (`dynamodb_table`), or both (file first; it is removed again when the table refuses);
   * without either, nothing is locked (the id is "").
   *
   * @throws StateError `locked` naming the holder when either is held.
   */
  async lock(request: LockRequest): Promise<string> {
    const o = this.#b.o;
    if (o.useLockfile !== true && o.dynamodbTable === undefined) return "";
    const info = newLockInfo(request, this.#b.version, this.#lockId);
    if (o.useLockfile === true) await this.#lockFileTake(info);
    if (o.dynamodbTable !== undefined) {
      try {
        await this.#tableTake(info);
      } catch (e) {
        if (o.useLockfile === true) await this.#fileRelease(info.id).catch(() => undefined);
        throw e;
      }
    }
    return info.id;
  }

  async #fileRelease(id: string): Promise<void> {
    const holder = await this.#holderFromFile();
    if (holder === undefined) throw new StateError("not_found", `unable to retrieve file from S3 bucket '${this.#b.o.bucket}' with key '${this.#lockFile}'`);
    if (holder.id !== id) throw new StateError("lock_id_mismatch", `lock ID '${id}' does not match the existing lock ID '${holder.id}'`, { detail: holder });
    try {
      await this.#b.s3.send(new DeleteObjectCommand({ Bucket: this.#b.o.bucket, Key: this.#lockFile }));
    } catch (e) {
      throw new StateError("io", `failed to delete the lock file: ${errMessage(e, "DeleteObject")}`, { cause: e });
    }
  }

  async #tableRelease(id: string): Promise<void> {
    const holder = await this.#holderFromTable();
    if (holder === undefined) throw new StateError("not_found", `failed to retrieve lock info for lock ID ${JSON.stringify(id)}`);
    if (holder.id !== id) throw new StateError("lock_id_mismatch", `lock ID ${JSON.stringify(id)} does not match existing lock (${JSON.stringify(holder.id)})`, { detail: holder });
    try {
      await this.#b.ddb.send(new DeleteItemCommand({ TableName: this.#b.o.dynamodbTable!, Key: { LockID: { S: this.#lockId } } }));
    } catch (e) {
      throw new StateError("io", `DynamoDB unlock on ${JSON.stringify(this.#b.o.dynamodbTable)}: ${errMessage(e, "DynamoDBDeleteItem")}`, { cause: e });
    }
  }

  /**
   * Releases the lock with this id (the lock file and/or the table's item), after checking
   * the recorded lock has it, as Terraform does.
   *
   * @throws StateError `lock_id_mismatch` for another holder's id, `not_found` when nothing is locked.
   */
  async unlock(id: string): Promise<void> {
    const o = this.#b.o;
    if (o.useLockfile !== true && o.dynamodbTable === undefined) return;
    const errors: unknown[] = [];
    if (o.useLockfile === true) await this.#fileRelease(id).catch((e: unknown) => errors.push(e));
    if (o.dynamodbTable !== undefined) await this.#tableRelease(id).catch((e: unknown) => errors.push(e));
    if (errors.length > 0) throw errors[0];
  }

  /** Terraform's `force-unlock` on s3: the same as {@link unlock} with the id given (the recorded lock must have it). */
  forceUnlock(id: string): Promise<void> {
    return this.unlock(id);
  }

  /** Removes the workspace's object and its digest. @internal */
  async remove(): Promise<void> {
    try {
      await this.#b.s3.send(new DeleteObjectCommand({ Bucket: this.#b.o.bucket, Key: this.#path }));
    } catch (e) {
      throw new StateError("io", `cannot delete ${JSON.stringify(this.#path)} in S3 bucket ${JSON.stringify(this.#b.o.bucket)}: ${errMessage(e, "DeleteObject")}`, { cause: e });
    }
    if (this.#b.o.dynamodbTable !== undefined) {
      await this.#b.ddb.send(new DeleteItemCommand({ TableName: this.#b.o.dynamodbTable, Key: { LockID: { S: `${this.#lockId}-md5` } } })).catch(() => undefined);
    }
  }
}

class S3BackendImpl implements S3Backend {
  readonly kind = "s3" as const;
  readonly o: S3BackendOptions;
  readonly s3: S3Client;
  readonly ddb: DynamoDBClient;
  readonly version: string;
  readonly prefix: string;
  /** How long a read retries a digest mismatch (Terraform: 10 s). */
  consistencyRetryMs = 10_000;

  constructor(o: S3BackendOptions) {
    const env = o.env ?? process.env;
    if (o.bucket === "") throw new StateError("invalid_argument", 's3 backend: The attribute "bucket" is required');
    if (o.key === "") throw new StateError("invalid_argument", 's3 backend: The attribute "key" is required');
    if (o.key.startsWith("/") || o.key.endsWith("/")) throw new StateError("invalid_argument", 's3 backend: Invalid Value: The value must not start or end with "/"');
    const region = o.region ?? env["AWS_REGION"] ?? env["AWS_DEFAULT_REGION"];
    if (region === undefined || region === "") throw new StateError("invalid_argument", 's3 backend: Missing region value: The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.');
    this.o = o;
    this.version = o.version ?? TERRAFORM_VERSION;
    this.prefix = o.workspaceKeyPrefix ?? "env:";
    const base =
      o.accessKey !== undefined || o.secretKey !== undefined
        ? { accessKeyId: o.accessKey ?? "", secretAccessKey: o.secretKey ?? "", ...(o.token !== undefined ? { sessionToken: o.token } : {}) }
        : fromNodeProviderChain(o.profile !== undefined ? { profile: o.profile } : {});
    const credentials =
      o.assumeRole === undefined
        ? base
        : fromTemporaryCredentials({
            masterCredentials: base,
            params: {
              RoleArn: o.assumeRole.roleArn,
              RoleSessionName: o.assumeRole.sessionName ?? `magma-${Date.now()}`,
              ...(o.assumeRole.externalId !== undefined ? { ExternalId: o.assumeRole.externalId } : {}),
              ...(o.assumeRole.duration !== undefined ? { DurationSeconds: durationSeconds(o.assumeRole.duration) } : {}),
              ...(o.assumeRole.policy !== undefined ? { Policy: o.assumeRole.policy } : {}),
            },
            clientConfig: { region, ...(o.endpoints?.sts !== undefined ? { endpoint: o.endpoints.sts } : {}) },
          });
    const maxAttempts = (o.maxRetries ?? 5) + 1;
    // The SDK warns on stderr, once per process, that its releases after January 2027 need
    // node 22: about the SDK's future, not the user's settings (magma pins its SDK), and noise
    // in every command's output. Silenced unless the user set the variable.
    process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
    this.s3 = new S3Client({
      region,
      credentials,
      maxAttempts,
      forcePathStyle: o.usePathStyle === true,
      ...(o.endpoints?.s3 !== undefined ? { endpoint: o.endpoints.s3 } : {}),
      ...(o.skipS3Checksum === true ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
    });
    this.ddb = new DynamoDBClient({ region, credentials, maxAttempts, ...(o.endpoints?.dynamodb !== undefined ? { endpoint: o.endpoints.dynamodb } : {}) });
  }

  path(workspace: string): string {
    return workspace === "default" ? this.o.key : `${this.prefix}/${workspace}/${this.o.key}`.replace(/\/+/g, "/").replace(/^\//, "");
  }

  #workspaceOf(key: string): string | undefined {
    if (this.prefix === "") {
      const i = key.indexOf("/");
      return i > 0 && key.slice(i + 1) === this.o.key ? key.slice(0, i) : undefined;
    }
    const p = `${this.prefix}/`;
    if (!key.startsWith(p)) return undefined;
    const rest = key.slice(p.length);
    const i = rest.indexOf("/");
    return i > 0 && rest.slice(i + 1) === this.o.key ? rest.slice(0, i) : undefined;
  }

  async listWorkspaces(): Promise<string[]> {
    const prefix = this.prefix === "" ? "" : `${this.prefix}/`;
    const found: string[] = [];
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.o.bucket, Prefix: prefix, MaxKeys: 1000, ...(token !== undefined ? { ContinuationToken: token } : {}) }));
      } catch (e) {
        if (errName(e) === "NoSuchBucket") throw noSuchBucket(this.o.bucket, e, "ListObjectsV2");
        if (this.prefix === "env:" && errName(e) === "AccessDenied") return ["default"];
        throw new StateError("io", `Unable to list objects in S3 bucket ${JSON.stringify(this.o.bucket)} with prefix ${JSON.stringify(prefix)}: ${errMessage(e, "ListObjectsV2")}`, { cause: e });
      }
      for (const obj of page.Contents ?? []) {
        const ws = obj.Key === undefined ? undefined : this.#workspaceOf(obj.Key);
        if (ws !== undefined) found.push(ws);
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return ["default", ...found.sort()];
  }

  async deleteWorkspace(name: string): Promise<void> {
    if (name === "default" || name === "") throw new StateError("invalid_argument", "can't delete default state");
    await new S3StateStore(this, name).remove();
  }

  store(workspace: string): StateStore {
    if (workspace === "") throw new StateError("invalid_argument", "missing state name");
    return new S3StateStore(this, workspace);
  }

  close(): void {
    this.s3.destroy();
    this.ddb.destroy();
  }
}

/**
 * Terraform 1.11's `s3` backend over the AWS SDK for JavaScript v3: the default workspace at
 * `key`, the others at `<workspace_key_prefix>/<name>/<key>`; locks as Terraform takes them
 * (an S3 lock file written with `If-None-Match: *`, and/or a DynamoDB item with a conditional
 * put), the state's MD5 kept in the table and checked on read; server-side encryption
 * (AES256, KMS, SSE-C), canned ACLs, custom endpoints and path-style addressing for
 * S3-compatible stores; credentials from the settings or the usual AWS chain, with an
 * optional role assumed through STS. Terraform and magma share a bucket and table, each
 * blocked by the other's locks.
 *
 * @throws StateError `invalid_argument` for a missing bucket, key or region, or a bad setting.
 */
export function createS3Backend(options: S3BackendOptions): S3Backend {
  return new S3BackendImpl(options);
}
