import {
  mapType,
  nullVal,
  numberType,
  objectVal,
  stringType,
  stringVal,
  type Value,
} from "@magma/cty";
import {
  createSchemaEntry,
  errorDiag,
  type Diag,
  type NativeApply,
  type NativeImport,
} from "@magma/provider-api";
import { uniformBelow } from "./random-source.js";
import {
  attrPath,
  int64Attr,
  int64Val,
  isSet,
  randomReadDiag,
  withAttrs,
  type RandomResource,
} from "./resource-kit.js";
import { createSecureRandom } from "./secure-random.js";
import { createSeededRandom } from "./seeded-random.js";

const entry = createSchemaEntry({
  description: "Generates a random integer in the inclusive range between `min` and `max`.",
  attributes: {
    keepers: {
      type: mapType(stringType),
      optional: true,
      description:
        "Arbitrary map of values that, when changed, will trigger recreation of the resource.",
    },
    min: {
      type: numberType,
      required: true,
      description: "The minimum inclusive value of the range.",
    },
    max: {
      type: numberType,
      required: true,
      description: "The maximum inclusive value of the range.",
    },
    seed: {
      type: stringType,
      optional: true,
      description: "A custom seed to always produce the same value.",
    },
    result: { type: numberType, computed: true, description: "The random integer result." },
    id: {
      type: stringType,
      computed: true,
      description: "The string representation of the integer result.",
    },
  },
});

const MIN_MAX_DETAIL =
  "The minimum (min) value needs to be smaller than or equal to maximum (max) value.";

function validate(config: Value): Diag[] {
  const diags: Diag[] = [];
  const min = int64Attr(config, "min", diags);
  const max = int64Attr(config, "max", diags);
  if (min !== undefined && max !== undefined && max < min)
    diags.push(errorDiag("Invalid Attribute Combination", MIN_MAX_DETAIL, attrPath("max")));
  return diags;
}

function create(planned: Value): NativeApply {
  const min = planned.getAttr("min").asNumber().toBigInt();
  const max = planned.getAttr("max").asNumber().toBigInt();
  if (max < min)
    return {
      diagnostics: [errorDiag("Create Random Integer Error", MIN_MAX_DETAIL, attrPath("max"))],
    };
  const seed = planned.getAttr("seed");
  let n: bigint;
  try {
    const source =
      isSet(seed) && seed.asString() !== ""
        ? createSeededRandom(seed.asString())
        : createSecureRandom();
    n = min + uniformBelow(source, max - min + 1n);
  } catch (e) {
    return { diagnostics: [randomReadDiag(e)] };
  }
  return {
    newState: withAttrs(planned, {
      result: int64Val(n),
      id: stringVal(n.toString()),
    }),
  };
}

/** Go's `strconv.ParseInt(s, 10, 64)`: an optional sign and decimal digits, in int64 range. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < -(2n ** 63n) || n >= 2n ** 63n ? undefined : n;
}

/** Import ids are `result,min,max` or `result,min,max,seed`. */
function importState(id: string): NativeImport {
  const parts = id.split(",");
  const fail = (detail: string): NativeImport => ({
    diagnostics: [errorDiag("Import Random Integer Error", detail)],
  });
  if (parts.length !== 3 && parts.length !== 4)
    return fail(
      "Invalid import usage: expecting {result},{min},{max} or {result},{min},{max},{seed}",
    );
  const [r, lo, hi] = [parseInt64(parts[0]!), parseInt64(parts[1]!), parseInt64(parts[2]!)];
  if (r === undefined)
    return fail(
      `The value supplied could not be parsed as an integer: ${JSON.stringify(parts[0])}`,
    );
  if (lo === undefined)
    return fail(
      `The min value supplied could not be parsed as an integer: ${JSON.stringify(parts[1])}`,
    );
  if (hi === undefined)
    return fail(
      `The max value supplied could not be parsed as an integer: ${JSON.stringify(parts[2])}`,
    );
  const state = objectVal({
    keepers: nullVal(mapType(stringType)),
    min: int64Val(lo),
    max: int64Val(hi),
    seed: parts.length === 4 ? stringVal(parts[3]!) : nullVal(stringType),
    result: int64Val(r),
    id: stringVal(parts[0]!),
  });
  return { resources: [{ typeName: "random_integer", state }] };
}

/** random_integer: schema version 0, importable as `result,min,max[,seed]`. @internal */
export const randomIntegerResource: RandomResource = {
  typeName: "random_integer",
  entry,
  rules: {
    keepers: { replace: "keepers" },
    min: { replace: "always" },
    max: { replace: "always" },
    seed: { replace: "always" },
    result: { useStateForUnknown: true },
    id: { useStateForUnknown: true },
  },
  validate,
  create,
  importState,
};
