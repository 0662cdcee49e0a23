import { boolType, boolVal, numberType, stringType, stringVal, type Value } from "@magma/cty";
import { createSchemaEntry, errorDiag, type Attribute, type Diag, type NativeEphemeralOpen, type NativeEphemeralResource, type SchemaEntry } from "@magma/provider-api";
import { EmptyCharacterSetError, generateRandomString } from "./generate-string.js";
import { attrPath, int64Attr, int64Val, isSet, randomReadDiag, withAttrs } from "./resource-kit.js";
import { hashDiag, loadBcrypt, paramsOf } from "./random-string.js";
import { createSecureRandom } from "./secure-random.js";

const MIN_NAMES = ["min_upper", "min_lower", "min_numeric", "min_special"] as const;
const FLAG_NAMES = ["special", "upper", "lower", "numeric"] as const;

function flag(description: string): Attribute {
  return { type: boolType, optional: true, computed: true, description };
}

function min(what: string): Attribute {
  return { type: numberType, optional: true, computed: true, description: `Minimum number of ${what} in the result. Default value is \`0\`.` };
}

/**
 * The schema of hashicorp/random's ephemeral `random_password` (3.7): random_password's
 * generation parameters without `keepers`, `number` or `id`; `result` and `bcrypt_hash`
 * computed and sensitive.
 */
export const ephemeralPasswordEntry: SchemaEntry = createSchemaEntry({
  description:
    "Generates an ephemeral password string using a cryptographic random number generator. Used with a write-only argument of a managed resource, the password is stored in neither the plan nor the state.",
  attributes: {
    length: {
      type: numberType,
      required: true,
      description: "The length of the string desired. The minimum value for length is 1 and, length must also be >= (`min_upper` + `min_lower` + `min_numeric` + `min_special`).",
    },
    special: flag("Include special characters in the result. These are `!@#$%&*()-_=+[]{}<>:?`. Default value is `true`."),
    upper: flag("Include uppercase alphabet characters in the result. Default value is `true`."),
    lower: flag("Include lowercase alphabet characters in the result. Default value is `true`."),
    numeric: flag(
      "Include numeric characters in the result. Default value is `true`. If `numeric`, `upper`, `lower`, and `special` are all configured, at least one of them must be set to `true`.",
    ),
    min_numeric: min("numeric characters"),
    min_upper: min("uppercase alphabet characters"),
    min_lower: min("lowercase alphabet characters"),
    min_special: min("special characters"),
    override_special: {
      type: stringType,
      optional: true,
      description:
        "Supply your own list of special characters to use for string generation.  This overrides the default character list in the special argument.  The `special` argument must still be set to true for any overwritten characters to be used in generation.",
    },
    result: { type: stringType, computed: true, sensitive: true, description: "The generated random string." },
    bcrypt_hash: {
      type: stringType,
      computed: true,
      sensitive: true,
      description: "A bcrypt hash of the generated random string. **NOTE**: If the generated random string is greater than 72 bytes in length, `bcrypt_hash` will contain a hash of the first 72 bytes.",
    },
  },
});

/** The framework validators of the ephemeral random_password: length at least 1 and at least the sum of the minimums; not every class false. */
function validate(config: Value): Diag[] {
  const diags: Diag[] = [];
  const length = int64Attr(config, "length", diags);
  const mins = MIN_NAMES.map((n) => ({ v: config.getAttr(n), n: int64Attr(config, n, diags) }));
  if (length !== undefined && length < 1n) {
    diags.push(errorDiag("Invalid Attribute Value", `Attribute length value must be at least 1, got: ${length}`, attrPath("length")));
  }
  if (length !== undefined && mins.every((m) => m.v.isKnown())) {
    const sum = mins.reduce((s, m) => s + (m.n ?? 0n), 0n);
    if (length < sum) {
      diags.push(
        errorDiag(
          "Invalid Attribute Value",
          `Attribute length value must be at least sum of min_upper + min_lower + min_numeric + min_special (${sum}), got: ${length}`,
          attrPath("length"),
        ),
      );
    }
  }
  if (FLAG_NAMES.every((n) => isSet(config.getAttr(n)) && !config.getAttr(n).asBool())) {
    diags.push(
      errorDiag("Invalid Attribute Combination", "At least one attribute out of [special, upper, lower, numeric] must be specified as true", attrPath("numeric")),
    );
  }
  return diags;
}

/** The configuration with hashicorp/random's defaults filled in (flags true, minimums 0). */
function withDefaults(config: Value): Value {
  const set: Record<string, Value> = {};
  for (const n of FLAG_NAMES) if (config.getAttr(n).isNull()) set[n] = boolVal(true);
  for (const n of MIN_NAMES) if (config.getAttr(n).isNull()) set[n] = int64Val(0);
  return withAttrs(config, set);
}

async function open(config: Value): Promise<NativeEphemeralOpen> {
  const diags = validate(config);
  if (diags.length > 0) return { diagnostics: diags };
  const data = withDefaults(config);
  let result: string;
  try {
    result = generateRandomString(paramsOf(data), createSecureRandom());
  } catch (e) {
    if (e instanceof EmptyCharacterSetError || e instanceof RangeError) {
      return { diagnostics: [errorDiag("Random String Generation Error", e.message, attrPath("length"))] };
    }
    return { diagnostics: [randomReadDiag(e)] };
  }
  const { bcryptHash, BCRYPT_DEFAULT_COST } = await loadBcrypt();
  let hash: string;
  try {
    hash = bcryptHash(result, BCRYPT_DEFAULT_COST);
  } catch (e) {
    return { diagnostics: [hashDiag(e)] };
  }
  return { result: withAttrs(data, { result: stringVal(result), bcrypt_hash: stringVal(hash) }) };
}

/**
 * hashicorp/random's ephemeral `random_password`: validated as the framework's validators
 * do, opened by generating a password (and its bcrypt hash) with WebCrypto; nothing to
 * renew or close.
 */
export const ephemeralPassword: NativeEphemeralResource = {
  validate: (config) => ({ diagnostics: validate(config) }),
  open,
};
