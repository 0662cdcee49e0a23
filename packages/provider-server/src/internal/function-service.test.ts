import { dynamicType, fromMsgpack, listType, listVal, numberVal, stringType, stringVal, toMsgpack, type Value } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, type FunctionSignature, type NativeProviderImpl, type Provider, type ProviderSchema } from "@magma/provider-api";
import { createFunctionHandlers } from "./function-service.js";
import { createHclogLogger } from "./hclog.js";

const EMPTY = new Uint8Array(0);
const signatures = new Map<string, FunctionSignature>([
  ["len", { parameters: [{ name: "items", type: listType(stringType) }], returnType: dynamicType }],
  ["boom", { parameters: [], returnType: stringType }],
]);

function provider(): Provider {
  const none = (): never => {
    throw new Error("no resources");
  };
  const impl: NativeProviderImpl = {
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), functions: signatures }),
    configure: () => undefined,
    planResourceChange: none,
    applyResourceChange: none,
    readResource: none,
    readDataSource: none,
    importResourceState: none,
    upgradeResourceState: none,
    functions: {
      len: ([items]) => ({ result: numberVal(items!.elements().length) }),
      boom: () => {
        throw new Error("kaboom");
      },
    },
  };
  return createNativeProvider(impl);
}

function handlers(p: Provider): ReturnType<typeof createFunctionHandlers> {
  const logged: string[] = [];
  const logger = createHclogLogger({ write: (t) => logged.push(t) }, "warn", "test");
  return createFunctionHandlers(p, () => p.getSchema(), (s) => s, () => undefined, logger);
}

const dv = (v: Value, t: Parameters<typeof toMsgpack>[1]): { msgpack: Uint8Array; json: Uint8Array } => ({ msgpack: toMsgpack(v, t), json: EMPTY });
const ctx = { signal: new AbortController().signal };

describe("the function RPCs", () => {
  test("CallFunction decodes the arguments, calls, and encodes the result with the return type", async () => {
    const h = handlers(provider());
    const r = await h.callFunction({ name: "len", arguments: [dv(listVal([stringVal("a"), stringVal("b")]), listType(stringType))] }, ctx);
    expect(r.error).toBeUndefined();
    const v = fromMsgpack(r.result!.msgpack, dynamicType);
    expect(v.asNumber().toNumber()).toBe(2);
  });

  test("failures become FunctionErrors: an undecodable argument names its index", async () => {
    const h = handlers(provider());
    expect(await h.callFunction({ name: "nope", arguments: [] }, ctx)).toEqual({ error: { text: 'The provider has no function "nope".' } });
    const bad = await h.callFunction({ name: "len", arguments: [dv(stringVal("x"), stringType)] }, ctx);
    expect(bad.error?.functionArgument).toBe(0n);
    expect(bad.error?.text).toMatch(/^The argument does not fit the parameter's type/);
    expect(await h.callFunction({ name: "boom", arguments: [dv(stringVal("x"), stringType)] }, ctx)).toEqual({ error: { text: "Too many arguments: the function takes 0." } });
    const thrown = await h.callFunction({ name: "boom", arguments: [] }, ctx);
    expect(thrown.error?.text).toContain("kaboom");
    expect(thrown.error?.functionArgument).toBeUndefined();
    // A null where not allowed: the contract's check, at its index.
    expect(await h.callFunction({ name: "len", arguments: [{ msgpack: EMPTY, json: EMPTY }] }, ctx)).toEqual({ error: { text: "argument must not be null", functionArgument: 0n } });
  });

  test("GetFunctions lists the signatures; a provider that cannot call functions advertises none", async () => {
    const p = provider();
    const h = handlers(p);
    const schema = await p.getSchema();
    expect(Object.keys(((await h.getFunctions()) as { functions: object }).functions).sort()).toEqual(["boom", "len"]);
    expect([...h.served(schema).keys()].sort()).toEqual(["boom", "len"]);
    const describedOnly: Provider = { ...p, callFunction: undefined } as unknown as Provider;
    const d = handlers(describedOnly);
    const s2: ProviderSchema = await describedOnly.getSchema();
    expect(d.served(s2).size).toBe(0);
    expect(d.toProto(s2)).toEqual({});
    expect((await d.callFunction({ name: "len", arguments: [] }, ctx)).error?.text).toBe('The provider has no function "len".');
  });
});
