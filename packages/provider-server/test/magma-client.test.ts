/**
 * magma's own tfplugin client (`@magma/plugin`) against the served in-memory provider, over
 * protocol 6 and 5, with AutoMTLS and without, and through debug mode's reattach line.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { Path, nullVal, typeEquals, unknownVal, stringType } from "@magma/cty";
import { dialProvider, type Block, type LiveProvider } from "@magma/plugin";
import { configValue, isProviderError, proposedNewState, type Diag, type Provider, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { describedOnlyProvider, fixtureLauncher, providerMetaProvider, start, tempDir, type Child } from "./support/harness.js";

let tmp: { dir: string; cleanup(): void };
let executable: string;
let native: ProviderSchema;

beforeAll(async () => {
  tmp = tempDir("mmc-");
  executable = fixtureLauncher(tmp.dir).executable;
  native = await createMemoryProvider().getSchema();
});
afterAll(() => tmp.cleanup());

/** A block without the wire's default description kind, for comparing with the native schema. */
function normal(b: Block): unknown {
  return JSON.parse(JSON.stringify(b, (k, v: unknown) => (k === "descriptionKind" && v === "plain" ? undefined : k === "type" ? JSON.stringify(v) : v)));
}

function expectSameSchema(got: ProviderSchema): void {
  expect(normal(got.provider.block)).toEqual(normal(native.provider.block));
  for (const kind of ["resources", "dataSources"] as const) {
    expect([...got[kind].keys()].sort()).toEqual([...native[kind].keys()].sort());
    for (const [name, e] of native[kind]) {
      const g = got[kind].get(name)!;
      expect(g.version).toBe(e.version);
      expect(typeEquals(g.type, e.type)).toBe(true);
      expect(normal(g.block)).toEqual(normal(e.block));
    }
  }
  expect(got.serverCapabilities).toMatchObject({ planDestroy: true, getProviderSchemaOptional: true });
}

/** The whole life of one memory_item through the contract, as a client sees it. */
async function lifecycle(live: LiveProvider): Promise<void> {
  const p: Provider = live.provider;
  const item = live.schema.resources.get("memory_item")!;
  const lookup = live.schema.dataSources.get("memory_lookup")!;
  await p.configure(configValue(live.schema.provider.block, { id_prefix: "t-" }), "1.11.4");

  const none = nullVal(item.type);
  const config = configValue(item.block, { name: "alpha", value: "hello", tags: { env: "x" }, rule: [{ port: 80 }] });
  const plan = await p.planResourceChange("memory_item", none, proposedNewState(item.block, none, config), config);
  expect(plan.plannedState.getAttr("id").rawEquals(unknownVal(stringType, { notNull: true }))).toBe(true);
  expect(plan.plannedState.getAttr("rule").index(0).getAttr("protocol").asString()).toBe("tcp");
  expect(new TextDecoder().decode(plan.plannedPrivate)).toBe('{"memory":1}');

  const applied = await p.applyResourceChange("memory_item", none, plan.plannedState, config, { plannedPrivate: plan.plannedPrivate });
  const state = applied.newState;
  expect(state.getAttr("id").asString()).toBe("t-1");
  expect(state.getAttr("size").asNumber().toString()).toBe("5");

  const read = await p.readResource("memory_item", state, { private: applied.private });
  expect(!read.gone && read.newState.rawEquals(state)).toBe(true);

  const data = await p.readDataSource("memory_lookup", configValue(lookup.block, { name: "alpha" }));
  expect(data.state.getAttr("value").asString()).toBe("hello");
  const missing = await p.readDataSource("memory_lookup", configValue(lookup.block, { name: "nobody" })).catch((e: unknown) => e);
  expect(isProviderError(missing) && missing.code === "diagnostics" && missing.detail.diagnostics[0]!.attribute?.toString()).toBe("name");

  const imported = await p.importResourceState("memory_item", "t-1");
  expect(imported!.resources).toHaveLength(1);
  expect(imported!.resources[0]!.state.rawEquals(state)).toBe(true);
  const notThere = await p.importResourceState("memory_item", "nope").catch((e: unknown) => e);
  expect(isProviderError(notThere) && notThere.code === "diagnostics" && notThere.detail.diagnostics[0]!.summary).toBe("Cannot import non-existent remote object");

  // An update that fails after storing the object: the new state comes back with the errors.
  const failing = configValue(item.block, { name: "alpha", value: "fail-after-create", tags: { env: "x" }, rule: [{ port: 80 }] });
  const plan2 = await p.planResourceChange("memory_item", state, proposedNewState(item.block, state, failing), failing);
  const partial = await p.applyResourceChange("memory_item", state, plan2.plannedState, failing).catch((e: unknown) => e);
  expect(isProviderError(partial) && partial.code).toBe("partially_applied");
  if (isProviderError(partial) && partial.code === "partially_applied") {
    expect(partial.detail.newState.getAttr("value").asString()).toBe("fail-after-create");
    expect(partial.detail.diagnostics.map((d) => d.summary)).toEqual(["memory_item failed after storing the object"]);
  }
  // A refused change: error diagnostics with their attribute path, no state.
  const refused = configValue(item.block, { name: "beta", value: "fail" });
  const plan3 = await p.planResourceChange("memory_item", none, proposedNewState(item.block, none, refused), refused);
  const err = await p.applyResourceChange("memory_item", none, plan3.plannedState, refused).catch((e: unknown) => e);
  expect(isProviderError(err) && err.code === "diagnostics" && err.detail.diagnostics[0]!.attribute).toEqual(Path.root.attr("value"));

  // Upgrade from schema version 0 (`data` became `value`).
  const up = await p.upgradeResourceState("memory_item", 0, JSON.stringify({ id: "t-9", name: "old", data: "legacy", tags: null }));
  expect(up.upgradedState.getAttr("value").asString()).toBe("legacy");

  // Destroy: planned null, applied null, then gone.
  const reread = await p.readResource("memory_item", state);
  if (reread.gone) throw new Error("memory_item is gone before its destroy");
  const current = reread.newState;
  const destroy = await p.planResourceChange("memory_item", current, none, none);
  expect(destroy.plannedState.isNull()).toBe(true);
  const gone = await p.applyResourceChange("memory_item", current, none, none);
  expect(gone.newState.isNull()).toBe(true);
  expect(await p.readResource("memory_item", current)).toEqual({ gone: true, warnings: [] });
}

describe.each([
  [6, true],
  [5, true],
  [6, false],
  [5, false],
] as const)("@magma/plugin client on protocol %d (AutoMTLS %s)", (version, tls) => {
  let live: LiveProvider | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  test("negotiates, reads the native schema, and runs every operation", async () => {
    live = await dialProvider({ binary: executable, protocolVersions: [version], tls, startTimeoutMs: 60_000 });
    expect(live.protocolVersion).toBe(version);
    expectSameSchema(live.schema);
    await lifecycle(live);
  });
});

describe("a Provider (not a FunctionCaller) whose schema also describes ephemeral resources and functions", () => {
  let live: LiveProvider | undefined;
  let launcher: string;
  beforeAll(() => {
    launcher = fixtureLauncher(tmp.dir, [5, 6], describedOnlyProvider, "createProvider", "described").executable;
  });
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  test.each([6, 5] as const)("protocol %d: the server advertises neither (the provider cannot open or call them); everything else is served", async (version) => {
    // The fixture really does describe them.
    const described = await ((await import(describedOnlyProvider)) as { createProvider(): Provider }).createProvider().getSchema();
    expect(described.ephemeralResources?.size).toBe(1);
    expect(described.functions?.size).toBe(1);

    live = await dialProvider({ binary: launcher, protocolVersions: [version], startTimeoutMs: 60_000 });
    // The client reads both fields of the reply (as it does from hashicorp/aws): here they are empty.
    expect(live.schema.ephemeralResources?.size).toBe(0);
    expect(live.schema.functions?.size).toBe(0);
    expectSameSchema(live.schema);
    await lifecycle(live);
  });
});

describe("a provider that declares a provider_meta schema", () => {
  let live: LiveProvider | undefined;
  let launcher: string;
  beforeAll(() => {
    launcher = fixtureLauncher(tmp.dir, [5, 6], providerMetaProvider, "createProvider", "meta").executable;
  });
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });
  const metaSeen = (warnings: readonly Diag[]): string[] => warnings.map((w) => w.summary).filter((s) => s.startsWith("provider_meta"));

  test.each([6, 5] as const)("protocol %d: calls without a meta send its null, as Terraform does; a given meta is sent as given", async (version) => {
    live = await dialProvider({ binary: launcher, protocolVersions: [version], startTimeoutMs: 60_000 });
    const p = live.provider;
    expect(live.schema.providerMeta).toBeDefined();
    await p.configure(configValue(live.schema.provider.block, {}), "1.11.4");
    const lookup = live.schema.dataSources.get("memory_lookup")!;
    const item = live.schema.resources.get("memory_item")!;
    const metaType = live.schema.providerMeta!.type;
    const withName = configValue(live.schema.providerMeta!.block, { module_name: "mod-a" });

    const config = configValue(item.block, { name: "alpha", value: "hello" });
    const none = nullVal(item.type);
    const plan = await p.planResourceChange("memory_item", none, proposedNewState(item.block, none, config), config);
    expect(metaSeen(plan.warnings)).toEqual(["provider_meta null"]);
    await p.applyResourceChange("memory_item", none, plan.plannedState, config, { plannedPrivate: plan.plannedPrivate });

    const lookupConfig = configValue(lookup.block, { name: "alpha" });
    // Twice without a meta (the second from the encoding kept for the null), then with one, then without again.
    for (const [meta, expected] of [
      [undefined, "provider_meta null"],
      [undefined, "provider_meta null"],
      [withName, 'provider_meta {"module_name":"mod-a"}'],
      [nullVal(metaType), "provider_meta null"],
      [undefined, "provider_meta null"],
    ] as const) {
      const r = await p.readDataSource("memory_lookup", lookupConfig, meta === undefined ? undefined : { providerMeta: meta });
      expect(r.state.getAttr("value").asString()).toBe("hello");
      expect(metaSeen(r.warnings)).toEqual([expected]);
    }
    const planned = await p.planResourceChange("memory_item", none, proposedNewState(item.block, none, config), config, { providerMeta: withName });
    expect(metaSeen(planned.warnings)).toEqual(['provider_meta {"module_name":"mod-a"}']);
  });
});

describe("debug mode", () => {
  let child: Child | undefined;
  afterEach(async () => {
    await child?.stop();
  });

  test("prints a TF_REATTACH_PROVIDERS line that a client attaches to; SIGTERM ends it and removes the socket", async () => {
    child = start(executable, ["--debug"], { ...process.env, TMPDIR: tmp.dir });
    const line = await child.firstLine;
    const m = /^TF_REATTACH_PROVIDERS='(.*)'$/.exec(line);
    expect(m).not.toBeNull();
    const reattach = JSON.parse(m![1]!) as Record<string, { Protocol: string; ProtocolVersion: number; Pid: number; Test: boolean; Addr: { Network: string; String: string } }>;
    const entry = reattach["example.com/magma/memory"]!;
    expect(entry).toMatchObject({ Protocol: "grpc", ProtocolVersion: 6, Pid: child.child.pid, Test: true, Addr: { Network: "unix" } });

    const live = await dialProvider({ reattach: m![1]! });
    try {
      expect(live.protocolVersion).toBe(6);
      expectSameSchema(live.schema);
      await lifecycle(live);
    } finally {
      await live.close();
    }
    expect(child.stderr()).toContain("started in debug mode");
    expect(existsSync(entry.Addr.String)).toBe(true); // Test:true: the client leaves the server running
    child.child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
    expect(existsSync(dirname(entry.Addr.String))).toBe(false);
  });
});
