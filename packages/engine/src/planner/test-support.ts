import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toJson, type Value } from "@magma/cty";
import { loadConfig, type Config } from "@magma/config";
import { configValue, impliedType, type PlainConfig } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { newStateFile, parseProviderConfig, type StateFile } from "@magma/state";
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
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { config, diags } = loadConfig(dir);
  if (diags.some((d) => d.severity === "error")) throw new Error(diags.map((d) => `${d.summary}: ${d.detail}`).join("\n"));
  return { config, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A memory_item object value. */
export function item(plain: PlainConfig): Value {
  return configValue(memoryItemBlock, { value: null, tags: null, rule: [], ...plain });
}

/** A state holding memory_item objects: `[address, value]` pairs (`memory_item.a`, `memory_item.b[0]`, `memory_item.c["k"]`). */
export function stateOf(objects: readonly (readonly [string, Value, { dependencies?: string[] }?])[]): StateFile {
  const s = newStateFile();
  s.serial = 3;
  const provider = parseProviderConfig(`provider["${MEMORY}"]`);
  const type = impliedType(memoryItemBlock);
  for (const [address, value, extra] of objects) {
    const m = /^memory_item\.([a-z_0-9]+)(?:\[(\d+|"[^"]*")\])?$/.exec(address);
    if (m === null) throw new Error(`bad address ${address}`);
    const name = m[1]!;
    const rawKey = m[2];
    const indexKey = rawKey === undefined ? undefined : rawKey.startsWith('"') ? (JSON.parse(rawKey) as string) : Number(rawKey);
    let r = s.resources.find((x) => x.name === name);
    if (r === undefined) {
      r = { module: [], mode: "managed", type: "memory_item", name, provider, instances: [] };
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
