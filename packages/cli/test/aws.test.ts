// The built `magma` executable with the real hashicorp/aws provider (skipped without the
// binary): the schema JSON against terraform's own `providers schema -json`, a data source,
// and the whole demo against the local fake AWS endpoint.
import { TerraformWorkspace, findTerraform, AWS_ADDRESS, AWS_OFFLINE_CONFIG, AWS_OFFLINE_HCL } from "../../plugin/test/support/terraform-runner.js";
import { PLUGIN_MIRROR, awsAvailable, cleanUp, magma, magmaJson } from "./support/run-magma.js";

const withAws = awsAvailable ? describe : describe.skip;
const withTerraform = awsAvailable && findTerraform() !== undefined ? describe : describe.skip;

afterAll(() => cleanUp());

withTerraform("magma schema hashicorp/aws --json vs terraform providers schema -json", () => {
  let ws: TerraformWorkspace | undefined;
  afterAll(() => ws?.dispose());

  test(
    "the same keys and values for the provider, every resource and every data source",
    async () => {
      ws = TerraformWorkspace.create("magma-cli-tf-");
      ws.write("main.tf", AWS_OFFLINE_HCL);
      await ws.init();
      const tf = (await ws.json(["providers", "schema", "-json"])) as { provider_schemas: Record<string, Record<string, unknown>> };
      const theirs = tf.provider_schemas[AWS_ADDRESS]!;
      const ours = await magmaJson(["schema", "hashicorp/aws", "--json", "--plugin-dir", PLUGIN_MIRROR, "--provider-version", "5.100.0"]);
      expect(Object.keys(ours)).toEqual(["provider", "resource_schemas", "data_source_schemas"]);
      // Terraform also prints parts magma's schema does not carry (functions, ephemeral resources, ...).
      const carried = Object.fromEntries(Object.keys(ours).map((k) => [k, theirs[k]]));
      expect(Object.keys(ours["resource_schemas"] as object).length).toBeGreaterThan(1000);
      expect(ours).toEqual(carried);
      // Key order too: what JSON.stringify writes is what terraform wrote.
      expect(JSON.stringify(ours["provider"])).toBe(JSON.stringify(theirs["provider"]));
    },
    600_000,
  );
});

withAws("magma with hashicorp/aws", () => {
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
