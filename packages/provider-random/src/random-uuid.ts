import { mapType, nullVal, objectVal, stringType, stringVal, type Value } from "@magma/cty";
import {
  createSchemaEntry,
  errorDiag,
  type NativeApply,
  type NativeImport,
} from "@magma/provider-api";
import { randomReadDiag, withAttrs, type RandomResource } from "./resource-kit.js";
import { secureRandomUuid } from "./secure-random.js";

const entry = createSchemaEntry({
  description:
    "Generates a random UUID string intended to be used as a unique identifier for other resources.",
  attributes: {
    keepers: {
      type: mapType(stringType),
      optional: true,
      description:
        "Arbitrary map of values that, when changed, will trigger recreation of the resource.",
    },
    result: { type: stringType, computed: true, description: "The generated UUID in string form." },
    id: { type: stringType, computed: true, description: "The generated UUID in string form." },
  },
});

const UUID_FORM = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function create(planned: Value): NativeApply {
  let u: string;
  try {
    u = secureRandomUuid();
  } catch (e) {
    return { diagnostics: [randomReadDiag(e)] };
  }
  return { newState: withAttrs(planned, { result: stringVal(u), id: stringVal(u) }) };
}

/** Import ids are a UUID in 8-4-4-4-12 hexadecimal form (any case; stored lowercase). */
function importState(id: string): NativeImport {
  if (!UUID_FORM.test(id)) {
    return {
      diagnostics: [
        errorDiag(
          "Import Random UUID Error",
          `There was an error during the parsing of the UUID: ${JSON.stringify(id)} is not of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hexadecimal).`,
        ),
      ],
    };
  }
  const u = id.toLowerCase();
  return {
    resources: [
      {
        typeName: "random_uuid",
        state: objectVal({
          keepers: nullVal(mapType(stringType)),
          result: stringVal(u),
          id: stringVal(u),
        }),
      },
    ],
  };
}

/** random_uuid: schema version 0, importable by UUID. @internal */
export const randomUuidResource: RandomResource = {
  typeName: "random_uuid",
  entry,
  rules: {
    keepers: { replace: "keepers" },
    result: { useStateForUnknown: true },
    id: { useStateForUnknown: true },
  },
  create,
  importState,
};
