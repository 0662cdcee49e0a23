import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { toJson, type Value } from "@magma/cty";
import { loadConfig, type Config } from "@magma/config";
import { configValue, impliedType, type PlainConfig } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { formatModuleInstance, newStateFile, parseProviderConfig, parseResourceInstance, type StateFile } from "@magma/state";
import type { ProviderSource } from "../provider-source.js";

/** The memory provider's source address in these tests. */
export const MEMORY = "registry.terraform.io/hashicorp/memory";

/**
 * A provider source for tests: `hashicorp/memory` (the in-memory provider, each instance
 * starting from the given items) and `hashicorp/random`.
 * Counts the opens by source.
 */
export function testSource(items: Map<string, Value> = new Map()): ProviderSource & { readonly items: Map<string, Value>; readonly opens: Map<string, number> } {
  const opens = new Map<string, number>();
  return {
    items,
    opens,
    async open(source: string) {
      opens.set(source, (opens.get(source) ?? 0) + 1);
      if (source === MEMORY) {
        const p = createMemoryProvider({ items });
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      }
      if (source === "registry.terraform.io/hashicorp/random") {
        const p = createRandomProvider();
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      }
      throw new Error(`no provider ${source}`);
    },
  };
}

/** Writes files into a fresh temp directory and loads it as a configuration. */
export function configOf(files: Record<string, string>): { config: Config; dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "plan-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const { config, diags } = loadConfig(dir);
  if (diags.some((d) => d.severity === "error")) throw new Error(diags.map((d) => `${d.summary}: ${d.detail}`).join("\n"));
  return { config, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A memory_item object value. */
export function item(plain: PlainConfig): Value {
  return configValue(memoryItemBlock, { value: null, tags: null, rule: [], ...plain });
}

/** A state holding memory_item objects: `[address, value]` pairs (`memory_item.a`, `module.m["k"].memory_item.b[0]`). */
export function stateOf(objects: readonly (readonly [string, Value, { dependencies?: string[]; provider?: string }?])[]): StateFile {
  const s = newStateFile();
  s.serial = 3;
  const provider = parseProviderConfig(`provider["${MEMORY}"]`);
  const type = impliedType(memoryItemBlock);
  for (const [address, value, extra] of objects) {
    const a = parseResourceInstance(address);
    const mod = formatModuleInstance(a.module);
    const indexKey = a.key;
    let r = s.resources.find((x) => x.name === a.name && formatModuleInstance(x.module) === mod);
    if (r === undefined) {
      r = { module: a.module, mode: "managed", type: a.type, name: a.name, provider: extra?.provider !== undefined ? parseProviderConfig(extra.provider) : provider, instances: [] };
      s.resources.push(r);
    }
    r.instances.push({
      indexKey,
      deposed: undefined,
      tainted: false,
      schemaVersion: 1,
      attributesJson: toJson(value, type),
      attributesFlat: undefined,
      sensitiveAttributesJson: "[]",
      private: undefined,
      dependencies: extra?.dependencies ?? [],
      createBeforeDestroy: false,
    });
  }
  return s;
}
