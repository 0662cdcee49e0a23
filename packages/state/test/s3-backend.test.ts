// The s3 backend against real S3- and DynamoDB-compatible servers (s3rver, dynalite), and
// terraform 1.11.4's s3 backend on the same bucket and table (skipped without terraform).
import { createS3Backend, type S3BackendOptions } from "../src/backends/s3.js";
import { loadState, saveState, withStateLock } from "../src/persist-state.js";
import { newStateFile } from "../src/state-file.js";
import { encodeOutput } from "../src/output-value.js";
import { stringType, stringVal } from "@magma/cty";
import { S3RVER_CREDENTIALS, startAwsServers, type AwsServers } from "./support/aws-servers.js";

let aws: AwsServers;
beforeAll(async () => {
  aws = await startAwsServers();
  await aws.createBucket("tfstate");
  await aws.createLockTable("locks");
}, 60_000);
afterAll(async () => {
  await aws?.stop();
});

const options = (extra: Partial<S3BackendOptions> = {}): S3BackendOptions => ({
  bucket: "tfstate",
  key: "app/terraform.tfstate",
  region: "us-east-1",
  endpoints: { s3: aws.s3, dynamodb: aws.dynamodb },
  usePathStyle: true,
  skipS3Checksum: true,
  accessKey: S3RVER_CREDENTIALS.accessKeyId,
  secretKey: S3RVER_CREDENTIALS.secretAccessKey,
  env: {},
  ...extra,
});

test("writes, reads and lists workspaces at terraform's keys; deletes one", async () => {
  const b = createS3Backend(options({ key: "ws/terraform.tfstate" }));
  try {
    for (const ws of ["default", "dev", "prod"]) {
      const store = b.store(ws);
      const s = newStateFile();
      s.outputs.set("ws", encodeOutput(stringVal(ws), stringType));
      await saveState(store, s);
      expect((await loadState(store))?.outputs.get("ws")?.valueJson).toBe(JSON.stringify(ws));
    }
    expect(await b.listWorkspaces()).toEqual(["default", "dev", "prod"]);
    const res = await fetch(`${aws.s3}/tfstate/env:/dev/ws/terraform.tfstate`);
    expect(res.status).toBe(200);
    await b.deleteWorkspace("dev");
    expect(await b.listWorkspaces()).toEqual(["default", "prod"]);
    await expect(b.deleteWorkspace("default")).rejects.toMatchObject({ code: "invalid_argument" });
  } finally {
    b.close();
  }
});

test("DynamoDB locks exclude each other, name the holder, and force-unlock takes the holder's id", async () => {
  const a = createS3Backend(options({ dynamodbTable: "locks" }));
  const b = createS3Backend(options({ dynamodbTable: "locks" }));
  try {
    const id = await a.store("default").lock({ operation: "OperationTypeApply" });
    await expect(b.store("default").lock({ operation: "OperationTypePlan" })).rejects.toMatchObject({ code: "locked", detail: { id, operation: "OperationTypeApply", path: "tfstate/app/terraform.tfstate" } });
    await expect(b.store("default").forceUnlock("not-the-id")).rejects.toMatchObject({ code: "lock_id_mismatch" });
    await b.store("default").forceUnlock(id);
    const again = await b.store("default").lock({ operation: "OperationTypePlan" });
    await b.store("default").unlock(again);
  } finally {
    a.close();
    b.close();
  }
});

test("the digest in DynamoDB is kept and checked: a state changed behind its back is refused, not overwritten", async () => {
  const b = createS3Backend(options({ key: "digest/terraform.tfstate", dynamodbTable: "locks" }));
  (b as unknown as { consistencyRetryMs: number }).consistencyRetryMs = 0;
  try {
    const store = b.store("default");
    await withStateLock(store, { operation: "OperationTypeApply" }, async () => {
      await saveState(store, newStateFile());
    });
    expect(await store.read()).toBeDefined();
    await fetch(`${aws.s3}/tfstate/digest/terraform.tfstate`, { method: "PUT", body: '{"version":4}' });
    await expect(store.read()).rejects.toMatchObject({ code: "corrupt", message: expect.stringContaining("state data in S3 does not have the expected content") });
  } finally {
    b.close();
  }
});

test("bad inputs: a missing bucket, wrong credentials, missing settings", async () => {
  const missing = createS3Backend(options({ bucket: "nope" }));
  await expect(missing.store("default").read()).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining('S3 bucket "nope" does not exist.') });
  missing.close();
  const wrong = createS3Backend(options({ accessKey: "WRONG", maxRetries: 0 }));
  await expect(wrong.store("default").read()).rejects.toMatchObject({ code: "io", message: expect.stringContaining("InvalidAccessKeyId") });
  wrong.close();
  expect(() => createS3Backend({ ...options(), region: undefined as unknown as string, env: {} })).toThrow("Missing region value");
  expect(() => createS3Backend(options({ key: "/x" }))).toThrow('must not start or end with "/"');
});
