import { isFakeAwsError } from "./fake-aws-error.js";
import { startFakeAws, type FakeAws } from "./start-fake-aws.js";

const AUTH = (service: string): string =>
  `AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=00`;

interface JsonReply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function json(fake: FakeAws, target: string, body: unknown, raw?: string): Promise<JsonReply> {
  const res = await fetch(fake.url, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": target, authorization: AUTH(target.startsWith("Logs") ? "logs" : "ssm") },
    body: raw ?? JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const ssm = (fake: FakeAws, action: string, body: unknown): Promise<JsonReply> => json(fake, `AmazonSSM.${action}`, body);
const logs = (fake: FakeAws, action: string, body: unknown): Promise<JsonReply> => json(fake, `Logs_20140328.${action}`, body);

async function query(fake: FakeAws, service: string, params: Record<string, string>): Promise<{ status: number; xml: string }> {
  const res = await fetch(fake.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8", authorization: AUTH(service) },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, xml: await res.text() };
}

const ec2 = (fake: FakeAws, action: string, params: Record<string, string> = {}): Promise<{ status: number; xml: string }> =>
  query(fake, "ec2", { Action: action, Version: "2016-11-15", ...params });

function tag(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

let fake: FakeAws;
beforeEach(async () => {
  fake = await startFakeAws();
});
afterEach(async () => {
  await fake.close();
});

describe("startFakeAws", () => {
  test("listens on a free 127.0.0.1 port and validates its options", async () => {
    expect(fake.url).toBe(`http://127.0.0.1:${fake.port}`);
    expect(fake.port).toBeGreaterThan(0);
    await expect(startFakeAws({ accountId: "12" })).rejects.toThrow("[invalid_options] accountId must be 12 digits");
    await expect(startFakeAws({ region: "nowhere" })).rejects.toThrow("region must look like us-east-1");
    const caught = await startFakeAws({ port: -1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isFakeAwsError(caught)).toBe(true);
  });
});

describe("SSM (JSON 1.1)", () => {
  test("put, overwrite, get with and without decryption, describe, delete", async () => {
    let r = await ssm(fake, "PutParameter", { Name: "/a/secret", Type: "SecureString", Value: "pw", Tags: [{ Key: "k", Value: "v" }] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Version: 1, Tier: "Standard" });
    expect(r.headers.get("content-type")).toBe("application/x-amz-json-1.1");
    expect(r.headers.get("x-amzn-requestid")).toMatch(/^[0-9a-f-]{36}$/);

    r = await ssm(fake, "PutParameter", { Name: "/a/secret", Type: "SecureString", Value: "pw2" });
    expect(r.status).toBe(400);
    expect(r.body["__type"]).toBe("ParameterAlreadyExists");

    r = await ssm(fake, "PutParameter", { Name: "/a/secret", Value: "pw2", Overwrite: true, Tags: [{ Key: "x", Value: "y" }] });
    expect(r.body["__type"]).toBe("ValidationException");
    expect(String(r.body["message"])).toContain("tags and overwrite can't be used together");

    r = await ssm(fake, "PutParameter", { Name: "/a/secret", Value: "pw2", Overwrite: true, Description: "d" });
    expect(r.body).toEqual({ Version: 2, Tier: "Standard" });

    r = await ssm(fake, "GetParameter", { Name: "/a/secret", WithDecryption: true });
    const p = r.body["Parameter"] as Record<string, unknown>;
    expect(p).toMatchObject({ Name: "/a/secret", Type: "SecureString", Value: "pw2", Version: 2, DataType: "text", ARN: "arn:aws:ssm:us-east-1:123456789012:parameter/a/secret" });
    expect(typeof p["LastModifiedDate"]).toBe("number");
    r = await ssm(fake, "GetParameter", { Name: "/a/secret" });
    expect((r.body["Parameter"] as Record<string, unknown>)["Value"]).not.toBe("pw2");

    await ssm(fake, "PutParameter", { Name: "plain", Type: "String", Value: "x" });
    r = await ssm(fake, "DescribeParameters", { ParameterFilters: [{ Key: "Name", Option: "Equals", Values: ["/a/secret"] }] });
    expect(r.body["Parameters"]).toEqual([
      expect.objectContaining({ Name: "/a/secret", Type: "SecureString", KeyId: "alias/aws/ssm", Description: "d", Version: 2, Tier: "Standard", DataType: "text" }),
    ]);
    r = await ssm(fake, "DescribeParameters", { ParameterFilters: [{ Key: "Type", Values: ["String"] }] });
    expect((r.body["Parameters"] as { Name: string }[]).map((x) => x.Name)).toEqual(["plain"]);
    expect((r.body["Parameters"] as { ARN: string }[])[0]?.ARN).toBe("arn:aws:ssm:us-east-1:123456789012:parameter/plain");
    r = await ssm(fake, "DescribeParameters", { ParameterFilters: [{ Key: "tag:k", Values: ["v"] }] });
    expect((r.body["Parameters"] as { Name: string }[]).map((x) => x.Name)).toEqual(["/a/secret"]);
    r = await ssm(fake, "DescribeParameters", { MaxResults: 1 });
    expect((r.body["Parameters"] as unknown[]).length).toBe(1);
    r = await ssm(fake, "DescribeParameters", { MaxResults: 1, NextToken: r.body["NextToken"] });
    expect((r.body["Parameters"] as { Name: string }[]).map((x) => x.Name)).toEqual(["plain"]);
    expect(r.body["NextToken"]).toBeUndefined();

    r = await ssm(fake, "GetParameters", { Names: ["plain", "nope"], WithDecryption: true });
    expect((r.body["Parameters"] as { Name: string }[]).map((x) => x.Name)).toEqual(["plain"]);
    expect(r.body["InvalidParameters"]).toEqual(["nope"]);

    r = await ssm(fake, "DeleteParameter", { Name: "/a/secret" });
    expect(r.status).toBe(200);
    r = await ssm(fake, "GetParameter", { Name: "/a/secret" });
    expect(r.status).toBe(400);
    expect(r.body["__type"]).toBe("ParameterNotFound");
    expect(r.headers.get("x-amzn-errortype")).toBe("ParameterNotFound");
    r = await ssm(fake, "DeleteParameter", { Name: "/a/secret" });
    expect(r.body["__type"]).toBe("ParameterNotFound");
    expect(fake.state().ssmParameters.map((x) => x.name)).toEqual(["plain"]);
  });

  test("validates type, name and allowed pattern", async () => {
    expect((await ssm(fake, "PutParameter", { Name: "n", Value: "v" })).body["__type"]).toBe("ValidationException");
    expect((await ssm(fake, "PutParameter", { Name: "n", Value: "v", Type: "Str" })).body["__type"]).toBe("ValidationException");
    expect((await ssm(fake, "PutParameter", { Name: "awsname", Value: "v", Type: "String" })).body["__type"]).toBe("ValidationException");
    expect((await ssm(fake, "PutParameter", { Name: "n", Value: 3, Type: "String" })).body["message"]).toContain("'value'");
    const r = await ssm(fake, "PutParameter", { Name: "n", Value: "abc", Type: "String", AllowedPattern: "[0-9]+" });
    expect(r.body["__type"]).toBe("ParameterPatternMismatchException");
  });

  test("tags: add, remove, list; unknown resource is InvalidResourceId", async () => {
    await ssm(fake, "PutParameter", { Name: "n", Type: "String", Value: "v", Tags: [{ Key: "a", Value: "1" }] });
    await ssm(fake, "AddTagsToResource", { ResourceType: "Parameter", ResourceId: "n", Tags: [{ Key: "b", Value: "2" }, { Key: "a", Value: "3" }] });
    await ssm(fake, "RemoveTagsFromResource", { ResourceType: "Parameter", ResourceId: "n", TagKeys: ["b"] });
    const r = await ssm(fake, "ListTagsForResource", { ResourceType: "Parameter", ResourceId: "n" });
    expect(r.body).toEqual({ TagList: [{ Key: "a", Value: "3" }] });
    expect((await ssm(fake, "ListTagsForResource", { ResourceType: "Parameter", ResourceId: "zz" })).body["__type"]).toBe("InvalidResourceId");
    expect((await ssm(fake, "ListTagsForResource", { ResourceType: "Document", ResourceId: "n" })).body["__type"]).toBe("InvalidResourceType");
  });

  test("unknown operations and bad bodies are answered and recorded", async () => {
    let r = await ssm(fake, "GetParameterHistory", { Name: "n" });
    expect(r.status).toBe(400);
    expect(r.body["__type"]).toBe("UnknownOperationException");
    r = await json(fake, "AmazonSSM.GetParameter", undefined, "{not json");
    expect(r.body["__type"]).toBe("SerializationException");
    r = await json(fake, "DynamoDB_20120810.ListTables", {});
    expect(r.body["__type"]).toBe("UnknownOperationException");
    expect(fake.unknownCalls().map((c) => [c.service, c.action])).toEqual([
      ["ssm", "GetParameterHistory"],
      ["unknown", "AmazonSSM.GetParameter"],
      ["unknown", "ListTables"],
    ]);
  });
});

describe("CloudWatch Logs (JSON 1.1)", () => {
  const arn = "arn:aws:logs:us-east-1:123456789012:log-group:/app/x";

  test("create, describe, retention, tags (both APIs), delete", async () => {
    let r = await logs(fake, "CreateLogGroup", { logGroupName: "/app/x", tags: { a: "1" } });
    expect(r.status).toBe(200);
    expect((await logs(fake, "CreateLogGroup", { logGroupName: "/app/x" })).body["__type"]).toBe("ResourceAlreadyExistsException");
    await logs(fake, "CreateLogGroup", { logGroupName: "/app/y" });
    await logs(fake, "CreateLogGroup", { logGroupName: "/other" });

    expect((await logs(fake, "PutRetentionPolicy", { logGroupName: "/app/x", retentionInDays: 8 })).body["__type"]).toBe("InvalidParameterException");
    expect((await logs(fake, "PutRetentionPolicy", { logGroupName: "/app/x", retentionInDays: 7 })).status).toBe(200);
    r = await logs(fake, "DescribeLogGroups", { logGroupNamePrefix: "/app/" });
    const groups = r.body["logGroups"] as Record<string, unknown>[];
    expect(groups.map((g) => g["logGroupName"])).toEqual(["/app/x", "/app/y"]);
    expect(groups[0]).toMatchObject({ retentionInDays: 7, arn: `${arn}:*`, logGroupArn: arn, logGroupClass: "STANDARD", storedBytes: 0, metricFilterCount: 0 });
    expect(groups[1]?.["retentionInDays"]).toBeUndefined();

    r = await logs(fake, "DescribeLogGroups", { limit: 2 });
    expect((r.body["logGroups"] as { logGroupName: string }[]).map((g) => g.logGroupName)).toEqual(["/app/x", "/app/y"]);
    r = await logs(fake, "DescribeLogGroups", { limit: 2, nextToken: r.body["nextToken"] });
    expect((r.body["logGroups"] as { logGroupName: string }[]).map((g) => g.logGroupName)).toEqual(["/other"]);

    await logs(fake, "DeleteRetentionPolicy", { logGroupName: "/app/x" });
    expect(fake.state().logGroups[0]?.retentionInDays).toBeUndefined();

    await logs(fake, "TagResource", { resourceArn: arn, tags: { b: "2" } });
    await logs(fake, "UntagResource", { resourceArn: arn, tagKeys: ["a"] });
    expect((await logs(fake, "ListTagsForResource", { resourceArn: arn })).body).toEqual({ tags: { b: "2" } });
    await logs(fake, "TagLogGroup", { logGroupName: "/app/x", tags: { c: "3" } });
    await logs(fake, "UntagLogGroup", { logGroupName: "/app/x", tags: ["b"] });
    expect((await logs(fake, "ListTagsLogGroup", { logGroupName: "/app/x" })).body).toEqual({ tags: { c: "3" } });

    expect((await logs(fake, "DeleteLogGroup", { logGroupName: "/app/x" })).status).toBe(200);
    r = await logs(fake, "DeleteLogGroup", { logGroupName: "/app/x" });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ __type: "ResourceNotFoundException", message: "The specified log group does not exist." });
    expect((await logs(fake, "ListTagsForResource", { resourceArn: arn })).body["__type"]).toBe("ResourceNotFoundException");
    expect((await logs(fake, "CreateLogGroup", { logGroupName: "bad name" })).body["__type"]).toBe("InvalidParameterException");
  });
});

describe("EC2 (Query, XML)", () => {
  test("allocate with tag specifications, describe, attribute, tags, release", async () => {
    let r = await ec2(fake, "AllocateAddress", { Domain: "vpc", "TagSpecification.1.ResourceType": "elastic-ip", "TagSpecification.1.Tag.1.Key": "Name", "TagSpecification.1.Tag.1.Value": "web" });
    expect(r.status).toBe(200);
    expect(r.xml).toContain('<AllocateAddressResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">');
    const id = tag(r.xml, "allocationId") as string;
    const ip = tag(r.xml, "publicIp") as string;
    expect(id).toMatch(/^eipalloc-[0-9a-f]{17}$/);
    expect(ip).toMatch(/^(203\.0\.113|198\.51\.100)\.\d+$/);
    expect(tag(r.xml, "domain")).toBe("vpc");
    expect(tag(r.xml, "requestId")).toMatch(/^[0-9a-f-]{36}$/);

    const other = tag((await ec2(fake, "AllocateAddress", { Domain: "vpc" })).xml, "allocationId") as string;
    r = await ec2(fake, "DescribeAddresses", { "AllocationId.1": id });
    expect(r.xml.match(/<item><publicIp>/g)?.length).toBe(1);
    expect(r.xml).toContain(`<allocationId>${id}</allocationId>`);
    expect(r.xml).toContain("<tagSet><item><key>Name</key><value>web</value></item></tagSet>");
    r = await ec2(fake, "DescribeAddresses", { "Filter.1.Name": "tag:Name", "Filter.1.Value.1": "web" });
    expect(r.xml).toContain(id);
    expect(r.xml).not.toContain(other);
    r = await ec2(fake, "DescribeAddresses", { "Filter.1.Name": "public-ip", "Filter.1.Value.1": ip });
    expect(r.xml).toContain(id);

    r = await ec2(fake, "DescribeAddressesAttribute", { "AllocationId.1": id, Attribute: "domain-name" });
    expect(r.xml).toContain(`<addressSet><item><publicIp>${ip}</publicIp><allocationId>${id}</allocationId></item></addressSet>`);

    await ec2(fake, "CreateTags", { "ResourceId.1": id, "Tag.1.Key": "env", "Tag.1.Value": "prod" });
    await ec2(fake, "DeleteTags", { "ResourceId.1": id, "Tag.1.Key": "Name" });
    expect(fake.state().addresses.find((a) => a.allocationId === id)?.tags).toEqual({ env: "prod" });

    r = await ec2(fake, "ReleaseAddress", { AllocationId: id });
    expect(tag(r.xml, "return")).toBe("true");
    r = await ec2(fake, "DescribeAddresses", { "AllocationId.1": id });
    expect(r.status).toBe(400);
    expect(r.xml).toMatch(
      new RegExp(`<Response><Errors><Error><Code>InvalidAllocationID.NotFound</Code><Message>The allocation ID '${id}' does not exist</Message></Error></Errors><RequestID>[0-9a-f-]{36}</RequestID></Response>`),
    );
    expect(fake.callsOf("DescribeAddresses").at(-1)).toMatchObject({ service: "ec2", status: 400, errorCode: "InvalidAllocationID.NotFound", params: { AllocationId: [id] } });
    expect(tag((await ec2(fake, "ReleaseAddress", { AllocationId: id })).xml, "Code")).toBe("InvalidAllocationID.NotFound");
    expect(tag((await ec2(fake, "DescribeAddresses", { "AllocationId.1": "bogus" })).xml, "Code")).toBe("InvalidAllocationID.Malformed");
    expect(tag((await ec2(fake, "DescribeAddresses", { "PublicIp.1": "192.0.2.9" })).xml, "Code")).toBe("InvalidAddress.NotFound");
  });

  test("DryRun, account attributes, unknown actions", async () => {
    let r = await ec2(fake, "AllocateAddress", { DryRun: "true" });
    expect(r.status).toBe(412);
    expect(tag(r.xml, "Code")).toBe("DryRunOperation");
    expect(fake.state().addresses).toEqual([]);
    r = await ec2(fake, "DescribeAccountAttributes", { "AttributeName.1": "supported-platforms" });
    expect(r.xml).toContain("<accountAttributeSet><item><attributeName>supported-platforms</attributeName><attributeValueSet><item><attributeValue>VPC</attributeValue></item></attributeValueSet></item></accountAttributeSet>");
    r = await ec2(fake, "RunInstances", {});
    expect(r.status).toBe(400);
    expect(tag(r.xml, "Code")).toBe("InvalidAction");
    expect(fake.unknownCalls()).toEqual([expect.objectContaining({ service: "ec2", action: "RunInstances", unknown: true, region: "us-east-1" })]);
  });

  test("routes by Version when there is no Authorization header", async () => {
    const res = await fetch(`${fake.url}/?Action=DescribeAddresses&Version=2016-11-15`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<DescribeAddressesResponse");
  });
});

describe("STS (AWS Query)", () => {
  test("GetCallerIdentity answers the fake account; AssumeRole(WithWebIdentity) hand out credentials; unknown actions use the Query error format", async () => {
    let r = await query(fake, "sts", { Action: "GetCallerIdentity", Version: "2011-06-15" });
    expect(r.xml).toContain('<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>');
    expect(tag(r.xml, "Account")).toBe("123456789012");
    expect(tag(r.xml, "RequestId")).toMatch(/^[0-9a-f-]{36}$/);
    r = await query(fake, "sts", { Action: "AssumeRoleWithWebIdentity", Version: "2011-06-15", RoleArn: "arn:aws:iam::123456789012:role/ci", RoleSessionName: "s", WebIdentityToken: "jwt" });
    expect(tag(r.xml, "AccessKeyId")).toMatch(/^ASIA[0-9A-F]{16}$/);
    expect(tag(r.xml, "Arn")).toBe("arn:aws:sts::123456789012:assumed-role/ci/s");
    r = await query(fake, "sts", { Action: "AssumeRole", Version: "2011-06-15", RoleArn: "not-an-arn", RoleSessionName: "s" });
    expect(tag(r.xml, "Code")).toBe("ValidationError");
    r = await query(fake, "sts", { Action: "DecodeAuthorizationMessage", Version: "2011-06-15" });
    expect(r.status).toBe(400);
    expect(r.xml).toContain("<ErrorResponse");
    expect(tag(r.xml, "Type")).toBe("Sender");
    expect(tag(r.xml, "Code")).toBe("InvalidAction");
    r = await query(fake, "iam", { Action: "GetUser", Version: "2010-05-08" });
    expect(tag(r.xml, "Code")).toBe("InvalidAction");
    expect(fake.unknownCalls().map((c) => [c.service, c.action])).toEqual([
      ["sts", "DecodeAuthorizationMessage"],
      ["unknown", "GetUser"],
    ]);
  });
});

describe("fault injection over the wire", () => {
  test("fails the nth call with the protocol's error format, then recovers", async () => {
    await ssm(fake, "PutParameter", { Name: "n", Type: "String", Value: "v" });
    const h = fake.inject({ action: "GetParameter", nth: 2, error: { code: "ThrottlingException", message: "Rate exceeded" } });
    expect((await ssm(fake, "GetParameter", { Name: "n" })).status).toBe(200);
    const r = await ssm(fake, "GetParameter", { Name: "n" });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ __type: "ThrottlingException", message: "Rate exceeded" });
    expect((await ssm(fake, "GetParameter", { Name: "n" })).status).toBe(200);
    expect(h.hits).toBe(1);
    expect(fake.callsOf("GetParameter").map((c) => c.faultIds)).toEqual([[], [h.id], []]);
  });

  test("an injected EC2 error is written as an EC2 error document and skips the handler", async () => {
    fake.inject({ action: "AllocateAddress", times: "always", error: { code: "RequestLimitExceeded", message: "Request limit exceeded.", status: 503 } });
    for (let i = 0; i < 2; i++) {
      const r = await ec2(fake, "AllocateAddress", { Domain: "vpc" });
      expect(r.status).toBe(503);
      expect(tag(r.xml, "Code")).toBe("RequestLimitExceeded");
    }
    expect(fake.state().addresses).toEqual([]);
    fake.clearFaults();
    expect((await ec2(fake, "AllocateAddress", { Domain: "vpc" })).status).toBe(200);
  });

  test("a delay holds the answer back, and a fault on an unimplemented action is not flagged unknown", async () => {
    fake.inject({ action: "DescribeLogGroups", delayMs: 150 });
    const t0 = Date.now();
    expect((await logs(fake, "DescribeLogGroups", {})).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    fake.inject({ action: "GetParameterHistory", error: { code: "InternalServerError", status: 500 } });
    const r = await ssm(fake, "GetParameterHistory", {});
    expect(r.status).toBe(500);
    expect(fake.unknownCalls()).toEqual([]);
    expect(() => fake.inject({ action: "X" })).toThrow("[invalid_fault]");
  });

  test("state is per server instance", async () => {
    const other = await startFakeAws();
    try {
      await ssm(fake, "PutParameter", { Name: "n", Type: "String", Value: "v" });
      expect(fake.isEmpty()).toBe(false);
      expect(other.isEmpty()).toBe(true);
      expect(other.calls).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
