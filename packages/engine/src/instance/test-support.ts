import type { Value } from "@magma/cty";
import { configValue, type PlainConfig, type Provider } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock, memoryLookupBlock, memoryProviderBlock, type MemoryProvider } from "@magma/provider-api/testing";
import type { InstanceObject, InstanceTarget } from "./instance-target.js";

/** A configured in-memory provider and its target (test support, not exported by the package). */
export async function memoryTarget(options: { wrap?: (p: MemoryProvider) => Partial<Provider> } = {}): Promise<{ memory: MemoryProvider; target: InstanceTarget }> {
  const memory = createMemoryProvider();
  await memory.configure(configValue(memoryProviderBlock, {}), "1.11.4");
  const provider = options.wrap === undefined ? memory : (Object.assign(Object.create(null) as object, memory, options.wrap(memory)) as Provider);
  return { memory, target: { provider, schema: await memory.getSchema() } };
}

/** The configuration value of a `memory_item`. */
export function itemConfig(plain: PlainConfig): Value {
  return configValue(memoryItemBlock, plain);
}

/** The configuration value of a `memory_lookup`. */
export function lookupConfig(plain: PlainConfig): Value {
  return configValue(memoryLookupBlock, plain);
}

/** An object from a state value. */
export function object(state: Value, tainted = false): InstanceObject {
  return { state, private: new Uint8Array(), tainted };
}
