// Test fixture: a native provider (served by @magma/provider-server) whose one resource type,
// nested_thing, has nested attributes (protocol 6 nested types) of every nesting — single,
// list, set, map — each object with an optional+computed `arn` (the provider's "arn:<v>"
// when the configuration leaves it out, unknown until applied) and an optional `v`, and an
// optional+computed single nested attribute; for comparing how plans render nested
// attributes going to null with terraform's. With NESTED_FAIL_UPGRADE=1 in its environment,
// every state upgrade fails. Otherwise it keeps its configuration
// (keep-config-provider.mjs; ids "nt-<name>").
import { fromJson, listVal, mapVal, objectVal, setVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

const item = { arn: { type: stringType, optional: true, computed: true }, v: { type: stringType, optional: true } };

const thing = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    one: { nestedType: { nesting: "single", attributes: item }, optional: true },
    oc: { nestedType: { nesting: "single", attributes: item }, optional: true, computed: true },
    many: { nestedType: { nesting: "list", attributes: item }, optional: true },
    set: { nestedType: { nesting: "set", attributes: item }, optional: true },
    keyed: { nestedType: { nesting: "map", attributes: item }, optional: true },
  },
});

/** Each nested object's null `arn` given by `fill` (its `v`), through every nesting. */
function fillArns(value, fill) {
  const obj = (o) => {
    if (o.isNull() || !o.isKnown()) return o;
    const a = o.attributes();
    return a["arn"].isNull() ? objectVal({ ...a, arn: fill(a["v"]) }) : o;
  };
  const coll = (c, make) => (c.isNull() || !c.isKnown() || c.length() === 0 ? c : make(c));
  const a = value.attributes();
  return objectVal({
    ...a,
    one: obj(a["one"]),
    oc: obj(a["oc"]),
    many: coll(a["many"], (c) => listVal(c.elements().map(obj))),
    set: coll(a["set"], (c) => setVal(c.elements().map(obj))),
    keyed: coll(a["keyed"], (c) => mapVal(Object.fromEntries([...c.entries()].map(([k, v]) => [k, obj(v)])))),
  });
}

/** The provider. */
export function createProvider() {
  return createNativeProvider({
    getSchema() {
      return { provider: createSchemaEntry({ attributes: {} }), resources: new Map([["nested_thing", thing]]), dataSources: new Map() };
    },
    configure() {},
    planResourceChange(_t, prior, proposed) {
      if (proposed.isNull()) return { plannedState: proposed };
      const id = prior.isNull() ? unknownVal(stringType) : prior.getAttr("id");
      const planned = fillArns(objectVal({ ...proposed.attributes(), id }), () => unknownVal(stringType));
      // the optional+computed object: the provider's when neither the configuration nor the prior state has one
      return { plannedState: planned.getAttr("oc").isNull() ? objectVal({ ...planned.attributes(), oc: unknownVal(thing.type.attributes["oc"]) }) : planned };
    },
    applyResourceChange(_t, _prior, planned) {
      if (planned.isNull()) return { newState: planned };
      const known = (v) => (v.isKnown() ? v : unknownVal(stringType));
      const arn = (v) => stringVal(`arn:${v.isNull() ? "none" : v.asString()}`);
      const withIds = objectVal({ ...planned.attributes(), id: known(planned.getAttr("id")).isKnown() ? planned.getAttr("id") : stringVal(`nt-${planned.getAttr("name").asString()}`) });
      // the unknown arns planned become known
      const a = withIds.attributes();
      const fix = (o) => (o.isNull() || !o.isKnown() ? o : objectVal({ ...o.attributes(), arn: o.getAttr("arn").isKnown() ? o.getAttr("arn") : arn(o.getAttr("v")) }));
      const coll = (c, make) => (c.isNull() || !c.isKnown() || c.length() === 0 ? c : make(c));
      return {
        newState: objectVal({
          ...a,
          one: fix(a["one"]),
          oc: a["oc"].isKnown() ? fix(a["oc"]) : objectVal({ arn: stringVal("arn:computed"), v: stringVal("computed") }),
          many: coll(a["many"], (c) => listVal(c.elements().map(fix))),
          set: coll(a["set"], (c) => setVal(c.elements().map(fix))),
          keyed: coll(a["keyed"], (c) => mapVal(Object.fromEntries([...c.entries()].map(([k, v]) => [k, fix(v)])))),
        }),
      };
    },
    readResource(_t, current) {
      return { newState: current };
    },
    upgradeResourceState(_t, _v, rawJson, _o, ctx) {
      if (process.env["NESTED_FAIL_UPGRADE"] === "1") throw new Error("state upgrade refused");
      return { upgradedState: fromJson(rawJson, ctx.entry.type) };
    },
    readDataSource() {
      throw new Error("nested has no data sources");
    },
  });
}
