/**
 * Type conversion functions (`tostring`, `tonumber`, `tobool`, `tolist`, `toset`, `tomap`)
 * and the sensitivity functions: Terraform's `funcs/conversion.go` and `funcs/sensitive.go`.
 *
 * @internal
 * @packageDocumentation
 */

import {
  boolType,
  boolVal,
  canConvert,
  convert,
  dynamicType,
  listType,
  listVal,
  mapType,
  mapVal,
  nullVal,
  objectVal,
  setVal,
  tupleVal,
  numberType,
  setType,
  stringType,
  typeEquals,
  typeName,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import { FunctionArgError, type HclFunction } from "../function.js";
import { param } from "./helpers.js";
import { goQuote } from "./numeric.js";

/** go-cty's `Type.FriendlyNameForConstraint`. */
export function constraintName(t: Type): string {
  switch (t.kind) {
    case "dynamic":
      return "any single type";
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${constraintName(t.element)}`;
    default:
      return typeName(t);
  }
}

function makeTo(want: Type, description: string): HclFunction {
  return {
    description,
    params: [param("v", dynamicType, { allowNull: true, allowMarked: true, allowDynamicType: true })],
    type: (a) => {
      const got = a[0]!.type;
      if (typeEquals(got, want) || got.kind === "dynamic") return want;
      if (!canConvert(got, want)) {
        if (got.kind === "tuple" && want.kind === "tuple") throw new FunctionArgError(0, `incompatible tuple type for conversion`);
        if (got.kind === "object" && want.kind === "object") throw new FunctionArgError(0, `incompatible object type for conversion`);
        throw new FunctionArgError(0, `cannot convert ${typeName(got)} to ${constraintName(want)}`);
      }
      return want;
    },
    impl: (a, t) => {
      try {
        return convert(a[0]!, t);
      } catch (e) {
        const plain = a[0]!.unmarkDeep();
        const sensitive = plain.paths.length > 0;
        const v = plain.value;
        if (v.type.kind === "string" && want.kind === "bool") {
          if (sensitive) throw new FunctionArgError(0, "cannot convert this sensitive string to bool");
          throw new FunctionArgError(0, `cannot convert ${goQuote(v.asString())} to bool; only the strings "true" or "false" are allowed`);
        }
        if (v.type.kind === "string" && want.kind === "number") {
          if (sensitive) throw new FunctionArgError(0, "cannot convert this sensitive string to number");
          throw new FunctionArgError(0, `cannot convert ${goQuote(v.asString())} to number; given string must be a decimal representation of a number`);
        }
        const reason = (e as { reason?: string; message?: string }).reason ?? (e as Error).message;
        const path = (e as { path?: { toString(): string } }).path?.toString() ?? "";
        throw new FunctionArgError(0, path !== "" ? `${path}: ${reason}` : reason);
      }
    },
  };
}

/** Replaces every part of `v` marked `mark` by a null of its type, deeply (other marks stay). */
function nullMarked(v: Value, mark: string): Value {
  const others = [...v.marks].filter((m) => m !== mark);
  if (v.isMarked(mark)) return nullVal(v.type).mark(...others);
  if (!v.isKnown() || v.isNull() || !v.containsMarked()) return v;
  const bare = v.unmark();
  let out: Value;
  switch (v.type.kind) {
    case "list":
      out = listVal(bare.elements().map((e) => nullMarked(e, mark)));
      break;
    case "set":
      out = setVal(bare.elements().map((e) => nullMarked(e, mark)));
      break;
    case "tuple":
      out = tupleVal(bare.elements().map((e) => nullMarked(e, mark)));
      break;
    case "map":
      out = mapVal(new Map([...bare.entries()].map(([k, e]) => [k, nullMarked(e, mark)])));
      break;
    case "object":
      out = objectVal(Object.fromEntries(Object.entries(bare.attributes()).map(([k, e]) => [k, nullMarked(e, mark)])));
      break;
    default:
      return v;
  }
  return out.mark(...others);
}

/** The conversion and sensitivity functions, by name. */
export function conversionFunctions(): Record<string, HclFunction> {
  const any = param("value", dynamicType, { allowNull: true, allowUnknown: true, allowMarked: true, allowDynamicType: true });
  return {
    tostring: makeTo(stringType, "Converts its argument to a string value."),
    tonumber: makeTo(numberType, "Converts its argument to a number value."),
    tobool: makeTo(boolType, "Converts its argument to a boolean value."),
    tolist: makeTo(listType(dynamicType), "Converts its argument to a list value."),
    toset: makeTo(setType(dynamicType), "Converts its argument to a set value."),
    tomap: makeTo(mapType(dynamicType), "Converts its argument to a map value."),
    sensitive: {
      description: "Treats the given value as sensitive, hiding it in Terraform's output.",
      params: [any],
      type: (a) => a[0]!.type,
      impl: (a) => a[0]!.mark("sensitive"),
    },
    nonsensitive: {
      description: "Removes the sensitive marking from the given value.",
      params: [any],
      type: (a) => a[0]!.type,
      impl: (a) => {
        const v = a[0]!;
        const rest = [...v.marks].filter((m) => m !== "sensitive");
        return v.unmark().mark(...rest);
      },
    },
    issensitive: {
      description: "Returns whether the given value is marked as sensitive.",
      params: [any],
      type: () => boolType,
      impl: (a) => {
        const v = a[0]!;
        if (v.isMarked("sensitive")) return boolVal(true);
        if (!v.isKnown()) return unknownVal(boolType, { notNull: true });
        return boolVal(false);
      },
    },
    ephemeralasnull: {
      description: "Takes a value that may contain ephemeral parts and returns it with those parts replaced by null.",
      params: [any],
      type: (a) => a[0]!.type,
      impl: (a) => nullMarked(a[0]!, "ephemeral"),
    },
  };
}
