// Test fixture: a native provider whose one ephemeral resource type, lease_token, hands out
// a token with a lease: private data names the lease, renew moves it on, and close answers
// with a warning naming the lease it closed, so a client sees each step come back.
import { nullVal, objectVal, stringType, stringVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag, warningDiag } from "@magma/provider-api";

const RENEW_AT = new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123));
const text = (b) => new TextDecoder().decode(b);
const bytes = (s) => new TextEncoder().encode(s);

export function createProvider() {
  return createNativeProvider({
    getSchema: () => ({
      provider: createSchemaEntry({}),
      resources: new Map(),
      dataSources: new Map(),
      ephemeralResources: new Map([
        [
          "lease_token",
          createSchemaEntry({
            attributes: {
              name: { type: stringType, required: true },
              token: { type: stringType, computed: true, sensitive: true },
            },
          }),
        ],
      ]),
    }),
    configure: () => undefined,
    planResourceChange: () => ({ diagnostics: [errorDiag("no resources")] }),
    applyResourceChange: () => ({ diagnostics: [errorDiag("no resources")] }),
    readResource: () => ({ newState: null }),
    readDataSource: () => ({ diagnostics: [errorDiag("no data sources")] }),
    importResourceState: () => ({}),
    upgradeResourceState: () => ({ diagnostics: [errorDiag("no resources")] }),
    ephemeralResources: {
      lease_token: {
        validate: (config) => (config.getAttr("name").isKnown() && config.getAttr("name").asString() === "" ? { diagnostics: [errorDiag("name must not be empty")] } : undefined),
        open: (config) => {
          const name = config.getAttr("name").asString();
          if (name === "denied") return { diagnostics: [errorDiag("Access denied", `no token for ${name}`)] };
          return {
            result: objectVal({ name: stringVal(name), token: stringVal(`tok-${name}`) }),
            private: bytes(`lease-1:${name}`),
            renewAt: RENEW_AT,
            diagnostics: [warningDiag(`opened ${name}`)],
          };
        },
        renew: (priv) => {
          const [lease, name] = text(priv).split(":");
          const n = Number(lease.slice("lease-".length)) + 1;
          return { private: bytes(`lease-${n}:${name}`), renewAt: new Date(RENEW_AT.getTime() + n) };
        },
        close: (priv) => ({ diagnostics: [warningDiag(`closed ${text(priv)}`)] }),
      },
    },
  });
}

export const renewAt = RENEW_AT;
export const nullToken = nullVal(stringType);
