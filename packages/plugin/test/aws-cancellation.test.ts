/**
 * Per-call cancellation against the real AWS provider and `@magma/fake-aws` (issue 14,
 * defect 1): aborting one call cancels only that call's HTTP/2 stream. hashicorp/aws (SDKv2)
 * applies a StopProvider to every call in flight and keeps its stop context cancelled
 * afterwards, so a StopProvider sent for one aborted call would fail an unrelated create
 * ("context canceled", no state) and later calls.
 */
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { nullVal } from "@magma/cty";
import { configValue, isProviderError, proposedNewState, type AnyProviderError } from "@magma/provider-api";
import { dialConfiguredProvider, type LiveProvider } from "../src/dial-provider.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 180_000;

async function rejection(p: Promise<unknown>): Promise<AnyProviderError> {
  const e: unknown = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isProviderError(e)) throw new Error(`expected a ProviderError, got ${String(e)}`);
  return e;
}

async function waitUntil(check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

d("per-call cancellation with hashicorp/aws against fake-aws", () => {
  let fake: FakeAws;
  let live: LiveProvider;

  beforeAll(async () => {
    fake = await startFakeAws();
    live = await dialConfiguredProvider({
      binary: AWS_BINARY,
      config: { ...AWS_OFFLINE_CONFIG, max_retries: 1, endpoints: [{ ssm: fake.url, sts: fake.url }] },
    });
    const res = await fetch(fake.url, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.PutParameter" },
      body: JSON.stringify({ Name: "/magma/slow", Value: "slow-value", Type: "String" }),
    });
    expect(res.status).toBe(200);
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  test(
    "aborting one slow read while a create is in flight: the read is canceled, the create completes with its state, later calls work",
    async () => {
      const data = live.schema.dataSources.get("aws_ssm_parameter")!;
      const readConfig = configValue(data.block, { name: "/magma/slow" });
      const slowRead = fake.inject({ action: "GetParameter", delayMs: 8_000 });
      const slowPut = fake.inject({ action: "PutParameter", delayMs: 3_000 });

      const controller = new AbortController();
      const read = rejection(live.provider.readDataSource("aws_ssm_parameter", readConfig, { signal: controller.signal }));
      await waitUntil(() => slowRead.seen >= 1);

      const res = live.schema.resources.get("aws_ssm_parameter")!;
      const config = configValue(res.block, { name: "/magma/created", type: "String", value: "created-value" });
      const prior = nullVal(res.type);
      const plan = await live.provider.planResourceChange("aws_ssm_parameter", prior, proposedNewState(res.block, prior, config), config);
      const apply = live.provider.applyResourceChange("aws_ssm_parameter", prior, plan.plannedState, config, { plannedPrivate: plan.plannedPrivate });
      await waitUntil(() => slowPut.seen >= 1);

      controller.abort();
      const e = await read;
      expect(e.code).toBe("canceled");

      const applied = await apply;
      expect(applied.newState.getAttr("value").asString()).toBe("created-value");
      expect(applied.newState.getAttr("arn").asString()).toMatch(/parameter\/magma\/created$/);
      expect(fake.state().ssmParameters.map((p) => p.name)).toContain("/magma/created");

      // The provider is not left stopped: 20 later calls all succeed.
      const later = await Promise.allSettled(
        Array.from({ length: 20 }, () => live.provider.readDataSource("aws_ssm_parameter", configValue(data.block, { name: "/magma/created" }))),
      );
      expect(later.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    },
    LONG,
  );

  test(
    "stop() is the explicit provider-wide action: it cancels every call in flight",
    async () => {
      const data = live.schema.dataSources.get("aws_ssm_parameter")!;
      const readConfig = configValue(data.block, { name: "/magma/slow" });
      const slow = fake.inject({ action: "GetParameter", delayMs: 8_000, times: 2 });
      const reads = [1, 2].map(() => rejection(live.provider.readDataSource("aws_ssm_parameter", readConfig)));
      await waitUntil(() => slow.seen >= 2);
      await live.stop();
      const errors = await Promise.all(reads);
      for (const e of errors) {
        expect(e.code).toBe("diagnostics");
        expect(e.message).toMatch(/context canceled/);
      }
    },
    LONG,
  );
});
