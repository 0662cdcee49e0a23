// Item 5 — retries: withRetry over isRetryable, against the local AWS endpoint's throttling
// fault through the real hashicorp/aws provider (max_retries = 1, so the SDK gives up at
// once and the throttling reaches magma as diagnostics): throttled twice, then success.
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { configValue, dialConfiguredProvider, isRetryable, withRetry, type LiveProvider } from "@magma/plugin";
import { AWS_BINARY, awsFakeConfig, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;

d("withRetry against a throttling fault (hashicorp/aws, @magma/fake-aws)", () => {
  let fake: FakeAws;
  let live: LiveProvider;
  beforeAll(async () => {
    fake = await startFakeAws();
    live = await dialConfiguredProvider({
      binary: AWS_BINARY,
      config: awsFakeConfig(fake.url, { maxRetries: 1, endpoints: ["ssm", "sts"] }),
    });
    const res = await fetch(fake.url, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.PutParameter" },
      body: JSON.stringify({ Name: "/magma/retry", Value: "v1", Type: "String" }),
    });
    expect(res.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  test("throttled twice (the SDK gives up: diagnostics saying throttling, retryable), then success on attempt 3", async () => {
    const entry = live.schema.dataSources.get("aws_ssm_parameter")!;
    const config = configValue(entry.block, { name: "/magma/retry" });
    const fault = fake.inject({ action: "GetParameter", times: 2, error: { code: "ThrottlingException", message: "Rate exceeded", status: 400 } });
    const seen: unknown[] = [];
    const attempts: number[] = [];
    const result = await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        return live.provider.readDataSource("aws_ssm_parameter", config);
      },
      { maxAttempts: 5, initialDelayMs: 50, onRetry: (e) => seen.push(e) },
    );
    expect(result.state.getAttr("value").asString()).toBe("v1");
    expect(attempts).toEqual([1, 2, 3]);
    expect(fault.hits).toBe(2);
    expect(fault.exhausted).toBe(true);
    expect(seen).toHaveLength(2);
    for (const e of seen) {
      expect(isRetryable(e)).toBe(true);
      expect((e as { code: string }).code).toBe("diagnostics");
      expect((e as Error).message).toMatch(/ThrottlingException|Rate exceeded/);
    }
    expect(fake.callsOf("GetParameter").map((c) => c.errorCode ?? "ok")).toEqual(["ThrottlingException", "ThrottlingException", "ok"]);
  }, 120_000);

  test("a non-retryable error (ParameterNotFound) is not retried", async () => {
    const entry = live.schema.dataSources.get("aws_ssm_parameter")!;
    let attempts = 0;
    await expect(
      withRetry(
        async () => {
          attempts++;
          return live.provider.readDataSource("aws_ssm_parameter", configValue(entry.block, { name: "/magma/missing" }));
        },
        { maxAttempts: 5, initialDelayMs: 10 },
      ),
    ).rejects.toMatchObject({ code: "diagnostics" });
    expect(attempts).toBe(1);
  }, 120_000);
});
