import {
  boolType,
  boolVal,
  mapType,
  nullVal,
  numberType,
  objectType,
  objectVal,
  stringType,
  stringVal,
  type ObjectType,
  type Type,
  type Value,
} from "@magma/cty";
import {
  createSchemaEntry,
  errorDiag,
  type Attribute,
  type Diag,
  type NativeApply,
  type NativeImport,
  type NativeUpgrade,
} from "@magma/provider-api";
import type * as BcryptModule from "./bcrypt.js";
import { EmptyCharacterSetError, generateRandomString } from "./generate-string.js";
import {
  attrPath,
  decodeOlder,
  int64Attr,
  int64Val,
  isSet,
  randomReadDiag,
  withAttrs,
  type AttrRule,
  type RandomResource,
} from "./resource-kit.js";
import { createSecureRandom } from "./secure-random.js";

/**
 * bcrypt (and bcryptjs under it, ~1.5 MiB of RSS), loaded when random_password first needs a
 * hash: random_string and the provider's other resources never do.
 */
let bcryptLoading: Promise<typeof BcryptModule> | undefined;
/** @internal */
export function loadBcrypt(): Promise<typeof BcryptModule> {
  bcryptLoading ??= import("./bcrypt.js").catch((e: unknown) => {
    bcryptLoading = undefined;
    throw e;
  });
  return bcryptLoading;
}

const KEEPERS_DOC =
  "Arbitrary map of values that, when changed, will trigger recreation of the resource.";
const NUMBER_DEPRECATION = "**NOTE**: This is deprecated, use `numeric` instead.";
const MIN_NAMES = ["min_upper", "min_lower", "min_numeric", "min_special"] as const;
const CLASS_NAMES = ["special", "upper", "lower", "numeric"] as const;

function attributes(sensitive: boolean): Record<string, Attribute> {
  const flag = (what: string): Attribute => ({
    type: boolType,
    optional: true,
    computed: true,
    description: `Include ${what} in the result. Default value is \`true\`.`,
  });
  const min = (what: string): Attribute => ({
    type: numberType,
    optional: true,
    computed: true,
    description: `Minimum number of ${what} in the result. Default value is \`0\`.`,
  });
  const out: Record<string, Attribute> = {
    keepers: { type: mapType(stringType), optional: true, description: KEEPERS_DOC },
    length: {
      type: numberType,
      required: true,
      description:
        "The length of the string desired. The minimum value for length is 1 and it must also be >= (`min_upper` + `min_lower` + `min_numeric` + `min_special`).",
    },
    special: flag("special characters (`!@#$%&*()-_=+[]{}<>:?` unless `override_special` is set)"),
    upper: flag("uppercase alphabet characters"),
    lower: flag("lowercase alphabet characters"),
    number: {
      ...flag("numeric characters"),
      deprecated: true,
      deprecationMessage: NUMBER_DEPRECATION,
    },
    numeric: flag("numeric characters"),
    min_numeric: min("numeric characters"),
    min_upper: min("uppercase alphabet characters"),
    min_lower: min("lowercase alphabet characters"),
    min_special: min("special characters"),
    override_special: {
      type: stringType,
      optional: true,
      description:
        "Your own list of special characters to use instead of the default ones; `special` must still be true for them to be used.",
    },
    result: {
      type: stringType,
      computed: true,
      sensitive,
      description: "The generated random string.",
    },
    id: {
      type: stringType,
      computed: true,
      description: sensitive
        ? "A static value (`none`) used internally by Terraform; do not reference it."
        : "The generated random string.",
    },
  };
  if (sensitive) {
    out["bcrypt_hash"] = {
      type: stringType,
      computed: true,
      sensitive: true,
      description:
        "A bcrypt hash of the generated string (of its first 72 bytes when it is longer).",
    };
  }
  return out;
}

function rules(sensitive: boolean): Record<string, AttrRule> {
  const t = boolVal(true);
  const zero = int64Val(0);
  const out: Record<string, AttrRule> = {
    keepers: { replace: "keepers" },
    length: { replace: "always" },
    special: { default: t, replace: "always" },
    upper: { default: t, replace: "always" },
    lower: { default: t, replace: "always" },
    number: { numberNumeric: true, replace: "always" },
    numeric: { numberNumeric: true, replace: "always" },
    min_numeric: { default: zero, replace: "always" },
    min_upper: { default: zero, replace: "always" },
    min_lower: { default: zero, replace: "always" },
    min_special: { default: zero, replace: "always" },
    override_special: { replace: "unless_empty_to_null" },
    result: { useStateForUnknown: true },
    id: { useStateForUnknown: true },
  };
  if (sensitive) out["bcrypt_hash"] = { useStateForUnknown: true };
  return out;
}

/** The configuration checks of random_string and random_password (their framework validators). */
function validate(config: Value): Diag[] {
  const diags: Diag[] = [];
  const length = int64Attr(config, "length", diags);
  const mins = MIN_NAMES.map((n) => ({
    name: n,
    v: config.getAttr(n),
    n: int64Attr(config, n, diags),
  }));
  if (length !== undefined && length < 1n) {
    diags.push(
      errorDiag(
        "Invalid Attribute Value",
        `Attribute length value must be at least 1, got: ${length}`,
        attrPath("length"),
      ),
    );
  }
  for (const m of mins) {
    if (m.n !== undefined && m.n < 0n)
      diags.push(
        errorDiag(
          "Invalid Attribute Value",
          `Attribute ${m.name} value must be at least 0, got: ${m.n}`,
          attrPath(m.name),
        ),
      );
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
  // At least one of special, upper, lower and numeric (or its deprecated alias number) must
  // be true when all of them are configured.
  const number = config.getAttr("number");
  const numeric = config.getAttr("numeric");
  const classValue = (name: (typeof CLASS_NAMES)[number]): Value =>
    name === "numeric" && numeric.isNull() ? number : config.getAttr(name);
  const allFalse = CLASS_NAMES.every((n) => {
    const v = classValue(n);
    return isSet(v) && !v.asBool();
  });
  if (allFalse) {
    for (const name of [...CLASS_NAMES, "number"] as const) {
      const v = config.getAttr(name);
      if (isSet(v) && !v.asBool()) {
        diags.push(
          errorDiag(
            "Invalid Attribute Combination",
            "At least one attribute out of [special, upper, lower, numeric] must be specified as true",
            attrPath(name),
          ),
        );
      }
    }
  }
  return diags;
}

/** The generation parameters of a value holding every parameter attribute (a plan, or an ephemeral password's configuration with its defaults). @internal */
export function paramsOf(planned: Value): Parameters<typeof generateRandomString>[0] {
  const num = (n: string): number => Number(planned.getAttr(n).asNumber().toBigInt());
  const bool = (n: string): boolean => planned.getAttr(n).asBool();
  const override = planned.getAttr("override_special");
  return {
    length: num("length"),
    upper: bool("upper"),
    lower: bool("lower"),
    numeric: bool("numeric"),
    special: bool("special"),
    minUpper: num("min_upper"),
    minLower: num("min_lower"),
    minNumeric: num("min_numeric"),
    minSpecial: num("min_special"),
    overrideSpecial: override.isNull() ? "" : override.asString(),
  };
}

/** hashicorp/random's "Hash Generation Error". @internal */
export function hashDiag(e: unknown): Diag {
  return errorDiag(
    "Hash Generation Error",
    `There was an error generating the bcrypt hash of the password.\n\nOriginal Error: ${e instanceof Error ? e.message : String(e)}`,
  );
}

/** The types of the older schema versions, as hashicorp/random declared them. */
function olderType(withNumeric: boolean, withHash: boolean): ObjectType {
  const attrs: Record<string, Type> = {
    id: stringType,
    keepers: mapType(stringType),
    length: numberType,
    special: boolType,
    upper: boolType,
    lower: boolType,
    number: boolType,
    min_numeric: numberType,
    min_upper: numberType,
    min_lower: numberType,
    min_special: numberType,
    override_special: stringType,
    result: stringType,
  };
  if (withNumeric) attrs["numeric"] = boolType;
  if (withHash) attrs["bcrypt_hash"] = stringType;
  return objectType(attrs);
}

/**
 * The attributes an older state carries over, with the nulls that imports of hashicorp/random
 * 3.3.1 and earlier left filled in (length from the result, flags true, minimums 0), and
 * `numeric` taken from `number`.
 */
function upgradedAttrs(old: Value): Record<string, Value> {
  const orTrue = (n: string): Value => (old.getAttr(n).isNull() ? boolVal(true) : old.getAttr(n));
  const orZero = (n: string): Value => (old.getAttr(n).isNull() ? int64Val(0) : old.getAttr(n));
  const result = old.getAttr("result");
  const length = old.getAttr("length").isNull()
    ? int64Val(result.isNull() ? 0 : Array.from(result.asString()).length)
    : old.getAttr("length");
  const number = orTrue("number");
  return {
    id: old.getAttr("id"),
    keepers: old.getAttr("keepers"),
    length,
    special: orTrue("special"),
    upper: orTrue("upper"),
    lower: orTrue("lower"),
    number,
    numeric: number,
    min_numeric: orZero("min_numeric"),
    min_upper: orZero("min_upper"),
    min_lower: orZero("min_lower"),
    min_special: orZero("min_special"),
    override_special: old.getAttr("override_special"),
    result,
  };
}

/** Creates the random_string (`sensitive` false) or random_password (`sensitive` true) resource. */
function createStringResource(sensitive: boolean): RandomResource {
  const typeName = sensitive ? "random_password" : "random_string";
  const entry = createSchemaEntry(
    {
      description: sensitive
        ? "Identical to random_string except that the result is treated as sensitive and a bcrypt hash of it is kept. Uses a cryptographic random number generator."
        : "Generates a random permutation of alphanumeric characters and optionally special characters. Uses a cryptographic random number generator.",
      attributes: attributes(sensitive),
    },
    sensitive ? 3 : 2,
  );

  const create = (planned: Value): NativeApply | Promise<NativeApply> => {
    let result: string;
    try {
      result = generateRandomString(paramsOf(planned), createSecureRandom());
    } catch (e) {
      if (e instanceof EmptyCharacterSetError || e instanceof RangeError) {
        return {
          diagnostics: [errorDiag("Random String Generation Error", e.message, attrPath("length"))],
        };
      }
      return { diagnostics: [randomReadDiag(e)] };
    }
    const set: Record<string, Value> = {
      result: stringVal(result),
      id: stringVal(sensitive ? "none" : result),
    };
    if (!sensitive) return { newState: withAttrs(planned, set) };
    return loadBcrypt().then(({ bcryptHash, BCRYPT_DEFAULT_COST }) => {
      try {
        set["bcrypt_hash"] = stringVal(bcryptHash(result, BCRYPT_DEFAULT_COST));
      } catch (e) {
        return { diagnostics: [hashDiag(e)] };
      }
      return { newState: withAttrs(planned, set) };
    });
  };

  const importState = (id: string): NativeImport | Promise<NativeImport> => {
    const t = boolVal(true);
    const zero = int64Val(0);
    const state: Record<string, Value> = {
      id: stringVal(sensitive ? "none" : id),
      keepers: nullVal(mapType(stringType)),
      length: int64Val(Array.from(id).length),
      special: t,
      upper: t,
      lower: t,
      number: t,
      numeric: t,
      min_numeric: zero,
      min_upper: zero,
      min_lower: zero,
      min_special: zero,
      override_special: nullVal(stringType),
      result: stringVal(id),
    };
    if (!sensitive) return { resources: [{ typeName, state: objectVal(state) }] };
    return loadBcrypt().then(({ bcryptHash, BCRYPT_DEFAULT_COST }) => {
      try {
        state["bcrypt_hash"] = stringVal(bcryptHash(id, BCRYPT_DEFAULT_COST));
      } catch (e) {
        return { diagnostics: [hashDiag(e)] };
      }
      return { resources: [{ typeName, state: objectVal(state) }] };
    });
  };

  const upgradeFrom = (version: number, rawJson: string): NativeUpgrade | Promise<NativeUpgrade> | undefined => {
    if (!sensitive) {
      if (version !== 1) return undefined;
      const d = decodeOlder(typeName, version, rawJson, olderType(false, false));
      if ("diag" in d) return { diagnostics: [d.diag] };
      return { upgradedState: objectVal(upgradedAttrs(d.value)) };
    }
    if (version < 0 || version > 2) return undefined;
    const d = decodeOlder(typeName, version, rawJson, olderType(version === 2, version >= 1));
    if ("diag" in d) return { diagnostics: [d.diag] };
    if (version === 1) {
      const attrs = upgradedAttrs(d.value);
      return { upgradedState: objectVal({ ...attrs, bcrypt_hash: d.value.getAttr("bcrypt_hash") }) };
    }
    return loadBcrypt().then((bcrypt) => upgradePassword(version, d.value, bcrypt));
  };

  /** random_password's upgrades from versions 0 and 2, which hash the password. */
  const upgradePassword = (version: number, old: Value, { bcryptHash, bcryptCompare, BcryptFormatError, BCRYPT_DEFAULT_COST }: typeof BcryptModule): NativeUpgrade => {
    const attrs = upgradedAttrs(old);
    const result = attrs["result"]!;
    const password = result.isNull() ? "" : result.asString();
    if (version === 0) {
      try {
        return {
          upgradedState: objectVal({
            ...attrs,
            bcrypt_hash: stringVal(bcryptHash(password, BCRYPT_DEFAULT_COST)),
          }),
        };
      } catch (e) {
        return { diagnostics: [hashDiag(e)] };
      }
    }
    const stored = old.getAttr("bcrypt_hash");
    // Version 2 (hashicorp/random 3.4.0–3.4.2) may hold a hash that does not match the result:
    // keep it when it verifies, regenerate it when it does not.
    try {
      if (!stored.isNull() && bcryptCompare(stored.asString(), password))
        return { upgradedState: objectVal({ ...attrs, bcrypt_hash: stored }) };
    } catch (e) {
      const why = e instanceof BcryptFormatError ? e.message : String(e);
      return {
        diagnostics: [
          errorDiag(
            "Version 3 State Upgrade Error",
            `An unexpected error occurred when comparing the state version 2 password and bcrypt hash.\n\nOriginal Error: ${why}`,
            attrPath("bcrypt_hash"),
          ),
        ],
      };
    }
    try {
      return {
        upgradedState: objectVal({
          ...attrs,
          bcrypt_hash: stringVal(bcryptHash(password, BCRYPT_DEFAULT_COST)),
        }),
      };
    } catch (e) {
      return { diagnostics: [hashDiag(e)] };
    }
  };

  return { typeName, entry, rules: rules(sensitive), validate, create, importState, upgradeFrom };
}

/** random_string: schema version 2, upgrades from version 1. @internal */
export const randomStringResource: RandomResource = createStringResource(false);

/** random_password: schema version 3, upgrades from versions 0, 1 and 2. @internal */
export const randomPasswordResource: RandomResource = createStringResource(true);
