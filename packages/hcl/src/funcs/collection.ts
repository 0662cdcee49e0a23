/**
 * Collection functions: go-cty's `stdlib/collection.go`, `stdlib/set.go`, `stdlib/sequence.go`
 * and Terraform's `funcs/collection.go`.
 *
 * @internal
 * @packageDocumentation
 */

import {
  CtyNumber,
  boolType,
  boolVal,
  convert,
  dynamicType,
  dynamicVal,
  emptyObjectType,
  emptyObjectVal,
  emptyTupleType,
  emptyTupleVal,
  listType,
  listVal,
  listValEmpty,
  mapType,
  mapVal,
  mapValEmpty,
  nullVal,
  numberType,
  numberVal,
  objectType,
  objectVal,
  setType,
  setVal,
  setValEmpty,
  stringType,
  stringVal,
  tupleType,
  tupleVal,
  typeEquals,
  typeName,
  unifyUnsafe,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { graphemeCount } from "./grapheme-clusters.js";
import { fixedFunction, notNull, param, toGoInt } from "./helpers.js";
import { compareUtf8 } from "./utf8-order.js";

const dyn = dynamicType;

/** The elements of a known list, set or tuple, or the values of a map or object (key order). */
export function valuesOf(v: Value): Value[] {
  switch (v.type.kind) {
    case "list":
    case "set":
    case "tuple":
      return [...v.elements()];
    case "map":
      return [...v.entries().values()];
    case "object": {
      const attrs = v.attributes();
      return sortedKeys(Object.keys(attrs)).map((k) => attrs[k]!);
    }
    default:
      throw new FunctionError(`cannot iterate ${typeName(v.type)}`);
  }
}

/** Keys in go-cty's order (UTF-8 byte order). */
export function sortedKeys(keys: readonly string[]): string[] {
  return [...keys].sort(compareUtf8);
}

/** The key/value pairs of a known map or object, in key order. */
export function entriesOf(v: Value): [string, Value][] {
  if (v.type.kind === "map") return [...v.entries()];
  const attrs = v.attributes();
  return sortedKeys(Object.keys(attrs)).map((k) => [k, attrs[k]!]);
}

function isSeq(t: Type): boolean {
  return t.kind === "list" || t.kind === "set" || t.kind === "tuple";
}

function elementType(t: Type): Type {
  return (t as { element: Type }).element;
}

function goInt(v: Value, i: number, what: string): number {
  try {
    return toGoInt(v.asNumber());
  } catch (e) {
    throw new FunctionArgError(i, `invalid ${what}: ${(e as Error).message}`);
  }
}

function typedList(elems: readonly Value[], ety: Type): Value {
  return elems.length === 0 ? listValEmpty(ety) : listVal(elems);
}

function typedSet(elems: readonly Value[], ety: Type): Value {
  return elems.length === 0 ? setValEmpty(ety) : setVal(elems);
}

/** Flattens nested lists, sets and tuples; undefined when something unknown is in the way. */
function flattener(v: Value): Value[] | undefined {
  const out: Value[] = [];
  for (const e of v.elements()) {
    if (isSeq(e.type) && !e.isNull()) {
      if (!e.isKnown()) return undefined;
      const inner = flattener(e);
      if (inner === undefined) return undefined;
      out.push(...inner);
    } else {
      out.push(e);
    }
  }
  return out;
}

/** {@link flattener} over marked sequences: their marks are collected into `marks`. */
function flattenMarked(v: Value, marks: Set<string>): Value[] | undefined {
  for (const m of v.marks) marks.add(m);
  const out: Value[] = [];
  let known = true;
  for (const e of v.unmark().elements()) {
    if (e.type.kind === "dynamic" && !e.isKnown()) known = false;
    if (isSeq(e.type) && !e.isNull()) {
      if (!e.isKnown()) {
        known = false;
        for (const m of e.marks) marks.add(m);
        continue;
      }
      const inner = flattenMarked(e, marks);
      if (inner === undefined) known = false;
      else out.push(...inner);
    } else {
      out.push(e);
    }
  }
  return known ? out : undefined;
}

function setOperationType(args: readonly Value[]): Type {
  const etys: Type[] = [];
  for (const a of args) {
    const ety = elementType(a.type);
    if (a.isKnown() && a.length() === 0 && ety.kind === "dynamic") continue;
    etys.push(ety);
  }
  if (etys.length === 0) return setType(dyn);
  const u = unifyUnsafe(etys);
  if (u === undefined) throw new FunctionError("given sets must all have compatible element types");
  return setType(u);
}

function setOperation(f: (sets: Value[][]) => Value[]): (args: readonly Value[], t: Type) => Value {
  return (args, t) => {
    const sets = args.map((a) => [...convert(a, t).elements()]);
    return typedSet(f(sets), elementType(t));
  };
}

function has(list: readonly Value[], v: Value): boolean {
  return list.some((x) => x.rawEquals(v));
}

/** The collection functions, by name. */
export function collectionFunctions(): Record<string, HclFunction> {
  return {
    alltrue: fixedFunction({
      description: "Returns true if all elements in a given collection are true or \"true\".",
      params: [param("list", listType(boolType))],
      returns: boolType,
      refineResult: notNull,
      impl: (a) => {
        let unknown = false;
        for (const e of a[0]!.elements()) {
          if (!e.isKnown()) {
            unknown = true;
            continue;
          }
          if (e.isNull() || !e.asBool()) return boolVal(false);
        }
        return unknown ? unknownVal(boolType, { notNull: true }) : boolVal(true);
      },
    }),
    anytrue: fixedFunction({
      description: "Returns true if any element in a given collection is true or \"true\".",
      params: [param("list", listType(boolType))],
      returns: boolType,
      refineResult: notNull,
      impl: (a) => {
        let unknown = false;
        for (const e of a[0]!.elements()) {
          if (!e.isKnown()) {
            unknown = true;
            continue;
          }
          if (!e.isNull() && e.asBool()) return boolVal(true);
        }
        return unknown ? unknownVal(boolType, { notNull: true }) : boolVal(false);
      },
    }),
    chunklist: {
      description: "Splits a single list into fixed-size chunks, returning a list of lists.",
      // go-cty takes both marked and puts only their own marks on the result: marks inside
      // the list stay on their elements.
      params: [param("list", listType(dyn), { allowMarked: true }), param("size", numberType, { allowMarked: true })],
      type: (a) => listType(a[0]!.type),
      impl: (a) => {
        const marks = [...a[0]!.marks, ...a[1]!.marks];
        const list = a[0]!.unmark();
        const size = goInt(a[1]!.unmark(), 1, "size");
        if (size < 0) throw new FunctionError("the size argument must be positive");
        const els = list.elements();
        if (els.length === 0) return listValEmpty(list.type).mark(...marks);
        if (size === 0) return listVal([list]).mark(...marks);
        const out: Value[] = [];
        for (let i = 0; i < els.length; i += size) out.push(listVal(els.slice(i, i + size)));
        return listVal(out).mark(...marks);
      },
    },
    coalesce: {
      description: "Takes any number of arguments and returns the first one that isn't null or an empty string.",
      params: [],
      varParam: param("vals", dyn, { allowNull: true, allowUnknown: true, allowDynamicType: true }),
      type: (a) => {
        const u = unifyUnsafe(a.map((v) => v.type));
        if (u === undefined) throw new FunctionError("all arguments must have the same type");
        return u;
      },
      impl: (a, t) => {
        for (const raw of a) {
          const v = convert(raw, t);
          if (!v.isKnown()) return unknownVal(t);
          if (v.isNull()) continue;
          if (t.kind === "string" && v.asString() === "") continue;
          return v;
        }
        throw new FunctionError("no non-null, non-empty-string arguments");
      },
    },
    coalescelist: {
      description: "Takes any number of list arguments and returns the first one that isn't empty.",
      params: [],
      varParam: param("vals", dyn, { allowUnknown: true, allowDynamicType: true, allowNull: true }),
      type: (a) => {
        if (a.length === 0) throw new FunctionError("at least one argument is required");
        for (const v of a) {
          if (v.type.kind !== "list" && v.type.kind !== "tuple" && v.type.kind !== "dynamic") {
            throw new FunctionError("coalescelist arguments must be lists or tuples");
          }
        }
        // Mixed types or an unknown argument: the result type is known only at the end.
        if (a.some((v) => !v.isKnown())) return dyn;
        const first = a[0]!.type;
        return a.every((v) => typeEquals(v.type, first)) ? first : dyn;
      },
      impl: (a, t) => {
        for (const v of a) {
          if (!v.isKnown()) return unknownVal(t);
          if (v.isNull()) continue;
          if (v.length() > 0) return v;
        }
        throw new FunctionError("no non-null arguments");
      },
    },
    compact: fixedFunction({
      description: "Removes all empty string elements from the given list of strings.",
      // go-cty's SortFunc takes unknowns: the order is unknown, the length is not.
      params: [param("list", listType(stringType), { allowUnknown: true })],
      returns: listType(stringType),
      refineResult: notNull,
      impl: (a) => {
        const l = a[0]!;
        if (!l.isWhollyKnown()) {
          if (l.isKnown()) return unknownVal(listType(stringType), { notNull: true, lengthLowerBound: l.length(), lengthUpperBound: l.length() });
          const r = l.refinements;
          return unknownVal(listType(stringType), {
            notNull: true,
            ...(r.lengthLowerBound !== undefined ? { lengthLowerBound: r.lengthLowerBound } : {}),
            ...(r.lengthUpperBound !== undefined ? { lengthUpperBound: r.lengthUpperBound } : {}),
          });
        }
        const out = l.elements().filter((e) => !e.isNull() && e.asString() !== "");
        return typedList(out, stringType);
      },
    }),
    concat: {
      description: "Concatenates together all of the given lists or tuples into a single sequence.",
      params: [],
      varParam: param("seqs", dyn, { allowMarked: true }),
      type: (a) => {
        if (a.length === 0) throw new FunctionError("at least one argument is required");
        if (a[0]!.type.kind === "list") {
          const etys: Type[] = [];
          let allLists = true;
          for (const v of a) {
            if (v.type.kind !== "list") {
              allLists = false;
              break;
            }
            etys.push(v.type.element);
          }
          if (allLists) {
            const u = unifyUnsafe(etys);
            if (u === undefined) throw new FunctionError("all arguments must be lists or tuples; got " + typeName(a[0]!.type));
            return listType(u);
          }
        }
        const etys: Type[] = [];
        for (let i = 0; i < a.length; i++) {
          const v = a[i]!;
          const t = v.type;
          if (t.kind === "tuple") etys.push(...t.elements);
          else if (t.kind === "list") {
            if (!v.isKnown()) return dyn;
            const n = v.unmark().length();
            for (let j = 0; j < n; j++) etys.push(t.element);
          } else {
            throw new FunctionArgError(i, `all arguments must be lists or tuples; got ${typeName(t)}`);
          }
        }
        return tupleType(etys);
      },
      impl: (a, t) => {
        const marks = new Set<string>();
        const out: Value[] = [];
        for (const raw of a) {
          for (const m of raw.marks) marks.add(m);
          const v = raw.unmark();
          if (t.kind === "list") {
            if (!v.isKnown()) return unknownVal(t).mark(...marks);
            out.push(...convert(v, t).elements());
          } else out.push(...v.elements());
        }
        const r = t.kind === "list" ? typedList(out, t.element) : tupleVal(out);
        return r.mark(...marks);
      },
    },
    contains: fixedFunction({
      description: "Determines whether the given value is in the given list, tuple or set.",
      params: [param("list", dyn), param("value", dyn)],
      returns: boolType,
      impl: (a) => {
        const l = a[0]!;
        if (!isSeq(l.type)) throw new FunctionError("argument must be list, tuple, or set");
        const els = l.elements();
        if (els.length === 0) return boolVal(false);
        let unknown = false;
        for (const e of els) {
          const eq = a[1]!.equals(e);
          if (!eq.isKnown()) {
            unknown = true;
            continue;
          }
          if (eq.asBool()) return boolVal(true);
        }
        return unknown ? unknownVal(boolType) : boolVal(false);
      },
    }),
    distinct: {
      description: "Removes any duplicate elements from the given list.",
      params: [param("list", listType(dyn))],
      type: (a) => a[0]!.type,
      impl: (a, t) => {
        const l = a[0]!;
        if (!l.isWhollyKnown()) return unknownVal(t);
        const out: Value[] = [];
        for (const e of l.elements()) if (!has(out, e)) out.push(e);
        return typedList(out, elementType(t));
      },
    },
    element: {
      description: "Retrieves a single element from a list.",
      params: [param("list", dyn, { allowMarked: true }), param("index", numberType)],
      type: (a) => {
        const idx = a[1]!;
        if (idx.isKnown() && idx.asNumber().sign() < 0) throw new FunctionError("cannot use element function with a negative index");
        const t = a[0]!.type;
        if (t.kind === "list") return t.element;
        if (t.kind === "tuple") {
          if (!idx.isKnown()) return dyn;
          let i: number;
          try {
            i = toGoInt(idx.asNumber());
          } catch (e) {
            throw new FunctionError(`invalid index: ${(e as Error).message}`);
          }
          if (t.elements.length === 0) throw new FunctionError("cannot use element function with an empty list");
          return t.elements[i % t.elements.length]!;
        }
        throw new FunctionError(`cannot read elements from ${typeName(t)}`);
      },
      impl: (a) => {
        let i: number;
        try {
          i = toGoInt(a[1]!.asNumber());
        } catch (e) {
          throw new FunctionError(`invalid index: ${(e as Error).message}`);
        }
        if (i < 0) throw new FunctionError("cannot use element function with a negative index");
        const list = a[0]!;
        const els = list.unmark().elements();
        if (els.length === 0) throw new FunctionError("cannot use element function with an empty list");
        return els[i % els.length]!.mark(...list.marks);
      },
    },
    flatten: {
      description: "Transforms a list, set, or tuple value into a tuple, replacing any nested lists, tuples or sets with their contents.",
      params: [param("list", dyn, { allowMarked: true })],
      type: (a) => {
        const v = a[0]!;
        if (!v.isWhollyKnown()) return dyn;
        if (!isSeq(v.type)) throw new FunctionError("can only flatten lists, sets and tuples");
        const f = flattener(v);
        return f === undefined ? dyn : tupleType(f.map((e) => e.type));
      },
      impl: (a, t) => {
        // As go-cty: the marks of the list and of every nested sequence go on the result;
        // the marks of the other elements stay on them.
        const outer = a[0]!;
        if (outer.unmark().length() === 0) return emptyTupleVal.mark(...outer.marks);
        const marks = new Set<string>();
        const out = flattenMarked(outer, marks);
        // Unknown only when a nested sequence is (go-cty's flattener): a type left dynamic because
        // the list holds unknowns elsewhere (a known object with an unknown attribute) still
        // flattens to a known tuple.
        if (out === undefined) return unknownVal(t).mark(...marks);
        return tupleVal(out).mark(...marks);
      },
    },
    index: {
      description: "Finds the element index for a given value in a list.",
      params: [param("list", dyn), param("value", dyn)],
      type: (a) => {
        const k = a[0]!.type.kind;
        if (k !== "list" && k !== "tuple") throw new FunctionError("argument must be a list or tuple");
        return numberType;
      },
      impl: (a) => {
        const els = a[0]!.elements();
        if (els.length === 0) throw new FunctionError("cannot search an empty list");
        for (let i = 0; i < els.length; i++) {
          const eq = els[i]!.equals(a[1]!);
          if (!eq.isKnown()) return unknownVal(numberType);
          if (eq.asBool()) return numberVal(i);
        }
        throw new FunctionError("item not found");
      },
    },
    keys: {
      description: "Takes a map and returns a list containing the keys from that map.",
      params: [param("inputMap", dyn, { allowUnknown: true, allowMarked: true })],
      type: (a) => {
        const t = a[0]!.type;
        if (t.kind === "map") return listType(stringType);
        if (t.kind === "object") {
          if (t.attributeNames.length === 0) return emptyTupleType;
          return tupleType(t.attributeNames.map(() => stringType));
        }
        if (t.kind === "dynamic") return dyn;
        throw new FunctionArgError(0, "must have map or object type");
      },
      impl: (a, t) => {
        const marks = [...a[0]!.marks];
        const m = a[0]!.unmark();
        if (t.kind === "dynamic") return dynamicVal.mark(...marks);
        if (m.type.kind === "object") {
          return tupleVal(sortedKeys((m.type as { attributeNames: readonly string[] }).attributeNames).map(stringVal)).mark(...marks);
        }
        if (!m.isKnown()) return unknownVal(t, { notNull: true }).mark(...marks);
        return typedList([...m.entries().keys()].map(stringVal), stringType).mark(...marks);
      },
    },
    values: {
      description: "Takes a map and returns a list containing the values of the elements in that map.",
      // Only the mapping's own marks go on the result (go-cty's ValuesFunc): the values keep
      // theirs, so `values({ a = random_password.p })[0].length` is not sensitive.
      params: [param("mapping", dyn, { allowMarked: true })],
      type: (a) => {
        const t = a[0]!.type;
        if (t.kind === "map") return listType(t.element);
        if (t.kind === "object") {
          if (t.attributeNames.length === 0) return emptyTupleType;
          return tupleType(sortedKeys(t.attributeNames).map((n) => t.attributes[n]!));
        }
        throw new FunctionError("values() requires a map as the first argument");
      },
      impl: (a, t) => {
        const marks = [...a[0]!.marks];
        const m = a[0]!.unmark();
        if (t.kind === "tuple") return tupleVal(valuesOf(m)).mark(...marks);
        return typedList(valuesOf(m), elementType(t)).mark(...marks);
      },
    },
    length: {
      description: "Determines the length of a given list, map, or string.",
      params: [param("value", dyn, { allowDynamicType: true, allowUnknown: true, allowMarked: true })],
      type: (a) => {
        const k = a[0]!.type.kind;
        if (k === "number" || k === "bool") throw new FunctionError("argument must be a string, a collection type, or a structural type");
        return numberType;
      },
      impl: (a) => {
        const raw = a[0]!;
        const marks = [...raw.marks];
        const v = raw.unmark();
        const t = v.type;
        let r: Value;
        if (t.kind === "dynamic") r = unknownVal(numberType, { notNull: true });
        else if (t.kind === "tuple") r = numberVal(t.elements.length);
        else if (t.kind === "object") r = numberVal(t.attributeNames.length);
        else if (!v.isKnown()) {
          // cty's Length of an unknown collection: known when its length refinements agree.
          const ref = t.kind === "string" ? {} : v.refinements;
          const lo = ref.lengthLowerBound ?? 0;
          const hi = ref.lengthUpperBound;
          if (hi !== undefined && hi === lo) r = numberVal(lo);
          else r = unknownVal(numberType, { notNull: true, numberLowerBound: { value: CtyNumber.fromBigInt(BigInt(lo)), inclusive: true }, ...(hi !== undefined ? { numberUpperBound: { value: CtyNumber.fromBigInt(BigInt(hi)), inclusive: true } } : {}) });
        }
        else if (t.kind === "string") {
          if (v.containsMarked()) {
            const u = v.unmarkDeep();
            for (const p of u.paths) marks.push(...p.marks);
            r = numberVal(graphemeCount(u.value.asString()));
          } else r = numberVal(graphemeCount(v.asString()));
        } else r = numberVal(v.length());
        return r.mark(...marks);
      },
    },
    lookup: {
      description: "Retrieves the value of a single element from a map, given its key. If the given key does not exist, the given default value is returned instead.",
      // Terraform's LookupFunc takes an unknown map or key itself: an object with unknown
      // attributes is known, so `lookup({ a = "x", b = timestamp() }, "a")` is "x" at plan.
      params: [param("inputMap", dyn, { allowMarked: true, allowUnknown: true }), param("key", stringType, { allowMarked: true, allowUnknown: true })],
      varParam: param("default", dyn, { allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: true }),
      type: (a) => {
        if (a.length > 3) throw new FunctionError(`lookup() takes two or three arguments, got ${a.length}`);
        const t = a[0]!.type;
        if (t.kind === "object") {
          if (!a[1]!.isKnown()) return dyn;
          const key = a[1]!.asString();
          if (t.attributes[key] !== undefined) return t.attributes[key];
          if (a.length === 3) return a[2]!.type;
          throw new FunctionArgError(0, `the given object has no attribute ${JSON.stringify(key)}`);
        }
        if (t.kind === "map") {
          if (a.length === 3) {
            try {
              convert(a[2]!, t.element);
            } catch {
              throw new FunctionArgError(2, "the default value must have the same type as the map elements");
            }
          }
          return t.element;
        }
        throw new FunctionArgError(0, "lookup() requires a map as the first argument");
      },
      impl: (a, t) => {
        const marks = [...a[0]!.marks, ...a[1]!.marks];
        const m = a[0]!.unmark();
        if (!m.isKnown() || !a[1]!.isKnown()) return unknownVal(t).mark(...marks);
        const key = a[1]!.unmark().asString();
        if (m.type.kind === "object") {
          if (m.hasAttr(key)) return m.getAttr(key).mark(...marks);
        } else if (m.entries().has(key)) return m.entries().get(key)!.mark(...marks);
        if (a.length === 3) return convert(a[2]!, t).mark(...marks);
        const shown = marks.includes("sensitive") ? "(sensitive value)" : JSON.stringify(key);
        throw new FunctionError(`lookup failed to find key ${shown}`);
      },
    },
    matchkeys: {
      description: "Constructs a new list by taking a subset of elements from one list whose indexes match the corresponding indexes of values in another list.",
      params: [param("values", listType(dyn)), param("keys", listType(dyn)), param("searchset", listType(dyn))],
      type: (a) => {
        const u = unifyUnsafe([a[1]!.type, a[2]!.type]);
        if (u === undefined) throw new FunctionError("keys and searchset must be of the same type");
        return a[0]!.type;
      },
      impl: (a, t) => {
        const ety = elementType(t);
        if (a[0]!.length() !== a[1]!.length()) throw new FunctionError("length of keys and values should be equal");
        const u = unifyUnsafe([a[1]!.type, a[2]!.type])!;
        const keys = convert(a[1]!, u);
        const search = convert(a[2]!, u);
        if (search.length() === 0) return listValEmpty(ety);
        if (!a[0]!.isWhollyKnown() || !keys.isWhollyKnown()) return unknownVal(t);
        const vals = a[0]!.elements();
        const out: Value[] = [];
        keys.elements().forEach((k, i) => {
          for (const s of search.elements()) {
            const eq = k.equals(s);
            if (eq.isKnown() && eq.asBool()) {
              out.push(vals[i]!);
              break;
            }
          }
        });
        return typedList(out, ety);
      },
    },
    merge: {
      description: "Takes an arbitrary number of maps or objects, and returns a single map or object that contains a merged set of elements from all arguments.",
      params: [],
      varParam: param("maps", dyn, { allowDynamicType: true, allowNull: true, allowMarked: true }),
      type: (a) => {
        if (a.length === 0) return emptyObjectType;
        const attrs = new Map<string, Type>();
        let first: Type | undefined;
        let matching = true;
        let attrsKnown = true;
        for (let i = 0; i < a.length; i++) {
          const t = a[i]!.type;
          if (t.kind === "dynamic") return dyn;
          const v = a[i]!.unmark();
          if (t.kind === "object") {
            if (!v.isNull()) for (const n of t.attributeNames) attrs.set(n, t.attributes[n]!);
          } else if (t.kind === "map") {
            if (v.isNull()) {
              /* nothing to add */
            } else if (v.isKnown()) {
              for (const k of v.entries().keys()) attrs.set(k, t.element);
            } else attrsKnown = false;
          } else {
            throw new FunctionError(`arguments must be maps or objects, got ${JSON.stringify(typeName(t))}`);
          }
          if (i === 0) {
            first = t;
            continue;
          }
          if (!typeEquals(t, first!)) matching = false;
        }
        if (matching) return first!;
        if (!attrsKnown) return dyn;
        return objectType(Object.fromEntries(attrs));
      },
      impl: (a, t) => {
        const out = new Map<string, Value>();
        const marks = new Set<string>();
        for (const raw of a) {
          for (const m of raw.marks) marks.add(m);
          const v = raw.unmark();
          if (v.isNull()) continue;
          for (const [k, e] of entriesOf(v)) out.set(k, e);
        }
        let r: Value;
        if (t.kind === "map") r = out.size === 0 ? mapValEmpty(t.element) : mapVal(out);
        else r = out.size === 0 ? emptyObjectVal : objectVal(out);
        return r.mark(...marks);
      },
    },
    one: {
      description: "Returns either the first element of a one-element list, or null for an empty list.",
      params: [param("list", dyn)],
      type: (a) => {
        const t = a[0]!.type;
        if (t.kind === "list" || t.kind === "set") return t.element;
        if (t.kind === "tuple") {
          if (t.elements.length === 0) return dyn;
          if (t.elements.length === 1) return t.elements[0]!;
        }
        throw new FunctionArgError(0, "must be a list, set, or tuple value with either zero or one elements");
      },
      impl: (a, t) => {
        const els = a[0]!.elements();
        if (els.length === 0) return nullVal(t);
        if (els.length === 1) return els[0]!;
        throw new FunctionArgError(0, "must be a list, set, or tuple value with either zero or one elements");
      },
    },
    reverse: {
      description: "Returns a sequence with the same elements but in reverse order.",
      params: [param("list", dyn, { allowMarked: true })],
      type: (a) => {
        const t = a[0]!.type;
        if (t.kind === "tuple") return tupleType([...t.elements].reverse());
        if (t.kind === "list") return t;
        if (t.kind === "set") return listType(t.element);
        throw new FunctionArgError(0, "can only reverse list or tuple values, not " + typeName(t));
      },
      impl: (a, t) => {
        const marks = [...a[0]!.marks];
        const els = [...a[0]!.unmark().elements()].reverse();
        if (t.kind === "tuple") return tupleVal(els).mark(...marks);
        return typedList(els, elementType(t)).mark(...marks);
      },
    },
    setintersection: {
      description: "Takes multiple sets and produces a single set containing only the elements that all of the given sets have in common.",
      params: [param("first_set", setType(dyn), { allowDynamicType: true })],
      varParam: param("other_sets", setType(dyn), { allowDynamicType: true }),
      type: setOperationType,
      impl: setOperation((sets) => sets[0]!.filter((e) => sets.slice(1).every((s) => has(s, e)))),
    },
    setunion: {
      description: "Takes multiple sets and produces a single set containing the elements from all of the given sets.",
      params: [param("first_set", setType(dyn), { allowDynamicType: true })],
      varParam: param("other_sets", setType(dyn), { allowDynamicType: true }),
      type: setOperationType,
      impl: setOperation((sets) => sets.flat()),
    },
    setsubtract: {
      description: "Returns a set containing the elements of the first set that are not in the second set.",
      params: [param("a", setType(dyn), { allowDynamicType: true }), param("b", setType(dyn), { allowDynamicType: true })],
      type: setOperationType,
      impl: setOperation((sets) => sets[0]!.filter((e) => !has(sets[1]!, e))),
    },
    setproduct: {
      description: "Finds all of the possible combinations of elements from all of the given sets by computing the Cartesian product.",
      params: [],
      varParam: param("sets", dyn, { allowMarked: true }),
      type: (a) => {
        if (a.length < 2) throw new FunctionError("at least two arguments are required");
        let lists = 0;
        const etys: Type[] = [];
        a.forEach((v, i) => {
          const t = v.type;
          if (t.kind === "set") etys.push(t.element);
          else if (t.kind === "list") {
            etys.push(t.element);
            lists++;
          } else if (t.kind === "tuple") {
            lists++;
            if (t.elements.length === 0) etys.push(dyn);
            else {
              const u = unifyUnsafe(t.elements);
              if (u === undefined) throw new FunctionArgError(i, "a set or a list is required");
              etys.push(u);
            }
          } else throw new FunctionArgError(i, "a set or a list is required");
        });
        return lists === a.length ? listType(tupleType(etys)) : setType(tupleType(etys));
      },
      impl: (a, t) => {
        const marks = new Set<string>();
        const argVals: Value[][] = [];
        for (const raw of a) {
          for (const m of raw.marks) marks.add(m);
          argVals.push([...raw.unmark().elements()]);
        }
        const ety = elementType(t) as { kind: "tuple"; elements: readonly Type[] };
        const total = argVals.reduce((n, v) => n * v.length, 1);
        const prods: Value[] = [];
        if (total > 0) {
          const idx = argVals.map(() => 0);
          for (let i = 0; i < total; i++) {
            prods.push(tupleVal(idx.map((n, j) => convert(argVals[j]![n]!, ety.elements[j]!))));
            for (let j = idx.length - 1; j >= 0; j--) {
              idx[j]!++;
              if (idx[j]! < argVals[j]!.length) break;
              idx[j] = 0;
            }
          }
        }
        const r = t.kind === "list" ? typedList(prods, ety as Type) : typedSet(prods, ety as Type);
        return r.mark(...marks);
      },
    },
    slice: {
      description: "Extracts a subset of elements from a list or tuple.",
      params: [param("list", dyn, { allowMarked: true }), param("start_index", numberType), param("end_index", numberType)],
      type: (a) => {
        const t = a[0]!.type;
        if (t.kind === "set") {
          throw new FunctionArgError(
            0,
            "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
          );
        }
        if (t.kind !== "list" && t.kind !== "tuple") throw new FunctionArgError(0, "must be a list or tuple value");
        const [s, e] = sliceIndexes(a);
        if (t.kind === "list") return t;
        return tupleType(t.elements.slice(s, e));
      },
      impl: (a, t) => {
        const marks = [...a[0]!.marks];
        const list = a[0]!.unmark();
        const [s, e] = sliceIndexes([list, a[1]!, a[2]!]);
        const els = list.elements().slice(s, e);
        if (t.kind === "tuple") return (els.length === 0 ? emptyTupleVal : tupleVal(els)).mark(...marks);
        return typedList(els, elementType(t)).mark(...marks);
      },
    },
    sort: fixedFunction({
      description: "Takes a list of strings and returns a new list with those strings sorted lexicographically.",
      // go-cty's SortFunc takes unknowns: the order is unknown, the length is not.
      params: [param("list", listType(stringType), { allowUnknown: true })],
      returns: listType(stringType),
      refineResult: notNull,
      impl: (a) => {
        const l = a[0]!;
        if (!l.isWhollyKnown()) {
          if (l.isKnown()) return unknownVal(listType(stringType), { notNull: true, lengthLowerBound: l.length(), lengthUpperBound: l.length() });
          const r = l.refinements;
          return unknownVal(listType(stringType), {
            notNull: true,
            ...(r.lengthLowerBound !== undefined ? { lengthLowerBound: r.lengthLowerBound } : {}),
            ...(r.lengthUpperBound !== undefined ? { lengthUpperBound: r.lengthUpperBound } : {}),
          });
        }
        const els = l.elements();
        if (els.length === 0) return l;
        const strs = els.map((e, i) => {
          if (e.isNull()) throw new FunctionError(`given list element ${i} is null; a null string cannot be sorted`);
          return e.asString();
        });
        return listVal(strs.sort(compareUtf8).map(stringVal));
      },
    }),
    transpose: fixedFunction({
      description: "Takes a map of lists of strings and swaps the keys and values to produce a new map of lists of strings.",
      params: [param("values", mapType(listType(stringType)))],
      returns: mapType(listType(stringType)),
      refineResult: notNull,
      impl: (a) => {
        if (!a[0]!.isWhollyKnown()) return unknownVal(mapType(listType(stringType)), { notNull: true });
        const out = new Map<string, string[]>();
        for (const [k, l] of a[0]!.entries()) {
          if (l.isNull()) throw new FunctionError("input must not contain null list");
          for (const e of l.elements()) {
            if (!e.isKnown()) return unknownVal(mapType(listType(stringType)), { notNull: true });
            if (e.isNull()) throw new FunctionError("input list must not contain null string");
            const s = e.asString();
            if (!out.has(s)) out.set(s, []);
            out.get(s)!.push(k);
          }
        }
        if (out.size === 0) return mapValEmpty(listType(stringType));
        return mapVal(new Map([...out].map(([k, v]) => [k, listVal(v.map(stringVal))])));
      },
    }),
    zipmap: {
      description: "Constructs a map from a list of keys and a corresponding list of values.",
      // The marks of the keys list, of each key and of the values list go on the result; the
      // values keep their own (go-cty's ZipmapFunc).
      params: [param("keys", listType(stringType), { allowMarked: true }), param("values", dyn, { allowMarked: true })],
      type: (a) => {
        const keys = a[0]!;
        const vt = a[1]!.type;
        if (vt.kind === "list") return mapType(vt.element);
        if (vt.kind === "tuple") {
          if (!keys.isWhollyKnown()) return dyn;
          const ks = keys.elements();
          if (ks.length !== vt.elements.length) {
            throw new FunctionError(`number of keys (${ks.length}) does not match number of values (${vt.elements.length})`);
          }
          const attrs: Record<string, Type> = Object.create(null) as Record<string, Type>;
          ks.forEach((k, i) => {
            if (k.isNull()) throw new FunctionError(`keys list has null value at index ${i}`);
            attrs[k.asString()] = vt.elements[i]!;
          });
          return objectType(attrs);
        }
        throw new FunctionError("values argument must be a list or tuple value");
      },
      impl: (a, t) => {
        const marks = new Set([...a[0]!.marks, ...a[1]!.marks]);
        const keys = a[0]!.unmark();
        if (!keys.isWhollyKnown()) return unknownVal(t).mark(...marks);
        const ks = keys.elements();
        const vs = a[1]!.unmark().elements();
        if (ks.length !== vs.length) throw new FunctionError(`number of keys (${ks.length}) does not match number of values (${vs.length})`);
        const out = new Map<string, Value>();
        ks.forEach((k, i) => {
          for (const m of k.marks) marks.add(m);
          out.set(k.unmark().asString(), vs[i]!);
        });
        if (t.kind === "map") return (out.size === 0 ? mapValEmpty(t.element) : mapVal(out)).mark(...marks);
        return objectVal(out).mark(...marks);
      },
    },
  };
}

function sliceIndexes(a: readonly Value[]): [number, number] {
  const list = a[0]!;
  const length = list.isKnown() ? list.length() : undefined;
  let start: number;
  let end: number;
  try {
    start = toGoInt(a[1]!.asNumber());
  } catch (e) {
    throw new FunctionArgError(1, `invalid start index: ${(e as Error).message}`);
  }
  if (start < 0) throw new FunctionArgError(1, "start index must not be less than zero");
  if (length !== undefined && start > length) throw new FunctionArgError(1, "start index must not be greater than the length of the list");
  try {
    end = toGoInt(a[2]!.asNumber());
  } catch (e) {
    throw new FunctionArgError(2, `invalid end index: ${(e as Error).message}`);
  }
  if (end < 0) throw new FunctionArgError(2, "end index must not be less than zero");
  if (length !== undefined && end > length) throw new FunctionArgError(2, "end index must not be greater than the length of the list");
  if (start > end) throw new FunctionArgError(1, "start index must not be greater than end index");
  return [start, end];
}

