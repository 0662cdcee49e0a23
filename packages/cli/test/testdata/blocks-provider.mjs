// Test fixture: a native provider (served by @magma/provider-server) whose one resource type,
// blocks_thing, has nested blocks of every nesting (single, list, set, map) and a list block
// inside a list block, plus a map and a sensitive attribute, for comparing how states are
// rendered with terraform's. Plan and apply keep the configuration (id is computed:
// "bt-<name>"); read returns the state as given; upgrade decodes the stored JSON.
import { fromJson, mapType, nullVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

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

const impl = {
  getSchema() {
    return { provider: createSchemaEntry({ attributes: {} }), resources: new Map([["blocks_thing", thing]]), dataSources: new Map() };
  },
  configure() {},
  planResourceChange(_t, prior, proposed) {
    if (proposed.isNull()) return { plannedState: proposed };
    const id = prior.isNull() ? unknownVal(stringType) : prior.getAttr("id");
    return { plannedState: objectVal({ ...proposed.attributes(), id }) };
  },
  applyResourceChange(_t, _prior, planned) {
    if (planned.isNull()) return { newState: planned };
    const id = planned.getAttr("id");
    return { newState: objectVal({ ...planned.attributes(), id: id.isKnown() ? id : stringVal(`bt-${planned.getAttr("name").asString()}`) }) };
  },
  readResource(_t, current) {
    return { newState: current };
  },
  readDataSource() {
    throw new Error("blocks has no data sources");
  },
  importResourceState(typeName, id, _o, ctx) {
    const attrs = Object.fromEntries(Object.entries(ctx.entry.type.attributes).map(([k, t]) => [k, k === "id" || k === "name" ? stringVal(id) : nullVal(t)]));
    return { resources: [{ typeName, state: objectVal(attrs) }] };
  },
  upgradeResourceState(_t, _v, rawJson, _o, ctx) {
    return { upgradedState: fromJson(rawJson, ctx.entry.type) };
  },
};

export function createProvider() {
  return createNativeProvider(impl);
}
