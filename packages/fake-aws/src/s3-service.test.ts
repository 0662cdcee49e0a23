import { createHash } from "node:crypto";
import { startFakeAws, type FakeAws } from "./start-fake-aws.js";

let fake: FakeAws;
beforeAll(async () => {
  fake = await startFakeAws();
  fake.createBucket("b");
});
afterAll(async () => {
  await fake?.close();
});

/** A request routed to S3 as SDKs sign it (the credential scope names the service; signatures are not checked). */
function s3(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  const auth = "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0";
  return fetch(`${fake.url}${path}`, { method, headers: { authorization: auth, ...init.headers }, ...(init.body === undefined ? {} : { body: init.body }) });
}

test("If-None-Match: * creates once, then answers 412 PreconditionFailed and keeps the first object", async () => {
  const first = await s3("PUT", "/b/k.tflock", { headers: { "if-none-match": "*" }, body: "one" });
  expect(first.status).toBe(200);
  const second = await s3("PUT", "/b/k.tflock", { headers: { "if-none-match": "*" }, body: "two" });
  expect(second.status).toBe(412);
  expect(await second.text()).toContain("<Code>PreconditionFailed</Code>");
  expect(await (await s3("GET", "/b/k.tflock")).text()).toBe("one");
  expect((await s3("DELETE", "/b/k.tflock")).status).toBe(204);
  expect((await s3("PUT", "/b/k.tflock", { headers: { "if-none-match": "*" }, body: "three" })).status).toBe(200);
  expect(fake.callsOf("PutObject", "s3").map((c) => [c.status, c.errorCode, c.accessKeyId])).toEqual([
    [200, undefined, "AKIDTEST"],
    [412, "PreconditionFailed", "AKIDTEST"],
    [200, undefined, "AKIDTEST"],
  ]);
});

test("reads, ranges, listing and S3's errors", async () => {
  await s3("PUT", "/b/env%3A/dev/state", { body: "0123456789" });
  const ranged = await s3("GET", "/b/env%3A/dev/state", { headers: { range: "bytes=2-4" } });
  expect([ranged.status, ranged.headers.get("content-range"), await ranged.text()]).toEqual([206, "bytes 2-4/10", "234"]);
  const list = await (await s3("GET", "/b?list-type=2&prefix=env%3A%2F")).text();
  expect(list).toContain("<Key>env:/dev/state</Key>");
  expect((await s3("GET", "/b/missing")).status).toBe(404);
  expect((await s3("HEAD", "/b/missing")).status).toBe(404);
  expect(await (await s3("GET", "/nope/k")).text()).toContain("<Code>NoSuchBucket</Code>");
  expect(fake.unknownCalls()).toEqual([]);
});

test("an SSE-C object is read only with its key", async () => {
  const key = Buffer.alloc(32, 7);
  const sse = (k: Buffer): Record<string, string> => ({
    "x-amz-server-side-encryption-customer-algorithm": "AES256",
    "x-amz-server-side-encryption-customer-key": k.toString("base64"),
    "x-amz-server-side-encryption-customer-key-md5": createHash("md5").update(k).digest("base64"),
  });
  expect((await s3("PUT", "/b/secret", { headers: sse(key), body: "s" })).status).toBe(200);
  expect(await (await s3("GET", "/b/secret")).text()).toContain("The object was stored using a form of Server Side Encryption");
  expect((await s3("GET", "/b/secret", { headers: sse(Buffer.alloc(32, 8)) })).status).toBe(403);
  expect(await (await s3("GET", "/b/secret", { headers: sse(key) })).text()).toBe("s");
});

test("a dropConnection fault cuts the connection without storing", async () => {
  fake.inject({ action: "PutObject", service: "s3", dropConnection: true });
  await expect(s3("PUT", "/b/dropped", { body: "x" })).rejects.toThrow();
  expect((await s3("GET", "/b/dropped")).status).toBe(404);
});

test("an aws-chunked upload is stored decoded; its trailing SHA-256 is checked", async () => {
  const data = "chunked state";
  const sha = createHash("sha256").update(data).digest("base64");
  const chunked = (trailerSha: string): string => `${data.length.toString(16)}\r\n${data}\r\n0\r\nx-amz-checksum-sha256:${trailerSha}\r\n\r\n`;
  const headers = { "content-encoding": "aws-chunked", "x-amz-decoded-content-length": String(data.length), "x-amz-trailer": "x-amz-checksum-sha256" };
  expect((await s3("PUT", "/b/chunked", { headers, body: chunked(sha) })).status).toBe(200);
  expect(await (await s3("GET", "/b/chunked")).text()).toBe(data);
  const bad = await s3("PUT", "/b/chunked", { headers, body: chunked(createHash("sha256").update("other").digest("base64")) });
  expect([bad.status, await bad.text()]).toEqual([400, expect.stringContaining("<Code>BadDigest</Code>")]);
  const short = await s3("PUT", "/b/chunked", { headers: { ...headers, "x-amz-decoded-content-length": "99" }, body: chunked(sha) });
  expect(short.status).toBe(400);
  expect(await (await s3("GET", "/b/chunked")).text()).toBe(data);
});
