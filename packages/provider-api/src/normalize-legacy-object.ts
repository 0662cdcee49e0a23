import {
  hasDynamicTypes,
  listVal,
  listValEmpty,
  markWithPaths,
  mapValEmpty,
  nullVal,
  objectVal,
  setVal,
  setValEmpty,
  unknownVal,
  type Value,
} from "@magma/cty";
import { attributeType, emptyBlockValue, impliedType, type Block } from "./schema.js";

/**
 * Terraform's normalisation of an object read back from a provider
 * (`objchange.NormalizeObjectFromLegacySDK`, which Terraform applies to every refresh and
 * import read, whatever the provider): a nested block is never null or unknown.
 *
 * - A null or empty list/set block becomes the empty collection; an unknown one becomes a
 *   one-element collection of an object whose leaf attributes are unknown.
 * - A null group block becomes its empty value; an unknown single or group block becomes
 *   that object of unknown leaves.
 * - Map blocks, attributes, and blocks whose type contains the dynamic type are kept as
 *   they are.
 * - A null object stays null (as the null of the block's type). Marks are kept at their
 *   paths.
 */
export function normalizeLegacyObject(block: Block, value: Value): Value {
  const { value: plain, paths } = value.unmarkDeep();
  const out = normalise(block, plain);
  return paths.length === 0 ? out : markWithPaths(out, paths);
}

function normalise(block: Block, v: Value): Value {
  if (v.isNull() || !v.isKnown()) return v.isNull() ? nullVal(impliedType(block)) : v;
  const vals: Record<string, Value> = {};
  for (const name of Object.keys(block.attributes ?? {})) vals[name] = v.getAttr(name);
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const lv = v.getAttr(name);
    if (hasDynamicTypes(impliedType(nb.block))) {
      vals[name] = lv;
      continue;
    }
    switch (nb.nesting) {
      case "single":
      case "group":
        if (!lv.isKnown()) vals[name] = unknownStub(nb.block);
        else if (lv.isNull() && nb.nesting === "group") vals[name] = emptyBlockValue(nb.block);
        else vals[name] = normalise(nb.block, lv);
        break;
      case "list":
      case "set": {
        const t = impliedType(nb.block);
        const make = nb.nesting === "list" ? listVal : setVal;
        if (!lv.isKnown()) vals[name] = make([unknownStub(nb.block)]);
        else if (lv.isNull() || lv.length() === 0) vals[name] = nb.nesting === "list" ? listValEmpty(t) : setValEmpty(t);
        else vals[name] = make(lv.elements().map((e) => normalise(nb.block, e)));
        break;
      }
      case "map":
        vals[name] = lv;
        break;
    }
  }
  return objectVal(vals);
}

/** A known block object whose leaves are unknown: how Terraform stands in for an unknown block. */
function unknownStub(block: Block): Value {
  const vals: Record<string, Value> = {};
  for (const [name, a] of Object.entries(block.attributes ?? {})) vals[name] = unknownVal(attributeType(a));
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    switch (nb.nesting) {
      case "single":
      case "group":
        vals[name] = unknownStub(nb.block);
        break;
      case "list":
        vals[name] = listVal([unknownStub(nb.block)]);
        break;
      case "set":
        vals[name] = setVal([unknownStub(nb.block)]);
        break;
      case "map":
        vals[name] = mapValEmpty(impliedType(nb.block));
        break;
    }
  }
  return objectVal(vals);
}
