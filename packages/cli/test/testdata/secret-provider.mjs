// Test fixture: a native provider (served over protocol 6 by @magma/provider-server) whose
// one resource type, vault_secret, holds sensitive attributes where a schema walk must
// reach them: inside v6 nested attributes of every nesting (single, list, map), inside a
// nested attribute of a nested attribute, and inside a nested attribute of a nested block.
// The provider configuration has a sensitive `token`. Plan and apply keep the configuration
// (id is computed: "vs-<name>"); read returns the state as given; import makes an object
// named after its id; upgrade decodes the stored JSON with the current type.
import { fromJson, mapType, nullVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

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

const impl = {
  getSchema() {
    return {
      provider: createSchemaEntry({ attributes: { token: secret, region: opt } }),
      resources: new Map([["vault_secret", vaultSecret]]),
      dataSources: new Map(),
    };
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
    return { newState: objectVal({ ...planned.attributes(), id: id.isKnown() ? id : stringVal(`vs-${planned.getAttr("name").asString()}`) }) };
  },
  readResource(_t, current) {
    return { newState: current };
  },
  readDataSource() {
    throw new Error("vault has no data sources");
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
