// The msgpack decoder: bytes straight to cty Values.
//
// Why a hand-written reader instead of @msgpack/msgpack: measured (docs/compatibility.md,
// re-measured by bench/msgpack-codec-compare.mjs), the same decoder on the library's Decoder
// takes 1.7x the instructions and about 1.5x the time, and its errors lose their paths. go-cty's
// wire format needs exact control that a generic decoder hides (uint64 beyond 2^53 read
// exactly, numbers that arrive as str or bin, bin or str where strings are expected, ext
// headers of any code read as unknowns with an ext-12 refinement payload), and decoding to
// plain JS first and then converting to Values allocates everything twice. Reading with the
// schema type in hand also lets objects reuse the schema's type object (no type rebuilt per
// object) and match attribute names by comparing bytes against pre-encoded names instead of
// decoding them.

import { CtyNumber } from "../number.js";
import { PathError, PathErrorCode } from "../path-error.js";
import { Path } from "../path.js";
import { typeFromJson } from "../type-json.js";
import { numberType, objectType, stringType, type Type } from "../type.js";
import { compareUtf8 } from "../internal/compare-utf8.js";
import { boolVal, dynamicVal, emptyObjectVal, emptyTupleVal, knownValueUnchecked, listVal, mapVal, setVal, tupleVal, unknownVal } from "../construction.js";
import { normaliseString } from "../internal/normalise-string.js";
import type { Refinements } from "../refinements.js";
import { normaliseSetElements } from "../set-order.js";
import type { Value } from "../value.js";
import { Fail, failFrom, withStep } from "./fail.js";
import { K_BOOL, K_DYNAMIC, K_LIST, K_MAP, K_NUMBER, K_OBJECT, K_SET, K_STRING, K_TUPLE, codecPlanFor, type CodecPlan } from "./codec-plan.js";
import { utf8Decode } from "./utf8.js";

/**
 * Deepest nesting of arrays, maps and dynamic wrappers that {@link fromMsgpack} accepts.
 * Deeper input fails with a `malformed_msgpack` {@link PathError} instead of exhausting the
 * stack.
 */
export const MSGPACK_MAX_DEPTH = 1000;

/** Largest ext-12 refinement payload that is parsed (go-cty's limit); larger ones are plain unknowns. */
const MAX_REFINEMENT_PAYLOAD = 1024;

// Reader state. fromMsgpack is synchronous and never re-entered while decoding (it calls
// only into the cty core), and saves/restores the state anyway.
let buf: Uint8Array = new Uint8Array(0);
let view: DataView = new DataView(buf.buffer);
let pos = 0;
let end = 0;

const TRUE = boolVal(true);
const FALSE = boolVal(false);
const EMPTY: readonly Value[] = Object.freeze([]);
const EMPTY_MAP: ReadonlyMap<string, Value> = new Map();

/**
 * Decodes msgpack bytes written by go-cty (Terraform core, providers) into a value of the
 * given type, as go-cty's `msgpack.Unmarshal`.
 *
 * Accepted forms: every msgpack int width (uint64 beyond 2^53 exactly), float32 and float64,
 * numbers written as str or bin decimal text; str or bin for strings (strict UTF-8,
 * NFC-normalised as `cty.StringVal` does); nil as null for any type; any ext value as an
 * unknown (an ext-12 payload of at most 1024 bytes carries refinements; any other code, or a
 * larger payload, is a plain unknown: the lenient reading of terraform-plugin-go, where
 * go-cty would reject it); `[bin or str type JSON, value]` for the dynamic type. Objects need
 * every attribute exactly once; as in go-cty, a 0-length map decodes as the empty object and
 * a 0-length array as the empty tuple whatever the object or tuple type. Sets are ordered and
 * de-duplicated as the core does. Map entries with the same key: the last wins (as go-cty).
 *
 * @throws {@link PathError} naming where the input went wrong: `malformed_msgpack` (truncated
 * input, the reserved byte 0xc1, trailing bytes, nesting deeper than
 * {@link MSGPACK_MAX_DEPTH}), `type_mismatch` (a msgpack kind that does not fit the type, a
 * missing, unknown or repeated attribute, a tuple of the wrong length, collection elements of
 * different types under a dynamic element type), `invalid_value` (invalid UTF-8, NaN, a number
 * string that is not a number, a refinement that does not fit the type), `invalid_type` (a bad
 * type JSON in a dynamic wrapper).
 */
export function fromMsgpack(bytes: Uint8Array, type: Type): Value {
  if (!(bytes instanceof Uint8Array)) {
    throw new PathError(PathErrorCode.TypeMismatch, Path.root, "fromMsgpack needs the bytes as a Uint8Array");
  }
  const plan = codecPlanFor(type);
  const saved = { buf, view, pos, end };
  buf = bytes;
  view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  pos = 0;
  end = bytes.length;
  try {
    const v = decode(plan, 0);
    if (pos !== end) throw new Fail(PathErrorCode.MalformedMsgpack, `${end - pos} bytes of trailing data after the value`);
    return v;
  } catch (e) {
    if (e instanceof Fail) throw e.toPathError();
    throw e;
  } finally {
    buf = saved.buf;
    view = saved.view;
    pos = saved.pos;
    end = saved.end;
  }
}

function decode(p: CodecPlan, depth: number): Value {
  if (pos >= end) throw truncated();
  const b = buf[pos]!;
  if ((b >= 0xd4 && b <= 0xd8) || (b >= 0xc7 && b <= 0xc9)) return decodeUnknown(p, b);
  if (b === 0xc0) {
    pos++;
    return p.nullValue;
  }
  switch (p.k) {
    case K_STRING:
      return decodeString(b);
    case K_NUMBER:
      return decodeNumber(b);
    case K_BOOL:
      if (b === 0xc3) {
        pos++;
        return TRUE;
      }
      if (b === 0xc2) {
        pos++;
        return FALSE;
      }
      throw mismatch("bool", b);
    case K_DYNAMIC:
      return decodeDynamic(b, depth);
    case K_LIST:
    case K_SET:
      return decodeListOrSet(p, b, depth);
    case K_MAP:
      return decodeMap(p, b, depth);
    case K_OBJECT:
      return decodeObject(p, b, depth);
    case K_TUPLE:
      return decodeTuple(p, b, depth);
    default:
      throw new Error(`unreachable plan kind ${p.k}`);
  }
}

// ---------------------------------------------------------------------------------------
// Primitives

const smallInts: (Value | undefined)[] = [];
const SMALL_MIN = -128;
const SMALL_MAX = 1023;

// Values are immutable, so equal numbers and short strings that recur in a payload (ports,
// sizes, regions, tag values, protocol names) can share one Value: fewer objects kept alive,
// so less for the garbage collector to copy while a large payload is decoded. Both caches are
// direct-mapped (a slot per hash, the last value wins) and bounded.
const CACHE_SLOTS = 2048;
const CACHE_MASK = CACHE_SLOTS - 1;
const intKeys = new Float64Array(CACHE_SLOTS).fill(NaN);
const intVals: (Value | undefined)[] = new Array<Value | undefined>(CACHE_SLOTS).fill(undefined);

function intVal(n: number): Value {
  if (n >= SMALL_MIN && n <= SMALL_MAX) {
    const i = n - SMALL_MIN;
    let v = smallInts[i];
    if (v === undefined) {
      v = knownValueUnchecked(numberType, CtyNumber.from(n));
      smallInts[i] = v;
    }
    return v;
  }
  // Integers are go-cty's NumberIntVal: exact, never of a float64's precision.
  if ((n | 0) !== n) return knownValueUnchecked(numberType, CtyNumber.from(n));
  const slot = Math.imul(n, 0x9e3779b1) >>> 21;
  if (intKeys[slot] === n) return intVals[slot]!;
  const v = knownValueUnchecked(numberType, CtyNumber.from(n));
  intKeys[slot] = n;
  intVals[slot] = v;
  return v;
}

function floatVal(f: number): Value {
  if (f !== f) throw new Fail(PathErrorCode.InvalidValue, "NaN is not a valid number");
  return knownValueUnchecked(numberType, CtyNumber.fromFloat64(f));
}

function decodeNumber(b: number): Value {
  if (b <= 0x7f) {
    pos++;
    return intVal(b);
  }
  if (b >= 0xe0) {
    pos++;
    return intVal(b - 256);
  }
  let v: Value;
  switch (b) {
    case 0xcc:
      need(2);
      v = intVal(buf[pos + 1]!);
      pos += 2;
      return v;
    case 0xcd:
      need(3);
      v = intVal(view.getUint16(pos + 1));
      pos += 3;
      return v;
    case 0xce:
      need(5);
      v = intVal(view.getUint32(pos + 1));
      pos += 5;
      return v;
    case 0xcf: {
      need(9);
      const hi = view.getUint32(pos + 1);
      const lo = view.getUint32(pos + 5);
      pos += 9;
      if (hi < 0x200000) return intVal(hi * 4294967296 + lo); // below 2^53: exact as a double
      return knownValueUnchecked(numberType, CtyNumber.fromBigInt((BigInt(hi) << 32n) | BigInt(lo)));
    }
    case 0xd0:
      need(2);
      v = intVal(view.getInt8(pos + 1));
      pos += 2;
      return v;
    case 0xd1:
      need(3);
      v = intVal(view.getInt16(pos + 1));
      pos += 3;
      return v;
    case 0xd2:
      need(5);
      v = intVal(view.getInt32(pos + 1));
      pos += 5;
      return v;
    case 0xd3: {
      need(9);
      const hi = view.getInt32(pos + 1);
      const lo = view.getUint32(pos + 5);
      if (hi >= -0x200000 && hi < 0x200000) v = intVal(hi * 4294967296 + lo);
      else v = knownValueUnchecked(numberType, CtyNumber.fromBigInt(view.getBigInt64(pos + 1)));
      pos += 9;
      return v;
    }
    case 0xca:
      need(5);
      v = floatVal(view.getFloat32(pos + 1));
      pos += 5;
      return v;
    case 0xcb:
      need(9);
      v = floatVal(view.getFloat64(pos + 1));
      pos += 9;
      return v;
    default: {
      const text = readString(b, "number");
      let n: CtyNumber;
      try {
        n = CtyNumber.parse(text);
      } catch (e) {
        // Text that does not even start like a number is a string where a number belongs;
        // a number-like text that cannot be read (bad syntax, exponent out of range) is an
        // invalid number.
        if (!/^[+-]?(?:\d|\.\d|inf)/i.test(text)) throw new Fail(PathErrorCode.TypeMismatch, "expected number, got string");
        throw failFrom(e);
      }
      return knownValueUnchecked(numberType, n);
    }
  }
}

/** Length of a str or bin at pos (advancing past the header), or -1 when it is neither. */
function readStrLen(b: number): number {
  let n: number;
  if ((b & 0xe0) === 0xa0) {
    n = b & 0x1f;
    pos += 1;
  } else if (b === 0xd9 || b === 0xc4) {
    need(2);
    n = buf[pos + 1]!;
    pos += 2;
  } else if (b === 0xda || b === 0xc5) {
    need(3);
    n = view.getUint16(pos + 1);
    pos += 3;
  } else if (b === 0xdb || b === 0xc6) {
    need(5);
    n = view.getUint32(pos + 1);
    pos += 5;
  } else {
    return -1;
  }
  if (n > end - pos) throw truncatedBy(`a string of ${n} bytes`);
  return n;
}

/** Reads a str or bin as strict UTF-8, NFC-normalised. */
function readString(b: number, expected: string): string {
  const n = readStrLen(b);
  if (n < 0) throw mismatch(expected, b);
  return readStrBody(n);
}

function readStrBody(n: number): string {
  const ascii = readAscii(n);
  if (ascii !== undefined) return ascii;
  const s = utf8Decode(buf, pos, n);
  if (s === undefined) throw new Fail(PathErrorCode.InvalidValue, "string is not valid UTF-8");
  pos += n;
  return normaliseString(s);
}

/** ASCII strings at most this many bytes long are read in JS (and need no NFC pass). */
const ASCII_MAX = 64;
/** One reusable array of char codes per length, so that reading a short string allocates only the string. */
const asciiUnits: number[][] = Array.from({ length: ASCII_MAX + 1 }, (_, n) => new Array<number>(n).fill(0));

/** The `n` bytes at pos as a string when they are short ASCII (advancing), else undefined. */
function readAscii(n: number): string | undefined {
  if (n > ASCII_MAX) return undefined;
  const units = asciiUnits[n]!;
  for (let j = 0; j < n; j++) {
    const c = buf[pos + j]!;
    if (c >= 0x80) return undefined;
    units[j] = c;
  }
  pos += n;
  return String.fromCharCode.apply(null, units);
}

/** Short ASCII strings this long or shorter go through the string Value cache. */
const STRING_CACHE_MAX = 32;
const strKeys: (string | undefined)[] = new Array<string | undefined>(CACHE_SLOTS).fill(undefined);
const strVals: (Value | undefined)[] = new Array<Value | undefined>(CACHE_SLOTS).fill(undefined);

/** A string value at pos; short ASCII ones shared through the cache. */
function decodeString(b: number): Value {
  const n = readStrLen(b);
  if (n < 0) throw mismatch("string", b);
  if (n <= STRING_CACHE_MAX) {
    let h = 0x811c9dc5 ^ n;
    let j = 0;
    for (; j < n; j++) {
      const c = buf[pos + j]!;
      if (c >= 0x80) break;
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (j === n) {
      const slot = (h ^ (h >>> 16)) & CACHE_MASK;
      const key = strKeys[slot];
      if (key !== undefined && key.length === n && sameAscii(key, n)) {
        pos += n;
        return strVals[slot]!;
      }
      const v = knownValueUnchecked(stringType, readAscii(n)!);
      strKeys[slot] = v.asString();
      strVals[slot] = v;
      return v;
    }
  }
  return knownValueUnchecked(stringType, readStrBody(n));
}

/** True when the `n` bytes at pos are the char codes of the ASCII string `s` (of length n). */
function sameAscii(s: string, n: number): boolean {
  for (let j = 0; j < n; j++) if (s.charCodeAt(j) !== buf[pos + j]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// Containers

/** Element count of an array at pos (advancing past the header), or -1 when it is not an array. */
function readArrayLen(b: number): number {
  let n: number;
  if ((b & 0xf0) === 0x90) {
    n = b & 0x0f;
    pos += 1;
  } else if (b === 0xdc) {
    need(3);
    n = view.getUint16(pos + 1);
    pos += 3;
  } else if (b === 0xdd) {
    need(5);
    n = view.getUint32(pos + 1);
    pos += 5;
  } else {
    return -1;
  }
  // Every element takes at least one byte: refuse before allocating anything.
  if (n > end - pos) throw truncatedBy(`an array of ${n} elements`);
  return n;
}

/** Entry count of a map at pos (advancing past the header), or -1 when it is not a map. */
function readMapLen(b: number): number {
  let n: number;
  if ((b & 0xf0) === 0x80) {
    n = b & 0x0f;
    pos += 1;
  } else if (b === 0xde) {
    need(3);
    n = view.getUint16(pos + 1);
    pos += 3;
  } else if (b === 0xdf) {
    need(5);
    n = view.getUint32(pos + 1);
    pos += 5;
  } else {
    return -1;
  }
  // Every entry takes at least two bytes.
  if (n > (end - pos) / 2) throw truncatedBy(`a map of ${n} entries`);
  return n;
}

function decodeListOrSet(p: CodecPlan, b: number, depth: number): Value {
  const isList = p.k === K_LIST;
  const n = readArrayLen(b);
  if (n < 0) throw mismatch(isList ? "list" : "set", b);
  if (n === 0) return knownValueUnchecked(p.t, EMPTY);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const el = p.el!;
  const arr = new Array<Value>(n);
  let i = 0;
  try {
    for (; i < n; i++) arr[i] = decode(el, depth + 1);
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

function decodeMap(p: CodecPlan, b: number, depth: number): Value {
  const n = readMapLen(b);
  if (n < 0) throw mismatch("map", b);
  if (n === 0) return knownValueUnchecked(p.t, EMPTY_MAP);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const el = p.el!;
  let m = new Map<string, Value>();
  let prev: string | undefined;
  let ordered = true;
  for (let i = 0; i < n; i++) {
    const key = readKey("map");
    let v: Value;
    try {
      v = decode(el, depth + 1);
    } catch (e) {
      withStep(e, { kind: "key", key });
    }
    if (ordered && prev !== undefined && compareUtf8(prev, key) >= 0) ordered = false;
    m.set(key, v);
    prev = key;
  }
  if (!ordered) m = new Map([...m].sort((x, y) => compareUtf8(x[0], y[0])));
  if (!p.dyn) return knownValueUnchecked(p.t, m);
  return viaCore(() => mapVal(m));
}

function readKey(what: string): string {
  if (pos >= end) throw truncated();
  const b = buf[pos]!;
  const n = readStrLen(b);
  if (n < 0) {
    if (b === 0xc1) throw invalidByte();
    throw new Fail(PathErrorCode.TypeMismatch, `${what} keys must be strings, got ${describe(b)}`);
  }
  return readStrBody(n);
}

function decodeObject(p: CodecPlan, b: number, depth: number): Value {
  const n = readMapLen(b);
  if (n < 0) throw mismatch("object", b);
  if (n === 0) return emptyObjectVal; // go-cty: a 0-length map is the empty object, whatever the type
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const names = p.names;
  const items = p.items;
  const count = names.length;
  let vals = new Array<Value | undefined>(count);
  let i = 0;
  // Fast path: keys in the schema's order, matched by their bytes.
  for (; i < n && i < count; i++) {
    if (!matchBytes(p.nameStr[i]!)) break;
    try {
      vals[i] = decode(items[i]!, depth + 1);
    } catch (e) {
      withStep(e, { kind: "attr", name: names[i]! });
    }
  }
  if (i < n || i !== count) {
    vals = slowObject(p, vals, i, n, depth);
  }
  if (!p.dyn) return knownValueUnchecked(p.t, Object.freeze(vals as Value[]));
  const types = new Map<string, Type>();
  for (let j = 0; j < count; j++) types.set(names[j]!, vals[j]!.type);
  return knownValueUnchecked(objectType(types), Object.freeze(vals as Value[]));
}

/**
 * Object entries in any order, from entry `i` on (the first `i` attributes are in `vals`
 * already, in schema order); checks for unknown, repeated and missing attributes.
 */
function slowObject(p: CodecPlan, vals: (Value | undefined)[], i: number, n: number, depth: number): Value[] {
  const names = p.names;
  const count = names.length;
  for (; i < n; i++) {
    const key = readKey("object");
    const idx = p.nameIndex!.get(key);
    if (idx === undefined) {
      const f = new Fail(PathErrorCode.TypeMismatch, `unsupported attribute ${JSON.stringify(key)}`);
      f.steps.push({ kind: "attr", name: key });
      throw f;
    }
    if (vals[idx] !== undefined) {
      const f = new Fail(PathErrorCode.TypeMismatch, `attribute ${JSON.stringify(key)} appears more than once`);
      f.steps.push({ kind: "attr", name: key });
      throw f;
    }
    try {
      vals[idx] = decode(p.items[idx]!, depth + 1);
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
  return vals as Value[];
}

/** True (advancing) when the bytes at pos are exactly `s`. */
function matchBytes(s: Uint8Array): boolean {
  const len = s.length;
  if (len > end - pos) return false;
  for (let j = 0; j < len; j++) if (buf[pos + j] !== s[j]) return false;
  pos += len;
  return true;
}

function decodeTuple(p: CodecPlan, b: number, depth: number): Value {
  const n = readArrayLen(b);
  if (n < 0) throw mismatch("tuple", b);
  if (n === 0) return emptyTupleVal; // go-cty: a 0-length array is the empty tuple, whatever the type
  const items = p.items;
  if (n !== items.length) {
    throw new Fail(PathErrorCode.TypeMismatch, `a tuple of ${items.length} elements is required, got ${n}`);
  }
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const arr = new Array<Value>(n);
  let i = 0;
  try {
    for (; i < n; i++) arr[i] = decode(items[i]!, depth + 1);
  } catch (e) {
    withStep(e, { kind: "index", index: i });
  }
  if (!p.dyn) return knownValueUnchecked(p.t, Object.freeze(arr));
  return tupleVal(arr);
}

// ---------------------------------------------------------------------------------------
// Dynamic and unknown

const dynamicPlans = new Map<string, CodecPlan>();

function decodeDynamic(b: number, depth: number): Value {
  const n = readArrayLen(b);
  if (n < 0) {
    if (b === 0xc1) throw invalidByte();
    throw new Fail(PathErrorCode.TypeMismatch, `expected a dynamic value [type, value], got ${describe(b)}`);
  }
  if (n !== 2) throw new Fail(PathErrorCode.TypeMismatch, `a dynamic value must be a 2-element array [type, value], got ${n} elements`);
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  if (pos >= end) throw truncated();
  const tb = buf[pos]!;
  const len = readStrLen(tb);
  if (len < 0) throw mismatch("type JSON (bin or str)", tb);
  const text = utf8Decode(buf, pos, len);
  if (text === undefined) throw new Fail(PathErrorCode.InvalidType, "type JSON is not valid UTF-8");
  pos += len;
  let plan = dynamicPlans.get(text);
  if (plan === undefined) {
    let t: Type;
    try {
      t = typeFromJson(text);
    } catch (e) {
      throw failFrom(e);
    }
    plan = codecPlanFor(t);
    if (dynamicPlans.size >= 1024) dynamicPlans.clear();
    dynamicPlans.set(text, plan);
  }
  return decode(plan, depth + 1);
}

/**
 * Reads an ext header at pos and checks that its payload is present; leaves pos at the
 * payload and returns its length (the ext code is then at pos - 1).
 */
function readExtHeader(b: number): number {
  let len: number;
  let hdr = 1;
  switch (b) {
    case 0xd4:
      len = 1;
      break;
    case 0xd5:
      len = 2;
      break;
    case 0xd6:
      len = 4;
      break;
    case 0xd7:
      len = 8;
      break;
    case 0xd8:
      len = 16;
      break;
    case 0xc7:
      need(2);
      len = buf[pos + 1]!;
      hdr = 2;
      break;
    case 0xc8:
      need(3);
      len = view.getUint16(pos + 1);
      hdr = 3;
      break;
    default:
      need(5);
      len = view.getUint32(pos + 1);
      hdr = 5;
      break;
  }
  if (hdr + 1 + len > end - pos) throw truncatedBy(`an extension value of ${len} bytes`);
  pos += hdr + 1;
  return len;
}

function decodeUnknown(p: CodecPlan, b: number): Value {
  const len = readExtHeader(b);
  const code = buf[pos - 1]!;
  const start = pos;
  pos = start + len;
  if (p.k === K_DYNAMIC) return dynamicVal; // a value of unknown type cannot be refined
  if (code !== 12 || len <= 1 || len > MAX_REFINEMENT_PAYLOAD) return p.unknownValue();
  return decodeRefinements(p, start, start + len);
}

function decodeRefinements(p: CodecPlan, start: number, stop: number): Value {
  const savedPos = pos;
  const savedEnd = end;
  pos = start;
  end = stop;
  const r: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  let isNull = false;
  try {
    const n = readMapLen(byteAt());
    if (n < 0) throw new Fail(PathErrorCode.InvalidValue, "the refinements of an unknown value must be a msgpack map");
    const kind = p.t.kind;
    for (let i = 0; i < n; i++) {
      const key = readRefinementKey();
      switch (key) {
        case 1: {
          const b = byteAt();
          if (b !== 0xc2 && b !== 0xc3) throw badRefinement("the nullness refinement must be a bool");
          pos++;
          if (b === 0xc3) isNull = true;
          else r.notNull = true;
          break;
        }
        case 2:
          if (kind !== "string") throw badRefinement(`a string prefix cannot refine a ${kind}`);
          r.stringPrefix = readString(byteAt(), "string prefix");
          break;
        case 3:
        case 4: {
          if (kind !== "number") throw badRefinement(`a number bound cannot refine a ${kind}`);
          if (readArrayLen(byteAt()) !== 2) throw badRefinement("a number bound must be a [number, bool] array");
          const nb = byteAt();
          if (nb === 0xc0 || (nb >= 0xd4 && nb <= 0xd8) || (nb >= 0xc7 && nb <= 0xc9)) {
            throw badRefinement("a number bound must be a known number");
          }
          const value = decodeNumber(nb).asNumber();
          const ib = byteAt();
          if (ib !== 0xc2 && ib !== 0xc3) throw badRefinement("a number bound must be a [number, bool] array");
          pos++;
          const bound = { value, inclusive: ib === 0xc3 };
          if (key === 3) r.numberLowerBound = bound;
          else r.numberUpperBound = bound;
          break;
        }
        case 5:
        case 6: {
          if (kind !== "list" && kind !== "set" && kind !== "map") {
            throw badRefinement(`a length bound cannot refine a ${kind}`);
          }
          const bound = readRefinementKey();
          if (!Number.isSafeInteger(bound) || bound < 0) throw badRefinement("a length bound must be a non-negative integer");
          if (key === 5) r.lengthLowerBound = bound;
          else r.lengthUpperBound = bound;
          break;
        }
        default:
          skip(0); // a refinement from a newer cty: ignore it
      }
    }
    // Bytes after the map are ignored, as go-cty does (reserved for future use).
  } finally {
    pos = savedPos;
    end = savedEnd;
  }
  if (isNull) return p.nullValue; // "definitely null": go-cty collapses it to a null
  try {
    return unknownVal(p.t, r);
  } catch (e) {
    throw failFrom(e);
  }
}

function byteAt(): number {
  if (pos >= end) throw truncated();
  return buf[pos]!;
}

/** An integer of any msgpack int form (as a double: exact up to 2^53, which is all that matters here). */
function readRefinementKey(): number {
  const b = byteAt();
  if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xcf) || (b >= 0xd0 && b <= 0xd3)) {
    return decodeNumber(b).asNumber().toNumber();
  }
  throw badRefinement(`refinement keys and length bounds must be integers, got ${describe(b)}`);
}

function badRefinement(reason: string): Fail {
  return new Fail(PathErrorCode.InvalidValue, `invalid unknown-value refinement: ${reason}`);
}

/** Skips one msgpack value of any kind (unknown refinement entries). */
function skip(depth: number): void {
  if (depth >= MSGPACK_MAX_DEPTH) throw tooDeep();
  const b = byteAt();
  if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) {
    pos++;
    return;
  }
  const s = readStrLen(b);
  if (s >= 0) {
    pos += s;
    return;
  }
  const a = readArrayLen(b);
  if (a >= 0) {
    for (let i = 0; i < a; i++) skip(depth + 1);
    return;
  }
  const m = readMapLen(b);
  if (m >= 0) {
    for (let i = 0; i < 2 * m; i++) skip(depth + 1);
    return;
  }
  const f = FIXED_SIZES[b];
  if (f !== undefined) {
    need(f);
    pos += f;
    return;
  }
  if ((b >= 0xd4 && b <= 0xd8) || (b >= 0xc7 && b <= 0xc9)) {
    pos += readExtHeader(b);
    return;
  }
  throw invalidByte();
}

/** Total sizes of the fixed-size numeric forms. */
const FIXED_SIZES: Readonly<Record<number, number>> = {
  0xcc: 2,
  0xcd: 3,
  0xce: 5,
  0xcf: 9,
  0xd0: 2,
  0xd1: 3,
  0xd2: 5,
  0xd3: 9,
  0xca: 5,
  0xcb: 9,
};

// ---------------------------------------------------------------------------------------
// Errors

function need(n: number): void {
  if (end - pos < n) throw truncated();
}

function truncated(): Fail {
  return new Fail(PathErrorCode.MalformedMsgpack, "unexpected end of msgpack input");
}

function truncatedBy(what: string): Fail {
  return new Fail(PathErrorCode.MalformedMsgpack, `unexpected end of msgpack input: ${what} declared, ${end - pos} bytes left`);
}

function tooDeep(): Fail {
  return new Fail(PathErrorCode.MalformedMsgpack, `msgpack input is nested deeper than ${MSGPACK_MAX_DEPTH} levels`);
}

function invalidByte(): Fail {
  return new Fail(PathErrorCode.MalformedMsgpack, "invalid msgpack byte 0xc1 (reserved)");
}

function mismatch(expected: string, b: number): Fail {
  if (b === 0xc1) return invalidByte();
  return new Fail(PathErrorCode.TypeMismatch, `expected ${expected}, got ${describe(b)}`);
}

/** What a msgpack header byte starts, in words. */
function describe(b: number): string {
  if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3)) return "integer";
  if ((b & 0xf0) === 0x80 || b === 0xde || b === 0xdf) return "map";
  if ((b & 0xf0) === 0x90 || b === 0xdc || b === 0xdd) return "array";
  if ((b & 0xe0) === 0xa0 || (b >= 0xd9 && b <= 0xdb)) return "string";
  switch (b) {
    case 0xc0:
      return "nil";
    case 0xc2:
    case 0xc3:
      return "bool";
    case 0xc4:
    case 0xc5:
    case 0xc6:
      return "binary";
    case 0xca:
    case 0xcb:
      return "float";
    case 0xc1:
      return "invalid byte 0xc1";
    default:
      return "extension";
  }
}

function viaCore(f: () => Value): Value {
  try {
    return f();
  } catch (e) {
    throw failFrom(e);
  }
}
