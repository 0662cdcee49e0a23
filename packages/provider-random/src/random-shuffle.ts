import {
  listType,
  listVal,
  listValEmpty,
  mapType,
  numberType,
  stringType,
  stringVal,
  type Value,
} from "@magma/cty";
import { createSchemaEntry, errorDiag, type Diag, type NativeApply } from "@magma/provider-api";
import { permutation } from "./random-source.js";
import {
  attrPath,
  int64Attr,
  isSet,
  randomReadDiag,
  withAttrs,
  type RandomResource,
} from "./resource-kit.js";
import { createSecureRandom } from "./secure-random.js";
import { createSeededRandom } from "./seeded-random.js";

/** The largest result_count accepted. */
const MAX_RESULT_COUNT = 1 << 20;

const entry = createSchemaEntry({
  description: "Generates a random permutation of a list of strings given as an argument.",
  attributes: {
    keepers: {
      type: mapType(stringType),
      optional: true,
      description:
        "Arbitrary map of values that, when changed, will trigger recreation of the resource.",
    },
    seed: {
      type: stringType,
      optional: true,
      description:
        "Arbitrary string with which to seed the random number generator, to produce less volatile permutations of the list.",
    },
    input: {
      type: listType(stringType),
      required: true,
      description: "The list of strings to shuffle.",
    },
    result_count: {
      type: numberType,
      optional: true,
      description:
        "The number of results to return (default: the number of items in `input`). Fewer drop items; more repeat them, but no item more often than once per pass over the input.",
    },
    result: {
      type: listType(stringType),
      computed: true,
      description: "Random permutation of the strings in `input`.",
    },
    id: {
      type: stringType,
      computed: true,
      description: "A static value (`-`) used internally by Terraform; do not reference it.",
    },
  },
});

function validate(config: Value): Diag[] {
  const diags: Diag[] = [];
  const n = int64Attr(config, "result_count", diags);
  if (n !== undefined && (n < 0n || n > BigInt(MAX_RESULT_COUNT))) {
    diags.push(
      errorDiag(
        "Invalid Attribute Value",
        `Attribute result_count value must be between 0 and ${MAX_RESULT_COUNT}, got: ${n}`,
        attrPath("result_count"),
      ),
    );
  }
  return diags;
}

function create(planned: Value): NativeApply {
  const input = planned.getAttr("input").elements();
  const rc = planned.getAttr("result_count");
  const count = rc.isNull() ? input.length : Number(rc.asNumber().toBigInt());
  const id = stringVal("-");
  if (count === 0 || input.length === 0)
    return { newState: withAttrs(planned, { id, result: listValEmpty(stringType) }) };
  const seed = planned.getAttr("seed");
  const out: Value[] = [];
  try {
    const source =
      isSet(seed) && seed.asString() !== ""
        ? createSeededRandom(seed.asString())
        : createSecureRandom();
    while (out.length < count) {
      for (const i of permutation(source, input.length)) {
        out.push(input[i]!);
        if (out.length >= count) break;
      }
    }
  } catch (e) {
    return { diagnostics: [randomReadDiag(e)] };
  }
  return { newState: withAttrs(planned, { id, result: listVal(out) }) };
}

/** random_shuffle: schema version 0, not importable. @internal */
export const randomShuffleResource: RandomResource = {
  typeName: "random_shuffle",
  entry,
  rules: {
    keepers: { replace: "keepers" },
    seed: { replace: "always" },
    input: { replace: "always" },
    result_count: { replace: "always" },
    result: { useStateForUnknown: true },
    id: { useStateForUnknown: true },
  },
  validate,
  create,
};
