// Test fixture: a native provider (served by @magma/provider-server) whose one resource type,
// attrs_thing, has attributes of a list and of a set of objects (which terraform lets a
// configuration write as blocks, its `blocktoattr` fixup), one of them with a nested list of
// objects, beside a list block; it keeps its configuration (keep-config-provider.mjs; ids
// "at-<name>").
import { listType, numberType, objectType, setType, stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createKeepConfigProvider } from "./keep-config-provider.mjs";

const opt = { type: stringType, optional: true };

const thing = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    rule: { type: listType(objectType({ port: numberType, proto: stringType, hop: listType(objectType({ via: stringType })) })), optional: true },
    tagset: { type: setType(objectType({ key: stringType, value: stringType })), optional: true },
  },
  blockTypes: {
    step: { nesting: "list", block: { attributes: { cmd: opt } } },
  },
});

/** The provider. */
export function createProvider() {
  return createKeepConfigProvider({ typeName: "attrs_thing", entry: thing, idPrefix: "at", label: "attrs" });
}
