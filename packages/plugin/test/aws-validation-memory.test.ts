// A provider configuration that this exact binary validated with no diagnostics, in the
// same environment, is not validated again by a later process: SDKv2's
// PrepareProviderConfig takes seconds for hashicorp/aws with an `endpoints` block.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configValue } from "@magma/provider-api";
import { dialProvider } from "../src/dial-provider.js";
import type { PluginLogEntry } from "../src/plugin-logger.js";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";

const base = {
  region: "us-east-1",
  access_key: "test",
  secret_key: "test",
  skip_credentials_validation: true,
  skip_requesting_account_id: true,
  skip_metadata_api_check: "true",
  skip_region_validation: true,
  endpoints: [{ ssm: "http://127.0.0.1:9" }],
};

/** Dials with SDK logs on, configures, and returns the RPC names the provider logged. */
async function configureOnce(cacheDir: string, config: Record<string, unknown>, env: Record<string, string | undefined> = process.env): Promise<string[]> {
  const entries: PluginLogEntry[] = [];
  const live = await dialProvider({ binary: AWS_BINARY, schemaCacheDir: cacheDir, sdkLogs: true, env, logger: { log: (e) => entries.push(e) } });
  try {
    await live.provider.configure(configValue(live.schema.provider.block, config), "1.11.4");
  } finally {
    await live.close();
  }
  return [...new Set(entries.map((e) => e.fields?.["tf_rpc"]).filter((x): x is string => typeof x === "string"))];
}

(hasAwsProvider() ? describe : describe.skip)("remembered provider-config validations (real AWS provider)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-validation-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("validated once per binary, configuration and environment", async () => {
    const first = await configureOnce(dir, base);
    expect(first).toContain("PrepareProviderConfig");
    expect(first).toContain("Configure");
    // Written off the caller's path: wait for the file.
    for (let i = 0; i < 50 && !readdirSync(dir).some((f) => f.endsWith(".validated.json")); i++) await new Promise((r) => setTimeout(r, 100));
    const file = readdirSync(dir).find((f) => f.endsWith(".validated.json"));
    expect(file).toBeDefined();
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);

    const second = await configureOnce(dir, base);
    expect(second).not.toContain("PrepareProviderConfig");
    expect(second).toContain("Configure");

    const otherConfig = await configureOnce(dir, { ...base, region: "eu-west-1" });
    expect(otherConfig).toContain("PrepareProviderConfig");

    const otherEnv = await configureOnce(dir, base, { ...process.env, AWS_PROFILE_UNUSED_BY_MAGMA_TEST: "x" });
    expect(otherEnv).toContain("PrepareProviderConfig");
  }, 180_000);

  test("an invalid configuration is never remembered", async () => {
    const bad = { ...base, retry_mode: "bogus" };
    for (let i = 0; i < 2; i++) {
      await expect(configureOnce(dir, bad)).rejects.toMatchObject({ code: "diagnostics" });
    }
  }, 180_000);
});
