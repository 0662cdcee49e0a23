// Conformance: an aws_eip create that fails after the address was allocated must leave the
// caller holding the allocation (magma: `partially_applied` with the new state; terraform:
// a tainted instance in state), so a later destroy releases it and nothing is orphaned; a
// create that fails before anything exists leaves nothing behind. magma and terraform 1.11.4
// run the same configuration with the same injected fault against two fresh fakes.
import { hasTerraformAndAws } from "@magma/test-support";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { isProviderError, type LiveProvider } from "@magma/plugin";
import {
  AWS_MAX_RETRIES,
  EngineDriver,
  PlanAction,
  awsProviderHcl,
  createTerraformWorkspace,
  dialAwsAgainst,
  hclResource,
  replaceGenerated,
  stateDifferences,
  stateJson,
  type TerraformInstance,
  type TerraformRun,
  type TerraformWorkspace,
} from "../src/index.js";
import { StepLog } from "./support/step-log.js";

const d = hasTerraformAndAws() ? describe : describe.skip;
const LONG = 600_000;
const normalise = replaceGenerated([[/eipalloc-[0-9a-f]{17}/g, "eipalloc-<generated>"]]);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

const EIP = { domain: "vpc", tags: { Name: "partial" } };
/** The follow-up read after AllocateAddress fails with a server error on every attempt (the SDK retries it). */
const DESCRIBE_FAULT = { action: "DescribeAddresses", times: "always", error: { code: "InternalError", message: "An internal error has occurred", status: 500 } } as const;
/** AllocateAddress itself fails with a non-retryable client error. */
const ALLOCATE_FAULT = { action: "AllocateAddress", times: "always", error: { code: "AddressLimitExceeded", message: "The maximum number of addresses has been reached." } } as const;

interface OracleStep {
  readonly run: TerraformRun;
  readonly instances: Map<string, TerraformInstance>;
  readonly ec2Calls: readonly string[];
  readonly addresses: readonly string[];
}

d("partial apply: aws_eip allocated, follow-up call failing (against terraform 1.11.4)", () => {
  let fake: FakeAws;
  let tfFake: FakeAws;
  let live: LiveProvider;
  let ws: TerraformWorkspace;
  let engine: EngineDriver;
  const oracle = new StepLog<OracleStep>();
  let oracleDone: Promise<void> = Promise.resolve();

  const ec2Calls = (f: FakeAws): string[] => f.calls.filter((c) => c.service === "ec2").map((c) => `${c.action}:${c.status}`);

  const runOracle = async (): Promise<void> => {
    const step = async (name: string, body: string, fault?: typeof DESCRIBE_FAULT | typeof ALLOCATE_FAULT): Promise<void> => {
      ws.writeConfig(body);
      tfFake.resetCalls();
      if (fault !== undefined) tfFake.inject(fault);
      const run = await ws.apply();
      tfFake.clearFaults();
      oracle.publish(name, { run, instances: await ws.instances(), ec2Calls: ec2Calls(tfFake), addresses: tfFake.state().addresses.map((a) => a.allocationId) });
    };
    ws.writeConfig(hclResource("aws_eip", "ip", EIP));
    await ws.init();
    await step("partial", hclResource("aws_eip", "ip", EIP), DESCRIBE_FAULT);
    await step("cleanup", "");
    await step("failed", hclResource("aws_eip", "ip", EIP), ALLOCATE_FAULT);
  };

  beforeAll(async () => {
    [fake, tfFake] = await Promise.all([startFakeAws(), startFakeAws()]);
    ws = createTerraformWorkspace({ preamble: awsProviderHcl(tfFake.url) });
    oracleDone = runOracle().catch((e: unknown) => oracle.fail(e));
    live = await dialAwsAgainst(fake.url);
    engine = new EngineDriver(live.provider, live.schema);
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await oracleDone;
    ws?.close();
    await Promise.all([fake?.close(), tfFake?.close()]);
  }, LONG);

  test(
    "the allocation survives as partially_applied with its id; the fake holds exactly one address; a destroy with that state releases it",
    async () => {
      const plan = await engine.plan("aws_eip", null, EIP);
      expect(plan.action).toBe(PlanAction.Create);
      fake.resetCalls();
      fake.inject(DESCRIBE_FAULT);
      const err: unknown = await engine.apply(plan).then(
        () => new Error("the apply succeeded"),
        (e: unknown) => e,
      );
      fake.clearFaults();
      if (!isProviderError(err) || err.code !== "partially_applied") throw err;
      const addresses = fake.state().addresses;
      expect(addresses).toHaveLength(1);
      const allocationId = addresses[0]!.allocationId;
      expect(err.detail.newState.getAttr("id").asString()).toBe(allocationId);
      expect(err.detail.diagnostics.some((x) => x.severity === "error" && /InternalError/.test(`${x.summary} ${x.detail ?? ""}`))).toBe(true);
      // One allocation, then the follow-up read failing on every attempt the SDK makes (max_retries bounds them).
      const calls = ec2Calls(fake);
      expect(calls[0]).toBe("AllocateAddress:200");
      expect(calls.slice(1).length).toBeGreaterThanOrEqual(1);
      expect(calls.slice(1).length).toBeLessThanOrEqual(AWS_MAX_RETRIES + 1);
      expect(new Set(calls.slice(1))).toEqual(new Set(["DescribeAddresses:500"]));

      // Terraform: the same calls, and the object saved tainted with the same values and private.
      const tf = await oracle.get("partial");
      expect(tf.run.code).toBe(1);
      expect(tf.ec2Calls).toEqual(calls);
      expect(tf.addresses).toHaveLength(1);
      const inst = tf.instances.get("aws_eip.ip");
      expect(inst?.status).toBe("tainted");
      expect(inst?.values["id"]).toBe(tf.addresses[0]);
      const mine = stateJson(err.detail.newState, engine.entry("aws_eip").type);
      expect(stateDifferences(mine, inst!.values, normalise)).toEqual([]);
      expect(text(err.detail.private)).toBe(text(inst!.private));

      // Destroy with the kept state and private: refresh, plan destroy, apply; nothing is orphaned.
      fake.resetCalls();
      const kept = { typeName: "aws_eip", state: err.detail.newState, private: err.detail.private, schemaVersion: engine.entry("aws_eip").version };
      const { plan: destroy, result } = await engine.converge("aws_eip", kept, null);
      expect(destroy.action).toBe(PlanAction.Delete);
      expect(result).toBeNull();
      expect(fake.callsOf("ReleaseAddress").map((c) => c.params["AllocationId"])).toEqual([allocationId]);
      expect(fake.state().addresses).toEqual([]);
      expect(fake.isEmpty()).toBe(true);

      const cleanup = await oracle.get("cleanup");
      expect(cleanup.run.code).toBe(0);
      expect(cleanup.run.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 1 destroyed.");
      expect(cleanup.ec2Calls).toContain("ReleaseAddress:200");
      expect(cleanup.addresses).toEqual([]);
      expect(cleanup.instances.size).toBe(0);
    },
    LONG,
  );

  test(
    "a create that fails at AllocateAddress rejects with diagnostics (no state), and nothing is leaked",
    async () => {
      const plan = await engine.plan("aws_eip", null, EIP);
      fake.resetCalls();
      fake.inject(ALLOCATE_FAULT);
      const err: unknown = await engine.apply(plan).then(
        () => new Error("the apply succeeded"),
        (e: unknown) => e,
      );
      fake.clearFaults();
      if (!isProviderError(err) || err.code !== "diagnostics") throw err;
      expect(err.detail.diagnostics.some((x) => x.severity === "error" && /AddressLimitExceeded/.test(`${x.summary} ${x.detail ?? ""}`))).toBe(true);
      expect(ec2Calls(fake)).toEqual(["AllocateAddress:400"]);
      expect(fake.isEmpty()).toBe(true);

      const tf = await oracle.get("failed");
      expect(tf.run.code).toBe(1);
      expect(tf.run.stdout + tf.run.stderr).toContain("AddressLimitExceeded");
      expect(tf.ec2Calls).toEqual(["AllocateAddress:400"]);
      expect(tf.instances.size).toBe(0);
      expect(tf.addresses).toEqual([]);
    },
    LONG,
  );
});
