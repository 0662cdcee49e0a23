// Unification: the most general type all the given types convert to (go-cty's `unify`).
import {
  dynamicType,
  isPrimitiveType,
  listType,
  mapType,
  objectType,
  setType,
  tupleType,
  typeEquals,
  type ObjectType,
  type TupleType,
  type Type,
} from "../type.js";
import { getConversion } from "./convert.js";

/**
 * The most general type that every one of `types` converts to without loss (go-cty's
 * `convert.Unify`), or `undefined` when there is none. Convert each value to the result
 * with {@link convert}. An empty list has no unified type.
 */
export function unify(types: readonly Type[]): Type | undefined {
  return unifyWith(types, false);
}

/**
 * Like {@link unify} but also allowing conversions that can fail for some values,
 * such as string to number (go-cty's `convert.UnifyUnsafe`, which HCL uses for the two
 * results of a conditional).
 */
export function unifyUnsafe(types: readonly Type[]): Type | undefined {
  return unifyWith(types, true);
}

/** {@link unify} or {@link unifyUnsafe}. @internal */
export function unifyWith(types: readonly Type[], unsafe: boolean): Type | undefined {
  if (types.length === 0) return undefined;
  let maps = 0;
  let lists = 0;
  let sets = 0;
  let objects = 0;
  let tuples = 0;
  let dynamics = 0;
  for (const t of types) {
    if (t.kind === "map") maps++;
    else if (t.kind === "list") lists++;
    else if (t.kind === "set") sets++;
    else if (t.kind === "object") objects++;
    else if (t.kind === "tuple") tuples++;
    else if (t.kind === "dynamic") dynamics++;
  }
  const n = types.length;
  if (maps > 0 && maps + dynamics === n)
    return unifyCollections("map", types, unsafe, dynamics > 0);
  if (maps > 0 && maps + objects + dynamics === n) {
    const asMap = unifyObjectsToMap(
      types.filter((t) => t.kind === "object"),
      unsafe,
    );
    if (asMap !== undefined) {
      const u = unifyWith(
        types.map((t) => (t.kind === "object" ? asMap : t)),
        unsafe,
      );
      if (u !== undefined && u.kind === "map") return u;
    }
  } else if (lists > 0 && lists + dynamics === n) {
    return unifyCollections("list", types, unsafe, dynamics > 0);
  } else if (lists > 0 && lists + tuples + dynamics === n) {
    const asList = unifyTuplesToList(
      types.filter((t) => t.kind === "tuple"),
      unsafe,
    );
    if (asList !== undefined) {
      const u = unifyWith(
        types.map((t) => (t.kind === "tuple" ? asList : t)),
        unsafe,
      );
      if (u !== undefined && u.kind === "list") return u;
    }
  } else if (sets > 0 && sets + dynamics === n) {
    return unifyCollections("set", types, unsafe, dynamics > 0);
  } else if (objects > 0 && objects + dynamics === n) {
    return dynamics > 0 ? dynamicType : unifyObjects(types as ObjectType[], unsafe);
  } else if (tuples > 0 && tuples + dynamics === n) {
    return dynamics > 0 ? dynamicType : unifyTuples(types as TupleType[], unsafe);
  } else if (objects > 0 && tuples > 0) {
    return undefined;
  }
  // Otherwise: the first type, in order of preference, that all the others convert to.
  preference: for (const want of sortByGenerality(types)) {
    for (const t of types) {
      if (t === want || typeEquals(t, want)) continue;
      if (getConversion(t, want, unsafe) === undefined) continue preference;
    }
    return want;
  }
  return undefined;
}

function unifyCollections(
  kind: "list" | "set" | "map",
  types: readonly Type[],
  unsafe: boolean,
  hasDynamic: boolean,
): Type | undefined {
  if (hasDynamic) return dynamicType;
  const et = unifyWith(
    types.map((t) => (t as { element: Type }).element),
    unsafe,
  );
  if (et === undefined) return undefined;
  const ret = kind === "list" ? listType(et) : kind === "set" ? setType(et) : mapType(et);
  return allConvert(types, ret, unsafe) ? ret : undefined;
}

function unifyObjects(types: readonly ObjectType[], unsafe: boolean): Type | undefined {
  const first = types[0]!;
  for (const t of types) {
    if (
      t.attributeNames.length !== first.attributeNames.length ||
      t.attributeNames.some((n) => !(n in first.attributes))
    ) {
      return unifyObjectsToMap(types, unsafe);
    }
  }
  const attrs = new Map<string, Type>();
  for (const n of first.attributeNames) {
    const u = unifyWith(
      types.map((t) => t.attributes[n]!),
      unsafe,
    );
    if (u === undefined) return undefined;
    attrs.set(n, u);
  }
  const ret = objectType(attrs);
  return allConvert(types, ret, unsafe) ? ret : unifyObjectsToMap(types, unsafe);
}

function unifyObjectsToMap(types: readonly Type[], unsafe: boolean): Type | undefined {
  const all: Type[] = [];
  for (const t of types)
    if (t.kind === "object") for (const n of t.attributeNames) all.push(t.attributes[n]!);
  const et = unifyWith(all, unsafe);
  if (et === undefined) return undefined;
  const ret = mapType(et);
  return allConvert(types, ret, unsafe) ? ret : undefined;
}

function unifyTuples(types: readonly TupleType[], unsafe: boolean): Type | undefined {
  const first = types[0]!;
  if (types.some((t) => t.elements.length !== first.elements.length))
    return unifyTuplesToList(types, unsafe);
  const elems: Type[] = [];
  for (let i = 0; i < first.elements.length; i++) {
    const u = unifyWith(
      types.map((t) => t.elements[i]!),
      unsafe,
    );
    if (u === undefined) return undefined;
    elems.push(u);
  }
  const ret = tupleType(elems);
  return allConvert(types, ret, unsafe) ? ret : unifyTuplesToList(types, unsafe);
}

function unifyTuplesToList(types: readonly Type[], unsafe: boolean): Type | undefined {
  const all: Type[] = [];
  for (const t of types) if (t.kind === "tuple") all.push(...t.elements);
  const et = unifyWith(all, unsafe);
  if (et === undefined) return undefined;
  const ret = listType(et);
  return allConvert(types, ret, unsafe) ? ret : undefined;
}

function allConvert(types: readonly Type[], to: Type, unsafe: boolean): boolean {
  return types.every((t) => typeEquals(t, to) || getConversion(t, to, unsafe) !== undefined);
}

/** go-cty's `compareTypes`: negative when `a` is more general than `b`. */
function compareTypes(a: Type, b: Type): number {
  if (a.kind === "dynamic" || b.kind === "dynamic") {
    if (a.kind !== "dynamic") return -1;
    if (b.kind !== "dynamic") return 1;
    return 0;
  }
  if (isPrimitiveType(a) && isPrimitiveType(b)) {
    if (a.kind === "string" || b.kind === "string") {
      if (a.kind !== "string") return 1;
      if (b.kind !== "string") return -1;
    }
    return 0;
  }
  if (
    (a.kind === "list" && b.kind === "list") ||
    (a.kind === "set" && b.kind === "set") ||
    (a.kind === "map" && b.kind === "map")
  ) {
    return compareTypes(a.element, (b as { element: Type }).element);
  }
  let x = a;
  let y = b;
  let swap = 1;
  if (
    (x.kind === "tuple" && y.kind === "list") ||
    (x.kind === "object" && y.kind === "map") ||
    (x.kind === "set" && y.kind === "tuple") ||
    (x.kind === "set" && y.kind === "list")
  ) {
    [x, y] = [y, x];
    swap = -1;
  }
  if (y.kind === "set" && (x.kind === "tuple" || x.kind === "list")) return -1 * swap;
  if (x.kind === "list" && y.kind === "tuple") return -1 * swap;
  if (x.kind === "map" && y.kind === "object") return -1 * swap;
  if ((x.kind === "object" && y.kind === "object") || (x.kind === "tuple" && y.kind === "tuple")) {
    const pairs: [Type, Type][] = [];
    if (x.kind === "object" && y.kind === "object") {
      if (x.attributeNames.length !== y.attributeNames.length) return 0;
      for (const n of x.attributeNames) {
        const bt = y.attributes[n];
        if (bt === undefined) return 0;
        pairs.push([x.attributes[n]!, bt]);
      }
    } else if (x.kind === "tuple" && y.kind === "tuple") {
      if (x.elements.length !== y.elements.length) return 0;
      x.elements.forEach((e, i) => pairs.push([e, y.elements[i]!]));
    }
    let aSuper = false;
    let bSuper = false;
    for (const [p, q] of pairs) {
      const c = compareTypes(p, q);
      if (c < 0) aSuper = true;
      else if (c > 0) bSuper = true;
    }
    if (aSuper && bSuper) return 0;
    if (aSuper) return -1 * swap;
    if (bSuper) return swap;
    return 0;
  }
  return 0;
}

/** go-cty's `sortTypes`: a topological order, most general first. */
function sortByGenerality(types: readonly Type[]): Type[] {
  const n = types.length;
  const edges: number[][] = types.map(() => []);
  for (let i = 0; i < n - 1; i++) {
    for (let j = i + 1; j < n; j++) {
      const c = compareTypes(types[i]!, types[j]!);
      if (c < 0) edges[i]!.push(j);
      else if (c > 0) edges[j]!.push(i);
    }
  }
  const inDegree = new Array<number>(n).fill(0);
  for (const outs of edges) for (const j of outs) inDegree[j]!++;
  const queue: number[] = [];
  inDegree.forEach((d, i) => {
    if (d === 0) queue.push(i);
  });
  const order: number[] = [];
  while (queue.length > 0) {
    const i = queue.shift()!;
    order.push(i);
    for (const j of edges[i]!) {
      inDegree[j]!--;
      if (inDegree[j] === 0) queue.push(j);
    }
  }
  return order.map((i) => types[i]!);
}
