import { typeToJson } from "../type-json.js";
import { hasDynamicTypes, type Type } from "../type.js";
import { nullVal, unknownVal } from "../construction.js";
import type { Value } from "../value.js";
import { utf8Encode } from "./utf8.js";

/** Kind codes of a {@link CodecPlan}: small integers so that hot switches compile to jump tables. */
export const K_STRING = 0;
export const K_NUMBER = 1;
export const K_BOOL = 2;
export const K_DYNAMIC = 3;
export const K_LIST = 4;
export const K_SET = 5;
export const K_MAP = 6;
export const K_OBJECT = 7;
export const K_TUPLE = 8;

const KIND_CODE = {
  string: K_STRING,
  number: K_NUMBER,
  bool: K_BOOL,
  dynamic: K_DYNAMIC,
  list: K_LIST,
  set: K_SET,
  map: K_MAP,
  object: K_OBJECT,
  tuple: K_TUPLE,
} as const;

/**
 * A type compiled once for the codecs: the kind as a small integer, child plans, object
 * attribute names pre-encoded as msgpack str bytes, and whether the type has dynamic parts.
 * Plans are cached per type object, so a schema type reused across calls compiles once.
 * @internal
 */
export class CodecPlan {
  readonly k: number;
  readonly t: Type;
  /**
   * True when a decoded value's type cannot simply be this type: the type is or contains
   * the dynamic pseudo-type (the value's type then comes from its contents) or carries
   * optional-attribute markers (type constraints only; value types never have them).
   */
  readonly dyn: boolean;
  /** Element plan of a list, set or map (else undefined). */
  el: CodecPlan | undefined = undefined;
  /** Element plans of a tuple, attribute plans of an object (in attributeNames order). */
  items: CodecPlan[] = [];
  /** Object attribute names, in attributeNames (UTF-8) order. */
  names: readonly string[] = [];
  /** Each attribute name as a complete msgpack str (header + UTF-8 bytes). */
  nameStr: Uint8Array[] = [];
  /** Attribute name -> index. */
  nameIndex: Map<string, number> | undefined = undefined;
  /** The null value of this type (values are immutable, so it is shared). */
  readonly nullValue: Value;
  /** The type as type JSON (UTF-8 bytes), for dynamic wrappers. */
  private jsonBytes: Uint8Array | undefined = undefined;
  private unknown: Value | undefined = undefined;

  constructor(t: Type) {
    this.t = t;
    this.k = KIND_CODE[t.kind];
    this.dyn = hasDynamicTypes(t) || hasOptionalMarkers(t);
    this.nullValue = nullVal(t);
  }

  /** The unrefined unknown value of this type (shared). */
  unknownValue(): Value {
    this.unknown ??= unknownVal(this.t);
    return this.unknown;
  }

  /** The type JSON of this plan's type, encoded as UTF-8. */
  typeJson(): Uint8Array {
    this.jsonBytes ??= utf8Encode(typeToJson(this.t));
    return this.jsonBytes;
  }
}

const cache = new WeakMap<Type, CodecPlan>();

/**
 * The plan of a type, compiled on first use and cached per type object.
 * @internal
 */
export function codecPlanFor(t: Type): CodecPlan {
  let p = cache.get(t);
  if (p === undefined) {
    p = compile(t);
  }
  return p;
}

function compile(t: Type): CodecPlan {
  const p = new CodecPlan(t);
  // Cache before compiling children: types are trees, but this keeps the cost linear even
  // when the same type object is shared by many attributes.
  cache.set(t, p);
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      p.el = codecPlanFor(t.element);
      break;
    case "tuple":
      p.items = t.elements.map(codecPlanFor);
      break;
    case "object": {
      p.names = t.attributeNames;
      p.items = t.attributeNames.map((n) => codecPlanFor(t.attributes[n]!));
      p.nameStr = t.attributeNames.map(msgpackStr);
      p.nameIndex = new Map(t.attributeNames.map((n, i) => [n, i]));
      break;
    }
    default:
      break;
  }
  return p;
}

function hasOptionalMarkers(t: Type): boolean {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return hasOptionalMarkers(t.element);
    case "tuple":
      return t.elements.some(hasOptionalMarkers);
    case "object":
      return t.optional.size > 0 || t.attributeNames.some((n) => hasOptionalMarkers(t.attributes[n]!));
    default:
      return false;
  }
}

/** A string as a complete msgpack str value (used for pre-encoded attribute names). */
function msgpackStr(s: string): Uint8Array {
  const body = utf8Encode(s);
  const n = body.length;
  let head: number[];
  if (n < 32) head = [0xa0 | n];
  else if (n < 256) head = [0xd9, n];
  else if (n < 65536) head = [0xda, n >>> 8, n & 0xff];
  else head = [0xdb, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const out = new Uint8Array(head.length + n);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}
