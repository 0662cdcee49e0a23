import { configValue, isProviderError } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { nullVal, stringVal } from "@magma/cty";
import { createProviderFactory } from "../src/provider-factory.js";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";

const awsConfig = {
  region: "us-east-1",
  access_key: "test",
  secret_key: "test",
  skip_credentials_validation: true,
  skip_requesting_account_id: true,
  skip_metadata_api_check: "true",
  skip_region_validation: true,
};

describe("native providers", () => {
  test("are served in-process by name and enforce configure-first", async () => {
    const factory = createProviderFactory({ natives: { "magma/memory": () => createMemoryProvider() } });
    expect(await factory.resolve("magma/memory")).toEqual({ kind: "native", address: "registry.terraform.io/magma/memory" });
    const live = await factory.open("registry.terraform.io/magma/memory");
    expect(live.kind).toBe("native");
    expect(live.schema.resources.has("memory_item")).toBe(true);
    const entry = live.schema.resources.get("memory_item")!;
    await expect(live.provider.readResource("memory_item", nullVal(entry.type))).rejects.toMatchObject({ code: "not_configured" });
    await live.close();
  });
});

const d = hasAwsProvider() ? describe : describe.skip;
d("the real AWS provider through the factory", () => {
  test("resolves by source address, configures, and reuses the schema for the same binary", async () => {
    const factory = createProviderFactory({ pluginDirs: ["/opt/tf-plugins"], impliedMirrors: false });
    const r = await factory.resolve("hashicorp/aws", "~> 5.0");
    expect(r).toMatchObject({ kind: "plugin", version: "5.100.0", binary: AWS_BINARY });
    const first = await factory.open("hashicorp/aws", { version: "~> 5.0", config: awsConfig });
    try {
      expect(first.kind).toBe("plugin");
      expect(first.protocolVersion).toBe(5);
      const part = first.schema.dataSources.get("aws_partition")!;
      const read = await first.provider.readDataSource("aws_partition", configValue(part.block, {}));
      expect(read.state.getAttr("partition").rawEquals(stringVal("aws"))).toBe(true);
    } finally {
      await first.close();
    }
    expect(factory.cachedSchemas).toBe(1);
    const second = await factory.open(AWS_BINARY, { config: awsConfig });
    try {
      // AWS_BINARY declares get_provider_schema_optional: the cached schema is used as is.
      expect(second.schema).toBe(first.schema);
      const part = second.schema.dataSources.get("aws_partition")!;
      const read = await second.provider.readDataSource("aws_partition", configValue(part.block, {}));
      expect(read.state.getAttr("dns_suffix").rawEquals(stringVal("amazonaws.com"))).toBe(true);
    } finally {
      await second.close();
    }
  });

  test("a version that is not there fails with the directories searched", async () => {
    const factory = createProviderFactory({ pluginDirs: ["/opt/tf-plugins"], impliedMirrors: false });
    const err = await factory.open("hashicorp/aws", { version: "~> 4.0" }).catch((e: unknown) => e);
    expect(isProviderError(err) && err.code === "provider_not_found").toBe(true);
    expect(String(err)).toContain("/opt/tf-plugins");
  });
});
