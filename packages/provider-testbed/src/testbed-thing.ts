import { utf8Bytes } from "./utf8.js";
import {
  CtyNumber,
  Path,
  boolType,
  fromJson,
  listType,
  listVal,
  mapType,
  nullVal,
  numberType,
  numberVal,
  objectVal,
  stringType,
  stringVal,
  unknownVal,
  type ObjectType,
  type Value,
} from "@magma/cty";
import { createSchemaEntry, errorDiag, type Diag, type NativeUpgrade } from "@magma/provider-api";
import { stableHash } from "./stable-hash.js";
import { changedPaths, type TestbedContext, type TestbedResource } from "./testbed-resource.js";
import { canonical, fillUnknowns, isSet, withAttrs } from "./value-kit.js";

/** The schema version of testbed_thing; version 0 called `name` `title`. */
export const THING_SCHEMA_VERSION = 1;

const entry = createSchemaEntry({
  description: "A structured object: every kind of attribute and nesting mode, replace paths and provider defaults.",
  attributes: {
    id: { type: stringType, computed: true, description: "prefix + hash of the name; unknown until created." },
    name: { type: stringType, required: true, description: "Changing it replaces the object." },
    description: { type: stringType, optional: true },
    size: { type: numberType, optional: true, computed: true, description: "Default 1, set by the provider. Must not be negative." },
    tags: { type: mapType(stringType), optional: true },
    labels: { type: listType(stringType), optional: true },
    secret: { type: stringType, optional: true, sensitive: true },
    fingerprint: { type: stringType, computed: true, description: "A hash of every input, known at plan when the inputs are." },
    vanish: { type: boolType, optional: true, description: "When true, reads report the object gone." },
    props: {
      nestedType: {
        nesting: "single",
        attributes: {
          color: { type: stringType, optional: true },
          weight: { type: numberType, optional: true, computed: true, description: "Default 10." },
        },
      },
      optional: true,
    },
    endpoints: {
      nestedType: {
        nesting: "list",
        attributes: {
          host: { type: stringType, required: true },
          port: { type: numberType, optional: true },
          url: { type: stringType, computed: true, description: "https://host:port (port 443 when unset)." },
        },
      },
      optional: true,
    },
    members: {
      nestedType: {
        nesting: "set",
        attributes: { user: { type: stringType, required: true }, role: { type: stringType, optional: true } },
      },
      optional: true,
    },
    named: {
      nestedType: { nesting: "map", attributes: { value: { type: stringType, optional: true } } },
      optional: true,
    },
  },
  blockTypes: {
    rule: {
      nesting: "list",
      block: {
        attributes: {
          port: { type: numberType, required: true },
          proto: { type: stringType, optional: true, computed: true, description: "Default tcp." },
          note: { type: stringType, optional: true },
        },
      },
    },
    policy: {
      nesting: "single",
      block: {
        attributes: {
          effect: { type: stringType, required: true, description: "Changing it replaces the object." },
          level: { type: numberType, optional: true },
        },
      },
    },
    target: { nesting: "set", block: { attributes: { addr: { type: stringType, required: true } } } },
    slot: { nesting: "map", block: { attributes: { value: { type: stringType, optional: true } } } },
    meta: { nesting: "group", block: { attributes: { owner: { type: stringType, optional: true } } } },
  },
}, THING_SCHEMA_VERSION);

/** Attributes that force replacement when they change. */
const REPLACE_PATHS: readonly Path[] = [Path.root.attr("name"), Path.root.attr("policy").attr("effect")];
/** Computed-only attributes: not inputs of the fingerprint. */
const COMPUTED_ONLY = new Set(["id", "fingerprint"]);

function num(n: number): Value {
  return numberVal(CtyNumber.from(BigInt(n)));
}

/** Maps the known, non-null elements of a known list (or set) of objects; anything else as it is. */
function mapObjects(v: Value, f: (o: Value) => Value, rebuild: (els: Value[]) => Value): Value {
  if (!v.isKnown() || v.isNull() || v.length() === 0) return v;
  return rebuild(v.elements().map((o) => (o.isKnown() && !o.isNull() ? f(o) : o)));
}

function endpointUrl(e: Value): Value {
  const host = e.getAttr("host");
  const port = e.getAttr("port");
  if (!host.isKnown() || !port.isKnown()) return unknownVal(stringType);
  return stringVal(`https://${host.asString()}:${port.isNull() ? "443" : port.asNumber().toString()}`);
}

/** The provider-set values: defaults and values derived from siblings (the same at plan and apply). */
function derived(planned: Value): Record<string, Value> {
  const out: Record<string, Value> = {};
  if (planned.getAttr("size").isNull()) out["size"] = num(1);
  const props = planned.getAttr("props");
  if (isSet(props) && props.getAttr("weight").isNull()) out["props"] = withAttrs(props, { weight: num(10) });
  out["endpoints"] = mapObjects(planned.getAttr("endpoints"), (e) => withAttrs(e, { url: endpointUrl(e) }), (els) => listVal(els));
  out["rule"] = mapObjects(
    planned.getAttr("rule"),
    (r) => (r.getAttr("proto").isNull() ? withAttrs(r, { proto: stringVal("tcp") }) : r),
    (els) => listVal(els),
  );
  return out;
}

function fingerprint(planned: Value, ctx: TestbedContext): Value {
  const inputs: Record<string, Value> = {};
  for (const [k, v] of Object.entries(planned.attributes())) if (!COMPUTED_ONLY.has(k)) inputs[k] = v;
  const text = canonical(objectVal(inputs));
  return text === undefined ? unknownVal(stringType) : stringVal(`fp-${stableHash(`${ctx.prefix}|${text}`)}`);
}

function validate(config: Value): Diag[] {
  const size = config.getAttr("size");
  if (isSet(size) && size.asNumber().sign() < 0) {
    return [errorDiag("Invalid size", `size must not be negative, got ${size.asNumber().toString()}.`, Path.root.attr("size"))];
  }
  return [];
}

function decodeState(raw: Record<string, unknown>, type: ObjectType): Value {
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(type.attributes)) kept[name] = raw[name] ?? null;
  return fromJson(JSON.stringify(kept), type);
}

function applyThing(planned: Value, ctx: TestbedContext): Value {
  let state = withAttrs(planned, derived(planned));
  state = withAttrs(state, { fingerprint: fingerprint(state, ctx) });
  const name = state.getAttr("name").asString();
  return fillUnknowns(state, `${ctx.prefix}|testbed_thing|${name}`);
}

/** testbed_thing: every attribute kind and nesting mode; schema version 1 (upgrades 0), importable by name. @internal */
export const testbedThing: TestbedResource = {
  typeName: "testbed_thing",
  entry,
  plan(prior, proposed, config, ctx) {
    const diagnostics = validate(config);
    let planned = withAttrs(proposed, derived(proposed));
    const requiresReplace = changedPaths(prior, planned, REPLACE_PATHS);
    const fresh = prior.isNull() || requiresReplace.length > 0;
    planned = withAttrs(planned, {
      id: fresh ? unknownVal(stringType) : prior.getAttr("id"),
      fingerprint: fingerprint(planned, ctx),
    });
    return { plannedState: planned, requiresReplace, diagnostics, plannedPrivate: utf8Bytes(`{"planned":true}`) };
  },
  apply: (_prior, planned, ctx) => ({ newState: applyThing(planned, ctx) }),
  gone: (state) => {
    const v = state.getAttr("vanish");
    return isSet(v) && v.asBool();
  },
  importState(id, ctx) {
    if (id === "") return { diagnostics: [errorDiag("Invalid import id", "testbed_thing is imported by its name, which must not be empty.")] };
    const empty: Record<string, Value> = {};
    for (const [k, t] of Object.entries(entry.type.attributes)) empty[k] = nullVal(t);
    const state = applyThing(objectVal({ ...empty, name: stringVal(id), id: unknownVal(stringType), fingerprint: unknownVal(stringType) }), ctx);
    return { resources: [{ state, private: utf8Bytes(`{"imported":true}`) }] };
  },
  upgradeFrom(storedVersion, raw): NativeUpgrade | undefined {
    if (storedVersion !== 0) return undefined;
    const { title, ...rest } = raw;
    return { upgradedState: decodeState({ ...rest, name: title }, entry.type) };
  },
};

/** Decodes a stored state of the current version (attributes the schema lacks dropped, missing ones null). @internal */
export function decodeCurrentState(raw: Record<string, unknown>, type: ObjectType): Value {
  return decodeState(raw, type);
}
