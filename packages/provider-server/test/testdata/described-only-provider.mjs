// Test fixture: a Provider (not a native one) whose getSchema also describes an ephemeral
// resource type and a function, as a ProviderSchema may. The contract has no operation to
// open the one or call the other, so the server must not advertise either.
import { stringType } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";

export function createProvider() {
  const p = createMemoryProvider();
  return {
    ...p,
    configure: (...args) => p.configure(...args),
    planResourceChange: (...args) => p.planResourceChange(...args),
    applyResourceChange: (...args) => p.applyResourceChange(...args),
    readResource: (...args) => p.readResource(...args),
    readDataSource: (...args) => p.readDataSource(...args),
    importResourceState: (...args) => p.importResourceState(...args),
    upgradeResourceState: (...args) => p.upgradeResourceState(...args),
    async getSchema(options) {
      const s = await p.getSchema(options);
      return {
        ...s,
        ephemeralResources: new Map([["memory_token", createSchemaEntry({ attributes: { token: { type: stringType, computed: true, sensitive: true } } })]]),
        functions: new Map([["upper", { parameters: [{ name: "s", type: stringType }], returnType: stringType, summary: "upper Function" }]]),
      };
    },
  };
}
