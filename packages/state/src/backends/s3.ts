import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent as HttpsAgent } from "node:https";
import { homedir } from "node:os";
import { DeleteItemCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type PutObjectCommandInput, type S3ClientConfig } from "@aws-sdk/client-s3";
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { fromNodeProviderChain, fromTemporaryCredentials, fromWebToken } from "@aws-sdk/credential-providers";
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
  /** `policy_arns`: managed policies limiting the session. */
  readonly policyArns?: readonly string[];
  /** `source_identity`. */
  readonly sourceIdentity?: string;
  /** `tags`: session tags. */
  readonly tags?: Readonly<Record<string, string>>;
  /** `transitive_tag_keys`: the session tags passed on to roles assumed from this one. */
  readonly transitiveTagKeys?: readonly string[];
}

/** The `assume_role_with_web_identity` object of Terraform's s3 backend. */
export interface S3AssumeRoleWithWebIdentity {
  /** `role_arn` (required). */
  readonly roleArn: string;
  /** `session_name`. Default `magma-<time>`. */
  readonly sessionName?: string;
  /** `duration` as a Go duration. */
  readonly duration?: string;
  /** `policy`: an IAM policy document (JSON). */
  readonly policy?: string;
  /** `policy_arns`: managed policies limiting the session. */
  readonly policyArns?: readonly string[];
  /** `web_identity_token`; exactly one of it and `webIdentityTokenFile`. */
  readonly webIdentityToken?: string;
  /** `web_identity_token_file`: a file holding the token, read when the backend is opened. */
  readonly webIdentityTokenFile?: string;
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
  /** `shared_credentials_files` (or `shared_credentials_file`): the chain's credentials file (at most one). */
  readonly sharedCredentialsFiles?: readonly string[];
  /** `shared_config_files`: the chain's config file (at most one). */
  readonly sharedConfigFiles?: readonly string[];
  /** `sts_region`: the region of STS calls. Default `region`. */
  readonly stsRegion?: string;
  /** `retry_mode`: `standard` or `adaptive` (the SDK's; default its own, else `AWS_RETRY_MODE`). */
  readonly retryMode?: string;
  /** `assume_role`: a role assumed with STS on top of those credentials. */
  readonly assumeRole?: S3AssumeRole;
  /** `assume_role_with_web_identity`: the base credentials from STS for an OIDC token (instead of the keys or the chain). */
  readonly assumeRoleWithWebIdentity?: S3AssumeRoleWithWebIdentity;
  /** `skip_credentials_validation`: no STS `GetCallerIdentity` when opened. Default false (checked in {@link S3Backend.verify}). */
  readonly skipCredentialsValidation?: boolean;
  /** `skip_requesting_account_id`: the account id is not asked for. */
  readonly skipRequestingAccountId?: boolean;
  /** `allowed_account_ids`: the caller's account must be one of these. */
  readonly allowedAccountIds?: readonly string[];
  /** `forbidden_account_ids`: the caller's account must be none of these. */
  readonly forbiddenAccountIds?: readonly string[];
  /** `custom_ca_bundle` (else `AWS_CA_BUNDLE`): a PEM file whose certificates replace the system's roots for HTTPS. */
  readonly customCaBundle?: string;
  /** `insecure`: HTTPS certificates are not verified. */
  readonly insecure?: boolean;
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
  /**
   * What terraform's s3 backend checks when it is configured: unless
   * `skip_credentials_validation`, the credentials with STS `GetCallerIdentity` (otherwise the
   * account id is still asked for when `allowed_account_ids`/`forbidden_account_ids` need it),
   * then the account against those lists.
   *
   * @throws StateError `io` ("validating provider credentials: retrieving caller identity from STS: …"),
   *   `invalid_argument` ("Invalid account ID: AWS account ID not allowed: <id>").
   */
  verify(): Promise<void>;
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
  const service = /^(DynamoDB|STS)/.exec(op ?? "")?.[1] ?? "S3";
  const prefix = op === undefined ? "" : `operation error ${service}: ${op.startsWith(service) ? op.slice(service.length) : op}, `;
  if (meta?.httpStatusCode === undefined) return `${prefix}${base}`;
  const host = service === "STS" ? "" : `HostID: ${meta.extendedRequestId ?? ""}, `;
  return `${prefix}https response error StatusCode: ${meta.httpStatusCode}, RequestID: ${meta.requestId ?? ""}, ${host}api error ${base}`;
}

function noSuchBucket(bucket: string, e: unknown, op: string): StateError {
  return new StateError(
    "not_found",
    `S3 bucket ${JSON.stringify(bucket)} does not exist.\n\nThe referenced S3 bucket must have been previously created. If the S3 bucket\nwas created within the last minute, please wait for a minute or two and try\nagain.\n\nError: ${errMessage(e, op)}`,
    { cause: e },
  );
}

/** A Go duration (`1h30m`, `900s`) in seconds. */
function durationSeconds(text: string, block: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * unit[m[2]!]!;
    end = re.lastIndex;
  }
  if (end !== text.length || text === "") throw new StateError("invalid_argument", `s3 backend: ${block}.duration ${JSON.stringify(text)} is not a duration (e.g. "1h", "15m")`);
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
    const key = this.#b.sseCustomerKey;
    if (key !== undefined && (forRead || o.kmsKeyId === undefined)) {
      input["SSECustomerAlgorithm"] = ENCRYPTION;
      input["SSECustomerKey"] = key;
      input["SSECustomerKeyMD5"] = createHash("md5").update(Buffer.from(key, "base64")).digest("base64");
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
  /** The SSE-C key (`sse_customer_key`, else `AWS_SSE_CUSTOMER_KEY`), validated. */
  readonly sseCustomerKey: string | undefined;
  readonly #credentials: NonNullable<S3ClientConfig["credentials"]>;
  /** What every client shares: attempts, retry mode, the HTTPS agent. */
  readonly #common: { readonly maxAttempts: number; readonly retryMode?: string; readonly requestHandler?: { readonly httpsAgent: HttpsAgent } };
  readonly #stsRegion: string;

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
    this.sseCustomerKey = sseCustomerKeyOf(o, env);
    if (o.kmsKeyId !== undefined) checkKmsKeyId(o.kmsKeyId);
    const httpsAgent = httpsAgentOf(o, env);
    const requestHandler = httpsAgent === undefined ? undefined : { httpsAgent };
    const stsRegion = o.stsRegion ?? region;
    const retryMode = retryModeOf(o);
    const common = { maxAttempts: (o.maxRetries ?? 5) + 1, ...(retryMode !== undefined ? { retryMode } : {}), ...(requestHandler !== undefined ? { requestHandler } : {}) };
    this.#common = common;
    this.#stsRegion = stsRegion;
    const stsConfig = { region: stsRegion, ...common, ...(o.endpoints?.sts !== undefined ? { endpoint: o.endpoints.sts } : {}) };
    const web = o.assumeRoleWithWebIdentity;
    const base =
      web !== undefined
        ? fromWebToken({
            roleArn: web.roleArn,
            webIdentityToken: webIdentityToken(web),
            roleSessionName: web.sessionName ?? `magma-${Date.now()}`,
            ...(web.duration !== undefined ? { durationSeconds: durationSeconds(web.duration, "assume_role_with_web_identity") } : {}),
            ...(web.policy !== undefined ? { policy: web.policy.trim() } : {}),
            ...(web.policyArns !== undefined && web.policyArns.length > 0 ? { policyArns: web.policyArns.map((arn) => ({ arn })) } : {}),
            clientConfig: stsConfig,
          })
        : o.accessKey !== undefined || o.secretKey !== undefined
          ? { accessKeyId: o.accessKey ?? "", secretAccessKey: o.secretKey ?? "", ...(o.token !== undefined ? { sessionToken: o.token } : {}) }
          : fromNodeProviderChain(sharedFilesOf(o));
    const credentials =
      o.assumeRole === undefined
        ? base
        : fromTemporaryCredentials({
            masterCredentials: base,
            params: {
              RoleArn: o.assumeRole.roleArn,
              RoleSessionName: o.assumeRole.sessionName ?? `magma-${Date.now()}`,
              ...(o.assumeRole.externalId !== undefined ? { ExternalId: o.assumeRole.externalId } : {}),
              ...(o.assumeRole.duration !== undefined ? { DurationSeconds: durationSeconds(o.assumeRole.duration, "assume_role") } : {}),
              ...(o.assumeRole.policy !== undefined ? { Policy: o.assumeRole.policy } : {}),
              ...(o.assumeRole.policyArns !== undefined && o.assumeRole.policyArns.length > 0 ? { PolicyArns: o.assumeRole.policyArns.map((arn) => ({ arn })) } : {}),
              ...(o.assumeRole.sourceIdentity !== undefined ? { SourceIdentity: o.assumeRole.sourceIdentity } : {}),
              ...(o.assumeRole.tags !== undefined && Object.keys(o.assumeRole.tags).length > 0 ? { Tags: Object.entries(o.assumeRole.tags).map(([Key, Value]) => ({ Key, Value })) } : {}),
              ...(o.assumeRole.transitiveTagKeys !== undefined && o.assumeRole.transitiveTagKeys.length > 0 ? { TransitiveTagKeys: [...o.assumeRole.transitiveTagKeys] } : {}),
            },
            clientConfig: stsConfig,
          });
    this.#credentials = credentials;
    // The SDK warns on stderr, once per process, that its releases after January 2027 need
    // node 22: about the SDK's future, not the user's settings (magma pins its SDK), and noise
    // in every command's output. Silenced unless the user set the variable.
    process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
    this.s3 = new S3Client({
      region,
      credentials,
      ...common,
      forcePathStyle: o.usePathStyle === true,
      ...(o.endpoints?.s3 !== undefined ? { endpoint: o.endpoints.s3 } : {}),
      ...(o.skipS3Checksum === true ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
    });
    this.ddb = new DynamoDBClient({ region, credentials, ...common, ...(o.endpoints?.dynamodb !== undefined ? { endpoint: o.endpoints.dynamodb } : {}) });
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

  async verify(): Promise<void> {
    const o = this.o;
    const lists = (o.allowedAccountIds?.length ?? 0) > 0 || (o.forbiddenAccountIds?.length ?? 0) > 0;
    if (o.skipCredentialsValidation === true && (o.skipRequestingAccountId === true || !lists)) {
      if (lists) checkAccount(o, "");
      return;
    }
    const sts = new STSClient({ region: this.#stsRegion, credentials: this.#credentials, ...this.#common, ...(o.endpoints?.sts !== undefined ? { endpoint: o.endpoints.sts } : {}) });
    let account = "";
    try {
      account = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? "";
    } catch (e) {
      // Terraform: a failed validation is an error; a failed look-up of the account id alone is not.
      if (o.skipCredentialsValidation !== true) {
        throw new StateError("io", `validating provider credentials: retrieving caller identity from STS: ${errMessage(e, "STSGetCallerIdentity")}`, { cause: e });
      }
    } finally {
      sts.destroy();
    }
    checkAccount(o, account);
  }

  close(): void {
    this.s3.destroy();
    this.ddb.destroy();
  }
}

/** terraform's (aws-sdk-go-base's) `VerifyAccountIDAllowed`. */
function checkAccount(o: S3BackendOptions, account: string): void {
  const refused = (o.forbiddenAccountIds ?? []).includes(account) || ((o.allowedAccountIds?.length ?? 0) > 0 && !o.allowedAccountIds!.includes(account));
  if (refused) throw new StateError("invalid_argument", `Invalid account ID: AWS account ID not allowed: ${account}`);
}

const KMS_UUID = "[a-f0-9]{8}-[a-f0-9]{4}-[1-5][a-f0-9]{3}-[ab89][a-f0-9]{3}-[a-f0-9]{12}";
const KMS_MRK = "mrk-[a-f0-9]{32}";
const KMS_ALIAS = "alias/[a-zA-Z0-9/_-]+";

/** terraform's `validateKMSKey`: a key ARN (`key/<id>` or an alias), else a key id or alias (its regular expressions as written). */
function checkKmsKeyId(id: string): void {
  const parts = id.split(":");
  if (id.startsWith("arn:") && parts.length >= 6) {
    const resource = parts.slice(5).join(":");
    if (!new RegExp(`^key/(${KMS_UUID}|${KMS_MRK})$`).test(resource) && !new RegExp(`^(${KMS_ALIAS})$`).test(resource)) {
      throw new StateError("invalid_argument", `s3 backend: Invalid KMS Key ARN: Value must be a valid KMS Key ARN, got ${JSON.stringify(id)}`);
    }
    return;
  }
  if (!new RegExp(`^${KMS_UUID}|${KMS_MRK}|${KMS_ALIAS}$`).test(id)) throw new StateError("invalid_argument", `s3 backend: Invalid KMS Key ID: Value must be a valid KMS Key ID, got ${JSON.stringify(id)}`);
}

/** The SSE-C key and terraform's checks of it (length 44, base64, not with `kms_key_id`). */
function sseCustomerKeyOf(o: S3BackendOptions, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const fromEnv = env["AWS_SSE_CUSTOMER_KEY"];
  if (o.kmsKeyId !== undefined && o.sseCustomerKey !== undefined) throw new StateError("invalid_argument", "s3 backend: Invalid Attribute Combination: Only one of kms_key_id, sse_customer_key can be set.");
  if (o.kmsKeyId !== undefined && fromEnv !== undefined && fromEnv !== "") {
    throw new StateError("invalid_argument", "s3 backend: Invalid encryption configuration: Only one of \"kms_key_id\" and the environment variable \"AWS_SSE_CUSTOMER_KEY\" can be set.");
  }
  const key = o.sseCustomerKey ?? (fromEnv === "" ? undefined : fromEnv);
  if (key === undefined) return undefined;
  const what = o.sseCustomerKey !== undefined ? { summary: "Invalid sse_customer_key value", name: "sse_customer_key" } : { summary: "Invalid AWS_SSE_CUSTOMER_KEY value", name: 'The environment variable "AWS_SSE_CUSTOMER_KEY"' };
  if (key.length !== 44) throw new StateError("invalid_argument", `s3 backend: ${what.summary}: ${what.name} must be 44 characters in length`);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(key)) throw new StateError("invalid_argument", `s3 backend: ${what.summary}: ${what.name} must be base64 encoded: illegal base64 data`);
  return key;
}

/**
 * The HTTPS agent of `custom_ca_bundle` (else `AWS_CA_BUNDLE`; `~` is the home directory) and
 * `insecure`, as terraform's: the bundle's certificates replace the system's roots. Undefined
 * when neither is set (the SDK's own agent).
 */
function httpsAgentOf(o: S3BackendOptions, env: Readonly<Record<string, string | undefined>>): HttpsAgent | undefined {
  const fromEnv = env["AWS_CA_BUNDLE"];
  const bundle = o.customCaBundle ?? (fromEnv === "" ? undefined : fromEnv);
  if (bundle === undefined && o.insecure !== true) return undefined;
  let ca: Buffer | undefined;
  if (bundle !== undefined) {
    const file = bundle === "~" || bundle.startsWith("~/") ? homedir() + bundle.slice(1) : bundle;
    try {
      ca = readFileSync(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "no such file or directory" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "is a directory" : (e as Error).message;
      throw new StateError("invalid_argument", `s3 backend: reading custom CA bundle: open ${file}: ${why}`, { cause: e });
    }
  }
  return new HttpsAgent({ keepAlive: true, ...(ca !== undefined ? { ca } : {}), ...(o.insecure === true ? { rejectUnauthorized: false } : {}) });
}

/** `retry_mode`, checked as terraform's (`standard` or `adaptive`). */
function retryModeOf(o: S3BackendOptions): string | undefined {
  const m = o.retryMode;
  if (m === undefined || m === "") return undefined;
  if (m !== "standard" && m !== "adaptive") throw new StateError("invalid_argument", `s3 backend: Invalid Value: retry_mode: unknown RetryMode, ${m}`);
  return m;
}

/**
 * The default chain's shared files: `profile`, `shared_credentials_files` and
 * `shared_config_files` (`~` is the home directory). The SDK reads one file of each kind;
 * several are refused rather than merged differently from terraform.
 */
function sharedFilesOf(o: S3BackendOptions): { profile?: string; filepath?: string; configFilepath?: string } {
  const one = (files: readonly string[] | undefined, name: string): string | undefined => {
    if (files === undefined || files.length === 0) return undefined;
    if (files.length > 1) throw new StateError("invalid_argument", `s3 backend: ${name} with more than one file is not supported by magma yet (see @magma/state's README)`);
    const f = files[0]!;
    return f === "~" || f.startsWith("~/") ? homedir() + f.slice(1) : f;
  };
  const filepath = one(o.sharedCredentialsFiles, "shared_credentials_files");
  const configFilepath = one(o.sharedConfigFiles, "shared_config_files");
  return { ...(o.profile !== undefined ? { profile: o.profile } : {}), ...(filepath !== undefined ? { filepath } : {}), ...(configFilepath !== undefined ? { configFilepath } : {}) };
}

/** The token of `assume_role_with_web_identity` (exactly one of the token and its file). */
function webIdentityToken(w: S3AssumeRoleWithWebIdentity): string {
  if (w.roleArn === "") throw new StateError("invalid_argument", 's3 backend: Missing Required Value: The attribute "assume_role_with_web_identity.role_arn" is required by the backend.');
  if ((w.webIdentityToken === undefined) === (w.webIdentityTokenFile === undefined)) {
    throw new StateError("invalid_argument", "s3 backend: Missing Required Value: Exactly one of web_identity_token, web_identity_token_file must be set.");
  }
  if (w.webIdentityToken !== undefined) return w.webIdentityToken;
  try {
    return readFileSync(w.webIdentityTokenFile!, "utf8").trim();
  } catch (e) {
    throw new StateError("invalid_argument", `s3 backend: cannot read web_identity_token_file ${JSON.stringify(w.webIdentityTokenFile)}: ${(e as Error).message}`, { cause: e });
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
