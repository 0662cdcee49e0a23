// The msgpack encoder: cty Values straight to bytes, byte-identical to go-cty's Marshal
// (go-cty >= 1.14.4 with vmihailenco/msgpack v5, as in Terraform 1.11).
//
// Why a hand-written writer instead of @msgpack/msgpack: measured (docs/compatibility.md,
// re-measured by bench/msgpack-codec-compare.mjs): the same encoder on the library's Encoder
// writes the same bytes but takes 1.8x the instructions and about 2x the time, because the
// Values must first become a plain JS tree (allocated a second time) and the library cannot
// take pre-encoded attribute names. go-cty's bytes also depend on exact wire choices (the
// smallest int form, float64 never float32, str8 from 32 bytes, bin for type JSON, ext
// headers sized like vmihailenco's EncodeExtHeader) that a generic encoder only meets by luck.

import { type CtyNumber } from "../number.js";
import { PathError, PathErrorCode } from "../path-error.js";
import { Path } from "../path.js";
import { type Type } from "../type.js";
import type { Refinements } from "../refinements.js";
import { Value } from "../value.js";
import { Fail, withStep } from "./fail.js";
import { K_BOOL, K_DYNAMIC, K_LIST, K_MAP, K_NUMBER, K_OBJECT, K_SET, K_STRING, K_TUPLE, codecPlanFor, type CodecPlan } from "./codec-plan.js";
import { textEncoder } from "./utf8.js";

/** Deepest nesting {@link toMsgpack} writes before failing with `invalid_value`. */
const MAX_DEPTH = 1000;

const NULL = 1;
const INITIAL_SIZE = 64 * 1024;
const KEEP_SIZE = 4 * 1024 * 1024;

// Writer state: one scratch buffer reused across calls (the result is a copy).
let scratch = new Uint8Array(INITIAL_SIZE);
let scratchView = new DataView(scratch.buffer);
let out = scratch;
let ov = scratchView;
let wpos = 0;

/**
 * Encodes a value as go-cty's `msgpack.Marshal(value, type)` does, byte for byte:
 *
 * - objects with every attribute, keys in UTF-8 byte order (pre-sorted by the type); map keys
 *   sorted; sets in the value's order; tuples and lists in order;
 * - numbers: a whole number within int64 as the smallest msgpack int (positive fixint,
 *   uint8/16/32/64, negative fixint, int8/16/32/64), a non-integer that is exactly a float64
 *   as float64 (`cb`, never float32), anything else (whole numbers beyond int64, decimals
 *   such as 0.1) as the decimal string `CtyNumber.toString()`, ±Inf as float64;
 * - strings as fixstr, str8 (32..255 bytes), str16 or str32;
 * - an unknown as `d4 00 00`, a refined unknown as ext 12 with go-cty's refinement map;
 * - the dynamic type as `[bin(type JSON), value]`; a null of dynamic type as `c0` and an
 *   unknown of dynamic type as `d4 00 00`.
 *
 * Marks are not written: the unmarked value is encoded.
 *
 * @throws {@link PathError} with code `type_mismatch` (and the path) when the value does not
 * conform to the type. Unlike go-cty, no conversion is attempted: convert first with the
 * convert module when that is wanted. `invalid_value` for nesting deeper than 1000 levels.
 */
export function toMsgpack(value: Value, type: Type): Uint8Array {
  if (!(value instanceof Value)) {
    throw new PathError(PathErrorCode.TypeMismatch, Path.root, "toMsgpack needs a cty Value");
  }
  const plan = codecPlanFor(type);
  // toMsgpack never calls back into user code, so it is never re-entered: the scratch
  // buffer is free here.
  out = scratch;
  ov = scratchView;
  wpos = 0;
  try {
    enc(value, plan, 0);
    return out.slice(0, wpos);
  } catch (e) {
    if (e instanceof Fail) throw e.toPathError();
    throw e;
  } finally {
    // Keep a grown buffer for the next call unless it became very large.
    if (out.length <= KEEP_SIZE) {
      scratch = out;
      scratchView = ov;
    }
  }
}

function enc(v: Value, p: CodecPlan, depth: number): void {
  const vt = v.type;
  if (p.k === K_DYNAMIC) {
    if (vt.kind === "dynamic") {
      // Only a null or an unknown can have the dynamic type.
      if (v._s === NULL) writeByte(0xc0);
      else writeUnknownPlain();
      return;
    }
    if (depth >= MAX_DEPTH) throw tooDeep();
    const vp = codecPlanFor(vt);
    const json = vp.typeJson();
    ensure(6 + json.length);
    out[wpos++] = 0x92;
    writeBinHeader(json.length);
    out.set(json, wpos);
    wpos += json.length;
    enc(v, vp, depth + 1);
    return;
  }
  const s = v._s;
  if (s !== 0) {
    if (vt !== p.t && !conforms(vt, p.t)) throw mismatch(p.t, vt);
    if (s === NULL) writeByte(0xc0);
    else writeUnknown(v._v as Refinements | undefined, p.t);
    return;
  }
  switch (p.k) {
    case K_STRING:
      if (vt.kind !== "string") throw mismatch(p.t, vt);
      writeString(v._v as string);
      return;
    case K_NUMBER:
      if (vt.kind !== "number") throw mismatch(p.t, vt);
      writeNumber(v._v as CtyNumber);
      return;
    case K_BOOL:
      if (vt.kind !== "bool") throw mismatch(p.t, vt);
      writeByte(v._v === true ? 0xc3 : 0xc2);
      return;
    case K_LIST:
    case K_SET: {
      if (vt.kind !== p.t.kind) throw mismatch(p.t, vt);
      const arr = v._v as readonly Value[];
      const n = arr.length;
      writeArrayHeader(n);
      if (n === 0) {
        if (vt !== p.t && !conforms(vt, p.t)) throw mismatch(p.t, vt);
        return;
      }
      if (depth >= MAX_DEPTH) throw tooDeep();
      const el = p.el!;
      let i = 0;
      try {
        for (; i < n; i++) enc(arr[i]!, el, depth + 1);
      } catch (e) {
        // Set elements are not addressable: a failure inside a set is reported at the set.
        if (p.k === K_LIST) withStep(e, { kind: "index", index: i });
        throw e;
      }
      return;
    }
    case K_MAP: {
      if (vt.kind !== "map") throw mismatch(p.t, vt);
      const m = v._v as ReadonlyMap<string, Value>;
      writeMapHeader(m.size);
      if (m.size === 0) {
        if (vt !== p.t && !conforms(vt, p.t)) throw mismatch(p.t, vt);
        return;
      }
      if (depth >= MAX_DEPTH) throw tooDeep();
      const el = p.el!;
      for (const [key, e] of m) {
        writeString(key);
        try {
          enc(e, el, depth + 1);
        } catch (err) {
          withStep(err, { kind: "key", key });
        }
      }
      return;
    }
    case K_OBJECT: {
      if (vt.kind !== "object") throw mismatch(p.t, vt);
      const names = p.names;
      const count = names.length;
      if (vt !== p.t) checkAttributeNames(vt.attributeNames, names);
      writeMapHeader(count);
      if (count === 0) return;
      if (depth >= MAX_DEPTH) throw tooDeep();
      const vals = v._v as readonly Value[];
      const items = p.items;
      const nameStr = p.nameStr;
      let i = 0;
      try {
        for (; i < count; i++) {
          const ns = nameStr[i]!;
          ensure(ns.length);
          out.set(ns, wpos);
          wpos += ns.length;
          enc(vals[i]!, items[i]!, depth + 1);
        }
      } catch (e) {
        withStep(e, { kind: "attr", name: names[i]! });
      }
      return;
    }
    case K_TUPLE: {
      if (vt.kind !== "tuple") throw mismatch(p.t, vt);
      const items = p.items;
      const arr = v._v as readonly Value[];
      if (arr.length !== items.length) throw mismatch(p.t, vt);
      writeArrayHeader(items.length);
      if (items.length === 0) return;
      if (depth >= MAX_DEPTH) throw tooDeep();
      let i = 0;
      try {
        for (; i < items.length; i++) enc(arr[i]!, items[i]!, depth + 1);
      } catch (e) {
        withStep(e, { kind: "index", index: i });
      }
      return;
    }
    default:
      throw new Error(`unreachable plan kind ${p.k}`);
  }
}

/**
 * Whether a value's type fits the schema type, for nulls, unknowns and empty collections
 * (whose contents cannot be checked one by one). The dynamic type on either side fits
 * anything; optional-attribute markers are ignored.
 */
function conforms(vt: Type, pt: Type): boolean {
  if (vt === pt || vt.kind === "dynamic" || pt.kind === "dynamic") return true;
  switch (pt.kind) {
    case "string":
    case "number":
    case "bool":
      return vt.kind === pt.kind;
    case "list":
    case "set":
    case "map":
      return vt.kind === pt.kind && conforms(vt.element, pt.element);
    case "tuple":
      return (
        vt.kind === "tuple" &&
        vt.elements.length === pt.elements.length &&
        vt.elements.every((e, i) => conforms(e, pt.elements[i]!))
      );
    case "object": {
      if (vt.kind !== "object" || vt.attributeNames.length !== pt.attributeNames.length) return false;
      for (const n of pt.attributeNames) {
        const a = vt.attributes[n];
        if (a === undefined || !conforms(a, pt.attributes[n]!)) return false;
      }
      return true;
    }
  }
}

function checkAttributeNames(have: readonly string[], want: readonly string[]): void {
  if (have.length === want.length) {
    let same = true;
    for (let i = 0; i < want.length; i++) {
      if (have[i] !== want[i]) {
        same = false;
        break;
      }
    }
    if (same) return;
  }
  const haveSet = new Set(have);
  for (const n of want) {
    if (!haveSet.has(n)) {
      const f = new Fail(PathErrorCode.TypeMismatch, `attribute ${JSON.stringify(n)} is required`);
      f.steps.push({ kind: "attr", name: n });
      throw f;
    }
  }
  const wantSet = new Set(want);
  for (const n of have) {
    if (!wantSet.has(n)) {
      const f = new Fail(PathErrorCode.TypeMismatch, `unsupported attribute ${JSON.stringify(n)}`);
      f.steps.push({ kind: "attr", name: n });
      throw f;
    }
  }
}

function mismatch(want: Type, have: Type): Fail {
  return new Fail(PathErrorCode.TypeMismatch, `expected ${describeType(want)}, got ${describeType(have)}`);
}

function describeType(t: Type): string {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${describeType(t.element)}`;
    case "object":
      return t.attributeNames.length === 0 ? "object" : `object with attributes ${t.attributeNames.map((n) => JSON.stringify(n)).join(", ")}`;
    case "tuple":
      return `tuple of ${t.elements.length} elements`;
    default:
      return t.kind;
  }
}

function tooDeep(): Fail {
  return new Fail(PathErrorCode.InvalidValue, `value is nested deeper than ${MAX_DEPTH} levels`);
}

// ---------------------------------------------------------------------------------------
// Writer

function ensure(n: number): void {
  if (wpos + n <= out.length) return;
  let size = out.length * 2;
  while (size < wpos + n) size *= 2;
  const next = new Uint8Array(size);
  next.set(out.subarray(0, wpos));
  out = next;
  ov = new DataView(out.buffer);
}

function writeByte(b: number): void {
  ensure(1);
  out[wpos++] = b;
}

function writeUnknownPlain(): void {
  ensure(3);
  out[wpos] = 0xd4;
  out[wpos + 1] = 0;
  out[wpos + 2] = 0;
  wpos += 3;
}

function writeArrayHeader(n: number): void {
  ensure(5);
  if (n < 16) {
    out[wpos++] = 0x90 | n;
  } else if (n < 65536) {
    out[wpos] = 0xdc;
    ov.setUint16(wpos + 1, n);
    wpos += 3;
  } else {
    out[wpos] = 0xdd;
    ov.setUint32(wpos + 1, n);
    wpos += 5;
  }
}

function writeMapHeader(n: number): void {
  ensure(5);
  if (n < 16) {
    out[wpos++] = 0x80 | n;
  } else if (n < 65536) {
    out[wpos] = 0xde;
    ov.setUint16(wpos + 1, n);
    wpos += 3;
  } else {
    out[wpos] = 0xdf;
    ov.setUint32(wpos + 1, n);
    wpos += 5;
  }
}

function writeBinHeader(n: number): void {
  ensure(5);
  if (n < 256) {
    out[wpos] = 0xc4;
    out[wpos + 1] = n;
    wpos += 2;
  } else if (n < 65536) {
    out[wpos] = 0xc5;
    ov.setUint16(wpos + 1, n);
    wpos += 3;
  } else {
    out[wpos] = 0xc6;
    ov.setUint32(wpos + 1, n);
    wpos += 5;
  }
}

function strHeaderSize(n: number): number {
  return n < 32 ? 1 : n < 256 ? 2 : n < 65536 ? 3 : 5;
}

function writeStrHeaderAt(at: number, n: number): void {
  if (n < 32) {
    out[at] = 0xa0 | n;
  } else if (n < 256) {
    out[at] = 0xd9;
    out[at + 1] = n;
  } else if (n < 65536) {
    out[at] = 0xda;
    ov.setUint16(at + 1, n);
  } else {
    out[at] = 0xdb;
    ov.setUint32(at + 1, n);
  }
}

function writeString(s: string): void {
  const len = s.length;
  if (len < 32) {
    // ASCII fast path: one header byte, one byte per character. Kept because it is measured
    // faster than TextEncoder on the hot path: ~155 ns against ~870 ns (encodeInto) for a
    // short name or value (medians of 8 interleaved processes each); see the README.
    ensure(1 + len);
    const start = wpos + 1;
    let i = 0;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      out[start + i] = c;
    }
    if (i === len) {
      out[wpos] = 0xa0 | len;
      wpos = start + len;
      return;
    }
  }
  // General case: UTF-8 is at most 3 bytes per UTF-16 unit. Write the body after the
  // largest header it could need, then move it back if the real header is shorter.
  const max = len * 3;
  const hdr = strHeaderSize(max);
  ensure(hdr + max);
  const written = textEncoder.encodeInto(s, out.subarray(wpos + hdr, wpos + hdr + max)).written;
  const real = strHeaderSize(written);
  if (real < hdr) out.copyWithin(wpos + real, wpos + hdr, wpos + hdr + written);
  writeStrHeaderAt(wpos, written);
  wpos += real + written;
}

const TWO_32 = 4294967296;

/** A whole number held exactly in a double, in int64 range, as vmihailenco's EncodeInt. */
function writeInt(f: number): void {
  ensure(9);
  if (f >= 0) {
    if (f <= 0x7f) {
      out[wpos++] = f;
    } else if (f <= 0xff) {
      out[wpos] = 0xcc;
      out[wpos + 1] = f;
      wpos += 2;
    } else if (f <= 0xffff) {
      out[wpos] = 0xcd;
      ov.setUint16(wpos + 1, f);
      wpos += 3;
    } else if (f <= 0xffffffff) {
      out[wpos] = 0xce;
      ov.setUint32(wpos + 1, f);
      wpos += 5;
    } else {
      out[wpos] = 0xcf;
      const hi = Math.floor(f / TWO_32);
      ov.setUint32(wpos + 1, hi);
      ov.setUint32(wpos + 5, f - hi * TWO_32);
      wpos += 9;
    }
  } else if (f >= -32) {
    out[wpos++] = f & 0xff;
  } else if (f >= -128) {
    out[wpos] = 0xd0;
    ov.setInt8(wpos + 1, f);
    wpos += 2;
  } else if (f >= -32768) {
    out[wpos] = 0xd1;
    ov.setInt16(wpos + 1, f);
    wpos += 3;
  } else if (f >= -2147483648) {
    out[wpos] = 0xd2;
    ov.setInt32(wpos + 1, f);
    wpos += 5;
  } else {
    out[wpos] = 0xd3;
    ov.setBigInt64(wpos + 1, BigInt(f));
    wpos += 9;
  }
}

function writeBigInt(i: bigint): void {
  if (i >= -9007199254740992n && i <= 9007199254740992n) {
    writeInt(Number(i));
    return;
  }
  ensure(9);
  if (i > 0n) {
    out[wpos] = 0xcf;
    ov.setBigUint64(wpos + 1, i);
  } else {
    out[wpos] = 0xd3;
    ov.setBigInt64(wpos + 1, i);
  }
  wpos += 9;
}

function writeFloat64(f: number): void {
  ensure(9);
  out[wpos] = 0xcb;
  ov.setFloat64(wpos + 1, f);
  wpos += 9;
}

const INT64_LIMIT = 9223372036854775808; // 2^63, exactly a double

/** go-cty's number rule (>= 1.14.4): int64 -> int; non-integer float64 -> float64; else decimal text. */
function writeNumber(n: CtyNumber): void {
  if (n._c === undefined) {
    const f = n._f;
    if (Number.isInteger(f)) {
      if (f >= -INT64_LIMIT && f < INT64_LIMIT) writeInt(f);
      else writeString(n.toString());
    } else {
      writeFloat64(f); // non-integers and ±Inf
    }
    return;
  }
  if (n.isInt64()) writeBigInt(n.toBigInt());
  else writeString(n.toString());
}

/** An unknown: plain `d4 00 00`, or ext 12 carrying go-cty's refinement map. */
function writeUnknown(r: Refinements | undefined, t: Type): void {
  if (r === undefined) {
    writeUnknownPlain();
    return;
  }
  // Write the payload first (after room for the largest header), then the header.
  const HDR = 6;
  ensure(HDR + 1);
  const at = wpos;
  wpos += HDR;
  const payloadStart = wpos;
  let entries = 0;
  ensure(1);
  wpos++; // map header placeholder (at most 6 entries: a fixmap)
  if (r.notNull === true) {
    writeInt(1);
    writeByte(0xc2); // "not null" is written as nullness = false
    entries++;
  }
  if (t.kind === "number") {
    if (r.numberLowerBound !== undefined) {
      writeInt(3);
      writeArrayHeader(2);
      writeNumber(r.numberLowerBound.value);
      writeByte(r.numberLowerBound.inclusive ? 0xc3 : 0xc2);
      entries++;
    }
    if (r.numberUpperBound !== undefined) {
      writeInt(4);
      writeArrayHeader(2);
      writeNumber(r.numberUpperBound.value);
      writeByte(r.numberUpperBound.inclusive ? 0xc3 : 0xc2);
      entries++;
    }
  } else if (t.kind === "string") {
    if (r.stringPrefix !== undefined && r.stringPrefix !== "") {
      writeInt(2);
      writeString(r.stringPrefix);
      entries++;
    }
  } else if (t.kind === "list" || t.kind === "set" || t.kind === "map") {
    if (r.lengthLowerBound !== undefined && r.lengthLowerBound !== 0) {
      writeInt(5);
      writeInt(r.lengthLowerBound);
      entries++;
    }
    if (r.lengthUpperBound !== undefined) {
      writeInt(6);
      writeInt(r.lengthUpperBound);
      entries++;
    }
  }
  if (entries === 0) {
    wpos = at;
    writeUnknownPlain();
    return;
  }
  out[payloadStart] = 0x80 | entries;
  const len = wpos - payloadStart;
  // vmihailenco's EncodeExtHeader: fixext for 1/2/4/8/16 bytes, else ext8/16/32.
  let hdr: number;
  if (len === 1 || len === 2 || len === 4 || len === 8 || len === 16) hdr = 2;
  else if (len < 256) hdr = 3;
  else if (len < 65536) hdr = 4;
  else hdr = 6;
  const start = at + hdr;
  out.copyWithin(start, payloadStart, wpos);
  switch (hdr) {
    case 2:
      out[at] = len === 1 ? 0xd4 : len === 2 ? 0xd5 : len === 4 ? 0xd6 : len === 8 ? 0xd7 : 0xd8;
      break;
    case 3:
      out[at] = 0xc7;
      out[at + 1] = len;
      break;
    case 4:
      out[at] = 0xc8;
      ov.setUint16(at + 1, len);
      break;
    default:
      out[at] = 0xc9;
      ov.setUint32(at + 1, len);
      break;
  }
  out[start - 1] = 12;
  wpos = start + len;
}
