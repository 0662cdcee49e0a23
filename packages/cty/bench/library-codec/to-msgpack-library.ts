// toMsgpack with the byte layer of @msgpack/msgpack: the value is turned into the plain JS
// tree that the library's Encoder writes with the same wire choices as go-cty (see
// src/msgpack/to-msgpack.ts for the rules), unknowns as extensions through ctyExtensionCodec.
//
// Wire details and how the tree makes the library meet them:
// - integers: the library writes safe integers in [-2^31, 2^32) in the smallest form; wider
//   int64 values go as bigint (useBigInt64), which it writes as uint64 (>= 0) or int64 (< 0),
//   as vmihailenco does for those magnitudes;
// - non-integers and ±Inf as float64 (forceFloat32 off); other numbers as their decimal text;
// - maps and objects as null-prototype objects, keys in the wanted order. Keys that look like
//   array indices ("0", "17") are enumerated first by JavaScript whatever the insertion
//   order, so such a map goes through a Proxy that reports the keys in cty's order;
// - the dynamic type's type JSON as a Uint8Array (bin).

import { Encoder } from "@msgpack/msgpack";
import { type CtyNumber } from "../../src/number.js";
import { PathError, PathErrorCode } from "../../src/path-error.js";
import { Path } from "../../src/path.js";
import { type Type } from "../../src/type.js";
import { Value, type Refinements } from "../../src/value.js";
import { Fail, withStep } from "../../src/msgpack/fail.js";
import { K_BOOL, K_DYNAMIC, K_LIST, K_MAP, K_NUMBER, K_OBJECT, K_SET, K_STRING, K_TUPLE, planFor, type Plan } from "../../src/msgpack/plan.js";
import { ctyExtensionCodec, RefinedPayload, UNKNOWN_MARK } from "./library-ext.js";

const MAX_DEPTH = 1000;
const NULL = 1;

type Tree = null | boolean | number | bigint | string | Uint8Array | typeof UNKNOWN_MARK | RefinedPayload | Tree[] | { [k: string]: Tree };

const encoder = new Encoder({ extensionCodec: ctyExtensionCodec, useBigInt64: true, maxDepth: 4 * MAX_DEPTH, initialBufferSize: 64 * 1024 });
const payloadEncoder = new Encoder({ extensionCodec: ctyExtensionCodec, useBigInt64: true, initialBufferSize: 256 });

/** {@link toMsgpack} on @msgpack/msgpack: the same bytes and the same errors. @internal */
export function toMsgpackLibrary(value: Value, type: Type): Uint8Array {
  if (!(value instanceof Value)) {
    throw new PathError(PathErrorCode.TypeMismatch, Path.root, "toMsgpack needs a cty Value");
  }
  let tree: Tree;
  try {
    tree = build(value, planFor(type), 0);
  } catch (e) {
    if (e instanceof Fail) throw e.toPathError();
    throw e;
  }
  return encoder.encode(tree);
}

function build(v: Value, p: Plan, depth: number): Tree {
  const vt = v.type;
  if (p.k === K_DYNAMIC) {
    if (vt.kind === "dynamic") return v._s === NULL ? null : UNKNOWN_MARK;
    if (depth >= MAX_DEPTH) throw tooDeep();
    const vp = planFor(vt);
    return [vp.typeJson(), build(v, vp, depth + 1)];
  }
  const s = v._s;
  if (s !== 0) {
    if (vt !== p.t && !conforms(vt, p.t)) throw mismatch(p.t, vt);
    if (s === NULL) return null;
    return unknown(v._v as Refinements | undefined, p.t);
  }
  switch (p.k) {
    case K_STRING:
      if (vt.kind !== "string") throw mismatch(p.t, vt);
      return v._v as string;
    case K_NUMBER:
      if (vt.kind !== "number") throw mismatch(p.t, vt);
      return number(v._v as CtyNumber);
    case K_BOOL:
      if (vt.kind !== "bool") throw mismatch(p.t, vt);
      return v._v === true;
    case K_LIST:
    case K_SET: {
      if (vt.kind !== p.t.kind) throw mismatch(p.t, vt);
      const arr = v._v as readonly Value[];
      const n = arr.length;
      if (n === 0) {
        if (vt !== p.t && !conforms(vt, p.t)) throw mismatch(p.t, vt);
        return [];
      }
      if (depth >= MAX_DEPTH) throw tooDeep();
      const el = p.el!;
      const out: Tree[] = new Array<Tree>(n);
      let i = 0;
      try {
        for (; i < n; i++) out[i] = build(arr[i]!, el, depth + 1);
      } catch (e) {
        if (p.k === K_LIST) withStep(e, { kind: "index", index: i });
        throw e;
      }
      return out;
    }
    case K_MAP: {
      if (vt.kind !== "map") throw mismatch(p.t, vt);
      const m = v._v as ReadonlyMap<string, Value>;
      if (m.size === 0) {
        if (vt !== p.t && !conforms(vt, p.t)) throw mismatch(p.t, vt);
        return {};
      }
      if (depth >= MAX_DEPTH) throw tooDeep();
      const el = p.el!;
      const out = Object.create(null) as { [k: string]: Tree };
      let indexLike = false;
      for (const [key, e] of m) {
        try {
          out[key] = build(e, el, depth + 1);
        } catch (err) {
          withStep(err, { kind: "key", key });
        }
        if (!indexLike && isIndexLike(key)) indexLike = true;
      }
      return indexLike ? ordered(out, [...m.keys()]) : out;
    }
    case K_OBJECT: {
      if (vt.kind !== "object") throw mismatch(p.t, vt);
      const names = p.names;
      const count = names.length;
      if (vt !== p.t) checkAttributeNames(vt.attributeNames, names);
      if (count === 0) return {};
      if (depth >= MAX_DEPTH) throw tooDeep();
      const vals = v._v as readonly Value[];
      const items = p.items;
      const out = Object.create(null) as { [k: string]: Tree };
      let indexLike = false;
      let i = 0;
      try {
        for (; i < count; i++) {
          const name = names[i]!;
          out[name] = build(vals[i]!, items[i]!, depth + 1);
          if (!indexLike && isIndexLike(name)) indexLike = true;
        }
      } catch (e) {
        withStep(e, { kind: "attr", name: names[i]! });
      }
      return indexLike ? ordered(out, names) : out;
    }
    case K_TUPLE: {
      if (vt.kind !== "tuple") throw mismatch(p.t, vt);
      const items = p.items;
      const arr = v._v as readonly Value[];
      if (arr.length !== items.length) throw mismatch(p.t, vt);
      if (items.length === 0) return [];
      if (depth >= MAX_DEPTH) throw tooDeep();
      const out: Tree[] = new Array<Tree>(items.length);
      let i = 0;
      try {
        for (; i < items.length; i++) out[i] = build(arr[i]!, items[i]!, depth + 1);
      } catch (e) {
        withStep(e, { kind: "index", index: i });
      }
      return out;
    }
    default:
      throw new Error(`unreachable plan kind ${p.k}`);
  }
}

/** A canonical array index, which JavaScript enumerates before every other key. */
function isIndexLike(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 0x30 || c > 0x39) return false;
  return String(Number(key) >>> 0) === key && key !== "4294967295";
}

/** A map whose keys the Encoder (Object.keys) sees in the given order. */
function ordered(target: { [k: string]: Tree }, keys: readonly string[]): { [k: string]: Tree } {
  const list = [...keys];
  return new Proxy(target, { ownKeys: () => list });
}

const INT64_LIMIT = 9223372036854775808;

/** go-cty's number rule, as the tree the Encoder writes in the right form. */
function number(n: CtyNumber): Tree {
  if (n._c === undefined) {
    const f = n._f;
    if (Number.isInteger(f)) {
      if (f >= -2147483648 && f <= 0xffffffff) return f;
      if (f >= -INT64_LIMIT && f < INT64_LIMIT) return BigInt(f);
      return n.toString();
    }
    return f;
  }
  if (n.isInt64()) {
    const i = n.toBigInt();
    return i >= -2147483648n && i <= 0xffffffffn ? Number(i) : i;
  }
  return n.toString();
}

function unknown(r: Refinements | undefined, t: Type): Tree {
  if (r === undefined) return UNKNOWN_MARK;
  // go-cty's refinement map: integer keys in this order, only the refinements that apply.
  const keys: number[] = [];
  const vals: Tree[] = [];
  if (r.notNull === true) {
    keys.push(1);
    vals.push(false);
  }
  if (t.kind === "number") {
    if (r.numberLowerBound !== undefined) {
      keys.push(3);
      vals.push([number(r.numberLowerBound.value), r.numberLowerBound.inclusive]);
    }
    if (r.numberUpperBound !== undefined) {
      keys.push(4);
      vals.push([number(r.numberUpperBound.value), r.numberUpperBound.inclusive]);
    }
  } else if (t.kind === "string") {
    if (r.stringPrefix !== undefined && r.stringPrefix !== "") {
      keys.push(2);
      vals.push(r.stringPrefix);
    }
  } else if (t.kind === "list" || t.kind === "set" || t.kind === "map") {
    if (r.lengthLowerBound !== undefined && r.lengthLowerBound !== 0) {
      keys.push(5);
      vals.push(r.lengthLowerBound);
    }
    if (r.lengthUpperBound !== undefined) {
      keys.push(6);
      vals.push(r.lengthUpperBound);
    }
  }
  if (keys.length === 0) return UNKNOWN_MARK;
  // Integer keys are array indices to JavaScript: insertion order is lost, so the map is
  // written as an object whose keys a Proxy lists in go-cty's order; its keys are then
  // written as strings, so the payload is assembled from an array of [key, value] pairs.
  const parts: Uint8Array[] = [new Uint8Array([0x80 | keys.length])];
  let size = 1;
  for (let i = 0; i < keys.length; i++) {
    const kb = payloadEncoder.encode(keys[i]!);
    const vb = payloadEncoder.encode(vals[i]!);
    parts.push(kb, vb);
    size += kb.length + vb.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new RefinedPayload(bytes);
}

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
      return vt.kind === "tuple" && vt.elements.length === pt.elements.length && vt.elements.every((e, i) => conforms(e, pt.elements[i]!));
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
  if (have.length === want.length && have.every((n, i) => n === want[i])) return;
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
