// Test fixture: the in-memory provider of @magma/provider-api/testing, with its objects kept
// in a JSON file (MEMORY_PROVIDER_STORE) so that they outlive one provider process —
// Terraform starts a new provider process for every phase (schema, validate, plan, apply).
// Each process that stores objects takes the next serial from the file and inserts it into
// the configured id prefix (`tf-` → `tf-3-`), so ids stay unique across processes.
// Without MEMORY_PROVIDER_STORE it is the plain in-memory provider.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fromJson, objectVal, stringVal, toJson } from "@magma/cty";
import { impliedType } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";

const itemType = impliedType(memoryItemBlock);

export function createProvider() {
  const store = process.env.MEMORY_PROVIDER_STORE;
  if (store === undefined) return createMemoryProvider();
  const saved = existsSync(store) ? JSON.parse(readFileSync(store, "utf8")) : { serial: 0, items: {} };
  const serial = saved.serial + 1;
  const p = createMemoryProvider({ items: Object.entries(saved.items).map(([id, json]) => [id, fromJson(json, itemType)]) });
  const save = () => {
    const items = {};
    for (const [id, v] of p.items) items[id] = toJson(v, itemType);
    writeFileSync(`${store}.tmp`, JSON.stringify({ serial, items }));
    renameSync(`${store}.tmp`, store);
  };
  return {
    ...p,
    configure(config, ...rest) {
      const prefix = config.getAttr("id_prefix");
      const base = prefix.isKnown() && !prefix.isNull() ? prefix.asString() : "item-";
      return p.configure(objectVal({ ...config.attributes(), id_prefix: stringVal(`${base}${serial}-`) }), ...rest);
    },
    async applyResourceChange(...args) {
      try {
        return await p.applyResourceChange(...args);
      } finally {
        save();
      }
    },
  };
}
