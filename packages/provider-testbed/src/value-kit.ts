import {
  TypeKind,
  boolVal,
  listValEmpty,
  mapValEmpty,
  numberVal,
  objectVal,
  setValEmpty,
  stringVal,
  CtyNumber,
  type Type,
  type Value,
} from "@magma/cty";
import { toJson } from "@magma/cty";
import { stableHash } from "./stable-hash.js";

/** Replaces some attributes of a known object value. @internal */
export function withAttrs(obj: Value, replace: Readonly<Record<string, Value>>): Value {
  return objectVal({ ...obj.attributes(), ...replace });
}

/** True when `v` is known and not null. @internal */
export function isSet(v: Value): boolean {
  return v.isKnown() && !v.isNull();
}

/** The canonical JSON of a wholly known value (its type's JSON), or `undefined` while any part is unknown. @internal */
export function canonical(v: Value): string | undefined {
  if (!v.isWhollyKnown()) return undefined;
  return toJson(v, v.type);
}

/** A small whole number (0–999) derived from a seed. @internal */
export function hashNumber(seed: string): Value {
  return numberVal(CtyNumber.from(BigInt(Number.parseInt(stableHash(seed).slice(0, 6), 16) % 1000)));
}

/**
 * Replaces every unknown in `v` by a value derived from `seed` and the path to it: strings
 * `tb-<hash>`, numbers 0–999, bools from the hash's parity, unknown collections empty and
 * unknown objects attribute by attribute. The apply of every testbed resource fills its plan
 * with this, so each value is a pure function of the configuration.
 * @internal
 */
export function fillUnknowns(v: Value, seed: string, path = ""): Value {
  if (!v.isKnown()) return derive(v.type, `${seed}${path}`, path);
  if (v.isNull()) return v;
  const t = v.type;
  switch (t.kind) {
    case TypeKind.Object: {
      const out: Record<string, Value> = {};
      for (const [k, a] of Object.entries(v.attributes())) out[k] = fillUnknowns(a, seed, `${path}.${k}`);
      return objectVal(out);
    }
    default:
      // Collections of the testbed's schemas are known whenever their container is (the
      // planned nested objects carry their own computed values).
      return v;
  }
}

function derive(t: Type, seed: string, path: string): Value {
  switch (t.kind) {
    case TypeKind.String:
      return stringVal(`tb-${stableHash(seed)}`);
    case TypeKind.Number:
      return hashNumber(seed);
    case TypeKind.Bool:
      return boolVal(Number.parseInt(stableHash(seed).slice(-1), 16) % 2 === 0);
    case TypeKind.List:
      return listValEmpty(t.element);
    case TypeKind.Set:
      return setValEmpty(t.element);
    case TypeKind.Map:
      return mapValEmpty(t.element);
    case TypeKind.Object: {
      const out: Record<string, Value> = {};
      for (const [k, at] of Object.entries(t.attributes)) out[k] = derive(at, `${seed}.${k}`, `${path}.${k}`);
      return objectVal(out);
    }
    default:
      throw new Error(`testbed: cannot derive a value of type ${t.kind} at ${path || "the root"}`);
  }
}
