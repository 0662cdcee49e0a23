// Test fixture: the in-memory provider of @magma/provider-api/testing, with its objects kept
// in a JSON file (MEMORY_PROVIDER_STORE) so that they outlive one provider process —
// Terraform starts a new provider process for every phase (schema, validate, plan, apply).
// Without MEMORY_PROVIDER_STORE it is the plain in-memory provider.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fromJson, toJson } from "@magma/cty";
import { impliedType } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";

const itemType = impliedType(memoryItemBlock);

export function createProvider() {
  const store = process.env.MEMORY_PROVIDER_STORE;
  const items = [];
  if (store !== undefined && existsSync(store)) {
    for (const [id, json] of Object.entries(JSON.parse(readFileSync(store, "utf8")))) items.push([id, fromJson(json, itemType)]);
  }
  const p = createMemoryProvider({ items });
  if (store === undefined) return p;
  const save = () => {
    const out = {};
    for (const [id, v] of p.items) out[id] = toJson(v, itemType);
    writeFileSync(`${store}.tmp`, JSON.stringify(out));
    renameSync(`${store}.tmp`, store);
  };
  return {
    ...p,
    async applyResourceChange(...args) {
      try {
        return await p.applyResourceChange(...args);
      } finally {
        save();
      }
    },
  };
}
