// Test fixture: a native provider with provider-defined functions and nothing else, for
// terraform to call as provider::<local name>::<function>(…).
import { dynamicType, listType, mapType, mapVal, mapValEmpty, numberType, stringType, stringVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";

/** The signatures, by name. */
export const signatures = new Map([
  ["upper", { parameters: [{ name: "s", type: stringType, description: "the text" }], returnType: stringType, summary: "Upper-cases a string" }],
  [
    "join",
    {
      parameters: [{ name: "sep", type: stringType }],
      variadicParameter: { name: "parts", type: stringType, allowNullValue: true },
      returnType: stringType,
      summary: "Joins its arguments, nulls left out",
    },
  ],
  ["echo", { parameters: [{ name: "value", type: dynamicType }], returnType: dynamicType, summary: "Returns its argument" }],
  ["kv", { parameters: [{ name: "pairs", type: listType(stringType) }], returnType: mapType(stringType), summary: "Parses k=v strings into a map" }],
  ["port", { parameters: [{ name: "n", type: numberType }], returnType: numberType, summary: "Checks a port number" }],
  ["fail", { parameters: [{ name: "message", type: stringType }], returnType: stringType, summary: "Always fails with the message" }],
]);

const functions = {
  upper: ([s]) => ({ result: stringVal(s.asString().toUpperCase()) }),
  join: ([sep, ...parts]) => ({ result: stringVal(parts.filter((p) => !p.isNull()).map((p) => p.asString()).join(sep.asString())) }),
  echo: ([v]) => ({ result: v }),
  kv: ([pairs]) => {
    const out = {};
    for (const [i, p] of pairs.elements().entries()) {
      const s = p.asString();
      const eq = s.indexOf("=");
      if (eq <= 0) return { error: `element ${i} (${JSON.stringify(s)}) is not of the form key=value`, argument: 0 };
      out[s.slice(0, eq)] = stringVal(s.slice(eq + 1));
    }
    return { result: Object.keys(out).length === 0 ? mapValEmpty(stringType) : mapVal(out) };
  },
  port: ([n]) => {
    const x = n.asNumber().toNumber();
    return Number.isInteger(x) && x >= 1 && x <= 65535 ? { result: n } : { error: `${x} is not a port number (1 to 65535)`, argument: 0 };
  },
  fail: ([m]) => ({ error: m.asString() }),
};

export function createProvider() {
  const none = () => {
    throw new Error("this provider has no resources or data sources");
  };
  return createNativeProvider({
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), functions: signatures }),
    configure: () => undefined,
    planResourceChange: none,
    applyResourceChange: none,
    readResource: none,
    readDataSource: none,
    importResourceState: none,
    upgradeResourceState: none,
    functions,
  });
}
