/**
 * Provider-defined functions against the oracle: hashicorp/aws 5.100.0's `arn_parse`,
 * `arn_build` and `trim_iam_role_path` (called on an unconfigured provider instance, as
 * terraform does) in locals, a resource's arguments, `count` and outputs — one of them on a
 * value known only after apply. terraform 1.11.4 and magma apply the same configuration
 * against @magma/fake-aws; the outputs in state (values and types) and the resource
 * attributes are equal, and terraform plans no changes on magma's state.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringVal, typeToJson } from "@magma/cty";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { createProviderFactory } from "@magma/plugin";
import { decodeOutput, readStateFile, writeStateFile, type StateFile } from "@magma/state";
import { createEngine, type ProviderSource } from "../src/index.js";
import { AWS_BINARY, awsFakeHcl, hasTerraformAndAws, TerraformWorkspace } from "@magma/test-support";

const d = hasTerraformAndAws() ? describe : describe.skip;

const config = (url: string): string => `${awsFakeHcl(url, { maxRetries: 1, endpoints: ["ssm", "sts", "iam"] })}
variable "prefix" {
  default = "tf"
}
locals {
  role   = "arn:aws:iam::444455556666:role/some/path/deployer"
  parsed = provider::aws::arn_parse(local.role)
}
resource "aws_ssm_parameter" "p" {
  count = length(provider::aws::arn_parse(local.role).account_id) == 12 ? 2 : 0
  name  = "/\${var.prefix}/\${provider::aws::arn_parse(provider::aws::trim_iam_role_path(local.role)).resource}-\${count.index}"
  type  = "String"
  value = provider::aws::arn_build("aws", "ssm", "us-east-1", local.parsed.account_id, "parameter/x")
}
output "parsed" {
  value = local.parsed
}
output "trimmed" {
  value = provider::aws::trim_iam_role_path(local.role)
}
output "built" {
  value = provider::aws::arn_build("aws", local.parsed.service, "", local.parsed.account_id, local.parsed.resource)
}
output "from_apply" {
  value = provider::aws::arn_parse(aws_ssm_parameter.p[0].arn).resource
}
`;

/** The outputs in state, as type JSON and value text (each run's name prefix taken out). */
function outputs(s: StateFile, prefix: string): Record<string, { type: string; value: string }> {
  const out: Record<string, { type: string; value: string }> = {};
  for (const [name, o] of s.outputs) {
    const v = decodeOutput(o).value;
    out[name] = { type: typeToJson(v.type), value: v.toString().replaceAll(`/${prefix}/`, "/") };
  }
  return out;
}

function parameters(s: StateFile, prefix: string): { name: string; value: string }[] {
  const r = s.resources.find((x) => x.type === "aws_ssm_parameter")!;
  return r.instances.map((i) => {
    const a = JSON.parse(i.attributesJson!) as { name: string; value: string };
    return { name: a.name.replace(`/${prefix}/`, "/"), value: a.value };
  }).sort((x, y) => (x.name < y.name ? -1 : 1));
}

d("provider-defined functions of hashicorp/aws, magma against terraform", () => {
  let fake: FakeAws;
  const factory = createProviderFactory();
  const source: ProviderSource = { open: () => factory.open(AWS_BINARY) };
  const dirs: TerraformWorkspace[] = [];

  beforeAll(async () => {
    fake = await startFakeAws();
  });
  afterAll(async () => {
    await fake?.close();
    for (const t of dirs) t.dispose();
  });

  it("gives the same outputs (values and types) and resource attributes; terraform plans no changes on magma's state", async () => {
    // terraform's run.
    const tf = TerraformWorkspace.create("magma-engine-fns-");
    dirs.push(tf);
    tf.write("main.tf", config(fake.url));
    await tf.init();
    const applied = await tf.run(["apply", "-auto-approve", "-input=false", "-no-color"], { timeoutMs: 300_000 });
    expect(applied.stdout).toContain("Apply complete!");
    const tfState = readStateFile(readFileSync(join(tf.dir, "terraform.tfstate")))!;

    // magma's run, on the same configuration (its own parameter names).
    const engine = createEngine({ providers: source, cwd: tf.dir });
    let state: StateFile | null = null;
    try {
      const planned = await engine.plan(tf.dir, null, { env: {}, variables: { prefix: stringVal("magma") } });
      expect(planned.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      expect(planned.plan.changes.map((c) => `${c.address} ${c.action}`)).toEqual(["aws_ssm_parameter.p[0] create", "aws_ssm_parameter.p[1] create"]);
      // Known at plan: every output but the one on the applied ARN.
      expect(planned.plan.outputs!.filter((o) => o.after.isWhollyKnown()).map((o) => o.name)).toEqual(["built", "parsed", "trimmed"]);
      const result = await engine.apply(planned, {
        persist: async (s) => {
          state = s;
        },
      });
      expect(result.failed).toEqual([]);
    } finally {
      await engine.close();
    }
    const mgState = state as StateFile | null;
    expect(mgState).not.toBeNull();
    expect(outputs(mgState!, "magma")).toEqual(outputs(tfState, "tf"));
    expect(outputs(mgState!, "magma")["from_apply"]!.value).toBe('"parameter/role/deployer-0"');
    expect(parameters(mgState!, "magma")).toEqual(parameters(tfState, "tf"));

    // terraform on magma's state (same directory, no second init): nothing to do.
    writeFileSync(join(tf.dir, "magma.tfstate"), writeStateFile(mgState!));
    const plan = await tf.run(["plan", "-state=magma.tfstate", "-var", "prefix=magma", "-detailed-exitcode", "-input=false", "-no-color"], { allowFailure: true, timeoutMs: 300_000 });
    expect({ code: plan.code, output: plan.code === 0 ? "" : plan.stdout + plan.stderr }).toEqual({ code: 0, output: "" });
  }, 600_000);
});
