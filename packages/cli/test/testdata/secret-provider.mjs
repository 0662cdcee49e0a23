// Test fixture: a native provider (served over protocol 6 by @magma/provider-server) whose
// one resource type, vault_secret, holds sensitive attributes where a schema walk must
// reach them: inside v6 nested attributes of every nesting (single, list, map), inside a
// nested attribute of a nested attribute, and inside a nested attribute of a nested block.
// The provider configuration has a sensitive `token`. The resource keeps its configuration
// (keep-config-provider.mjs; ids "vs-<name>").
import { mapType, stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createKeepConfigProvider } from "./keep-config-provider.mjs";

const s = { type: stringType };
const secret = { type: stringType, optional: true, sensitive: true };
const opt = { type: stringType, optional: true };

const vaultSecret = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { ...s, required: true },
    tags: { type: mapType(stringType), optional: true },
    login: {
      optional: true,
      nestedType: {
        nesting: "single",
        attributes: {
          user: opt,
          password: secret,
          factors: { optional: true, nestedType: { nesting: "list", attributes: { kind: opt, code: secret } } },
        },
      },
    },
    logins: { optional: true, nestedType: { nesting: "list", attributes: { user: opt, password: secret } } },
    by_env: { optional: true, nestedType: { nesting: "map", attributes: { note: opt, password: secret } } },
  },
  blockTypes: {
    backend: { nesting: "list", block: { attributes: { url: opt, auth: { optional: true, nestedType: { nesting: "single", attributes: { key: secret } } } } } },
  },
});

export function createProvider() {
  return createKeepConfigProvider({ typeName: "vault_secret", entry: vaultSecret, provider: createSchemaEntry({ attributes: { token: secret, region: opt } }), idPrefix: "vs", label: "vault" });
}
