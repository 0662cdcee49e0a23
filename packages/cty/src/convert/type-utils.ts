import { listType, mapType, objectType, setType, tupleType, type Type } from "../type.js";

/**
 * The type with every optional-attribute marker removed, at every depth (go-cty's
 * `WithoutOptionalAttributesDeep`).
 * @internal
 */
export function withoutOptional(t: Type): Type {
  switch (t.kind) {
    case "list":
      return listType(withoutOptional(t.element));
    case "set":
      return setType(withoutOptional(t.element));
    case "map":
      return mapType(withoutOptional(t.element));
    case "tuple":
      return tupleType(t.elements.map(withoutOptional));
    case "object": {
      const attrs = new Map<string, Type>();
      for (const n of t.attributeNames) attrs.set(n, withoutOptional(t.attributes[n]!));
      return objectType(attrs);
    }
    default:
      return t;
  }
}

/**
 * go-cty's `Type.TestConformance` without the messages: whether a value of type `got` can be
 * used where `want` is expected without conversion (dynamic in `want` accepts any type).
 */
export function conforms(got: Type, want: Type): boolean {
  if (want.kind === "dynamic") return true;
  if (got.kind !== want.kind) return false;
  switch (want.kind) {
    case "string":
    case "number":
    case "bool":
      return true;
    case "list":
    case "set":
    case "map":
      return conforms((got as typeof want).element, want.element);
    case "tuple": {
      const g = got as typeof want;
      return (
        g.elements.length === want.elements.length &&
        want.elements.every((e, i) => conforms(g.elements[i]!, e))
      );
    }
    case "object": {
      const g = got as typeof want;
      if (g.attributeNames.length !== want.attributeNames.length) return false;
      return want.attributeNames.every((n) => {
        const a = g.attributes[n];
        return a !== undefined && conforms(a, want.attributes[n]!);
      });
    }
  }
}

/**
 * go-cty's `FriendlyNameForConstraint`: like `typeName` but "any type" for dynamic and
 * "list of any single type" for a collection of dynamic.
 * @internal
 */
export function constraintName(t: Type): string {
  switch (t.kind) {
    case "dynamic":
      return "any type";
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${t.element.kind === "dynamic" ? "any single type" : constraintName(t.element)}`;
    default:
      return t.kind;
  }
}
