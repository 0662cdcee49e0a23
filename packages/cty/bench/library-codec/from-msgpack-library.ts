// fromMsgpack with the byte layer of @msgpack/msgpack: the library's Decoder reads the bytes
// into a plain JS tree (strings kept as bytes with rawStrings, int64/uint64 as bigint,
// extensions through ctyExtensionCodec), which is then read with the schema type into
// Values with the rules of src/msgpack/from-msgpack.ts.
//
// What the tree cannot say, and therefore where the errors are coarser than the hand-written
// reader's: failures of the byte layer itself (truncated input, the reserved byte 0xc1,
// trailing bytes, non-string map keys) are reported at the root, not at the path where they
// happened; str and bin, and int and a whole float, are indistinguishable in the tree; map
// keys are decoded leniently by the library (invalid UTF-8 becomes U+FFFD) and a repeated key
// silently replaces the earlier one; the key "__proto__" is refused by the library.

import { Decoder } from "@msgpack/msgpack";
import { compareUtf8 } from "../../src/internal/compare-utf8.js";
import { CtyNumber } from "../../src/number.js";
import { PathError, PathErrorCode } from "../../src/path-error.js";
import { Path } from "../../src/path.js";
import { typeFromJson } from "../../src/type-json.js";
import { numberType, objectType, stringType, type Type } from "../../src/type.js";
import {
  boolVal,
  dynamicVal,
  emptyObjectVal,
  emptyTupleVal,
  knownValueUnchecked,
  listVal,
  mapVal,
  normaliseSetElements,
  normaliseString,
  setVal,
  tupleVal,
  unknownVal,
  type Refinements,
  type Value,
} from "../../src/value.js";
import { Fail, failFrom, withStep } from "../../src/msgpack/fail.js";
import { K_BOOL, K_DYNAMIC, K_LIST, K_MAP, K_NUMBER, K_OBJECT, K_SET, K_STRING, K_TUPLE, planFor, type Plan } from "../../src/msgpack/plan.js";
import { utf8Decode } from "../../src/msgpack/utf8.js";
import { asExt, ctyExtensionCodec, type ReadExt } from "./library-ext.js";

const MSGPACK_MAX_DEPTH = 1000;
const MAX_REFINEMENT_PAYLOAD = 1024;

class KeyTypeError extends Error {}

const options = {
  extensionCodec: ctyExtensionCodec,
  useBigInt64: true,
  rawStrings: true,
  mapKeyConverter: (key: unknown): string => {
    if (typeof key === "string") return key;
    if (key instanceof Uint8Array) {
      // A bin key (rawStrings hands bin over as bytes): read as strict UTF-8.
      const s = utf8Decode(key, 0, key.length);
      if (s === undefined) throw new KeyTypeError("invalid UTF-8");
      return s;
    }
    throw new KeyTypeError(typeof key === "number" ? "integer" : "non-string");
  },
} as const;
const decoder = new Decoder(options);
const payloadDecoder = new Decoder({ extensionCodec: ctyExtensionCodec, useBigInt64: true, rawStrings: true });

const TRUE = boolVal(true);
const FALSE = boolVal(false);
const EMPTY: readonly Value[] = Object.freeze([]);
const EMPTY_MAP: ReadonlyMap<string, Value> = new Map();

/** {@link fromMsgpack} on @msgpack/msgpack (see the file notes for where errors are coarser). @internal */
export function fromMsgpackLibrary(bytes: Uint8Array, type: Type): Value {
  if (!(bytes instanceof Uint8Array)) {
    throw new PathError(PathErrorCode.TypeMismatch, Path.root, "fromMsgpack needs the bytes as a Uint8Array");
  }
  const plan = planFor(type);
  let tree: unknown;
  try {
    tree = decoder.decode(bytes);
  } catch (e) {
    throw byteLayerError(e, bytes.length).toPathError();
  }
  try {
    return decode(tree, plan, 0);
  } catch (e) {
    if (e instanceof Fail) throw e.toPathError();
    throw e;
  }
}

function byteLayerError(e: unknown, size: number): Fail {
  if (e instanceof KeyTypeError && e.message === "invalid UTF-8") return new Fail(PathErrorCode.InvalidValue, "string is not valid UTF-8");
  if (e instanceof KeyTypeError) return new Fail(PathErrorCode.TypeMismatch, `map keys must be strings, got ${e.message}`);
  const msg = e instanceof Error ? e.message : String(e);
  if (msg.startsWith("Insufficient data")) return new Fail(PathErrorCode.MalformedMsgpack, "unexpected end of msgpack input");
  const extra = /^Extra (\d+) of/.exec(msg);
  if (extra !== null) return new Fail(PathErrorCode.MalformedMsgpack, `${extra[1]} bytes of trailing data after the value`);
  if (msg.includes("0xc1")) return new Fail(PathErrorCode.MalformedMsgpack, "invalid msgpack byte 0xc1 (reserved)");
  return new Fail(PathErrorCode.MalformedMsgpack, `malformed msgpack input (${size} bytes): ${msg}`);
}

function decode(node: unknown, p: Plan, depth: number): Value {
  if (node === null) return p.nullValue;
  if (typeof node === "object") {
    const ext = asExt(node);
    if (ext !== undefined) return decodeUnknown(p, ext);
  }
  switch (p.k) {
    case K_STRING:
      return knownValueUnchecked(stringType, readString(node, "string"));
    case K_NUMBER:
      return decodeNumber(node);
    case K_BOOL:
      if (node === true) return TRUE;
      if (node === false) return FALSE;
      throw mismatch("bool", node);
    case K_DYNAMIC:
      return decodeDynamic(node, depth);
    case K_LIST:
    case K_SET:
      return decodeListOrSet(p, node, depth);
    case K_MAP:
      return decodeMap(p, node, depth);
    case K_OBJECT:
      return decodeObject(p, node, depth);
    case K_TUPLE:
      return decodeTuple(p, node, depth);
    default:
      throw new Error(`unreachable plan kind ${p.k}`);
  }
}

const smallInts: (Value | undefined)[] = [];

function intVal(n: number): Value {
  if (n >= -128 && n <= 1023) {
    const i = n + 128;
    let v = smallInts[i];
    if (v === undefined) {
      v = knownValueUnchecked(numberType, CtyNumber.fromFloat64(n));
      smallInts[i] = v;
    }
    return v;
  }
  return knownValueUnchecked(numberType, CtyNumber.fromFloat64(n));
}

function decodeNumber(node: unknown): Value {
  if (typeof node === "number") {
    if (Number.isInteger(node)) return intVal(node);
    if (node !== node) throw new Fail(PathErrorCode.InvalidValue, "NaN is not a valid number");
    return knownValueUnchecked(numberType, CtyNumber.fromFloat64(node));
  }
  if (typeof node === "bigint") {
    if (node >= -9007199254740992n && node <= 9007199254740992n) return intVal(Number(node));
    return knownValueUnchecked(numberType, CtyNumber.fromBigInt(node));
  }
  const text = readString(node, "number");
  let n: CtyNumber;
  try {
    n = CtyNumber.parse(text);
  } catch (e) {
    if (!/^[+-]?(?:\d|\.\d|inf)/i.test(text)) throw new Fail(PathErrorCode.TypeMismatch, "expected number, got string");
    throw failFrom(e);
  }
  return knownValueUnchecked(numberType, n);
}

function readString(node: unknown, expected: string): string {
  if (!(node instanceof Uint8Array)) throw mismatch(expected, node);
  const s = utf8Decode(node, 0, node.length);
  if (s === undefined) throw new Fail(PathErrorCode.InvalidValue, "string is not valid UTF-8");
  return normaliseString(s);
}

function decodeListOrSet(p: Plan, node: unknown, depth: number): Value {
  const isList = p.k === K_LIST;
  if (!Array.isArray(node)) throw mismatch(isList ? "list" : "set", node);
  const n = node.length;
  if (n === 0) return knownValueUnchecked(p.t, EMPTY);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const el = p.el!;
  const arr: Value[] = new Array<Value>(n);
  let i = 0;
  try {
    for (; i < n; i++) arr[i] = decode(node[i], el, depth + 1);
  } catch (e) {
    withStep(e, { kind: "index", index: i });
  }
  if (isList) {
    if (!p.dyn) return knownValueUnchecked(p.t, Object.freeze(arr));
    return viaCore(() => listVal(arr));
  }
  if (!p.dyn) return knownValueUnchecked(p.t, normaliseSetElements(el.t, arr));
  return viaCore(() => setVal(arr));
}

function isMapNode(node: unknown): node is Record<string, unknown> {
  return typeof node === "object" && node !== null && !Array.isArray(node) && !(node instanceof Uint8Array);
}

function decodeMap(p: Plan, node: unknown, depth: number): Value {
  if (!isMapNode(node)) throw mismatch("map", node);
  const keys = Object.keys(node);
  if (keys.length === 0) return knownValueUnchecked(p.t, EMPTY_MAP);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const el = p.el!;
  keys.sort(compareUtf8);
  const m = new Map<string, Value>();
  for (const raw of keys) {
    const key = normaliseString(raw);
    try {
      m.set(key, decode(node[raw], el, depth + 1));
    } catch (e) {
      withStep(e, { kind: "key", key });
    }
  }
  if (!p.dyn) return knownValueUnchecked(p.t, m);
  return viaCore(() => mapVal(m));
}

function decodeObject(p: Plan, node: unknown, depth: number): Value {
  if (!isMapNode(node)) throw mismatch("object", node);
  const keys = Object.keys(node);
  if (keys.length === 0) return emptyObjectVal;
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const names = p.names;
  const count = names.length;
  const vals = new Array<Value | undefined>(count).fill(undefined);
  for (const key of keys) {
    const idx = p.nameIndex!.get(key);
    if (idx === undefined) {
      const f = new Fail(PathErrorCode.TypeMismatch, `unsupported attribute ${JSON.stringify(key)}`);
      f.steps.push({ kind: "attr", name: key });
      throw f;
    }
    try {
      vals[idx] = decode(node[key], p.items[idx]!, depth + 1);
    } catch (e) {
      withStep(e, { kind: "attr", name: key });
    }
  }
  for (let j = 0; j < count; j++) {
    if (vals[j] === undefined) {
      const f = new Fail(PathErrorCode.TypeMismatch, `attribute ${JSON.stringify(names[j])} is required`);
      f.steps.push({ kind: "attr", name: names[j]! });
      throw f;
    }
  }
  if (!p.dyn) return knownValueUnchecked(p.t, Object.freeze(vals as Value[]));
  const types = new Map<string, Type>();
  for (let j = 0; j < count; j++) types.set(names[j]!, vals[j]!.type);
  return knownValueUnchecked(objectType(types), Object.freeze(vals as Value[]));
}

function decodeTuple(p: Plan, node: unknown, depth: number): Value {
  if (!Array.isArray(node)) throw mismatch("tuple", node);
  const n = node.length;
  if (n === 0) return emptyTupleVal;
  const items = p.items;
  if (n !== items.length) throw new Fail(PathErrorCode.TypeMismatch, `a tuple of ${items.length} elements is required, got ${n}`);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const arr: Value[] = [];
  let i = 0;
  try {
    for (; i < n; i++) arr.push(decode(node[i], items[i]!, depth + 1));
  } catch (e) {
    withStep(e, { kind: "index", index: i });
  }
  if (!p.dyn) return knownValueUnchecked(p.t, Object.freeze(arr));
  return tupleVal(arr);
}

const dynamicPlans = new Map<string, Plan>();

function decodeDynamic(node: unknown, depth: number): Value {
  if (!Array.isArray(node)) throw new Fail(PathErrorCode.TypeMismatch, `expected a dynamic value [type, value], got ${describe(node)}`);
  if (node.length !== 2) throw new Fail(PathErrorCode.TypeMismatch, `a dynamic value must be a 2-element array [type, value], got ${node.length} elements`);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const tj: unknown = node[0];
  if (!(tj instanceof Uint8Array)) throw mismatch("type JSON (bin or str)", tj);
  const text = utf8Decode(tj, 0, tj.length);
  if (text === undefined) throw new Fail(PathErrorCode.InvalidType, "type JSON is not valid UTF-8");
  let plan = dynamicPlans.get(text);
  if (plan === undefined) {
    let t: Type;
    try {
      t = typeFromJson(text);
    } catch (e) {
      throw failFrom(e);
    }
    plan = planFor(t);
    if (dynamicPlans.size >= 1024) dynamicPlans.clear();
    dynamicPlans.set(text, plan);
  }
  return decode(node[1], plan, depth + 1);
}

function decodeUnknown(p: Plan, ext: ReadExt): Value {
  if (p.k === K_DYNAMIC) return dynamicVal;
  const len = ext.data.length;
  if (ext.code !== 12 || len <= 1 || len > MAX_REFINEMENT_PAYLOAD) return p.unknownValue();
  let payload: unknown;
  try {
    // Bytes after the map are ignored, as go-cty does: read only the first value.
    payload = payloadDecoder.decodeMulti(ext.data).next().value;
  } catch (e) {
    throw byteLayerError(e, len);
  }
  if (!isMapNode(payload)) throw new Fail(PathErrorCode.InvalidValue, "the refinements of an unknown value must be a msgpack map");
  const kind = p.t.kind;
  const r: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  let isNull = false;
  for (const k of Object.keys(payload)) {
    if (!/^-?\d+$/.test(k)) throw badRefinement("refinement keys and length bounds must be integers, got string");
    const key = Number(k);
    const v = payload[k];
    switch (key) {
      case 1:
        if (typeof v !== "boolean") throw badRefinement("the nullness refinement must be a bool");
        if (v) isNull = true;
        else r.notNull = true;
        break;
      case 2:
        if (kind !== "string") throw badRefinement(`a string prefix cannot refine a ${kind}`);
        r.stringPrefix = readString(v, "string prefix");
        break;
      case 3:
      case 4: {
        if (kind !== "number") throw badRefinement(`a number bound cannot refine a ${kind}`);
        if (!Array.isArray(v) || v.length !== 2) throw badRefinement("a number bound must be a [number, bool] array");
        if (v[0] === null || asExt(v[0]) !== undefined) throw badRefinement("a number bound must be a known number");
        const value = decodeNumber(v[0]).asNumber();
        if (typeof v[1] !== "boolean") throw badRefinement("a number bound must be a [number, bool] array");
        const bound = { value, inclusive: v[1] };
        if (key === 3) r.numberLowerBound = bound;
        else r.numberUpperBound = bound;
        break;
      }
      case 5:
      case 6: {
        if (kind !== "list" && kind !== "set" && kind !== "map") throw badRefinement(`a length bound cannot refine a ${kind}`);
        if (typeof v !== "number" && typeof v !== "bigint") throw badRefinement(`refinement keys and length bounds must be integers, got ${describe(v)}`);
        const bound = Number(v);
        if (!Number.isSafeInteger(bound) || bound < 0) throw badRefinement("a length bound must be a non-negative integer");
        if (key === 5) r.lengthLowerBound = bound;
        else r.lengthUpperBound = bound;
        break;
      }
      default:
        break; // a refinement from a newer cty: ignore it
    }
  }
  if (isNull) return p.nullValue;
  try {
    return unknownVal(p.t, r);
  } catch (e) {
    throw failFrom(e);
  }
}

function badRefinement(reason: string): Fail {
  return new Fail(PathErrorCode.InvalidValue, `invalid unknown-value refinement: ${reason}`);
}

function tooDeep(): Fail {
  return new Fail(PathErrorCode.MalformedMsgpack, `msgpack input is nested deeper than ${MSGPACK_MAX_DEPTH} levels`);
}

function mismatch(expected: string, node: unknown): Fail {
  return new Fail(PathErrorCode.TypeMismatch, `expected ${expected}, got ${describe(node)}`);
}

/** What a tree node is, in the words of the hand-written reader (str and bin both read as "string"). */
function describe(node: unknown): string {
  if (node === null) return "nil";
  switch (typeof node) {
    case "boolean":
      return "bool";
    case "bigint":
      return "integer";
    case "number":
      return Number.isInteger(node) ? "integer" : "float";
    default:
      if (Array.isArray(node)) return "array";
      if (node instanceof Uint8Array) return "string";
      if (asExt(node) !== undefined) return "extension";
      return "map";
  }
}

function viaCore(f: () => Value): Value {
  try {
    return f();
  } catch (e) {
    throw failFrom(e);
  }
}
