import {
  fromJson,
  isPathError,
  listVal,
  mapVal,
  nullVal,
  objectVal,
  setVal,
  toJson,
  tupleVal,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import type { Diag } from "@magma/provider-api";
import { CliError, CliErrorCode } from "./cli-error.js";
import { RawJson, type JsonNode } from "./json-text.js";

/**
 * A value's JSON as Terraform writes state `attributes` (go-cty's JSON, exact numbers),
 * with unknown values written as `null`; pair it with {@link unknownMask} to keep them.
 */
export function valueToJson(value: Value, type: Type = value.type): RawJson {
  return new RawJson(toJson(nullifyUnknowns(value), type));
}

/**
 * Where a value is unknown, in the shape of `after_unknown` in `terraform show -json`:
 * `true` for an unknown value; for a known object or map, an object holding only the
 * members that are or contain unknowns; for a list, set or tuple, an array with an entry
 * per element (`false` where wholly known); `false` for anything else known.
 */
export function unknownMask(value: Value): unknown {
  if (!value.isKnown()) return true;
  if (value.isNull()) return false;
  switch (value.type.kind) {
    case "object":
    case "map": {
      const entries = value.type.kind === "object" ? Object.entries(value.attributes()) : [...value.entries()];
      // No prototype: a map key `__proto__` must stay an own member of the mask.
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of entries) {
        const m = unknownMask(v);
        if (m !== false) out[k] = m;
      }
      return out;
    }
    case "list":
    case "set":
    case "tuple":
      return value.elements().map(unknownMask);
    default:
      return false;
  }
}

/** The value with every unknown (at any depth) replaced by a null of the same type. */
export function nullifyUnknowns(value: Value): Value {
  if (!value.isKnown()) return nullVal(value.type);
  if (value.isNull() || value.isWhollyKnown()) return value;
  switch (value.type.kind) {
    case "object":
      return objectVal(Object.fromEntries(Object.entries(value.attributes()).map(([k, v]) => [k, nullifyUnknowns(v)])));
    case "map":
      return mapVal(new Map([...value.entries()].map(([k, v]) => [k, nullifyUnknowns(v)])));
    case "list":
      return listVal(value.elements().map(nullifyUnknowns));
    case "set":
      return setVal(value.elements().map(nullifyUnknowns));
    case "tuple":
      return tupleVal(value.elements().map(nullifyUnknowns));
    default:
      return value;
  }
}

/**
 * Decodes JSON text of the given type exactly (cty's decoder), then makes unknown every
 * place that `mask` (an `after_unknown`-style object, see {@link unknownMask}) marks `true`.
 *
 * @param what Names the input in errors (`--state`).
 * @throws {@link CliError} `bad_input` with cty's path and reason when the JSON does not fit the type.
 */
export function valueFromJson(what: string, text: string, type: Type, mask?: JsonNode): Value {
  let v: Value;
  try {
    v = fromJson(text, type);
  } catch (e) {
    if (isPathError(e)) {
      throw new CliError(CliErrorCode.BadInput, `${what}: ${e.message}`, {
        hint: "the value must fit the type's schema (see `magma schema <provider> <type>`)",
        cause: e,
      });
    }
    throw e;
  }
  return mask === undefined ? v : applyMask(v, type, mask);
}

function applyMask(v: Value, t: Type, m: JsonNode): Value {
  if (m.kind === "bool") return m.value ? unknownVal(t) : v;
  if (v.isNull() || !v.isKnown()) return v;
  if (m.kind === "object" && (t.kind === "object" || t.kind === "map")) {
    if (t.kind === "object") {
      const attrs: Record<string, Value> = { ...v.attributes() };
      for (const [k, sub] of m.members) {
        const at = t.attributes[k];
        if (at !== undefined && attrs[k] !== undefined) attrs[k] = applyMask(attrs[k], at, sub);
      }
      return objectVal(attrs);
    }
    const entries = new Map(v.entries());
    for (const [k, sub] of m.members) {
      const cur = entries.get(k);
      if (cur !== undefined) entries.set(k, applyMask(cur, t.element, sub));
    }
    return mapVal(entries);
  }
  if (m.kind === "array" && (t.kind === "list" || t.kind === "set" || t.kind === "tuple")) {
    const els = v.elements().map((e, i) => {
      const sub = m.items[i];
      const et = t.kind === "tuple" ? t.elements[i] : t.element;
      return sub === undefined || et === undefined ? e : applyMask(e, et, sub);
    });
    if (els.length === 0) return v;
    return t.kind === "list" ? listVal(els) : t.kind === "set" ? setVal(els) : tupleVal(els);
  }
  return v;
}

/** A diagnostic as JSON: `{severity, summary, detail?, attribute?}` with the attribute path as text (`tags["a"]`). */
export function diagToJson(d: Diag): Record<string, string> {
  const o: Record<string, string> = { severity: d.severity, summary: d.summary };
  if (d.detail !== undefined && d.detail !== "") o["detail"] = d.detail;
  if (d.attribute !== undefined && !d.attribute.isRoot()) o["attribute"] = d.attribute.toString();
  return o;
}
