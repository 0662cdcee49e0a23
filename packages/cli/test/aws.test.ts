// The built `magma` executable with the real hashicorp/aws provider (skipped without the
// binary): the schema JSON against terraform's own `providers schema -json`, a data source,
// and the whole demo against the local fake AWS endpoint.
import { TerraformWorkspace, hasTerraform, AWS_ADDRESS, AWS_OFFLINE_CONFIG, AWS_OFFLINE_HCL } from "@magma/test-support";
import { PLUGIN_MIRROR, awsAvailable, cleanUp, magma, magmaJson } from "./support/run-magma.js";

const withAws = awsAvailable ? describe : describe.skip;
const withTerraform = awsAvailable && hasTerraform() ? describe : describe.skip;

afterAll(() => cleanUp());

withTerraform("magma schema hashicorp/aws --json vs terraform providers schema -json", () => {
  let ws: TerraformWorkspace | undefined;
  afterAll(() => ws?.dispose());

  test(
    "the whole object: provider, every resource, data source and ephemeral resource, every function (values and key order)",
    async () => {
      ws = TerraformWorkspace.create("magma-cli-tf-");
      ws.write("main.tf", AWS_OFFLINE_HCL);
      await ws.init();
      const tf = (await ws.json(["providers", "schema", "-json"])) as { provider_schemas: Record<string, Record<string, unknown>> };
      const theirs = tf.provider_schemas[AWS_ADDRESS]!;
      const ours = await magmaJson(["schema", "hashicorp/aws", "--json", "--plugin-dir", PLUGIN_MIRROR, "--provider-version", "5.100.0"]);
      expect(Object.keys(ours)).toEqual(["provider", "resource_schemas", "data_source_schemas", "ephemeral_resource_schemas", "functions"]);
      expect(Object.keys(ours["resource_schemas"] as object).length).toBeGreaterThan(1000);
      expect(Object.keys(ours["ephemeral_resource_schemas"] as object)).toHaveLength(7);
      expect(Object.keys(ours["functions"] as object)).toEqual(["arn_build", "arn_parse", "trim_iam_role_path"]);
      expect(ours).toEqual(theirs);
      // Key order too: what JSON.stringify writes is what terraform wrote.
      expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));

      // One type that is a resource, a data source and an ephemeral resource: all three entries.
      const one = await magmaJson(["schema", "hashicorp/aws", "aws_ssm_parameter", "--json", "--plugin-dir", PLUGIN_MIRROR, "--provider-version", "5.100.0"]);
      const entry = (section: string): unknown => (theirs[section] as Record<string, unknown>)["aws_ssm_parameter"];
      expect(Object.keys(one)).toEqual(["resource_schema", "data_source_schema", "ephemeral_resource_schema"]);
      expect(JSON.stringify(one)).toBe(
        JSON.stringify({
          resource_schema: entry("resource_schemas"),
          data_source_schema: entry("data_source_schemas"),
          ephemeral_resource_schema: entry("ephemeral_resource_schemas"),
        }),
      );
    },
    600_000,
  );
});

withAws("magma with hashicorp/aws", () => {
  test(
    "the human schema summary counts and lists the ephemeral resources and functions; one type shows its ephemeral resource tree",
    async () => {
      const r = await magma(["schema", "hashicorp/aws", "-o", "human", "--plugin-dir", PLUGIN_MIRROR, "--provider-version", "5.100.0"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^ {2}resources: {5}1526$/m);
      expect(r.stdout).toMatch(/^ {2}data sources: {2}608$/m);
      expect(r.stdout).toMatch(/^ {2}ephemeral resources: 7\n {4}aws_cognito_identity_openid_token_for_developer_identity\n/m);
      expect(r.stdout).toMatch(/^ {2}functions: {5}3\n {4}arn_build\n {4}arn_parse\n {4}trim_iam_role_path\n/m);
      const one = await magma(["schema", "hashicorp/aws", "aws_eks_cluster_auth", "-o", "human", "--plugin-dir", PLUGIN_MIRROR, "--provider-version", "5.100.0"]);
      expect(one.code).toBe(0);
      // A data source and an ephemeral resource by that name: both trees, in that order.
      expect(one.stdout).toMatch(/^data source aws_eks_cluster_auth \(schema version 0\)\n[^]*\nephemeral resource aws_eks_cluster_auth \(schema version 0\)\n[^]*token/);
    },
    300_000,
  );

  test(
    "data aws_partition and aws_region, configured offline with --provider-config",
    async () => {
      const j = await magmaJson(["data", "hashicorp/aws", "aws_partition", "--provider-config", JSON.stringify(AWS_OFFLINE_CONFIG)], { env: { MAGMA_PLUGIN_DIRS: PLUGIN_MIRROR } });
      expect(j["type"]).toBe("aws_partition");
      expect((j["state"] as Record<string, unknown>)["partition"]).toBe("aws");
      expect((j["state"] as Record<string, unknown>)["dns_suffix"]).toBe("amazonaws.com");
    },
    300_000,
  );

  test(
    "a configuration the provider rejects: error diagnostics with their attribute path, exit 1",
    async () => {
      const r = await magma(["plan", "hashicorp/aws", "aws_vpc", "--plugin-dir", PLUGIN_MIRROR, "--provider-config", JSON.stringify(AWS_OFFLINE_CONFIG), "--config", '{"cidr_block": "not-a-cidr"}']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).toContain("cidr_block");
      expect(r.stdout).toBe("");
    },
    300_000,
  );

  test(
    "magma demo: the native part, then hashicorp/aws against the fake endpoint, exit 0",
    async () => {
      const r = await magma(["demo"], { env: { MAGMA_PLUGIN_DIRS: PLUGIN_MIRROR } });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Part 2: the real hashicorp/aws provider against a local fake AWS");
      expect(r.stdout).toContain('-/+ resource "aws_ssm_parameter" "greeting" {');
      expect(r.stdout).toMatch(/~ name\s+= "\/magma\/demo\/greeting" -> "\/magma\/demo\/greeting-v2" # forces replacement/);
      expect(r.stdout).toMatch(/value\s+= \(sensitive value\)/);
      expect(r.stdout).toContain("it holds nothing now");
      expect(r.stdout).toContain("Done: both providers went through the whole lifecycle");
    },
    600_000,
  );
});
