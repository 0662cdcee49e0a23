import { listVal, mapVal, nullVal, objectVal, setVal, tupleVal, unknownVal, type PathStep, type Type, type Value } from "@magma/cty";
import { attributeType, emptyBlockValue, type Attribute, type Block, type NestedAttributeType, type NestedBlock } from "./schema.js";

/**
 * Terraform's proposed new state (core's `ProposedNew`, protocol C3): the configuration
 * merged with the prior state's computed values, which is what Terraform sends as
 * `proposed_new_state` to `planResourceChange`. Engines use it so that providers see the
 * same proposal for creates and updates as under Terraform.
 *
 * - a null config: with a null or unknown prior, the prior (Terraform plans a data source
 *   whose read must wait for apply with a wholly unknown prior); with a known prior (a
 *   destroy) null, as Terraform sends for a destroy (core's `ProposedNew` would return
 *   the prior, but is not called there); a null prior (a create) is replaced by
 *   {@link emptyBlockValue}(block);
 * - an attribute takes the prior value when it is computed and null in config — except
 *   an optional v6 nested attribute whose prior holds a non-null, non-computed leaf,
 *   which keeps config's null; a v6 nested attribute otherwise recurses into its objects;
 *   every other attribute takes the config value, even null;
 * - nested blocks and nested attribute types: an unknown config is taken as is; `single`
 *   stays null when null in config, else recurses; `group` recurses; `list` pairs
 *   elements by index (extra config elements are taken as is); `map` pairs by key, and a
 *   key absent from the prior takes the config element as is; `set` pairs each config
 *   element with the first unused prior element that could have produced it (all
 *   differences are in computed attributes that are null in config; refinements
 *   ignored), and unpaired elements recurse with a null prior;
 * - unknown priors, wholly or below a known root, propagate as Terraform's do: an unknown
 *   object or list gives unknown attributes and elements, so computed members that are
 *   null in config become unknown under `single`, `group` and `list` nesting; an unknown
 *   map or set has no keys or elements to pair with, so its computed members stay null
 *   (what terraform 1.11.4 plans for a deferred data source);
 * - list and map blocks of dynamic-typed content (tuples and objects) pair the same way.
 *
 * @param prior The prior state: null on create; may be unknown, wholly or in part.
 * @param config The configuration value; may contain unknowns, or be null.
 * Both must be of `impliedType(block)`.
 * @throws {@link PathError} from cty when a value does not have the block's implied type.
 */
export function proposedNewState(block: Block, prior: Value, config: Value): Value {
  if (config.isNull()) return prior.isNull() || !prior.isKnown() ? prior : nullVal(prior.type);
  return proposedNew(block, prior, config);
}

/** Core's `ProposedNew`, used for nested blocks. */
function proposedNew(block: Block, prior: Value, config: Value): Value {
  if (config.isNull() && prior.isNull()) return prior;
  return proposedNewBlock(block, prior.isNull() ? emptyBlockValue(block) : prior, config);
}

type Nested = { readonly kind: "block"; readonly block: Block } | { readonly kind: "object"; readonly object: NestedAttributeType };

function proposedNewBlock(block: Block, prior: Value, config: Value): Value {
  // A null block config only reaches here for invalid input; Terraform takes the prior.
  if (config.isNull() || !config.isKnown()) return prior;
  const out = proposedNewAttributes(block.attributes ?? {}, prior, config);
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    out[name] = proposedNewNestedBlock(nb, prior.getAttr(name), config.getAttr(name));
  }
  return objectVal(out);
}

function proposedNewNestedBlock(nb: NestedBlock, prior: Value, config: Value): Value {
  // Entirely unknown: a dynamic block whose for_each is unknown.
  if (!config.isKnown()) return config;
  const schema: Nested = { kind: "block", block: nb.block };
  switch (nb.nesting) {
    case "single":
      return config.isNull() ? config : proposedNew(nb.block, prior, config);
    case "group":
      return proposedNew(nb.block, prior, config);
    case "list":
      return proposedNewList(schema, prior, config);
    case "map":
      return proposedNewMap(schema, prior, config);
    case "set":
      return proposedNewSet(schema, prior, config);
  }
}

function proposedNewNestedType(object: NestedAttributeType, prior: Value, config: Value): Value {
  if (!config.isKnown()) return config;
  const schema: Nested = { kind: "object", object };
  switch (object.nesting) {
    case "single":
      return config.isNull() ? config : proposedNewObject(object, prior, config);
    case "list":
      return proposedNewList(schema, prior, config);
    case "map":
      return proposedNewMap(schema, prior, config);
    case "set":
      return proposedNewSet(schema, prior, config);
  }
}

function proposedNewElement(schema: Nested, prior: Value, config: Value): Value {
  return schema.kind === "block" ? proposedNew(schema.block, prior, config) : proposedNewObject(schema.object, prior, config);
}

function proposedNewObject(object: NestedAttributeType, prior: Value, config: Value): Value {
  if (config.isNull()) return config;
  return objectVal(proposedNewAttributes(object.attributes, prior, config));
}

function proposedNewList(schema: Nested, prior: Value, config: Value): Value {
  const n = config.isNull() ? 0 : config.length();
  if (n === 0) return config;
  const priorLen = prior.isKnown() && !prior.isNull() ? prior.length() : 0;
  const vals = config.elements().map((configEV, i) => {
    if (prior.isKnown() && (prior.isNull() || i >= priorLen)) return configEV;
    return proposedNewElement(schema, unknownPriorElement(prior, i, configEV), configEV);
  });
  return config.type.kind === "tuple" ? tupleVal(vals) : listVal(vals);
}

/** Element `i` of a list or tuple prior; of an unknown tuple prior shorter than config, an unknown of the config element's type. */
function unknownPriorElement(prior: Value, i: number, configEV: Value): Value {
  if (!prior.isKnown() && prior.type.kind === "tuple" && i >= prior.type.elements.length) return unknownVal(configEV.type);
  return prior.index(i);
}

function proposedNewMap(schema: Nested, prior: Value, config: Value): Value {
  if (config.isNull() || !config.isKnown() || config.length() === 0) return config;
  const cfg = asValueMap(config);
  const pri = !prior.isNull() && prior.isKnown() && prior.length() > 0 ? asValueMap(prior) : new Map<string, Value>();
  const out = new Map<string, Value>();
  for (const [k, configEV] of cfg) {
    const priorEV = pri.get(k);
    out.set(k, priorEV === undefined ? configEV : proposedNewElement(schema, priorEV, configEV));
  }
  return config.type.kind === "object" ? objectVal(out) : mapVal(out);
}

function proposedNewSet(schema: Nested, prior: Value, config: Value): Value {
  if (!config.isKnown() || config.isNull() || config.length() === 0) return config;
  const priorVals = prior.isKnown() && !prior.isNull() ? prior.elements() : [];
  const used = priorVals.map(() => false);
  const elemType = config.type.kind === "set" ? config.type.element : config.type;
  const vals = config.elements().map((configEV) => {
    let priorEV: Value | undefined;
    for (let i = 0; i < priorVals.length; i++) {
      if (used[i]) continue;
      if (validPriorFromConfig(schema, priorVals[i]!, configEV)) {
        priorEV = priorVals[i]!;
        used[i] = true;
        break;
      }
    }
    return proposedNewElement(schema, priorEV ?? nullVal(elemType), configEV);
  });
  return setVal(vals);
}

function proposedNewAttributes(attrs: Readonly<Record<string, Attribute>>, prior: Value, config: Value): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const priorV = prior.isNull() ? nullVal(priorAttrType(prior, name) ?? attributeType(attr)) : prior.getAttr(name);
    const configV = config.getAttr(name);
    let v: Value;
    if (attr.computed === true && configV.isNull()) {
      // Optional+computed and unset: keep what the provider computed before — unless the
      // prior holds values that only configuration could have set.
      v = optionalValueNotComputable(attr, priorV) ? configV : priorV;
    } else if (attr.nestedType !== undefined) {
      v = proposedNewNestedType(attr.nestedType, priorV, configV);
    } else {
      v = configV;
    }
    out[name] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Walking and correlation

/** A walk step: a path step, or "some element of a set" (not addressable). */
type WalkStep = PathStep | { readonly kind: "set" };

/**
 * Visits `v` and, while `visit` returns true, its elements and attributes (known and
 * non-null ones only), depth first, as go-cty's `Walk`. `visit` returning `"stop"` ends
 * the whole walk.
 */
function walk(v: Value, visit: (path: readonly WalkStep[], v: Value) => boolean | "stop"): void {
  const go = (path: WalkStep[], x: Value): boolean => {
    const r = visit(path, x);
    if (r === "stop") return false;
    if (!r || x.isNull() || !x.isKnown()) return true;
    const t = x.type;
    switch (t.kind) {
      case "object":
        for (const n of t.attributeNames) if (!go([...path, { kind: "attr", name: n }], x.getAttr(n))) return false;
        return true;
      case "list":
      case "tuple": {
        const es = x.elements();
        for (let i = 0; i < es.length; i++) if (!go([...path, { kind: "index", index: i }], es[i]!)) return false;
        return true;
      }
      case "set":
        for (const e of x.elements()) if (!go([...path, { kind: "set" }], e)) return false;
        return true;
      case "map":
        for (const [k, e] of x.entries()) if (!go([...path, { kind: "key", key: k }], e)) return false;
        return true;
      default:
        return true;
    }
  };
  go([], v);
}

/** Terraform's `Object.AttributeByPath`: only attribute steps count; others are skipped. */
function objectAttributeByPath(object: NestedAttributeType, path: readonly WalkStep[]): Attribute | undefined {
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    if (step.kind !== "attr") continue;
    const attr = Object.hasOwn(object.attributes, step.name) ? object.attributes[step.name] : undefined;
    if (attr === undefined) continue;
    if (i < path.length - 1) return attr.nestedType !== undefined ? objectAttributeByPath(attr.nestedType, path.slice(i + 1)) : undefined;
    return attr;
  }
  return undefined;
}

/** Terraform's `Block.AttributeByPath`: attribute steps descend through nested blocks; others are skipped. */
function blockAttributeByPath(block: Block, path: readonly WalkStep[]): Attribute | undefined {
  let b = block;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    if (step.kind !== "attr") continue;
    const attr = b.attributes !== undefined && Object.hasOwn(b.attributes, step.name) ? b.attributes[step.name] : undefined;
    if (attr !== undefined) {
      if (i < path.length - 1) return attr.nestedType !== undefined ? objectAttributeByPath(attr.nestedType, path.slice(i + 1)) : undefined;
      return attr;
    }
    const nb = b.blockTypes !== undefined && Object.hasOwn(b.blockTypes, step.name) ? b.blockTypes[step.name] : undefined;
    if (nb === undefined) return undefined;
    b = nb.block;
  }
  return undefined;
}

function attributeByPath(schema: Nested, path: readonly WalkStep[]): Attribute | undefined {
  return schema.kind === "block" ? blockAttributeByPath(schema.block, path) : objectAttributeByPath(schema.object, path);
}

/**
 * True when an optional nested attribute's prior value holds a non-null value of a
 * non-computed attribute: then only configuration could have set it, and a null in config
 * means the user removed it.
 */
function optionalValueNotComputable(attr: Attribute, value: Value): boolean {
  if (attr.optional !== true || attr.nestedType === undefined) return false;
  const nested = attr.nestedType;
  let found = false;
  walk(value, (path, v) => {
    if (v.isNull()) return true;
    const a = objectAttributeByPath(nested, path);
    if (a === undefined) return true;
    if (a.computed !== true) {
      found = true;
      return "stop";
    }
    return true;
  });
  return found;
}

/** Applies walk steps to a value; `undefined` when a step does not apply (go-cty's `Path.Apply` error). */
function applySteps(v: Value, path: readonly WalkStep[]): Value | undefined {
  let x = v;
  try {
    for (const s of path) {
      if (x.isNull()) return undefined;
      switch (s.kind) {
        case "attr":
          if (x.type.kind !== "object" && x.type.kind !== "dynamic") return undefined;
          x = x.getAttr(s.name);
          break;
        case "index":
          x = x.index(s.index);
          break;
        case "key":
          x = x.index(s.key);
          break;
        case "set":
          return undefined;
      }
    }
  } catch {
    return undefined;
  }
  return x;
}

function unrefined(v: Value): Value {
  return v.isKnown() ? v : unknownVal(v.type);
}

function sameIgnoringRefinements(a: Value, b: Value): boolean {
  return unrefined(a).rawEquals(unrefined(b));
}

/**
 * True when the prior element could have been produced from the config element: every
 * difference is in a computed attribute that is null in config (Terraform's
 * `validPriorFromConfig`, used to correlate set elements).
 */
function validPriorFromConfig(schema: Nested, prior: Value, config: Value): boolean {
  if (sameIgnoringRefinements(config, prior)) return true;
  let valid = true;
  walk(prior, (path, priorV) => {
    const configV = applySteps(config, path);
    if (configV === undefined) {
      valid = false;
      return "stop";
    }
    if (sameIgnoringRefinements(configV, priorV)) return false;
    // Nested sets cannot be correlated: they must be equal as a whole.
    if (configV.type.kind === "set") {
      valid = false;
      return "stop";
    }
    const attr = attributeByPath(schema, path);
    if (attr === undefined) return true; // a nested block: look inside
    if (attr.nestedType !== undefined) return true;
    if (attr.computed !== true || !configV.isNull()) {
      valid = false;
      return "stop";
    }
    return false;
  });
  return valid;
}

function priorAttrType(prior: Value, name: string): Type | undefined {
  return prior.type.kind === "object" ? prior.type.attributes[name] : undefined;
}

function asValueMap(v: Value): ReadonlyMap<string, Value> {
  if (v.type.kind === "map") return v.entries();
  return new Map(Object.entries(v.attributes()));
}
