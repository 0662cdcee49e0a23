// Conformance: drift. An SSM parameter changed behind the provider's back is read with the new
// value and the next plan updates it back in place; one deleted behind its back reads as
// `null` and the next plan creates it again. The out-of-band changes are plain SSM JSON
// requests to the fake. terraform 1.11.4 sees the same drift on its own fake: its plan's
// refreshed prior state is compared attribute by attribute, and its planned actions too.
import { hasTerraformAndAws } from "@magma/test-support";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import type { LiveProvider } from "@magma/plugin";
import {
  EngineDriver,
  PlanAction,
  awsProviderHcl,
  createTerraformWorkspace,
  dialAwsAgainst,
  hclResource,
  stateDifferences,
  stateJson,
  type ManagedObject,
  type TerraformPlan,
  type TerraformWorkspace,
} from "../src/index.js";
import { ssmCall } from "./support/fake-http.js";
import { StepLog } from "./support/step-log.js";

const d = hasTerraformAndAws() ? describe : describe.skip;
const LONG = 600_000;
const ADDRESS = "aws_ssm_parameter.p";
const CONFIG = { name: "/drift/p", type: "String", value: "v1", description: "managed", tags: { env: "dev" } };

/** Changes the value behind the provider's back. */
const changeBehindItsBack = (f: FakeAws): Promise<unknown> => ssmCall(f.url, "PutParameter", { Name: "/drift/p", Value: "changed elsewhere", Type: "String", Overwrite: true });
/** Deletes the parameter behind the provider's back. */
const deleteBehindItsBack = (f: FakeAws): Promise<unknown> => ssmCall(f.url, "DeleteParameter", { Name: "/drift/p" });

d("drift against terraform 1.11.4 (aws_ssm_parameter)", () => {
  let fake: FakeAws;
  let tfFake: FakeAws;
  let live: LiveProvider;
  let ws: TerraformWorkspace;
  let engine: EngineDriver;
  const oracle = new StepLog<TerraformPlan>();
  let oracleDone: Promise<void> = Promise.resolve();
  let obj: ManagedObject | null = null;

  const runOracle = async (): Promise<void> => {
    ws.writeConfig(hclResource("aws_ssm_parameter", "p", CONFIG));
    await ws.init();
    await ws.expect(["apply", "-auto-approve", "-input=false", "-no-color"]);
    await changeBehindItsBack(tfFake);
    oracle.publish("changed", await ws.plan());
    await deleteBehindItsBack(tfFake);
    oracle.publish("deleted", await ws.plan());
  };

  beforeAll(async () => {
    [fake, tfFake] = await Promise.all([startFakeAws(), startFakeAws()]);
    ws = createTerraformWorkspace({ preamble: awsProviderHcl(tfFake.url) });
    oracleDone = runOracle().catch((e: unknown) => oracle.fail(e));
    live = await dialAwsAgainst(fake.url);
    engine = new EngineDriver(live.provider, live.schema);
    obj = (await engine.converge("aws_ssm_parameter", null, CONFIG)).result;
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await oracleDone;
    ws?.close();
    await Promise.all([fake?.close(), tfFake?.close()]);
  }, LONG);

  test(
    "changed behind its back: the read shows the new value, and the next plan updates it back in place",
    async () => {
      await changeBehindItsBack(fake);
      const read = await live.provider.readResource("aws_ssm_parameter", obj!.state, { private: obj!.private });
      if (read.gone) throw new Error("the parameter is gone");
      expect(read.newState.getAttr("value").asString()).toBe("changed elsewhere");
      expect(read.newState.getAttr("version").asNumber().toNumber()).toBe(2);

      const plan = await engine.plan("aws_ssm_parameter", obj, CONFIG);
      expect(plan.action).toBe(PlanAction.Update);
      expect(plan.replacePaths).toEqual([]);
      expect(plan.prior?.state.getAttr("value").asString()).toBe("changed elsewhere");
      expect(plan.change?.plannedState.getAttr("value").asString()).toBe("v1");

      const tf = await oracle.get("changed");
      expect(tf.run.code).toBe(2);
      expect(tf.actions.get(ADDRESS)).toEqual(["update"]);
      const type = engine.entry("aws_ssm_parameter").type;
      expect(stateDifferences(stateJson(plan.prior!.state, type), tf.refreshed.get(ADDRESS) ?? {})).toEqual([]);

      // Applying the plan puts the configured value back.
      obj = await engine.apply(plan);
      expect(fake.state().ssmParameters.map((p) => [p.name, p.value, p.version])).toEqual([["/drift/p", "v1", 3]]);
      expect((await engine.plan("aws_ssm_parameter", obj, CONFIG)).action).toBe(PlanAction.NoOp);
    },
    LONG,
  );

  test(
    "deleted behind its back: readResource says gone, and the next plan creates it again",
    async () => {
      await deleteBehindItsBack(fake);
      expect(await live.provider.readResource("aws_ssm_parameter", obj!.state, { private: obj!.private })).toMatchObject({ gone: true });
      const plan = await engine.plan("aws_ssm_parameter", obj, CONFIG);
      expect(plan.prior).toBeNull();
      expect(plan.action).toBe(PlanAction.Create);

      const tf = await oracle.get("deleted");
      expect(tf.run.code).toBe(2);
      expect(tf.refreshed.has(ADDRESS)).toBe(false);
      expect(tf.actions.get(ADDRESS)).toEqual(["create"]);
      expect(tf.run.stdout).toMatch(/aws_ssm_parameter\.p will be created/);

      obj = await engine.apply(plan);
      expect(fake.state().ssmParameters.map((p) => [p.name, p.value, p.version])).toEqual([["/drift/p", "v1", 1]]);
    },
    LONG,
  );
});
