/**
 * How a ProviderConn uses a schema store: the stored reply, decoded by the store, is used
 * without GetSchema only when it decodes, was stored for the negotiated protocol and says
 * GetSchema is optional. The wire is a stub that counts GetSchema calls; the stored replies
 * are real tfplugin5/6 messages.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { typeToJson } from "@magma/cty";
import type { CallErrorContext } from "./error-map/call-error.js";
import { LazyProviderSchemaResponseSchema, tfplugin5 as v5, tfplugin6 as v6, wireMessages, type WireClient } from "@magma/tfplugin";
import { prepareCachedSchema, type PreparedSchema, type SchemaStore } from "./schema-store.js";
import { WireProviderConn } from "./wire-provider-conn.js";
import type { CachedSchemaReply } from "../schema-cache.js";

const STRING = new TextEncoder().encode('"string"');
/** A plugin process that never exits (only GetSchema is called here). */
const process_: CallErrorContext = { exited: new Promise(() => {}), exitError: () => undefined, binary: "demo" };

/** A GetSchema reply of one resource type with a `name` attribute, as a provider sends it. */
function reply(version: 5 | 6, optional: boolean, attribute = "name"): Uint8Array {
  const block = { version: 0n, attributes: [{ name: attribute, type: STRING, optional: true }] };
  if (version === 5) {
    return toBinary(
      v5.GetProviderSchema_ResponseSchema,
      create(v5.GetProviderSchema_ResponseSchema, {
        provider: { block: {} },
        resourceSchemas: { demo_thing: { version: 1n, block } },
        serverCapabilities: { planDestroy: true, getProviderSchemaOptional: optional },
      }),
    );
  }
  return toBinary(
    v6.GetProviderSchema_ResponseSchema,
    create(v6.GetProviderSchema_ResponseSchema, {
      provider: { block: {} },
      resourceSchemas: { demo_thing: { version: 1n, block } },
      serverCapabilities: { planDestroy: true, getProviderSchemaOptional: optional },
    }),
  );
}

/** A wire client of the given version whose GetSchema answers `live` and is counted. */
function stubWire(version: 5 | 6, live: Uint8Array): { wire: WireClient; schemaCalls: () => number } {
  let calls = 0;
  const wire = {
    version,
    ...wireMessages(version),
    getProviderSchema: () => {
      calls++;
      return Promise.resolve(fromBinary(LazyProviderSchemaResponseSchema, live));
    },
  } as unknown as WireClient;
  return { wire, schemaCalls: () => calls };
}

function store(entry: CachedSchemaReply | undefined): { store: SchemaStore; events: string[] } {
  const events: string[] = [];
  const prepared: Promise<PreparedSchema | undefined> = Promise.resolve(entry === undefined ? undefined : prepareCachedSchema(entry, wireMessages(entry.protocolVersion)));
  return {
    store: {
      check: "identity",
      load: () => prepared,
      save: () => Promise.resolve(),
      report: (event, detail) => events.push(detail === undefined ? event : `${event}: ${detail}`),
    },
    events,
  };
}

describe("a schema store", () => {
  test.each([5, 6] as const)("protocol %d: a stored reply with getProviderSchemaOptional is used without GetSchema", async (version) => {
    const { wire, schemaCalls } = stubWire(version, reply(version, true, "from_the_provider"));
    const s = store({ protocolVersion: version, reply: reply(version, true) });
    const schema = await new WireProviderConn(wire, process_, { schemaStore: s.store }).getSchema();
    expect(s.events).toEqual(["hit"]);
    expect(schemaCalls()).toBe(0);
    expect(schema.resources.get("demo_thing")?.version).toBe(1);
    expect(typeToJson(schema.resources.get("demo_thing")!.type)).toBe('["object",{"name":"string"}]');
  });

  test("a reply stored for the other protocol version is stale: GetSchema is called", async () => {
    const { wire, schemaCalls } = stubWire(6, reply(6, true, "from_the_provider"));
    const s = store({ protocolVersion: 5, reply: reply(5, true) });
    const schema = await new WireProviderConn(wire, process_, { schemaStore: s.store }).getSchema();
    expect(s.events).toEqual(["stale: stored for protocol 5, negotiated 6"]);
    expect(schemaCalls()).toBe(1);
    expect(typeToJson(schema.resources.get("demo_thing")!.type)).toBe('["object",{"from_the_provider":"string"}]');
  });

  test("a reply that does not decode is stale, with the reason: GetSchema is called", async () => {
    const { wire, schemaCalls } = stubWire(5, reply(5, true));
    const s = store({ protocolVersion: 5, reply: new Uint8Array([0x0a, 0xff, 0xff, 0xff]) });
    await new WireProviderConn(wire, process_, { schemaStore: s.store }).getSchema();
    expect(s.events).toHaveLength(1);
    expect(s.events[0]).toMatch(/^stale: the stored reply does not decode: /);
    expect(schemaCalls()).toBe(1);
  });

  test("a reply without getProviderSchemaOptional is not used (Terraform calls GetSchema then)", async () => {
    const { wire, schemaCalls } = stubWire(5, reply(5, false));
    const s = store({ protocolVersion: 5, reply: reply(5, false) });
    await new WireProviderConn(wire, process_, { schemaStore: s.store }).getSchema();
    expect(s.events).toEqual(["not_optional"]);
    expect(schemaCalls()).toBe(1);
  });

  test("nothing stored: a miss, and GetSchema", async () => {
    const { wire, schemaCalls } = stubWire(6, reply(6, true));
    const s = store(undefined);
    await new WireProviderConn(wire, process_, { schemaStore: s.store }).getSchema();
    expect(s.events[0]).toBe("miss");
    expect(schemaCalls()).toBe(1);
  });
});

test("prepareCachedSchema never throws: bytes that are not a reply give the reason", () => {
  const bad = prepareCachedSchema({ protocolVersion: 6, reply: new Uint8Array([0xff]) }, wireMessages(6));
  expect("error" in bad.decoded && bad.decoded.error.length > 0).toBe(true);
  const noProvider = prepareCachedSchema({ protocolVersion: 6, reply: new Uint8Array(0) }, wireMessages(6));
  expect("error" in noProvider.decoded && noProvider.decoded.error).toMatch(/provider schema is missing/);
  const good = prepareCachedSchema({ protocolVersion: 5, reply: reply(5, true) }, wireMessages(5));
  expect("schema" in good.decoded && good.decoded.schema.serverCapabilities.getProviderSchemaOptional).toBe(true);
});
