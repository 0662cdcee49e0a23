// Test fixture: a native provider (served by @magma/provider-server) whose configuration
// shows in its objects: each `configured_thing`'s computed `id` is the provider's `prefix`
// and the thing's `name` ("none" without a prefix). For comparing how `terraform test` hands
// a test file's provider blocks to the module under test.
import { fromJson, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

/** The provider. */
export function createProvider() {
  let prefix = "none";
  const entry = createSchemaEntry({ attributes: { id: { type: stringType, computed: true }, name: { type: stringType, required: true } } });
  const provider = createSchemaEntry({ attributes: { prefix: { type: stringType, optional: true } } });
  return createNativeProvider({
    getSchema() {
      return { provider, resources: new Map([["configured_thing", entry]]), dataSources: new Map() };
    },
    configure(config) {
      const v = config.getAttr("prefix");
      prefix = v.isNull() || !v.isKnown() ? "none" : v.asString();
    },
    planResourceChange(_t, prior, proposed) {
      if (proposed.isNull()) return { plannedState: proposed };
      const id = prior.isNull() ? unknownVal(stringType) : prior.getAttr("id");
      return { plannedState: objectVal({ ...proposed.attributes(), id }) };
    },
    applyResourceChange(_t, _prior, planned) {
      if (planned.isNull()) return { newState: planned };
      const id = planned.getAttr("id");
      return { newState: objectVal({ ...planned.attributes(), id: id.isKnown() ? id : stringVal(`${prefix}-${planned.getAttr("name").asString()}`) }) };
    },
    readResource(_t, current) {
      return { newState: current };
    },
    readDataSource() {
      throw new Error("configured has no data sources");
    },
    importResourceState() {
      throw new Error("configured cannot import");
    },
    upgradeResourceState(_t, _v, rawJson, _o, ctx) {
      return { upgradedState: fromJson(rawJson, ctx.entry.type) };
    },
  });
}
