// Test fixture: a native provider (served by @magma/provider-server) whose configuration
// shows in its objects: each `configured_thing`'s computed `id` is the provider's `prefix`
// and the thing's `name` ("none" without a prefix). For comparing how `terraform test` hands
// a test file's provider blocks to the module under test. Built on keep-config-provider.mjs.
import { stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createKeepConfigProvider } from "./keep-config-provider.mjs";

/** The provider. */
export function createProvider() {
  let prefix = "none";
  return createKeepConfigProvider({
    typeName: "configured_thing",
    entry: createSchemaEntry({ attributes: { id: { type: stringType, computed: true }, name: { type: stringType, required: true } } }),
    provider: createSchemaEntry({ attributes: { prefix: { type: stringType, optional: true } } }),
    configure(config) {
      const v = config.getAttr("prefix");
      prefix = v.isNull() || !v.isKnown() ? "none" : v.asString();
    },
    idPrefix: () => prefix,
    label: "configured",
  });
}
