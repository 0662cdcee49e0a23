import { listVal, listValEmpty, mapVal, nullVal, objectVal, setVal, setValEmpty, tupleVal, type Value } from "@magma/cty";

/**
 * The value with every unknown (at any depth) replaced by a null of its type: what
 * Terraform saves when a provider leaves unknowns after apply (each one is also an error).
 * A wholly known value is returned as is.
 */
export function unknownsToNull(v: Value): Value {
  if (v.isWhollyKnown()) return v;
  if (!v.isKnown()) return nullVal(v.type);
  switch (v.type.kind) {
    case "object": {
      const out: Record<string, Value> = Object.create(null) as Record<string, Value>;
      for (const [k, a] of Object.entries(v.attributes())) out[k] = unknownsToNull(a);
      return objectVal(out);
    }
    case "list":
      return v.length() === 0 ? listValEmpty(v.type.element) : listVal(v.elements().map(unknownsToNull));
    case "set":
      return v.length() === 0 ? setValEmpty(v.type.element) : setVal(v.elements().map(unknownsToNull));
    case "map": {
      const out = new Map<string, Value>();
      for (const [k, e] of v.entries()) out.set(k, unknownsToNull(e));
      return mapVal(out);
    }
    case "tuple":
      return tupleVal(v.elements().map(unknownsToNull));
    default:
      return v;
  }
}
