/**
 * Refresh safety (issue 20 §4) with the real AWS provider (hashicorp/aws 5.100.0) against
 * `@magma/fake-aws`: ten SSM parameters in state, refreshed through refreshWithOutcome and
 * judged by the refresh guard. An endpoint failing every read is "unknown" and refused; most
 * objects reported missing is refused (and accepted with allowMassLoss); a targeted real
 * deletion passes and is planned as a create, as Terraform would. Refused refreshes leave the
 * held state untouched. Skipped where the provider binary is absent.
 */
import { AWS_BINARY, awsFakeConfig, hasAwsProvider } from "@magma/test-support";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { dialConfiguredProvider, type LiveProvider } from "@magma/plugin";
import { configValue } from "@magma/provider-api";
import { applyInstance } from "../src/instance/apply-instance.js";
import type { InstanceObject, InstanceTarget } from "../src/instance/instance-target.js";
import { planInstance } from "../src/instance/plan-instance.js";
import { assertRefreshSafe, judgeRefresh, type RefreshGuardOptions, type RefreshJudgement } from "../src/refresh/refresh-guard.js";
import { refreshWithOutcome } from "../src/refresh/refresh-with-outcome.js";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 240_000;
const TYPE = "aws_ssm_parameter";
const PROVIDER = 'provider["registry.terraform.io/hashicorp/aws"]';
const N = 10;

d("refresh guard: hashicorp/aws against fake-aws", () => {
  let fake: FakeAws;
  let live: LiveProvider;
  let target: InstanceTarget;
  /** The state the test holds: address → object. Only a safe refresh may replace it. */
  const state = new Map<string, InstanceObject>();
  const address = (i: number): string => `${TYPE}.p[${i}]`;
  const config = (i: number) => configValue(live.schema.resources.get(TYPE)!.block, { name: `/magma/refresh/p${i}`, type: "String", value: `v${i}` });

  beforeAll(async () => {
    fake = await startFakeAws();
    live = await dialConfiguredProvider({
      binary: AWS_BINARY,
      config: awsFakeConfig(fake.url, { maxRetries: 1, endpoints: ["ssm", "sts"] }),
    });
    target = { provider: live.provider, schema: live.schema, providerAddress: "registry.terraform.io/hashicorp/aws" };
    for (let i = 0; i < N; i++) {
      const r = await applyInstance(target, await planInstance(target, { address: address(i), typeName: TYPE, prior: null, config: config(i) }));
      expect(r.error).toBeUndefined();
      state.set(address(i), r.object!);
    }
    expect(fake.state().ssmParameters).toHaveLength(N);
    // The first read after a create normalises what the apply returned (hashicorp/aws reads
    // back attributes the apply left as planned): take it, as the next plan's refresh would.
    const first = await refreshAll();
    expect(first.refused).toBeUndefined();
    expect(first.judgement.counts.failed + first.judgement.counts.gone).toBe(0);
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  /** Refreshes every object in state, judges, and replaces the state only when safe. */
  async function refreshAll(options?: RefreshGuardOptions): Promise<{ judgement: RefreshJudgement; refused?: Error & { code?: string } }> {
    const reads = await Promise.all([...state].map(async ([addr, obj]) => ({ addr, ...(await refreshWithOutcome(target, addr, TYPE, obj, PROVIDER)) })));
    const outcomes = reads.map((r) => r.outcome);
    try {
      const judgement = assertRefreshSafe(outcomes, options);
      for (const r of reads) {
        if (r.result === undefined) continue; // a failed read keeps the prior object
        if (r.result.object === null) state.delete(r.addr);
        else state.set(r.addr, r.result.object);
      }
      return { judgement };
    } catch (e) {
      return { judgement: judgeRefresh(outcomes, options), refused: e as Error & { code?: string } };
    }
  }

  async function deleteAtEndpoint(names: string[]): Promise<void> {
    const res = await fetch(fake.url, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.DeleteParameters" },
      body: JSON.stringify({ Names: names }),
    });
    expect(res.status).toBe(200);
  }

  test(
    "an endpoint that fails every read (credentials rejected): unknown, never in sync, refused with a clear message, state untouched",
    async () => {
      const before = new Map(state);
      const fault = fake.inject({ action: "GetParameter", service: "ssm", times: "always", error: { code: "UnrecognizedClientException", message: "The security token included in the request is invalid.", status: 400 } });
      try {
        const { judgement, refused } = await refreshAll({ allowMassLoss: true });
        expect(judgement.verdict).toBe("unknown");
        expect(judgement.counts).toEqual({ total: N, inSync: 0, changed: 0, gone: 0, failed: N });
        expect(refused?.code).toBe("refresh_suspect");
        expect(refused?.message).toContain(`every read failed (${N} objects: 0 in sync, 0 changed, 0 gone, ${N} failed)`);
        expect(refused?.message).toContain("UnrecognizedClientException");
        expect(refused?.message).toMatch(/aws_ssm_parameter\.p\[\d\]/);
      } finally {
        fault.remove();
      }
      expect(state).toEqual(before);
      expect(fake.state().ssmParameters).toHaveLength(N);
    },
    LONG,
  );

  test(
    "a targeted real deletion passes: the refresh drops the object and the plan creates it again, as Terraform does",
    async () => {
      await deleteAtEndpoint(["/magma/refresh/p3"]);
      const { judgement, refused } = await refreshAll();
      expect(refused).toBeUndefined();
      expect(judgement).toMatchObject({ verdict: "drifted", safe: true, counts: { total: N, inSync: N - 1, gone: 1, failed: 0 } });
      expect(state.has(address(3))).toBe(false);
      const plan = await planInstance(target, { address: address(3), typeName: TYPE, prior: state.get(address(3)) ?? null, config: config(3) });
      expect(plan.action).toBe("create");
    },
    LONG,
  );

  test(
    "most objects reported missing (an outage answering ParameterNotFound): refused naming the count and examples, state untouched; allowMassLoss accepts it",
    async () => {
      const names = [0, 1, 2, 4, 5, 6, 7].map((i) => `/magma/refresh/p${i}`);
      await deleteAtEndpoint(names);
      const before = new Map(state);
      const { judgement, refused } = await refreshAll();
      expect(judgement.verdict).toBe("suspect");
      expect(judgement.counts).toEqual({ total: N - 1, inSync: 2, changed: 0, gone: 7, failed: 0 });
      expect(judgement.findings.map((f) => f.suspicion)).toEqual(["most-gone"]);
      expect(refused?.code).toBe("refresh_suspect");
      expect(refused?.message).toContain("most objects are gone: 7 of 9 answered for (e.g. aws_ssm_parameter.p[0], aws_ssm_parameter.p[1], aws_ssm_parameter.p[2], aws_ssm_parameter.p[4], aws_ssm_parameter.p[5], … (2 more))");
      expect(state).toEqual(before);

      const accepted = await refreshAll({ allowMassLoss: true });
      expect(accepted.refused).toBeUndefined();
      expect(accepted.judgement).toMatchObject({ verdict: "suspect", safe: true, overridden: true });
      expect([...state.keys()].sort()).toEqual([address(8), address(9)]);
    },
    LONG,
  );
});
