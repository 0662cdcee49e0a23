/**
 * Oracle on a big real schema: hashicorp/aws 5.100.0 against @magma/fake-aws. After
 * terraform applies SSM parameters (a SecureString's schema-sensitive value, tags and
 * tags_all maps), a CloudWatch log group and an Elastic IP, `stateJson` equals `terraform
 * show -json` byte for byte, and `configurationJson` equals the plan's `configuration`.
 * The schemas come from `terraform providers schema -json`.
 */
import { awsFakeHcl, hasTerraformAndAws } from "@magma/test-support";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { blockFromSchemaJson, loadConfig, type SchemaJsonBlock } from "@magma/config";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { createSchemaEntry, noServerCapabilities, type ProviderSchema, type SchemaEntry } from "@magma/provider-api";
import { readStateFile } from "@magma/state";
import { configurationJson, stateJson } from "../src/index.js";
import { oracleDir, type OracleDir } from "./support/terraform-oracle.js";

const d = hasTerraformAndAws() ? describe : describe.skip;

const config = (url: string) => `${awsFakeHcl(url, { maxRetries: 1 })}
resource "aws_ssm_parameter" "plain" {
  name  = "/render/plain"
  type  = "String"
  value = "hello <world>"
  tags  = { team = "magma", env = "test" }
}
resource "aws_ssm_parameter" "secret" {
  name  = "/render/secret"
  type  = "SecureString"
  value = "s3cret"
}
resource "aws_cloudwatch_log_group" "logs" {
  name              = "/render/logs"
  retention_in_days = 7
}
resource "aws_eip" "ip" {
  domain = "vpc"
  tags   = { Name = aws_ssm_parameter.plain.name }
}
output "arn" { value = aws_ssm_parameter.plain.arn }
`;

interface SchemaJson {
  provider_schemas: Record<string, { provider: { version: number; block: SchemaJsonBlock }; resource_schemas?: Record<string, { version: number; block: SchemaJsonBlock }>; data_source_schemas?: Record<string, { version: number; block: SchemaJsonBlock }> }>;
}

function schemasFrom(json: SchemaJson): Map<string, ProviderSchema> {
  const out = new Map<string, ProviderSchema>();
  const entries = (m: Record<string, { version: number; block: SchemaJsonBlock }> | undefined): Map<string, SchemaEntry> => new Map(Object.entries(m ?? {}).map(([k, v]) => [k, createSchemaEntry(blockFromSchemaJson(v.block), v.version)]));
  for (const [source, p] of Object.entries(json.provider_schemas)) {
    out.set(source, { provider: createSchemaEntry(blockFromSchemaJson(p.provider.block), p.provider.version), resources: entries(p.resource_schemas), dataSources: entries(p.data_source_schemas), serverCapabilities: noServerCapabilities, warnings: [] });
  }
  return out;
}

d("renderings on hashicorp/aws against terraform", () => {
  let dir: OracleDir;
  let fake: FakeAws;
  let schemas: Map<string, ProviderSchema>;

  beforeAll(async () => {
    fake = await startFakeAws();
    dir = oracleDir("render-aws-");
    dir.write({ "main.tf": config(fake.url) });
    await dir.tf("init", "-no-color");
    schemas = schemasFrom(JSON.parse(await dir.tf("providers", "schema", "-json")) as SchemaJson);
    await dir.tf("apply", "-auto-approve", "-no-color");
  }, 600_000);
  afterAll(async () => {
    dir?.cleanup();
    await fake?.close();
  });

  test("stateJson", async () => {
    const expected = (await dir.tf("show", "-json")).trimEnd();
    const state = readStateFile(readFileSync(join(dir.work, "terraform.tfstate"), "utf8"));
    expect(state).toBeDefined();
    expect(expected).toContain('"value":true');
    expect(stateJson(state!, schemas)).toBe(expected);
  }, 180_000);

  test("configurationJson", async () => {
    await dir.tf("plan", "-refresh=false", "-no-color", "-out=tf.plan");
    const expected = (JSON.parse(await dir.tf("show", "-json", "tf.plan")) as { configuration: unknown }).configuration;
    const { config: loaded } = loadConfig(dir.work);
    expect(JSON.parse(configurationJson(loaded, schemas))).toEqual(expected);
  }, 300_000);
});
