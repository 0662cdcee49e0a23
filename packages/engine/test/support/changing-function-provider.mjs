// Test fixture: provider-server's file-backed memory provider (MEMORY_PROVIDER_STORE) with a
// provider-defined function `stamp(s)` whose result is `s`, a colon and the current text of
// the file STAMP_FILE: a function that answers differently once the file changes — as between
// a plan and the apply of that plan. terraform (through @magma/provider-server) and magma call it.
import { existsSync, readFileSync } from "node:fs";
import { stringType, stringVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry } from "@magma/provider-api";
import { delegatingProvider } from "../../../provider-server/test/testdata/delegating-provider.mjs";
import { createProvider as createStoredMemoryProvider } from "../../../provider-server/test/testdata/stored-memory-provider.mjs";

const signatures = new Map([["stamp", { parameters: [{ name: "s", type: stringType }], returnType: stringType, summary: "Its argument and the stamp file's text" }]]);

function stamp([s]) {
  const file = process.env.STAMP_FILE;
  // A missing file is the function's error (terraform's "Error in function call").
  if (file !== undefined && !existsSync(file)) return { error: `no stamp file at ${file}` };
  const text = file === undefined ? "" : readFileSync(file, "utf8").trim();
  return { result: stringVal(`${s.asString()}:${text}`) };
}

export function createProvider() {
  const p = createStoredMemoryProvider();
  const none = () => {
    throw new Error("only functions");
  };
  // The function's half: a native provider with the function and nothing else.
  const fns = createNativeProvider({
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), functions: signatures }),
    configure: () => undefined,
    planResourceChange: none,
    applyResourceChange: none,
    readResource: none,
    readDataSource: none,
    importResourceState: none,
    upgradeResourceState: none,
    functions: { stamp },
  });
  return delegatingProvider(p, {
    async getSchema(options) {
      return { ...(await p.getSchema(options)), functions: signatures };
    },
    callFunction: (name, args, options) => fns.callFunction(name, args, options),
  });
}
