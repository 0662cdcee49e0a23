/**
 * importResource against the oracle: `terraform import` (1.11.4) and magma's importResource
 * on the same SSM parameter, through the same hashicorp/aws 5.100.0 binary, against the same
 * `@magma/fake-aws` endpoint. The object magma would store (attributes, schema version,
 * private data) equals what Terraform writes to its state, and the error for a missing
 * object carries Terraform's summary and detail. Skipped where
 * terraform or the provider binary is absent.
 */
import { AWS_BINARY, awsFakeConfig, awsFakeHcl, hasTerraformAndAws, TerraformWorkspace } from "@magma/test-support";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toJson } from "@magma/cty";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { dialConfiguredProvider, type LiveProvider } from "@magma/plugin";
import type { InstanceTarget } from "../src/instance/instance-target.js";
import { importResource } from "../src/import/import-resource.js";

const LONG = 300_000;

const d = hasTerraformAndAws() ? describe : describe.skip;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

d("importResource agrees with terraform import (hashicorp/aws against fake-aws)", () => {
  let fake: FakeAws;
  let live: LiveProvider;
  let target: InstanceTarget;
  let dir = "";

  let ws: TerraformWorkspace | undefined;

  function terraform(args: readonly string[]): Promise<Run> {
    return ws!.run(args, { allowFailure: true, timeoutMs: LONG - 10_000 });
  }

  beforeAll(async () => {
    fake = await startFakeAws();
    ws = TerraformWorkspace.create("magma-engine-import-");
    dir = ws.dir;
    writeFileSync(
      join(dir, "main.tf"),
      `${awsFakeHcl(fake.url, { maxRetries: 1, endpoints: ["ssm", "sts"] })}
resource "aws_ssm_parameter" "x" {
  name  = "/magma/oracle"
  type  = "String"
  value = "v"
}

resource "aws_ssm_parameter" "nope" {
  name  = "/magma/nope"
  type  = "String"
  value = "v"
}
`,
    );
    const init = await terraform(["init", "-input=false", "-no-color"]);
    expect(init.code).toBe(0);
    live = await dialConfiguredProvider({
      binary: AWS_BINARY,
      config: awsFakeConfig(fake.url, { maxRetries: 1, endpoints: ["ssm", "sts"] }),
    });
    target = { provider: live.provider, schema: live.schema, providerAddress: "registry.terraform.io/hashicorp/aws" };
    const res = await fetch(fake.url, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AmazonSSM.PutParameter" },
      body: JSON.stringify({ Name: "/magma/oracle", Value: "v", Type: "String", Description: "made outside" }),
    });
    expect(res.status).toBe(200);
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await fake?.close();
    ws?.dispose();
  });

  test(
    "the imported object equals what terraform import writes to state: attributes, schema version, private data",
    async () => {
      const tf = await terraform(["import", "-input=false", "-no-color", "aws_ssm_parameter.x", "/magma/oracle"]);
      expect(tf.code).toBe(0);
      const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as {
        resources: { type: string; name: string; instances: { schema_version: number; attributes: Record<string, unknown>; private?: string }[] }[];
      };
      const inst = state.resources.find((r) => r.type === "aws_ssm_parameter" && r.name === "x")!.instances[0]!;

      const mine = await importResource(target, { address: "aws_ssm_parameter.x", typeName: "aws_ssm_parameter", id: "/magma/oracle" });
      expect(mine.schemaVersion).toBe(inst.schema_version);
      // lastModified-like values do not exist in this type's state; every attribute must agree.
      expect(JSON.parse(toJson(mine.object.state, mine.object.state.type))).toEqual(inst.attributes);
      expect(Buffer.from(mine.object.private).toString("base64")).toBe(inst.private ?? "");
      expect(mine.object.tainted).toBe(false);
    },
    LONG,
  );

  test(
    "a missing object: the same error as terraform import; an address already in state: Terraform's error",
    async () => {
      const missing = await terraform(["import", "-input=false", "-no-color", "aws_ssm_parameter.nope", "/magma/nope"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("Cannot import non-existent remote object");
      expect(missing.stderr.replace(/\s+/g, " ")).toContain('While attempting to import an existing object to "aws_ssm_parameter.nope", the provider detected that no object exists with the given id.');
      await expect(importResource(target, { address: "aws_ssm_parameter.nope", typeName: "aws_ssm_parameter", id: "/magma/nope" })).rejects.toMatchObject({
        code: "import_not_found",
        message: expect.stringContaining('Cannot import non-existent remote object: While attempting to import an existing object to "aws_ssm_parameter.nope", the provider detected that no object exists with the given id.') as unknown,
      });

      // (`terraform import` of aws_ssm_parameter.x a second time prints exactly this summary and
      // detail; checked with 1.11.4 when this test was written, not re-run here to keep it short.)
      await expect(importResource(target, { address: "aws_ssm_parameter.x", typeName: "aws_ssm_parameter", id: "/magma/oracle", alreadyManaged: true })).rejects.toMatchObject({
        code: "already_managed",
        message: expect.stringContaining("Resource already managed by Terraform: Terraform is already managing a remote object for aws_ssm_parameter.x. To import to this address you must first remove the existing object from the state.") as unknown,
      });
    },
    LONG,
  );
});
