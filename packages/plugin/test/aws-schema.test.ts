/**
 * The real AWS provider's schema through magma vs Terraform 1.11.4 as the oracle:
 * `providerSchemaToTerraformJson` must reproduce the whole object `terraform providers schema
 * -json` prints for the provider (provider, every resource type, data source and ephemeral
 * resource type, every function), and each entry's implied type must
 * equal the type computed independently from Terraform's JSON. The same (unconfigured)
 * process then shows that every operation but getSchema refuses to run before configure
 * without reaching the provider.
 */
import { nullVal, typeEquals, typeString } from "@magma/cty";
import { configValue, isProviderError, type Provider } from "@magma/provider-api";
import { dialProvider, type LiveProvider } from "../src/dial-provider.js";
import type { PluginLogEntry } from "../src/plugin-logger.js";
import type { ProviderConn } from "../src/provider-conn.js";
import { providerSchemaToTerraformJson } from "../src/terraform-schema-json.js";
import { impliedTypeOfJsonBlock, type JsonBlock } from "./support/terraform-schema-type.js";
import { AWS_ADDRESS, AWS_BINARY, hasTerraformAndAws, TerraformWorkspace } from "@magma/test-support";

const d = hasTerraformAndAws() ? describe : describe.skip;

interface TerraformProviderJson {
  provider: { version: number; block: JsonBlock };
  resource_schemas: Record<string, { version: number; block: JsonBlock }>;
  data_source_schemas: Record<string, { version: number; block: JsonBlock }>;
  ephemeral_resource_schemas: Record<string, { version: number; block: JsonBlock }>;
  functions: Record<string, unknown>;
}

d("the AWS provider schema vs terraform providers schema -json", () => {
  let ws: TerraformWorkspace;
  let live: LiveProvider;
  let terraform: TerraformProviderJson;
  const logs: PluginLogEntry[] = [];

  beforeAll(async () => {
    ws = TerraformWorkspace.create();
    ws.write(
      "main.tf",
      'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws", version = "5.100.0" }\n  }\n}\n',
    );
    // Terraform and magma each run their own provider process; run them one after the other on 2 cores.
    await ws.init();
    const out = (await ws.json(["providers", "schema", "-json"])) as {
      format_version: string;
      provider_schemas: Record<string, TerraformProviderJson>;
    };
    expect(out.format_version).toBe("1.0");
    expect(Object.keys(out.provider_schemas)).toEqual([AWS_ADDRESS]);
    terraform = out.provider_schemas[AWS_ADDRESS]!;
    // SDK logs on: each RPC the provider receives is logged, which shows what reached it.
    live = await dialProvider({
      binary: AWS_BINARY,
      sdkLogs: true,
      logger: { log: (e) => logs.push(e) },
    });
  }, 240_000);

  afterAll(async () => {
    await live?.close();
    ws?.dispose();
  });

  test("terraform prints five sections, and magma's schema carries every one: 1,526 resources, 608 data sources, 7 ephemeral resources, 3 functions", () => {
    expect(Object.keys(terraform)).toEqual([
      "provider",
      "resource_schemas",
      "data_source_schemas",
      "ephemeral_resource_schemas",
      "functions",
    ]);
    expect(Object.keys(terraform.resource_schemas)).toHaveLength(1526);
    expect(Object.keys(terraform.data_source_schemas)).toHaveLength(608);
    expect(Object.keys(terraform.ephemeral_resource_schemas)).toHaveLength(7);
    expect(Object.keys(terraform.functions)).toEqual(["arn_build", "arn_parse", "trim_iam_role_path"]);
    const names = (m: ReadonlyMap<string, unknown> | undefined): string[] => [...(m?.keys() ?? [])].sort();
    expect(names(live.schema.resources)).toEqual(Object.keys(terraform.resource_schemas).sort());
    expect(names(live.schema.dataSources)).toEqual(Object.keys(terraform.data_source_schemas).sort());
    expect(names(live.schema.ephemeralResources)).toEqual(Object.keys(terraform.ephemeral_resource_schemas).sort());
    expect(names(live.schema.functions)).toEqual(Object.keys(terraform.functions).sort());
    // What the contract's FunctionSignature holds for one of them.
    const arnParse = live.schema.functions!.get("arn_parse")!;
    expect(arnParse.parameters.map((p) => [p.name, typeString(p.type)])).toEqual([["arn", "string"]]);
    expect(typeString(arnParse.returnType)).toMatch(/^object\(/);
    expect(arnParse.summary).toBe("arn_parse Function");
  });

  test("providerSchemaToTerraformJson equals terraform's whole output (provider, resources, data sources, ephemeral resources, functions; values and key order)", () => {
    const ours = providerSchemaToTerraformJson(live.schema);
    // Per entry first, so a failure names the entries that differ.
    const differing: string[] = [];
    const check = (what: string, a: unknown, b: unknown): void => {
      if (JSON.stringify(a) !== JSON.stringify(b)) differing.push(what);
    };
    check("provider", ours.provider, terraform.provider);
    const sections = ["resource_schemas", "data_source_schemas", "ephemeral_resource_schemas", "functions"] as const;
    for (const section of sections) {
      const theirs = terraform[section] as Record<string, unknown>;
      const mine = (ours[section] ?? {}) as Record<string, unknown>;
      for (const name of new Set([...Object.keys(theirs), ...Object.keys(mine)])) check(`${section} ${name}`, mine[name], theirs[name]);
    }
    expect(differing).toEqual([]);
    // The whole object, nothing filtered out, key order included (terraform writes Go's order; so must we).
    expect(Object.keys(ours)).toEqual(Object.keys(terraform));
    expect(ours).toEqual(terraform);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(terraform));
  });

  test("every SchemaEntry.type (resources, data sources, ephemeral resources) equals the implied type computed from terraform's JSON block (protocol D2)", () => {
    const wrong: string[] = [];
    const check = (
      what: string,
      actual: Parameters<typeof typeEquals>[0],
      block: JsonBlock,
    ): void => {
      const expected = impliedTypeOfJsonBlock(block);
      if (!typeEquals(actual, expected))
        wrong.push(`${what}: ${typeString(actual)} != ${typeString(expected)}`);
    };
    check("provider", live.schema.provider.type, terraform.provider.block);
    let n = 0;
    for (const [name, s] of Object.entries(terraform.resource_schemas)) {
      const entry = live.schema.resources.get(name)!;
      expect(entry.version).toBe(s.version);
      check(`resource ${name}`, entry.type, s.block);
      n++;
    }
    for (const [name, s] of Object.entries(terraform.data_source_schemas)) {
      check(`data source ${name}`, live.schema.dataSources.get(name)!.type, s.block);
      n++;
    }
    for (const [name, s] of Object.entries(terraform.ephemeral_resource_schemas)) {
      const entry = live.schema.ephemeralResources!.get(name)!;
      expect(entry.version).toBe(s.version);
      check(`ephemeral resource ${name}`, entry.type, s.block);
      n++;
    }
    expect(wrong).toEqual([]);
    expect(n).toBe(1526 + 608 + 7);
    // Spot checks that the comparison sees real structure.
    expect(live.schema.resources.get("aws_security_group_rule")!.version).toBe(2);
    expect(typeString(live.schema.resources.get("aws_vpc")!.type.attributes["cidr_block"]!)).toBe(
      "string",
    );
  });

  test("before configure, every operation but getSchema rejects with not_configured and never reaches the provider (its RPC log shows only a later StopProvider)", async () => {
    const p: Provider = live.provider;
    const vpc = live.schema.resources.get("aws_vpc")!;
    const part = live.schema.dataSources.get("aws_partition")!;
    const cfg = configValue(vpc.block, { cidr_block: "10.0.0.0/16" });
    const before = logs.length;
    const calls: [string, () => Promise<unknown>][] = [
      ["planResourceChange", () => p.planResourceChange("aws_vpc", nullVal(vpc.type), cfg, cfg)],
      ["applyResourceChange", () => p.applyResourceChange("aws_vpc", nullVal(vpc.type), cfg, cfg)],
      ["readResource", () => p.readResource("aws_vpc", cfg)],
      ["readDataSource", () => p.readDataSource("aws_partition", configValue(part.block, {}))],
      ["importResourceState", () => p.importResourceState("aws_vpc", "vpc-1")],
      ["upgradeResourceState", () => p.upgradeResourceState("aws_vpc", 0, "{}")],
    ];
    for (const [op, call] of calls) {
      const e: unknown = await call().then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(isProviderError(e)).toBe(true);
      if (!isProviderError(e) || e.code !== "not_configured")
        throw new Error(`${op}: expected not_configured, got ${String(e)}`);
      expect(e.detail.operation).toBe(op);
    }
    expect(await p.getSchema()).toBe(live.schema); // fetched once at dial, never again
    // A call that does reach the provider shows up in its log: StopProvider (allowed before
    // configure). Its lines come after those of anything sent before it.
    expect(await (live.provider as ProviderConn).stop()).toBe("");
    const rpcOf = (e: PluginLogEntry): unknown => e.fields["tf_rpc"];
    const deadline = Date.now() + 30_000;
    while (
      !logs.slice(before).some((e) => /Stop/.test(String(rpcOf(e)))) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const rpcs = [
      ...new Set(
        logs
          .slice(before)
          .map(rpcOf)
          .filter((x) => x !== undefined),
      ),
    ];
    // The mux server and the SDK log it as "StopProvider" and "Stop"; nothing else arrived.
    expect(rpcs.length).toBeGreaterThan(0);
    for (const r of rpcs) expect(String(r)).toMatch(/^Stop(Provider)?$/);
  });
});
