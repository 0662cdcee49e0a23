// Test fixture: a Provider (not a native one) whose getSchema also describes an ephemeral
// resource type and a function, as a ProviderSchema may, but that can neither open the one
// nor call the other (it is not an EphemeralResourceOpener nor a FunctionCaller), so the
// server must not advertise either.
import { stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { delegatingProvider } from "./delegating-provider.mjs";

export function createProvider() {
  const p = createMemoryProvider();
  return delegatingProvider(p, {
    callFunction: undefined,
    validateEphemeralResourceConfig: undefined,
    openEphemeralResource: undefined,
    renewEphemeralResource: undefined,
    closeEphemeralResource: undefined,
    async getSchema(options) {
      const s = await p.getSchema(options);
      return {
        ...s,
        ephemeralResources: new Map([["memory_token", createSchemaEntry({ attributes: { token: { type: stringType, computed: true, sensitive: true } } })]]),
        functions: new Map([["upper", { parameters: [{ name: "s", type: stringType }], returnType: stringType, summary: "upper Function" }]]),
      };
    },
  });
}
