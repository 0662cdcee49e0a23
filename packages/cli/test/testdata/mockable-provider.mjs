// Test fixture: a native provider that must never be called for anything but its schema, for
// comparing `terraform test`'s mock_provider blocks: its configuration requires `endpoint`, and
// every resource and data source operation throws. `mockable_thing` has computed attributes of
// each kind (string, number, bool, list, map, an object, a computed nested attribute, and a
// nested block with a computed attribute); `mockable_info` is a data source with the same kinds.
import { boolType, listType, mapType, numberType, objectType, stringType } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

const computed = {
  id: { type: stringType, computed: true },
  total: { type: numberType, computed: true },
  ready: { type: boolType, computed: true },
  tags: { type: listType(stringType), computed: true },
  labels: { type: mapType(stringType), computed: true },
  owner: { type: objectType({ name: stringType, uid: numberType }), computed: true },
  detail: { nestedType: { nesting: "single", attributes: { arn: { type: stringType, computed: true }, size: { type: numberType, optional: true } } }, optional: true, computed: true },
};

/** The provider. */
export function createProvider() {
  const thing = createSchemaEntry({
    attributes: { name: { type: stringType, required: true }, ...computed },
    blockTypes: { part: { nesting: "list", block: { attributes: { label: { type: stringType, optional: true }, serial: { type: stringType, computed: true } } } } },
  });
  const info = createSchemaEntry({ attributes: { query: { type: stringType, optional: true }, ...computed } });
  const provider = createSchemaEntry({ attributes: { endpoint: { type: stringType, required: true } } });
  const never = (op) => () => {
    throw new Error(`mockable: ${op} called on the real provider`);
  };
  return createNativeProvider({
    getSchema() {
      return { provider, resources: new Map([["mockable_thing", thing]]), dataSources: new Map([["mockable_info", info]]) };
    },
    configure: never("configure"),
    planResourceChange: never("planResourceChange"),
    applyResourceChange: never("applyResourceChange"),
    readResource: never("readResource"),
    readDataSource: never("readDataSource"),
    importResourceState: never("importResourceState"),
    upgradeResourceState: never("upgradeResourceState"),
  });
}
