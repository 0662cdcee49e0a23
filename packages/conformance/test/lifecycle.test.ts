// Conformance: create → read → in-place update → replace → import → destroy → read, driven by
// magma through @magma/plugin against one fake AWS endpoint, and the same configurations
// applied by terraform 1.11.4 against a second, fresh fake. Every state magma holds is
// compared attribute by attribute with terraform's state file (`terraform state pull`), with
// its private state and schema version. The terraform run goes on in the background while
// magma works; each test awaits the terraform step it compares with.
import { hasTerraformAndAws } from "@magma/test-support";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import type { LiveProvider } from "@magma/plugin";
import {
  EngineDriver,
  PlanAction,
  createTerraformWorkspace,
  dialAwsAgainst,
  awsProviderHcl,
  hclResource,
  replaceGenerated,
  stateDifferences,
  stateJson,
  type ManagedObject,
  type TerraformInstance,
  type TerraformWorkspace,
} from "../src/index.js";
import { StepLog } from "./support/step-log.js";

const d = hasTerraformAndAws() ? describe : describe.skip;
const LONG = 600_000;

/** The fake's allocation ids are random per instance: the one generated value that differs. */
const normalise = replaceGenerated([[/eipalloc-[0-9a-f]{17}/g, "eipalloc-<generated>"]]);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

type Configs = Readonly<Record<string, { readonly type: string; readonly config: Readonly<Record<string, unknown>> }>>;

const V1: Configs = {
  p: { type: "aws_ssm_parameter", config: { name: "/conf/p", type: "String", value: "v1", tags: { env: "dev", old: "x" } } },
  lg: { type: "aws_cloudwatch_log_group", config: { name: "/conf/lg", retention_in_days: 7, tags: { env: "dev" } } },
  ip: { type: "aws_eip", config: { domain: "vpc", tags: { Name: "conf" } } },
};
/** In place: SSM value, description and tags; log group retention; EIP tags. */
const V2: Configs = {
  p: { type: "aws_ssm_parameter", config: { name: "/conf/p", type: "String", value: "v2", description: "updated", tags: { env: "prod", team: "core" } } },
  lg: { type: "aws_cloudwatch_log_group", config: { name: "/conf/lg", retention_in_days: 30, tags: { env: "dev" } } },
  ip: { type: "aws_eip", config: { domain: "vpc", tags: { Name: "conf", env: "prod" } } },
};
/** A new SSM name forces replacement; the rest is unchanged. */
const V3: Configs = { ...V2, p: { type: "aws_ssm_parameter", config: { ...V2["p"]!.config, name: "/conf/p2" } } };

const hcl = (configs: Configs): string => Object.entries(configs).map(([name, r]) => hclResource(r.type, name, r.config)).join("\n");

interface OracleStep {
  readonly instances: Map<string, TerraformInstance>;
  readonly stdout: string;
  readonly fakeAddresses: number;
  readonly fakeParameters: readonly string[];
}

d("lifecycle against terraform 1.11.4 (aws_ssm_parameter, aws_cloudwatch_log_group, aws_eip)", () => {
  let fake: FakeAws;
  let tfFake: FakeAws;
  let live: LiveProvider;
  let ws: TerraformWorkspace;
  let engine: EngineDriver;
  const oracle = new StepLog<OracleStep>();
  let oracleDone: Promise<void> = Promise.resolve();
  const objects = new Map<string, ManagedObject | null>();

  const runOracle = async (): Promise<void> => {
    ws.writeConfig(hcl(V1));
    await ws.init();
    const step = async (name: string, body: string, extra: readonly string[] = []): Promise<void> => {
      ws.writeConfig(body);
      const r = await ws.apply(extra);
      if (r.code !== 0) throw new Error(`terraform apply (${name}) failed:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
      const s = tfFake.state();
      oracle.publish(name, { instances: await ws.instances(), stdout: r.stdout, fakeAddresses: s.addresses.length, fakeParameters: s.ssmParameters.map((p) => p.name) });
    };
    await step("create", hcl(V1));
    await step("update", hcl(V2));
    await step("replace", hcl(V3));
    const eipId = (await oracle.get("replace")).instances.get("aws_eip.ip")?.values["id"];
    await ws.expect(["state", "rm", "-no-color", "aws_ssm_parameter.p", "aws_cloudwatch_log_group.lg", "aws_eip.ip"]);
    const imports = [
      ["aws_ssm_parameter.p", "/conf/p2"],
      ["aws_cloudwatch_log_group.lg", "/conf/lg"],
      ["aws_eip.ip", String(eipId)],
    ]
      .map(([to, id]) => `import {\n  to = ${to}\n  id = "${id}"\n}\n`)
      .join("");
    await step("import", hcl(V3) + imports);
    await step("destroy", "");
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

  /** magma's object vs terraform's instance: every attribute, the schema version and the private state. */
  const expectSameAsTerraform = (address: string, obj: ManagedObject | null | undefined, tf: OracleStep): void => {
    const inst = tf.instances.get(address);
    expect([address, inst === undefined]).toEqual([address, false]);
    expect(obj).not.toBeNull();
    const mine = stateJson(obj!.state, engine.entry(obj!.typeName).type);
    expect([address, stateDifferences(mine, inst!.values, normalise)]).toEqual([address, []]);
    expect([address, "schema_version", obj!.schemaVersion]).toEqual([address, "schema_version", inst!.schemaVersion]);
    expect([address, "private", text(obj!.private)]).toEqual([address, "private", text(inst!.private)]);
    expect(inst!.status).toBeUndefined();
  };

  const converge = async (configs: Configs, expected: Readonly<Record<string, string>>): Promise<void> => {
    for (const [name, r] of Object.entries(configs)) {
      const { plan, result } = await engine.converge(r.type, objects.get(name) ?? null, r.config);
      expect([name, plan.action]).toEqual([name, expected[name]]);
      objects.set(name, result);
    }
  };

  test(
    "create: all three are created and match terraform's state (values, schema version, private)",
    async () => {
      await converge(V1, { p: PlanAction.Create, lg: PlanAction.Create, ip: PlanAction.Create });
      const s = fake.state();
      expect(s.ssmParameters.map((p) => [p.name, p.value])).toEqual([["/conf/p", "v1"]]);
      expect(s.logGroups.map((g) => [g.name, g.retentionInDays])).toEqual([["/conf/lg", 7]]);
      expect(s.addresses).toHaveLength(1);
      expect(objects.get("ip")?.state.getAttr("id").asString()).toBe(s.addresses[0]?.allocationId);

      const tf = await oracle.get("create");
      expect(tf.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
      for (const [name, r] of Object.entries(V1)) expectSameAsTerraform(`${r.type}.${name}`, objects.get(name), tf);
    },
    LONG,
  );

  test(
    "read: a refresh of each object returns it unchanged, and the next plan is a no-op",
    async () => {
      for (const [name, r] of Object.entries(V1)) {
        const obj = objects.get(name)!;
        const read = await live.provider.readResource(r.type, obj.state, { private: obj.private });
        if (read.gone) throw new Error(`${name} is gone`);
        expect([name, stateDifferences(stateJson(read.newState, engine.entry(r.type).type), stateJson(obj.state, engine.entry(r.type).type))]).toEqual([name, []]);
        const plan = await engine.plan(r.type, obj, r.config);
        expect([name, plan.action]).toEqual([name, PlanAction.NoOp]);
      }
    },
    LONG,
  );

  test(
    "in-place update: SSM value/description/tags, log group retention, EIP tags; nothing replaced",
    async () => {
      const before = objects.get("ip")?.state.getAttr("id").asString();
      await converge(V2, { p: PlanAction.Update, lg: PlanAction.Update, ip: PlanAction.Update });
      expect(objects.get("ip")?.state.getAttr("id").asString()).toBe(before);
      const s = fake.state();
      expect(s.ssmParameters.map((p) => [p.name, p.value, p.version, p.description, p.tags])).toEqual([["/conf/p", "v2", 2, "updated", { env: "prod", team: "core" }]]);
      expect(s.logGroups.map((g) => g.retentionInDays)).toEqual([30]);

      const tf = await oracle.get("update");
      expect(tf.stdout).toContain("Apply complete! Resources: 0 added, 3 changed, 0 destroyed.");
      for (const [name, r] of Object.entries(V2)) expectSameAsTerraform(`${r.type}.${name}`, objects.get(name), tf);
    },
    LONG,
  );

  test(
    "replace: a new SSM name is planned with requires_replace [name], destroyed, then created",
    async () => {
      const prior = objects.get("p")!;
      const plan = await engine.plan("aws_ssm_parameter", prior, V3["p"]!.config);
      expect(plan.action).toBe(PlanAction.Replace);
      expect(plan.replacePaths.map(String)).toEqual(["name"]);
      expect(plan.change?.plannedState.getAttr("name").asString()).toBe("/conf/p2"); // the create half
      fake.resetCalls();
      objects.set("p", await engine.apply(plan));
      // Destroy before create, as Terraform does without create_before_destroy.
      expect(fake.calls.filter((c) => c.action === "DeleteParameter" || c.action === "PutParameter").map((c) => `${c.action} ${String(c.params["Name"])}`)).toEqual([
        "DeleteParameter /conf/p",
        "PutParameter /conf/p2",
      ]);
      await converge(V3, { p: PlanAction.NoOp, lg: PlanAction.NoOp, ip: PlanAction.NoOp });
      expect(fake.state().ssmParameters.map((p) => p.name)).toEqual(["/conf/p2"]);

      const tf = await oracle.get("replace");
      expect(tf.stdout).toMatch(/aws_ssm_parameter\.p must be\s+replaced/);
      expect(tf.stdout).toMatch(/name\s+= "\/conf\/p" -> "\/conf\/p2" # forces replacement/);
      expect(tf.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 1 destroyed.");
      expect(tf.fakeParameters).toEqual(["/conf/p2"]);
      for (const [name, r] of Object.entries(V3)) expectSameAsTerraform(`${r.type}.${name}`, objects.get(name), tf);
    },
    LONG,
  );

  test(
    "import by id, then read: the imported objects match terraform's import blocks, and the next plan is a no-op",
    async () => {
      const ids: Record<string, string> = { p: "/conf/p2", lg: "/conf/lg", ip: objects.get("ip")!.state.getAttr("id").asString() };
      const tf = await oracle.get("import");
      expect(tf.stdout).toContain("Apply complete! Resources: 3 imported, 0 added, 0 changed, 0 destroyed.");
      for (const [name, r] of Object.entries(V3)) {
        const imported = await engine.import(r.type, ids[name]!);
        expectSameAsTerraform(`${r.type}.${name}`, imported, tf);
        const plan = await engine.plan(r.type, imported, r.config);
        expect([name, plan.action]).toEqual([name, PlanAction.NoOp]);
        objects.set(name, imported);
      }
    },
    LONG,
  );

  test(
    "destroy: every object is deleted, the fake is empty, and a read of the last state says gone",
    async () => {
      const last = new Map(objects);
      for (const [name, r] of Object.entries(V3)) {
        const { plan, result } = await engine.converge(r.type, objects.get(name) ?? null, null);
        expect([name, plan.action, result]).toEqual([name, PlanAction.Delete, null]);
        objects.set(name, null);
      }
      expect(fake.isEmpty()).toBe(true);
      for (const [name, r] of Object.entries(V3)) {
        const obj = last.get(name)!;
        expect([name, (await live.provider.readResource(r.type, obj.state, { private: obj.private })).gone]).toEqual([name, true]);
      }

      const tf = await oracle.get("destroy");
      expect(tf.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 3 destroyed.");
      expect(tf.instances.size).toBe(0);
      expect(tfFake.isEmpty()).toBe(true);
    },
    LONG,
  );
});
