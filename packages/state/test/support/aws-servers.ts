/**
 * Test support: real S3-compatible and DynamoDB-compatible servers from npm (s3rver, dynalite),
 * on 127.0.0.1, for the s3 backend's tests and terraform's s3 backend on the same storage.
 *
 * What they do not speak (checked): s3rver ignores `If-None-Match` on PutObject, so S3 lock
 * files (`use_lockfile`) do not exclude each other on it; DynamoDB locking (dynalite honours
 * conditional puts) is what the tests use to show locks blocking each other.
 */
/// <reference path="./aws-test-servers.d.ts" />
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import dynalite from "dynalite";
import S3rver from "s3rver";

/** Running servers and how to reach them. */
export interface AwsServers {
  /** `http://127.0.0.1:<port>` of the S3 server (path-style). */
  readonly s3: string;
  /** `http://127.0.0.1:<port>` of the DynamoDB server. */
  readonly dynamodb: string;
  /** Creates a bucket. */
  createBucket(name: string): Promise<void>;
  /** Creates a lock table as Terraform's docs say (hash key `LockID`, a string). */
  createLockTable(name: string): Promise<void>;
  /** Stops both and removes the S3 server's files. */
  stop(): Promise<void>;
}

/** The static credentials s3rver accepts. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

/** Starts s3rver and dynalite on free ports. */
export async function startAwsServers(): Promise<AwsServers> {
  const dir = mkdtempSync(join(tmpdir(), "magma-s3rver-"));
  const s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir });
  const { port: s3Port } = (await s3.run()) as AddressInfo;
  const dyn = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => dyn.listen(0, "127.0.0.1", () => resolve()));
  const dynPort = (dyn.address() as AddressInfo).port;
  const s3Url = `http://127.0.0.1:${s3Port}`;
  const dynUrl = `http://127.0.0.1:${dynPort}`;
  return {
    s3: s3Url,
    dynamodb: dynUrl,
    async createBucket(name) {
      const res = await fetch(`${s3Url}/${name}`, { method: "PUT" });
      if (!res.ok) throw new Error(`cannot create bucket ${name}: ${res.status}`);
    },
    async createLockTable(name) {
      const c = new DynamoDBClient({ region: "us-east-1", endpoint: dynUrl, credentials: S3RVER_CREDENTIALS });
      await c.send(
        new CreateTableCommand({
          TableName: name,
          AttributeDefinitions: [{ AttributeName: "LockID", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "LockID", KeyType: "HASH" }],
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
      c.destroy();
    },
    async stop() {
      await s3.close();
      await new Promise<void>((resolve) => dyn.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
