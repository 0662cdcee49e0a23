/**
 * Finding the real AWS provider by source address in the filesystem mirror, and the errors
 * of a missing binary or an unmatched version constraint. One provider process (the
 * resolved one) for the whole file.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configValue, isProviderError } from "@magma/provider-api";
import { dialConfiguredProvider, dialProvider, type LiveProvider } from "../src/dial-provider.js";
import { providerSearchDirs } from "../src/resolve-provider.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider, PLUGIN_MIRROR } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;

// Resolution must not depend on the host's CLI configuration or home directory.
const isolated = {
  pluginDirs: [PLUGIN_MIRROR],
  cliConfigFile: join(tmpdir(), "magma-no-such-terraformrc"),
  impliedMirrors: false,
} as const;

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (x: unknown) => x,
  );
}

d("dialing the AWS provider by source address", () => {
  let live: LiveProvider | undefined;

  afterAll(async () => {
    await live?.close();
  });

  test('source "hashicorp/aws", version "~> 5.0" resolves to the 5.100.0 binary in the mirror and works', async () => {
    live = await dialConfiguredProvider({
      source: "hashicorp/aws",
      version: "~> 5.0",
      ...isolated,
      config: AWS_OFFLINE_CONFIG,
    });
    expect(live.binary).toBe(AWS_BINARY);
    expect(live.protocolVersion).toBe(5);
    const part = live.schema.dataSources.get("aws_partition")!;
    const { state } = await live.provider.readDataSource(
      "aws_partition",
      configValue(part.block, {}),
    );
    expect(state.getAttr("partition").asString()).toBe("aws");
    expect(state.getAttr("dns_suffix").asString()).toBe("amazonaws.com");
  }, 120_000);

  test('version "~> 4.0" finds nothing and the provider_not_found error lists the directories searched', async () => {
    const e = await rejection(
      dialProvider({ source: "hashicorp/aws", version: "~> 4.0", ...isolated }),
    );
    expect(isProviderError(e)).toBe(true);
    if (!isProviderError(e)) return;
    expect(e.code).toBe("provider_not_found");
    expect(e.message).toContain("~> 4.0");
    const dirs = providerSearchDirs(isolated);
    expect(dirs).toContain(PLUGIN_MIRROR);
    for (const dir of dirs) expect(e.message).toContain(dir);
  });

  test("a missing binary is a provider_not_found error naming the path", async () => {
    const missing = join(tmpdir(), "magma-missing", "terraform-provider-nothing_v1.0.0");
    const e = await rejection(dialProvider({ binary: missing }));
    expect(isProviderError(e)).toBe(true);
    if (!isProviderError(e)) return;
    expect(e.code).toBe("provider_not_found");
    expect(e.message).toContain(missing);
  });
});
