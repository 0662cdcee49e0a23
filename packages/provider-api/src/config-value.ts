import {
  CtyNumber,
  Path,
  Value,
  boolVal,
  dynamicType,
  emptyObjectVal,
  emptyTupleVal,
  formatErrorPath,
  hasDynamicTypes,
  isPathError,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberVal,
  objectType,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  typeString,
  type Type,
} from "@magma/cty";
import { schemaError } from "./provider-error.js";
import { attributeType, emptyNestedBlockValue, impliedType, type Attribute, type Block, type NestedAttributeType, type NestedBlock } from "./schema.js";
import { valueConformance } from "./value-conformance.js";

/**
 * Plain data accepted by {@link configValue}: JSON-like values, plus `bigint`,
 * {@link CtyNumber}, `Map` for maps, and cty {@link Value}s anywhere (to pass unknowns or
 * exact values through). `undefined` and `null` mean "not set".
 */
export type PlainConfig = { readonly [name: string]: unknown };

/**
 * Builds, from plain JS data, the configuration value Terraform would send for the same
 * configuration of a block (the value of `impliedType(block)`).
 *
 * - **Attributes** that are absent (`undefined` or `null`) are null. Set ones are
 *   converted to the attribute's type as Terraform converts HCL values: numbers and bools
 *   become strings (`1.5` → `"1.5"`, `true` → `"true"`); strings become numbers when they
 *   are decimal numbers and bools when they are `"true"`, `"false"`, `"1"` or `"0"`;
 *   arrays become lists, sets and tuples; objects (or `Map`s) become maps and objects
 *   (an absent object attribute is an error unless the type marks it optional); where
 *   the type is dynamic, strings, numbers, bools, arrays and objects become string,
 *   number, bool, tuple and object values, as HCL literals do. JS numbers are taken as
 *   their shortest decimal (as if written in a file); use `bigint`, a `CtyNumber` or
 *   numeric text for exact values.
 * - **v6 nested attributes** are objects (or arrays/records of objects) whose absent
 *   inner attributes are null.
 * - **Nested blocks**: absent `list` and `set` blocks are empty, `map` blocks empty,
 *   `group` blocks an object of empty values, `single` blocks null. A set `single` or
 *   `group` block is an object; `list` and `set` blocks are arrays of objects; `map`
 *   blocks are records of objects keyed by label.
 *
 * @throws {@link ProviderError} `schema` naming the path (e.g. `.rule[1].port`) and the
 * problem for anything that does not fit: a name that is neither an attribute nor a block
 * type, a value of the wrong kind, text that is not a number or bool, a non-finite number,
 * a `Value` of the wrong type.
 */
export function configValue(block: Block, plain: PlainConfig): Value {
  return blockValue(block, plain, Path.root);
}

function fail(at: Path, reason: string, cause?: unknown): never {
  const where = formatErrorPath(at);
  throw schemaError(`config value${where === "" ? "" : ` at ${where}`}: ${reason}`, cause === undefined ? { path: at } : { path: at, cause });
}

function isAbsent(x: unknown): boolean {
  return x === undefined || x === null;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof Value) && !(x instanceof CtyNumber) && !(x instanceof Map);
}

function entriesOf(x: unknown, at: Path, what: string): [string, unknown][] {
  if (x instanceof Map) return [...(x as Map<unknown, unknown>).entries()].map(([k, v]) => [typeof k === "string" ? k : fail(at, `${what} keys must be strings`), v]);
  if (isRecord(x)) return Object.entries(x);
  return fail(at, `${what} must be an object, got ${describe(x)}`);
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (x instanceof Value) return `a cty value of type ${typeString(x.type)}`;
  return typeof x === "object" ? "an object" : `a ${typeof x}`;
}

/** A cty Value given directly: taken as is when it fits the type. */
function passValue(v: Value, t: Type, at: Path): Value {
  const p = valueConformance(v, t);
  if (p !== undefined) fail(at.concat(p.path), `the value does not fit ${typeString(t)}: ${p.reason}`);
  return v;
}

function blockValue(block: Block, plain: unknown, at: Path): Value {
  if (plain instanceof Value) return passValue(plain, impliedType(block), at);
  const given = new Map(entriesOf(plain, at, "a block"));
  const attrs = block.attributes ?? {};
  const blocks = block.blockTypes ?? {};
  for (const name of given.keys()) {
    if (!Object.hasOwn(attrs, name) && !Object.hasOwn(blocks, name)) {
      const known = [...Object.keys(attrs), ...Object.keys(blocks)].sort();
      fail(at.attr(name), `no attribute or block type named ${JSON.stringify(name)} (expected one of: ${known.join(", ") || "none"})`);
    }
  }
  const out: Record<string, Value> = {};
  for (const [name, a] of Object.entries(attrs)) out[name] = attributeValue(a, given.get(name), at.attr(name));
  for (const [name, nb] of Object.entries(blocks)) out[name] = nestedBlockValue(nb, given.get(name), at.attr(name));
  return objectVal(out);
}

function attributeValue(a: Attribute, x: unknown, at: Path): Value {
  const t = attributeType(a);
  if (isAbsent(x)) return nullVal(t);
  if (x instanceof Value) return passValue(x, t, at);
  if (a.nestedType !== undefined) return nestedTypeValue(a.nestedType, x, at);
  return convert(x, t, at, a.sensitive === true);
}

function nestedObjectValue(n: NestedAttributeType, x: unknown, at: Path): Value {
  if (x instanceof Value) return passValue(x, objectType(Object.fromEntries(Object.entries(n.attributes).map(([k, a]) => [k, attributeType(a)]))), at);
  const given = new Map(entriesOf(x, at, "a nested object"));
  for (const name of given.keys()) {
    if (!Object.hasOwn(n.attributes, name)) fail(at.attr(name), `no attribute named ${JSON.stringify(name)} (expected one of: ${Object.keys(n.attributes).sort().join(", ")})`);
  }
  const out: Record<string, Value> = {};
  for (const [name, a] of Object.entries(n.attributes)) out[name] = attributeValue(a, given.get(name), at.attr(name));
  return objectVal(out);
}

function nestedTypeValue(n: NestedAttributeType, x: unknown, at: Path): Value {
  const inner = objectType(Object.fromEntries(Object.entries(n.attributes).map(([k, a]) => [k, attributeType(a)])));
  switch (n.nesting) {
    case "single":
      return nestedObjectValue(n, x, at);
    case "list":
    case "set": {
      if (!Array.isArray(x)) return fail(at, `expected an array of objects, got ${describe(x)}`);
      const vals = x.map((e, i) => (isAbsent(e) ? fail(at.index(i), "an element must not be null") : nestedObjectValue(n, e, at.index(i))));
      if (vals.length === 0) return n.nesting === "list" ? listValEmpty(inner) : setValEmpty(inner);
      return n.nesting === "list" ? listVal(vals) : setVal(vals);
    }
    case "map": {
      const es = entriesOf(x, at, "a map of objects");
      if (es.length === 0) return mapValEmpty(inner);
      return mapVal(new Map(es.map(([k, e]) => [k, isAbsent(e) ? fail(at.key(k), "an element must not be null") : nestedObjectValue(n, e, at.key(k))])));
    }
  }
}

function nestedBlockValue(nb: NestedBlock, x: unknown, at: Path): Value {
  if (isAbsent(x)) return emptyNestedBlockValue(nb);
  const t = impliedType(nb.block);
  const dynamic = hasDynamicTypes(t);
  switch (nb.nesting) {
    case "single":
    case "group":
      return blockValue(nb.block, x, at);
    case "list":
    case "set": {
      if (x instanceof Value) return passValue(x, nb.nesting === "set" ? setValEmpty(t).type : dynamic ? dynamicType : listValEmpty(t).type, at);
      if (!Array.isArray(x)) return fail(at, `expected an array of ${nb.nesting} blocks, got ${describe(x)}`);
      const vals = x.map((e, i) => (isAbsent(e) ? fail(at.index(i), "a block must not be null") : blockValue(nb.block, e, at.index(i))));
      if (nb.nesting === "set") return vals.length === 0 ? setValEmpty(t) : setVal(vals);
      if (dynamic) return vals.length === 0 ? emptyTupleVal : tupleVal(vals);
      return vals.length === 0 ? listValEmpty(t) : listVal(vals);
    }
    case "map": {
      if (x instanceof Value) return passValue(x, dynamic ? dynamicType : mapValEmpty(t).type, at);
      const es = entriesOf(x, at, "a map of blocks");
      const vals = new Map(es.map(([k, e]) => [k, isAbsent(e) ? fail(at.key(k), "a block must not be null") : blockValue(nb.block, e, at.key(k))]));
      if (dynamic) return vals.size === 0 ? emptyObjectVal : objectVal(vals);
      return vals.size === 0 ? mapValEmpty(t) : mapVal(vals);
    }
  }
}

/**
 * Converts plain data to a value of type `t`, as Terraform converts HCL values. With
 * `sensitive` (a sensitive attribute), error messages never quote the given text.
 */
function convert(x: unknown, t: Type, at: Path, sensitive = false): Value {
  if (isAbsent(x)) return nullVal(t);
  if (x instanceof Value) return passValue(x, t, at);
  switch (t.kind) {
    case "string":
      if (typeof x === "string") return stringVal(x);
      if (typeof x === "boolean") return stringVal(x ? "true" : "false");
      if (typeof x === "number" || typeof x === "bigint" || x instanceof CtyNumber) return stringVal(toNumber(x, at).toString());
      return fail(at, `a string is required, got ${describe(x)}`);
    case "number":
      if (typeof x === "number" || typeof x === "bigint" || x instanceof CtyNumber) return numberVal(toNumber(x, at));
      if (typeof x === "string") {
        try {
          return numberVal(CtyNumber.parse(x.trim() === x ? x : "?"));
        } catch (e) {
          return sensitive ? fail(at, "a number is required, got a string (sensitive value not shown)") : fail(at, `a number is required, got the string ${JSON.stringify(x)}`, e);
        }
      }
      return fail(at, `a number is required, got ${describe(x)}`);
    case "bool":
      if (typeof x === "boolean") return boolVal(x);
      if (typeof x === "string") {
        if (x === "true" || x === "1") return boolVal(true);
        if (x === "false" || x === "0") return boolVal(false);
        return fail(at, `a bool is required, got ${sensitive ? "a string (sensitive value not shown)" : `the string ${JSON.stringify(x)}`} (use "true" or "false")`);
      }
      return fail(at, `a bool is required, got ${describe(x)}`);
    case "list":
    case "set": {
      if (!Array.isArray(x)) return fail(at, `a ${t.kind} is required, got ${describe(x)}`);
      const vals = x.map((e, i) => (isAbsent(e) ? nullVal(t.element) : convert(e, t.element, at.index(i), sensitive)));
      if (vals.length === 0) return t.kind === "list" ? listValEmpty(t.element) : setValEmpty(t.element);
      return wrapCollection(t.kind, vals, at);
    }
    case "map": {
      const es = entriesOf(x, at, "a map");
      if (es.length === 0) return mapValEmpty(t.element);
      return wrapCollection("map", es.map(([k, e]) => [k, isAbsent(e) ? nullVal(t.element) : convert(e, t.element, at.key(k), sensitive)] as const), at);
    }
    case "object": {
      const given = new Map(entriesOf(x, at, "an object"));
      for (const k of given.keys()) if (!(k in t.attributes)) fail(at.attr(k), `unexpected attribute ${JSON.stringify(k)} for ${typeString(t)}`);
      const out: Record<string, Value> = {};
      for (const n of t.attributeNames) {
        const e = given.get(n);
        if (isAbsent(e) && !given.has(n) && !t.optional.has(n)) fail(at.attr(n), `attribute ${JSON.stringify(n)} is required`);
        out[n] = convert(e, t.attributes[n]!, at.attr(n), sensitive);
      }
      return objectVal(out);
    }
    case "tuple": {
      if (!Array.isArray(x)) return fail(at, `a tuple is required, got ${describe(x)}`);
      if (x.length !== t.elements.length) return fail(at, `a tuple of ${t.elements.length} elements is required, got ${x.length}`);
      return x.length === 0 ? emptyTupleVal : tupleVal(x.map((e, i) => convert(e, t.elements[i]!, at.index(i), sensitive)));
    }
    case "dynamic":
      return literal(x, at);
  }
}

/** An HCL-literal-like value of its own type, for dynamic slots. */
function literal(x: unknown, at: Path): Value {
  if (isAbsent(x)) return nullVal(dynamicType);
  if (x instanceof Value) return x;
  if (typeof x === "string") return stringVal(x);
  if (typeof x === "boolean") return boolVal(x);
  if (typeof x === "number" || typeof x === "bigint" || x instanceof CtyNumber) return numberVal(toNumber(x, at));
  if (Array.isArray(x)) return x.length === 0 ? emptyTupleVal : tupleVal(x.map((e, i) => literal(e, at.index(i))));
  const es = entriesOf(x, at, "a value");
  return es.length === 0 ? emptyObjectVal : objectVal(new Map(es.map(([k, e]) => [k, literal(e, at.attr(k))])));
}

function toNumber(x: number | bigint | CtyNumber, at: Path): CtyNumber {
  if (typeof x === "number" && !Number.isFinite(x)) return fail(at, `a number must be finite, got ${x}`);
  try {
    return CtyNumber.from(x);
  } catch (e) {
    return fail(at, `not a valid number: ${String(x)}`, e);
  }
}

function wrapCollection(kind: "list" | "set" | "map", vals: readonly Value[] | readonly (readonly [string, Value])[], at: Path): Value {
  try {
    if (kind === "map") return mapVal(new Map(vals as readonly (readonly [string, Value])[]));
    return kind === "list" ? listVal(vals as Value[]) : setVal(vals as Value[]);
  } catch (e) {
    if (isPathError(e)) return fail(at.concat(e.path), e.reason, e);
    throw e;
  }
}
