/**
 * Test support: turning a planned value (with unknowns) into a realistic stored state, as
 * if apply had filled in what the provider computed. Nothing here is part of the package API.
 */
import {
  Path,
  boolVal,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberVal,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  type Type,
  type Value,
} from "@magma/cty";

/**
 * A known stand-in for an unknown of type `t` at `path`: a string naming the path
 * (`known:arn`), 0, false, an empty collection, an object of stand-ins, or a null dynamic.
 */
export function standIn(t: Type, path: Path): Value {
  switch (t.kind) {
    case "string":
      return stringVal(`known:${path.toString()}`);
    case "number":
      return numberVal(0);
    case "bool":
      return boolVal(false);
    case "dynamic":
      return nullVal(t);
    case "list":
      return listValEmpty(t.element);
    case "set":
      return setValEmpty(t.element);
    case "map":
      return mapValEmpty(t.element);
    case "object": {
      const attrs: Record<string, Value> = {};
      for (const name of t.attributeNames)
        attrs[name] = standIn(t.attributes[name]!, path.attr(name));
      return objectVal(attrs);
    }
    case "tuple":
      return tupleVal(t.elements.map((e, i) => standIn(e, path.index(i))));
  }
}

/** `v` with every unknown (at any depth) replaced by its {@link standIn}; known parts are kept. */
export function replaceUnknowns(v: Value, path: Path = Path.root): Value {
  if (!v.isKnown()) return standIn(v.type, path);
  if (v.isNull() || v.isWhollyKnown()) return v;
  const t = v.type;
  switch (t.kind) {
    case "object": {
      const attrs: Record<string, Value> = {};
      for (const [name, x] of Object.entries(v.attributes()))
        attrs[name] = replaceUnknowns(x, path.attr(name));
      return objectVal(attrs);
    }
    case "list":
      return listVal(v.elements().map((x, i) => replaceUnknowns(x, path.index(i))));
    case "set":
      return setVal(v.elements().map((x, i) => replaceUnknowns(x, path.index(i))));
    case "tuple":
      return tupleVal(v.elements().map((x, i) => replaceUnknowns(x, path.index(i))));
    case "map": {
      const entries: Record<string, Value> = {};
      for (const [k, x] of v.entries()) entries[k] = replaceUnknowns(x, path.key(k));
      return mapVal(entries);
    }
    default:
      return v;
  }
}
