/**
 * The apply walk with the real hashicorp/aws provider against @magma/fake-aws: three
 * dependent aws_ssm_parameter creates (one with a value known only after its dependency is
 * created, re-evaluated through an ApplyScope), persisted through a local state store after
 * every object; terraform then plans the same configuration on that state with no changes;
 * a destroy plan applied from the saved state then deletes them in reverse order.
 */
import { fromJson, objectVal, unknownVal, stringType, type Value } from "@magma/cty";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { createProviderFactory } from "@magma/plugin";
import { configValue, resourceSchema, type ProviderSchema } from "@magma/provider-api";
import { createLocalBackend, loadState, newStateFile, saveState, type StateFile } from "@magma/state";
import { applyPlan } from "../src/apply/apply-plan.js";
import type { ApplyScope } from "../src/apply/apply-scope.js";
import { planDestroy } from "../src/instance/plan-destroy.js";
import { planInstance } from "../src/instance/plan-instance.js";
import { createPlan } from "../src/plan/plan.js";
import type { PlannedInstanceChange } from "../src/plan/planned-instance-change.js";
import type { ProviderSource } from "../src/provider-source.js";
import { ProviderPool } from "../src/providers/provider-pool.js";
import { AWS_BINARY, awsFakeConfig, awsFakeHcl, hasTerraformAndAws, TerraformWorkspace } from "@magma/test-support";

const AWS_SOURCE = "registry.terraform.io/hashicorp/aws";
const AWS = `provider["${AWS_SOURCE}"]`;
const ENDPOINTS = ["ssm", "sts", "iam"] as const;

const awsConfig = (url: string): Record<string, unknown> => awsFakeConfig(url, { endpoints: ENDPOINTS });

function awsHcl(url: string): string {
  return `${awsFakeHcl(url, { endpoints: ENDPOINTS })}
resource "aws_ssm_parameter" "p1" {
  name  = "/magma/apply/p1"
  type  = "String"
  value = "one"
}

resource "aws_ssm_parameter" "p2" {
  name  = "/magma/apply/p2"
  type  = "String"
  value = aws_ssm_parameter.p1.arn
}

resource "aws_ssm_parameter" "p3" {
  name       = "/magma/apply/p3"
  type       = "String"
  value      = "three"
  depends_on = [aws_ssm_parameter.p2]
}
`;
}

const d = hasTerraformAndAws() ? describe : describe.skip;

d("applyPlan with hashicorp/aws against fake-aws", () => {
  let fake: FakeAws;
  let tf: TerraformWorkspace;
  const factory = createProviderFactory();
  const source: ProviderSource = { open: () => factory.open(AWS_BINARY) };

  beforeAll(async () => {
    fake = await startFakeAws();
    tf = TerraformWorkspace.create("magma-engine-apply-");
  });
  afterAll(async () => {
    await fake?.close();
    tf?.dispose();
  });

  it("creates dependent parameters, persists after each, terraform plans no changes on the state, and a destroy deletes them in reverse", async () => {
    // Plan with one provider instance (as the planner would).
    const planPool = new ProviderPool(source);
    let changes: PlannedInstanceChange[];
    let schema: ProviderSchema;
    try {
      schema = await planPool.schema(AWS, AWS_SOURCE);
      const opened = await planPool.configure(AWS, AWS_SOURCE, configValue(schema.provider.block, awsConfig(fake.url)));
      const target = { provider: opened.provider, schema, providerAddress: AWS_SOURCE };
      const block = resourceSchema(schema, "aws_ssm_parameter").block;
      const cfg = (name: string, value: string | undefined): Value => {
        const known = configValue(block, { name, type: "String", value: value ?? "" });
        return value === undefined ? objectVal({ ...known.attributes(), value: unknownVal(stringType) }) : known;
      };
      const plan1 = await planInstance(target, { address: "aws_ssm_parameter.p1", typeName: "aws_ssm_parameter", prior: null, config: cfg("/magma/apply/p1", "one") });
      const plan2 = await planInstance(target, { address: "aws_ssm_parameter.p2", typeName: "aws_ssm_parameter", prior: null, config: cfg("/magma/apply/p2", undefined) });
      const plan3 = await planInstance(target, { address: "aws_ssm_parameter.p3", typeName: "aws_ssm_parameter", prior: null, config: cfg("/magma/apply/p3", "three") });
      const schemaVersion = resourceSchema(schema, "aws_ssm_parameter").version;
      changes = [
        { ...plan3, providerConfig: AWS, schemaVersion, dependencies: ["aws_ssm_parameter.p1", "aws_ssm_parameter.p2"] },
        { ...plan2, providerConfig: AWS, schemaVersion, dependencies: ["aws_ssm_parameter.p1"] },
        { ...plan1, providerConfig: AWS, schemaVersion, dependencies: [] },
      ];
    } finally {
      await planPool.close();
    }

    // Apply with a fresh provider instance, configured through the scope, persisting to terraform.tfstate.
    const store = createLocalBackend({ dir: tf.dir }).store("default");
    const state = newStateFile();
    const plan = { ...createPlan({ changes, prior: { lineage: state.lineage, serial: state.serial }, configDigest: "aws" }), providers: [{ address: AWS, source: AWS_SOURCE, dependencies: [] }] };
    const scope: ApplyScope = {
      providerConfig: () => Promise.resolve(configValue(schema.provider.block, awsConfig(fake.url))),
      instanceConfig: (change, values) => Promise.resolve(objectVal({ ...change.config.attributes(), value: values.instance("aws_ssm_parameter.p1")!.getAttr("arn") })),
      outputs: () => Promise.resolve({}),
    };
    const serials: number[] = [];
    const pool = new ProviderPool(source);
    let result;
    try {
      result = await applyPlan(plan, {
        providers: pool,
        state,
        scope,
        persist: async (s: StateFile) => {
          serials.push((await saveState(store, s)).serial);
        },
      });
    } finally {
      await pool.close();
    }
    expect(result.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.applied.map((r) => r.address)).toEqual(["aws_ssm_parameter.p1", "aws_ssm_parameter.p2", "aws_ssm_parameter.p3"]);
    expect(serials).toEqual([1, 2, 3]);
    const saved = (await loadState(store))!;
    expect(saved.serial).toBe(3);
    const p2 = saved.resources.find((r) => r.name === "p2")!.instances[0]!;
    const p1 = saved.resources.find((r) => r.name === "p1")!.instances[0]!;
    expect((JSON.parse(p2.attributesJson!) as { value: string }).value).toBe((JSON.parse(p1.attributesJson!) as { arn: string }).arn);
    expect(fake.state().ssmParameters.map((p) => p.name)).toEqual(["/magma/apply/p1", "/magma/apply/p2", "/magma/apply/p3"]);

    // terraform reads magma's state and finds nothing to do.
    tf.write("main.tf", awsHcl(fake.url));
    const init = await tf.run(["init", "-input=false", "-no-color"], { allowFailure: true });
    expect({ code: init.code, output: init.code === 0 ? "" : init.stdout + init.stderr }).toEqual({ code: 0, output: "" });
    const planRun = await tf.run(["plan", "-detailed-exitcode", "-input=false", "-no-color"], { allowFailure: true });
    expect({ code: planRun.code, output: planRun.code === 0 ? "" : planRun.stdout + planRun.stderr }).toEqual({ code: 0, output: "" });

    // Destroy from the saved state: deletes in reverse dependency order (the state's dependencies).
    const current = (await loadState(store))!;
    const entry = resourceSchema(schema, "aws_ssm_parameter");
    const destroyPool = new ProviderPool(source);
    try {
      const opened = await destroyPool.configure(AWS, AWS_SOURCE, configValue(schema.provider.block, awsConfig(fake.url)));
      const target = { provider: opened.provider, schema, providerAddress: AWS_SOURCE };
      const deletes: PlannedInstanceChange[] = [];
      for (const r of current.resources) {
        const o = r.instances[0]!;
        const obj = { state: fromJson(o.attributesJson!, entry.type), private: o.private ?? new Uint8Array(), tainted: o.tainted };
        deletes.push({ ...(await planDestroy(target, `aws_ssm_parameter.${r.name}`, "aws_ssm_parameter", obj)), providerConfig: AWS });
      }
      fake.resetCalls();
      const destroyPlan = { ...createPlan({ changes: deletes, prior: { lineage: current.lineage, serial: current.serial }, configDigest: "aws" }), mode: "destroy" as const };
      const gone = await applyPlan(destroyPlan, { providers: destroyPool, state: current, persist: async (s) => void (await saveState(store, s)) });
      expect(gone.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      expect(gone.success).toBe(true);
    } finally {
      await destroyPool.close();
    }
    expect(fake.callsOf("DeleteParameter").map((c) => c.params["Name"])).toEqual(["/magma/apply/p3", "/magma/apply/p2", "/magma/apply/p1"]);
    expect(fake.state().ssmParameters).toEqual([]);
    expect((await loadState(store))!.resources).toEqual([]);
  }, 300_000);
});
