// Test fixture: a native provider (served by @magma/provider-server) whose one resource type,
// blocks_thing, has nested blocks of every nesting (single, list, set, map) and a list block
// inside a list block, plus a map and a sensitive attribute, for comparing how states are
// rendered with terraform's. The resource keeps its configuration (keep-config-provider.mjs;
// ids "bt-<name>").
import { mapType, stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createKeepConfigProvider } from "./keep-config-provider.mjs";

const opt = { type: stringType, optional: true };

const thing = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    note: opt,
    secret: { type: stringType, optional: true, sensitive: true },
    labels: { type: mapType(stringType), optional: true },
  },
  blockTypes: {
    one: { nesting: "single", block: { attributes: { a: opt, b: opt } } },
    rule: { nesting: "map", block: { attributes: { port: opt, proto: opt } } },
    many: { nesting: "set", block: { attributes: { v: opt } } },
    step: { nesting: "list", block: { attributes: { cmd: opt }, blockTypes: { arg: { nesting: "list", block: { attributes: { value: opt, hidden: { type: stringType, optional: true, sensitive: true } } } } } } },
  },
});

export function createProvider() {
  return createKeepConfigProvider({ typeName: "blocks_thing", entry: thing, idPrefix: "bt", label: "blocks" });
}
