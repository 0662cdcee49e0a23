import { KNOWN } from "../internal/value-state.js";
import type { CtyNumber } from "../number.js";
import type { Type } from "../type.js";
import type { Value } from "../value.js";
import { fromMsgpack } from "./from-msgpack.js";
import { toMsgpack } from "./to-msgpack.js";

/**
 * A value as go-cty's msgpack gives it back (`fromMsgpack(toMsgpack(value, type), type)`),
 * which is what Terraform's plan and every provider see: negative zero becomes 0, a whole
 * number of a float64's precision becomes an integer (one beyond int64 becomes the number its
 * 53-bit text denotes: `pow(2, 64)` becomes 18446744073709550000), and a non-integer that is
 * exactly a float64 takes a float64's precision. Everything else is unchanged, and a value
 * with no such number is returned as it is, without encoding it; so is a value with marks
 * (which msgpack does not carry: unmark it first).
 *
 * @throws {@link PathError} as {@link toMsgpack} does, for a value that does not conform to `type`.
 */
export function msgpackNormalForm(value: Value, type: Type = value.type): Value {
  return changesThroughMsgpack(value) && !value.containsMarked() ? fromMsgpack(toMsgpack(value, type), type) : value;
}

function changesThroughMsgpack(v: Value): boolean {
  if (v._s !== KNOWN) return false;
  const p = v._v;
  switch (v.type.kind) {
    case "number":
      return numberChanges(p as CtyNumber);
    case "string":
    case "bool":
      return false;
    case "map":
      for (const e of (p as ReadonlyMap<string, Value>).values()) if (changesThroughMsgpack(e)) return true;
      return false;
    case "list":
    case "set":
    case "tuple":
    case "object":
      for (const e of p as readonly Value[]) if (changesThroughMsgpack(e)) return true;
      return false;
    default:
      return false;
  }
}

function numberChanges(n: CtyNumber): boolean {
  if (n.isInfinite()) return false;
  if (n.isNegativeZero()) return true;
  if (n.isFloat64Precision()) return n.isInteger();
  return n.isFloat64() && !n.isInteger();
}
