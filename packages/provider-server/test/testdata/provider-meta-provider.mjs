// Test fixture: the memory provider with a provider_meta schema (`module_name`). Each
// data-source read and resource plan answers with a warning naming the provider meta it
// was given ("absent", "null" or the module name), so a client can see what was sent.
import { stringType, toPlain } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { delegatingProvider } from "./delegating-provider.mjs";

function seen(meta) {
  if (meta === undefined) return "provider_meta absent";
  if (meta.isNull()) return "provider_meta null";
  return `provider_meta ${JSON.stringify(toPlain(meta))}`;
}

export function createProvider() {
  const p = createMemoryProvider();
  return delegatingProvider(p, {
    async planResourceChange(typeName, prior, proposed, config, options) {
      const r = await p.planResourceChange(typeName, prior, proposed, config, options);
      return { ...r, warnings: [...r.warnings, { severity: "warning", summary: seen(options?.providerMeta) }] };
    },
    async readDataSource(typeName, config, options) {
      const r = await p.readDataSource(typeName, config, options);
      return { ...r, warnings: [...r.warnings, { severity: "warning", summary: seen(options?.providerMeta) }] };
    },
    async getSchema(options) {
      const s = await p.getSchema(options);
      return { ...s, providerMeta: createSchemaEntry({ attributes: { module_name: { type: stringType, optional: true } } }) };
    },
  });
}
