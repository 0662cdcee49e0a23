import { CtyNumber } from "../number.js";
import { Path } from "../path.js";
import { PathError, PathErrorCode, formatErrorPath, isPathError } from "../path-error.js";
import { dynamicType, type ObjectType, type Type } from "../type.js";
import { boolVal, emptyObjectVal, emptyTupleVal, listVal, listValEmpty, mapVal, mapValEmpty, nullVal, numberVal, objectVal, setVal, setValEmpty, stringVal, tupleVal } from "../construction.js";
import { Value } from "../value.js";
import { convert } from "./convert.js";
import { stringToBool, stringToNumber } from "./primitive-conversions.js";
import { constraintName } from "./type-utils.js";

/**
 * Plain JavaScript data accepted by {@link fromPlain}: strings, numbers, bigints, booleans,
 * `null`, {@link CtyNumber}s, arrays, plain objects, `Map`s with string keys, and cty
 * {@link Value}s (converted to the wanted type).
 */
export type PlainInput =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | CtyNumber
  | Value
  | readonly PlainInput[]
  | ReadonlySet<PlainInput>
  | ReadonlyMap<string, PlainInput>
  | { readonly [key: string]: PlainInput };

/**
 * Makes a cty value of the given type from plain JavaScript data, converting as
 * {@link convert} would: a JS number becomes a cty number through {@link CtyNumber.from}
 * (its shortest decimal text, so `0.1` is the decimal 0.1), a bigint exactly; a string
 * where a number or bool is wanted is parsed (`"12"`, `"true"`); a number or bool where a
 * string is wanted becomes its text; arrays (or `Set`s) give lists, sets and tuples; plain
 * objects (or `Map`s) give maps and objects. `null` is the null of the wanted type; in an
 * object, an attribute that is missing or `undefined` is null, and a key that is not an
 * attribute is an error. Where the type is dynamic, the type is inferred: string, number,
 * bool, a tuple for an array, an object for a plain object or `Map`.
 *
 * @throws {@link PathError} `type_mismatch` with the path of the data that does not fit
 * (`.rules[1].from: a number is required`), `invalid_value` for NaN or out-of-range
 * numbers.
 */
export function fromPlain(plain: PlainInput, type: Type): Value {
  return fromPlainAt(plain, type, Path.root);
}

function mismatch(path: Path, reason: string): PathError {
  return new PathError(PathErrorCode.TypeMismatch, path, reason);
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (x instanceof Map) return "a Map";
  if (x instanceof Set) return "a Set";
  return typeof x === "object" ? "an object" : `a ${typeof x}`;
}

function isPlainObject(x: unknown): x is Record<string, PlainInput> {
  if (typeof x !== "object" || x === null) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Re-throws a root-path error from a helper at `path`. */
function at<T>(path: Path, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!isPathError(e)) throw e;
    throw new PathError(e.code, path.concat(e.path), e.reason, { cause: e });
  }
}

function entriesOf(x: unknown): [string, PlainInput][] | undefined {
  if (x instanceof Map) {
    const out: [string, PlainInput][] = [];
    for (const [k, v] of x as Map<unknown, PlainInput>) {
      if (typeof k !== "string") return undefined;
      out.push([k, v]);
    }
    return out;
  }
  if (isPlainObject(x)) return Object.entries(x);
  return undefined;
}

function elementsOf(x: unknown): PlainInput[] | undefined {
  if (Array.isArray(x)) return x as PlainInput[];
  if (x instanceof Set) return [...(x as Set<PlainInput>)];
  return undefined;
}

function fromPlainAt(x: PlainInput, t: Type, path: Path): Value {
  if (x instanceof Value) return at(path, () => convert(x, t));
  if (x === null) return nullVal(t);
  if (x === undefined) throw mismatch(path, "undefined is not a value (use null)");
  if (t.kind === "dynamic") return infer(x, path);
  switch (t.kind) {
    case "string":
      if (typeof x === "string") return stringVal(x);
      if (typeof x === "boolean") return stringVal(x ? "true" : "false");
      if (typeof x === "number" || typeof x === "bigint" || x instanceof CtyNumber) {
        return stringVal(at(path, () => CtyNumber.from(x)).toString());
      }
      throw mismatch(path, `string required, got ${describe(x)}`);
    case "number":
      if (typeof x === "number" || typeof x === "bigint" || x instanceof CtyNumber)
        return at(path, () => numberVal(x));
      if (typeof x === "string") return stringToNumber(x, path);
      throw mismatch(path, `number required, got ${describe(x)}`);
    case "bool":
      if (typeof x === "boolean") return boolVal(x);
      if (typeof x === "string") return stringToBool(x, path);
      throw mismatch(path, `bool required, got ${describe(x)}`);
    case "list":
    case "set": {
      const elems = elementsOf(x);
      if (elems === undefined)
        throw mismatch(path, `${constraintName(t)} required, got ${describe(x)}`);
      if (t.kind === "list") {
        const vals = elems.map((e, i) => fromPlainAt(e, t.element, path.index(i)));
        return vals.length === 0 ? listValEmpty(t.element) : at(path, () => listVal(vals));
      }
      const vals = elems.map((e, i) => {
        try {
          return fromPlainAt(e, t.element, Path.root);
        } catch (err) {
          if (!isPathError(err)) throw err;
          throw new PathError(
            err.code,
            path,
            `set element ${i}${formatErrorPath(err.path)}: ${err.reason}`,
            { cause: err },
          );
        }
      });
      return vals.length === 0 ? setValEmpty(t.element) : at(path, () => setVal(vals));
    }
    case "tuple": {
      const elems = elementsOf(x);
      if (elems === undefined) throw mismatch(path, `tuple required, got ${describe(x)}`);
      if (elems.length !== t.elements.length) {
        throw mismatch(
          path,
          `tuple of ${t.elements.length} elements required, got ${elems.length}`,
        );
      }
      const vals = elems.map((e, i) => fromPlainAt(e, t.elements[i]!, path.index(i)));
      return vals.length === 0 ? emptyTupleVal : tupleVal(vals);
    }
    case "map": {
      const entries = entriesOf(x);
      if (entries === undefined)
        throw mismatch(path, `${constraintName(t)} required, got ${describe(x)}`);
      const m = new Map<string, Value>();
      for (const [k, e] of entries) {
        if (e === undefined) continue;
        m.set(k, fromPlainAt(e, t.element, path.key(k)));
      }
      return m.size === 0 ? mapValEmpty(t.element) : at(path, () => mapVal(m));
    }
    case "object":
      return objectFromPlain(x, t, path);
  }
}

function objectFromPlain(x: PlainInput, t: ObjectType, path: Path): Value {
  const entries = entriesOf(x);
  if (entries === undefined) throw mismatch(path, `object required, got ${describe(x)}`);
  const attrs = new Map<string, Value>();
  for (const [k, e] of entries) {
    const aty = t.attributes[k];
    if (aty === undefined) throw mismatch(path, `unsupported attribute ${JSON.stringify(k)}`);
    attrs.set(k, e === undefined ? nullVal(aty) : fromPlainAt(e, aty, path.attr(k)));
  }
  for (const n of t.attributeNames) if (!attrs.has(n)) attrs.set(n, nullVal(t.attributes[n]!));
  return attrs.size === 0 ? emptyObjectVal : objectVal(attrs);
}

function infer(x: PlainInput, path: Path): Value {
  if (x instanceof Value) return x;
  if (x === null || x === undefined) return nullVal(dynamicType);
  if (typeof x === "string") return stringVal(x);
  if (typeof x === "boolean") return boolVal(x);
  if (typeof x === "number" || typeof x === "bigint" || x instanceof CtyNumber)
    return at(path, () => numberVal(x));
  const elems = elementsOf(x);
  if (elems !== undefined) {
    return elems.length === 0
      ? emptyTupleVal
      : tupleVal(elems.map((e, i) => infer(e, path.index(i))));
  }
  const entries = entriesOf(x);
  if (entries !== undefined) {
    const attrs = new Map<string, Value>();
    for (const [k, e] of entries) attrs.set(k, infer(e, path.attr(k)));
    return attrs.size === 0 ? emptyObjectVal : objectVal(attrs);
  }
  throw mismatch(path, `cannot make a cty value from ${describe(x)}`);
}
