// Test fixture: provider-server's file-backed memory provider (MEMORY_PROVIDER_STORE) with a
// provider_meta schema (`module_name`), appending one JSON line per PlanResourceChange,
// ApplyResourceChange, ReadResource and ReadDataSource to META_LOG: the operation, the
// object's `name` and the provider meta it was sent ("absent", "null" or the module name).
// terraform (through @magma/provider-server) and magma drive the same module.
import { appendFileSync } from "node:fs";
import { stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { delegatingProvider } from "../../../provider-server/test/testdata/delegating-provider.mjs";
import { createProvider as createStoredMemoryProvider } from "../../../provider-server/test/testdata/stored-memory-provider.mjs";

function metaText(meta) {
  if (meta === undefined) return "absent";
  if (meta.isNull()) return "null";
  const m = meta.getAttr("module_name");
  return m.isNull() ? "module_name null" : m.asString();
}

function nameOf(...values) {
  for (const v of values) {
    if (v === undefined || v.isNull() || !v.isKnown()) continue;
    const n = v.getAttr("name");
    if (n.isKnown() && !n.isNull()) return n.asString();
  }
  return "?";
}

export function createProvider() {
  const p = createStoredMemoryProvider();
  const log = (op, options, ...values) => {
    const file = process.env.META_LOG;
    if (file !== undefined) appendFileSync(file, `${JSON.stringify({ op, name: nameOf(...values), meta: metaText(options?.providerMeta) })}\n`);
  };
  return delegatingProvider(p, {
    async getSchema(options) {
      const s = await p.getSchema(options);
      return { ...s, providerMeta: createSchemaEntry({ attributes: { module_name: { type: stringType, optional: true } } }) };
    },
    async planResourceChange(typeName, prior, proposed, config, options) {
      log("plan", options, config, prior);
      return p.planResourceChange(typeName, prior, proposed, config, options);
    },
    async applyResourceChange(typeName, prior, planned, config, options) {
      log("apply", options, planned, prior);
      return p.applyResourceChange(typeName, prior, planned, config, options);
    },
    async readResource(typeName, state, options) {
      log("read", options, state);
      return p.readResource(typeName, state, options);
    },
    async readDataSource(typeName, config, options) {
      log("read-data", options, config);
      return p.readDataSource(typeName, config, options);
    },
  });
}
