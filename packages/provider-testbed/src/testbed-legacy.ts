import { utf8Bytes } from "./utf8.js";
import { CtyNumber, numberType, numberVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { stableHash } from "./stable-hash.js";
import type { TestbedResource } from "./testbed-resource.js";
import { isSet, withAttrs } from "./value-kit.js";

const entry = createSchemaEntry({
  description: "An object of the legacy type system (as SDKv2 providers): label is stored lower-cased and a case-only change is no change.",
  attributes: {
    id: { type: stringType, computed: true },
    label: { type: stringType, optional: true, description: "Normalised: stored lower-cased." },
    weight: { type: numberType, optional: true, computed: true, description: "Default 5." },
  },
});

function lower(v: Value): Value {
  return isSet(v) ? stringVal(v.asString().toLowerCase()) : v;
}

/** testbed_legacy: a provider that normalises a value, on the legacy type system. @internal */
export const testbedLegacy: TestbedResource = {
  typeName: "testbed_legacy",
  entry,
  plan(prior, proposed, _config, _ctx) {
    let planned = proposed;
    const label = planned.getAttr("label");
    // The normalisation: a label equal to the stored one but for case plans as the stored one.
    if (!prior.isNull() && isSet(label) && isSet(prior.getAttr("label")) && label.asString().toLowerCase() === prior.getAttr("label").asString()) {
      planned = withAttrs(planned, { label: prior.getAttr("label") });
    }
    if (planned.getAttr("weight").isNull()) planned = withAttrs(planned, { weight: numberVal(CtyNumber.from(5n)) });
    if (prior.isNull()) planned = withAttrs(planned, { id: unknownVal(stringType) });
    return { plannedState: planned, legacyTypeSystem: true, plannedPrivate: utf8Bytes(`{"planned":true}`) };
  },
  apply(_prior, planned, ctx) {
    const label = lower(planned.getAttr("label"));
    const id = planned.getAttr("id").isKnown() ? planned.getAttr("id") : stringVal(`${ctx.prefix}leg-${stableHash(label.isNull() ? "" : label.asString()).slice(0, 10)}`);
    return { newState: withAttrs(planned, { id, label }), legacyTypeSystem: true };
  },
};
