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
import {
  base64RawUrl,
  base64RawUrlDecode,
  base64Std,
  bigEndianDecimal,
  hexEncode,
} from "./base64.js";
import {
  attrPath,
  int64Attr,
  int64Val,
  randomReadDiag,
  withAttrs,
  type RandomResource,
} from "./resource-kit.js";
import { secureRandomBytes } from "./secure-random.js";

/** The largest byte_length accepted (1 MiB of randomness; far beyond any identifier). */
const MAX_BYTE_LENGTH = 1 << 20;

const entry = createSchemaEntry({
  description:
    "Generates random numbers intended to be used as unique identifiers for other resources, presented in several encodings. Uses a cryptographic random number generator.",
  attributes: {
    keepers: {
      type: mapType(stringType),
      optional: true,
      description:
        "Arbitrary map of values that, when changed, will trigger recreation of the resource.",
    },
    byte_length: {
      type: numberType,
      required: true,
      description: "The number of random bytes to produce. The minimum value is 1.",
    },
    prefix: {
      type: stringType,
      optional: true,
      description:
        "Arbitrary string to prefix the output value with, as is (not URL-safe or base64 encoded).",
    },
    b64_url: {
      type: stringType,
      computed: true,
      description: "The id in URL-safe base64 (letters, digits, `_` and `-`), after the prefix.",
    },
    b64_std: {
      type: stringType,
      computed: true,
      description: "The id in standard padded base64, after the prefix.",
    },
    hex: {
      type: stringType,
      computed: true,
      description: "The id in hexadecimal, two digits a byte, after the prefix.",
    },
    dec: {
      type: stringType,
      computed: true,
      description: "The id as a non-padded decimal number, after the prefix.",
    },
    id: {
      type: stringType,
      computed: true,
      description: "The id in URL-safe base64 without padding or prefix.",
    },
  },
});

function encodings(bytes: Uint8Array, prefix: string): Record<string, Value> {
  const url = base64RawUrl(bytes);
  return {
    id: stringVal(url),
    b64_url: stringVal(prefix + url),
    b64_std: stringVal(prefix + base64Std(bytes)),
    hex: stringVal(prefix + hexEncode(bytes)),
    dec: stringVal(prefix + bigEndianDecimal(bytes)),
  };
}

function validate(config: Value): Diag[] {
  const diags: Diag[] = [];
  const n = int64Attr(config, "byte_length", diags);
  if (n !== undefined && (n < 1n || n > BigInt(MAX_BYTE_LENGTH))) {
    diags.push(
      errorDiag(
        "Invalid Attribute Value",
        `Attribute byte_length value must be between 1 and ${MAX_BYTE_LENGTH}, got: ${n}`,
        attrPath("byte_length"),
      ),
    );
  }
  return diags;
}

function create(planned: Value): NativeApply {
  const n = Number(planned.getAttr("byte_length").asNumber().toBigInt());
  const prefix = planned.getAttr("prefix");
  let bytes: Uint8Array;
  try {
    bytes = secureRandomBytes(n);
  } catch (e) {
    return { diagnostics: [randomReadDiag(e)] };
  }
  return {
    newState: withAttrs(planned, encodings(bytes, prefix.isNull() ? "" : prefix.asString())),
  };
}

/** Import ids are the base64url id, optionally after a prefix and a comma: `prefix,b64`. */
function importState(id: string): NativeImport {
  const sep = id.lastIndexOf(",");
  const prefix = sep < 0 ? "" : id.slice(0, sep);
  const b64 = sep < 0 ? id : id.slice(sep + 1);
  let bytes: Uint8Array;
  try {
    bytes = base64RawUrlDecode(b64);
  } catch (e) {
    return {
      diagnostics: [
        errorDiag(
          "Import Random ID Error",
          `While attempting to import a random id there was a decoding error.\n\nOriginal Error: ${(e as Error).message}`,
        ),
      ],
    };
  }
  if (bytes.length === 0)
    return {
      diagnostics: [
        errorDiag(
          "Import Random ID Error",
          "The id to import is empty: expecting base64url text, optionally after `prefix,`.",
        ),
      ],
    };
  const state = objectVal({
    keepers: nullVal(mapType(stringType)),
    byte_length: int64Val(bytes.length),
    prefix: prefix === "" ? nullVal(stringType) : stringVal(prefix),
    ...encodings(bytes, prefix),
    id: stringVal(b64),
  });
  return { resources: [{ typeName: "random_id", state }] };
}

/** random_id: schema version 0, importable as `b64url` or `prefix,b64url`. @internal */
export const randomIdResource: RandomResource = {
  typeName: "random_id",
  entry,
  rules: {
    keepers: { replace: "keepers" },
    byte_length: { replace: "always" },
    prefix: { replace: "always" },
    b64_url: { useStateForUnknown: true },
    b64_std: { useStateForUnknown: true },
    hex: { useStateForUnknown: true },
    dec: { useStateForUnknown: true },
    id: { useStateForUnknown: true },
  },
  validate,
  create,
  importState,
};
