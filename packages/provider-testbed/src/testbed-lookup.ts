import { CtyNumber, listType, listVal, listValEmpty, numberType, stringType, stringVal, type Value } from "@magma/cty";
import { createSchemaEntry, errorDiag, type NativeReadDataSource } from "@magma/provider-api";
import { stableHash } from "./stable-hash.js";
import type { TestbedContext } from "./testbed-resource.js";
import { isSet, withAttrs } from "./value-kit.js";

/** The schema of the data source testbed_lookup. @internal */
export const lookupEntry = createSchemaEntry({
  description: "Looks up a value by key: value, items and secret are hashes of the key.",
  attributes: {
    id: { type: stringType, computed: true },
    key: { type: stringType, required: true },
    width: { type: numberType, optional: true, description: "How many items (default 2, at most 20)." },
    value: { type: stringType, computed: true },
    items: { type: listType(stringType), computed: true },
    secret: { type: stringType, computed: true, sensitive: true },
  },
});

/** Reads testbed_lookup: a pure function of the key, the width and the provider's prefix. @internal */
export function readLookup(config: Value, ctx: TestbedContext): NativeReadDataSource {
  const key = config.getAttr("key").asString();
  const widthV = config.getAttr("width");
  const width = isSet(widthV) ? widthV.asNumber() : CtyNumber.from(2n);
  if (!width.isInteger() || width.sign() < 0 || width.compare(CtyNumber.from(20n)) > 0) {
    return { diagnostics: [errorDiag("Invalid width", `width must be a whole number from 0 to 20, got ${width.toString()}.`)] };
  }
  const n = Number(width.toBigInt());
  const h = (s: string): string => stableHash(`${ctx.prefix}|${key}|${s}`);
  const items = Array.from({ length: n }, (_, i) => stringVal(`${key}-${h(String(i)).slice(0, 6)}`));
  return {
    state: withAttrs(config, {
      id: stringVal(`${ctx.prefix}${key}`),
      value: stringVal(`v-${h("value")}`),
      items: n === 0 ? listValEmpty(stringType) : listVal(items),
      secret: stringVal(`s-${h("secret")}`),
    }),
  };
}
