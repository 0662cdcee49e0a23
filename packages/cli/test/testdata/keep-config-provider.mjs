// Test fixture scaffolding: a native provider (served by @magma/provider-server) with one
// resource type that keeps its configuration, for comparing how states are rendered with
// terraform's. blocks-provider.mjs and secret-provider.mjs build theirs with it. Plan and
// apply keep the configuration (id is computed: "<idPrefix>-<name>"); read returns the state
// as given; import makes an object named after its id; upgrade decodes the stored JSON with
// the current type; the provider has no data sources.
import { fromJson, nullVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

/**
 * The provider: `typeName` with schema `entry` (it must have a computed `id` and a required
 * `name`), `provider` its configuration schema (default: empty), `configure` what to do with
 * the provider's configuration (default: nothing), `idPrefix` the prefix of the ids apply
 * gives (or a function returning it, read at each apply), `label` the name errors call it by.
 */
export function createKeepConfigProvider({ typeName, entry, provider = createSchemaEntry({ attributes: {} }), configure = () => {}, idPrefix, label }) {
  const prefixOf = typeof idPrefix === "function" ? idPrefix : () => idPrefix;
  return createNativeProvider({
    getSchema() {
      return { provider, resources: new Map([[typeName, entry]]), dataSources: new Map() };
    },
    configure,
    planResourceChange(_t, prior, proposed) {
      if (proposed.isNull()) return { plannedState: proposed };
      const id = prior.isNull() ? unknownVal(stringType) : prior.getAttr("id");
      return { plannedState: objectVal({ ...proposed.attributes(), id }) };
    },
    applyResourceChange(_t, _prior, planned) {
      if (planned.isNull()) return { newState: planned };
      const id = planned.getAttr("id");
      return { newState: objectVal({ ...planned.attributes(), id: id.isKnown() ? id : stringVal(`${prefixOf()}-${planned.getAttr("name").asString()}`) }) };
    },
    readResource(_t, current) {
      return { newState: current };
    },
    readDataSource() {
      throw new Error(`${label} has no data sources`);
    },
    importResourceState(t, id, _o, ctx) {
      const attrs = Object.fromEntries(Object.entries(ctx.entry.type.attributes).map(([k, at]) => [k, k === "id" || k === "name" ? stringVal(id) : nullVal(at)]));
      return { resources: [{ typeName: t, state: objectVal(attrs) }] };
    },
    upgradeResourceState(_t, _v, rawJson, _o, ctx) {
      return { upgradedState: fromJson(rawJson, ctx.entry.type) };
    },
  });
}
