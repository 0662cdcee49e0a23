// Test fixture: the "probe" provider, for checking Terraform's object-change rules against
// terraform itself. Stateless: objects live in terraform's state only.
//
// - `probe_data` (data source): blocks and v6 nested attributes of every nesting with a
//   computed member, and a dynamic attribute, so that terraform's plan of a deferred read
//   (its PlannedDataResourceObject) can be compared with `proposedNewState` on an unknown
//   prior. The read fills each null computed member with "read".
// - `probe_item` (resource): `value` optional, `id` and `size` computed. Its `mode` selects
//   a misbehaviour that the wrapped native provider would reject, injected here, after
//   `createNativeProvider`'s checks, so that terraform sees it:
//   "ignore-config" plans `value` = "not-what-you-asked"; "unknown-after-apply" leaves `id`
//   unknown in the apply result ("unknowns-after-apply": `id` and `size`);
//   "changed-after-apply" applies `size` = 99 although 1 was planned.
// - `probe_blocks` (resource): a `mode` and a list block `b`; mode "unknown-block" plans `b`
//   as unknown, "unknown-element" plans its element as unknown (injected as above).
// - A gone read: a `probe_item` whose `value` is "gone" reads as gone, with the warning
//   "probe_item vanished".
import { listVal, dynamicType, nullVal, numberType, numberVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, warningDiag } from "@magma/provider-api";

const member = { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } };

/** The `probe_data` block. */
export const probeDataBlock = {
  attributes: {
    name: { type: stringType, required: true },
    c: { type: stringType, computed: true },
    dyn: { type: dynamicType, optional: true },
    nm: { optional: true, nestedType: { nesting: "map", attributes: member } },
    nl: { optional: true, nestedType: { nesting: "list", attributes: member } },
    ns: { optional: true, nestedType: { nesting: "set", attributes: member } },
    nsingle: { optional: true, nestedType: { nesting: "single", attributes: member } },
  },
  blockTypes: {
    mp: { nesting: "map", block: { attributes: member } },
    lst: { nesting: "list", block: { attributes: member } },
    st: { nesting: "set", block: { attributes: member } },
    one: { nesting: "single", block: { attributes: member } },
  },
};

/** The `probe_item` block. */
export const probeItemBlock = {
  attributes: {
    id: { type: stringType, computed: true },
    value: { type: stringType, optional: true },
    mode: { type: stringType, optional: true },
    size: { type: numberType, optional: true, computed: true },
  },
};

const itemEntry = createSchemaEntry(probeItemBlock);

/** Fills null computed `c` members with "read", everywhere in a probe_data value. */
function filled(v) {
  if (v.isNull() || !v.isKnown()) return v;
  const t = v.type;
  if (t.kind === "object") {
    const out = {};
    for (const [k, x] of Object.entries(v.attributes())) out[k] = k === "c" && x.isNull() ? stringVal("read") : filled(x);
    return objectVal(out);
  }
  return v;
}

function withAttr(v, name, x) {
  return objectVal({ ...v.attributes(), [name]: x });
}

export function createProvider() {
  const native = createNativeProvider({
    getSchema: () => ({
      provider: createSchemaEntry({}),
      resources: new Map([["probe_item", itemEntry], ["probe_blocks", createSchemaEntry({ attributes: { mode: { type: stringType, optional: true } }, blockTypes: { b: { nesting: "list", block: { attributes: { c: { type: stringType, optional: true } } } } } })]]),
      dataSources: new Map([["probe_data", createSchemaEntry(probeDataBlock)]]),
    }),
    configure: () => ({}),
    planResourceChange: (_t, _prior, proposed) => {
      if (proposed.isNull() || !proposed.type.attributes.id) return { plannedState: proposed };
      let planned = proposed;
      if (planned.getAttr("id").isNull()) planned = withAttr(planned, "id", unknownVal(stringType));
      if (planned.getAttr("size").isNull()) planned = withAttr(planned, "size", numberVal(1));
      return { plannedState: planned };
    },
    applyResourceChange: (_t, _prior, planned) => {
      if (planned.isNull()) return { newState: planned };
      return { newState: planned.getAttr("id").isKnown() ? planned : withAttr(planned, "id", stringVal("probe-1")) };
    },
    readResource: (_t, current) => {
      const value = current.getAttr("value");
      if (value.isKnown() && !value.isNull() && value.asString() === "gone") return { newState: null, diagnostics: [warningDiag("probe_item vanished", "it was deleted outside terraform")] };
      return { newState: current };
    },
    readDataSource: (_t, config) => {
      const name = config.getAttr("name");
      return { state: withAttr(filled(config), "c", stringVal(`read:${name.asString()}`)) };
    },
    importResourceState: () => ({}),
    upgradeResourceState: (_t, _v, raw) => ({ upgradedState: fromRaw(raw) }),
  });

  const mode = (v) => {
    const m = v.isNull() ? v : v.getAttr("mode");
    return m.isKnown() && !m.isNull() ? m.asString() : "";
  };

  return {
    ...native,
    getSchema: (...a) => native.getSchema(...a),
    configure: (...a) => native.configure(...a),
    readResource: (...a) => native.readResource(...a),
    readDataSource: (...a) => native.readDataSource(...a),
    importResourceState: (...a) => native.importResourceState(...a),
    upgradeResourceState: (...a) => native.upgradeResourceState(...a),
    async planResourceChange(typeName, prior, proposed, config, options) {
      const r = await native.planResourceChange(typeName, prior, proposed, config, options);
      if (mode(config) === "unknown-block") return { ...r, plannedState: withAttr(r.plannedState, "b", unknownVal(r.plannedState.type.attributes.b)) };
      if (mode(config) === "unknown-element") return { ...r, plannedState: withAttr(r.plannedState, "b", listVal([unknownVal(r.plannedState.type.attributes.b.element)])) };
      if (mode(config) === "ignore-config") return { ...r, plannedState: withAttr(r.plannedState, "value", stringVal("not-what-you-asked")) };
      return r;
    },
    async applyResourceChange(typeName, prior, planned, config, options) {
      const r = await native.applyResourceChange(typeName, prior, planned, config, options);
      if (mode(config) === "unknown-after-apply") return { ...r, newState: withAttr(r.newState, "id", unknownVal(stringType)) };
      if (mode(config) === "unknowns-after-apply") return { ...r, newState: withAttr(withAttr(r.newState, "id", unknownVal(stringType)), "size", unknownVal(numberType)) };
      if (mode(config) === "changed-after-apply") return { ...r, newState: withAttr(r.newState, "size", numberVal(99)) };
      return r;
    },
  };
}

function fromRaw(raw) {
  const o = JSON.parse(raw);
  const s = (x) => (typeof x === "string" ? stringVal(x) : nullVal(stringType));
  return objectVal({ id: s(o.id), value: s(o.value), mode: s(o.mode), size: typeof o.size === "number" ? numberVal(o.size) : nullVal(numberType) });
}

/** The probe provider without `probe_data` (whose v6 nested attributes protocol 5 cannot carry). */
export function createItemProvider() {
  const p = createProvider();
  return { ...p, getSchema: async (...a) => ({ ...(await p.getSchema(...a)), dataSources: new Map() }) };
}
