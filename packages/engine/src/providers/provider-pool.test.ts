import { unknownVal } from "@magma/cty";
import { configValue, type Provider } from "@magma/provider-api";
import { createMemoryProvider, memoryProviderBlock } from "@magma/provider-api/testing";
import { isEngineError } from "../engine-error.js";
import type { OpenedProvider, ProviderSource } from "../provider-source.js";
import { ProviderPool } from "./provider-pool.js";

function memorySource(log: string[]): ProviderSource {
  return {
    async open(source) {
      if (source !== "example.com/test/memory") throw new Error(`no provider ${source}`);
      const memory = createMemoryProvider();
      const id = log.filter((l) => l.startsWith("open")).length;
      log.push(`open ${id}`);
      const provider: Provider = Object.assign(Object.create(null) as object, memory, {
        configure: async (...args: Parameters<Provider["configure"]>) => {
          log.push(`configure ${id}`);
          return memory.configure(...args);
        },
      }) as Provider;
      const opened: OpenedProvider = { provider, schema: await memory.getSchema(), stop: async () => (log.push(`stop ${id}`), ""), close: async () => void log.push(`close ${id}`) };
      return opened;
    },
  };
}

const SRC = "example.com/test/memory";
const config = configValue(memoryProviderBlock, {});

describe("ProviderPool", () => {
  it("opens one instance per configuration address and configures it once, even for concurrent callers", async () => {
    const log: string[] = [];
    const pool = new ProviderPool(memorySource(log));
    const [a, b] = await Promise.all([pool.configure(`provider["${SRC}"]`, SRC, config), pool.configure(`provider["${SRC}"]`, SRC, config)]);
    expect(a).toBe(b);
    const west = await pool.configure(`provider["${SRC}"].west`, SRC, config);
    expect(west).not.toBe(a);
    expect(log).toEqual(["open 0", "configure 0", "open 1", "configure 1"]);
    expect(await pool.isConfigured(`provider["${SRC}"]`)).toBe(true);
    expect(await pool.isConfigured(`provider["${SRC}"].east`)).toBe(false);
    await pool.stopAll();
    await pool.close();
    expect(log.slice(4).sort()).toEqual(["close 0", "close 1", "stop 0", "stop 1"]);
    await expect(pool.open(`provider["${SRC}"]`, SRC)).rejects.toThrow(/closed/);
  });

  it("names the address when a provider cannot be opened or configured", async () => {
    const pool = new ProviderPool(memorySource([]));
    const e1 = await pool.configure(`provider["example.com/x/nope"]`, "example.com/x/nope", config).catch((e: unknown) => e);
    expect(isEngineError(e1) && e1.code === "provider_unavailable" && e1.message.includes(`provider["example.com/x/nope"]`)).toBe(true);
    const source: ProviderSource = {
      open: async () => {
        const memory = createMemoryProvider();
        const provider = Object.assign(Object.create(null) as object, memory, {
          configure: async () => {
            throw Object.assign(new Error("[diagnostics] region is required"), { name: "ProviderError", code: "diagnostics", detail: { code: "diagnostics", diagnostics: [{ severity: "error", summary: "region is required", detail: "" }] } });
          },
        }) as Provider;
        return { provider, schema: await memory.getSchema(), stop: async () => "", close: async () => undefined };
      },
    };
    const e2 = await new ProviderPool(source).configure(`provider["${SRC}"]`, SRC, config).catch((e: unknown) => e);
    expect(isEngineError(e2) && e2.code === "provider_configure_failed" && e2.diagnostics[0]?.summary === "region is required").toBe(true);
  });

  it("hands its instances over: the same wholly known configuration reuses the configured instance, another one gets a fresh instance", async () => {
    const log: string[] = [];
    const plan = new ProviderPool(memorySource(log));
    const a = `provider["${SRC}"]`;
    const b = `provider["${SRC}"].b`;
    const opened = await plan.configure(a, SRC, config);
    await plan.configure(b, SRC, config);
    const apply = plan.handOver();
    // The plan's pool is empty and closed now: closing it closes nothing handed over.
    await plan.close();
    expect(log).toEqual(["open 0", "configure 0", "open 1", "configure 1"]);
    await expect(plan.open(a, SRC)).rejects.toThrow(/closed/);
    // Same configuration: reused as it is (no open, no configure).
    expect(await apply.configure(a, SRC, config)).toBe(opened);
    expect(apply.reused).toBe(1);
    // Another configuration: the old instance is closed, a fresh one opened and configured.
    const other = configValue(memoryProviderBlock, { id_prefix: "x-" });
    const fresh = await apply.configure(b, SRC, other);
    expect(log).toContain("close 1");
    expect(log.indexOf("configure 2")).toBeGreaterThan(log.indexOf("open 2"));
    expect(log.indexOf("open 2")).toBeGreaterThan(3);
    expect(fresh).not.toBe(opened);
    expect(apply.reused).toBe(1);
    await apply.close();
    expect(log.filter((l) => l.startsWith("close")).sort()).toEqual(["close 0", "close 1", "close 2"]);
  });

  it("does not reuse an instance for a configuration holding unknowns", async () => {
    const log: string[] = [];
    const plan = new ProviderPool(memorySource(log));
    const a = `provider["${SRC}"]`;
    await plan.configure(a, SRC, config);
    const apply = plan.handOver();
    await apply.configure(a, SRC, unknownVal(config.type)).catch(() => undefined);
    expect(apply.reused).toBe(0);
    expect(log).toContain("open 1");
    await apply.close();
  });
});
