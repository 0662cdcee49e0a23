// The in-memory round trip: plugin's client (the same ProviderConn that dialProvider makes)
// over connect's router transport against this package's tfplugin5/tfplugin6 handlers,
// with a native provider behind them. Every RPC the contract uses goes through both sides'
// conversions; no process, socket or TLS is involved.
import { createRouterTransport } from "@connectrpc/connect";
import {
  Path,
  listType,
  listValEmpty,
  nullVal,
  numberType,
  numberVal,
  stringType,
  stringVal,
  typeEquals,
} from "@magma/cty";
import { providerConnOver } from "@magma/plugin/internal";
import { Tfplugin5Provider, Tfplugin6Provider } from "@magma/tfplugin";
import {
  configValue,
  functionCallError,
  isProviderError,
  proposedNewState,
  type FunctionCaller,
  type FunctionSignature,
  type Provider,
  type ProviderErrorCode,
} from "@magma/provider-api";
import {
  createMemoryProvider,
  memoryItemBlock,
  memoryLookupBlock,
  memoryProviderBlock,
} from "@magma/provider-api/testing";
import { createHclogLogger } from "./hclog.js";
import { createProviderHandlers } from "./provider-service.js";

const SIGNATURES: ReadonlyMap<string, FunctionSignature> = new Map<string, FunctionSignature>([
  [
    "join",
    {
      parameters: [{ name: "separator", type: stringType }],
      variadicParameter: { name: "parts", type: stringType },
      returnType: stringType,
      summary: "Joins strings",
    },
  ],
  [
    "count",
    { parameters: [{ name: "items", type: listType(stringType) }], returnType: numberType },
  ],
  ["wait", { parameters: [], returnType: stringType }],
]);

/** The in-memory provider with three functions: a native provider as a server would serve it. */
function nativeProvider(): Provider & FunctionCaller & { readonly stopped: AbortSignal[] } {
  const mem = createMemoryProvider();
  const stopped: AbortSignal[] = [];
  return {
    stopped,
    getSchema: async (o) => ({ ...(await mem.getSchema(o)), functions: SIGNATURES }),
    configure: (...a) => mem.configure(...a),
    planResourceChange: (...a) => mem.planResourceChange(...a),
    applyResourceChange: (...a) => mem.applyResourceChange(...a),
    readResource: (...a) => mem.readResource(...a),
    readDataSource: (...a) => mem.readDataSource(...a),
    importResourceState: (...a) => mem.importResourceState(...a),
    upgradeResourceState: (...a) => mem.upgradeResourceState(...a),
    callFunction(name, args, options) {
      if (name === "join")
        return Promise.resolve(
          stringVal(
            args
              .slice(1)
              .map((a) => a.asString())
              .join(args[0]!.asString()),
          ),
        );
      if (name === "count") {
        const n = args[0]!.elements().length;
        if (n === 0)
          return Promise.reject(
            functionCallError("count", "the list must not be empty", { argument: 0 }),
          );
        return Promise.resolve(numberVal(n));
      }
      // `wait` settles only when its call is cancelled (by StopProvider here).
      return new Promise((_, reject) => {
        const signal = options?.signal as AbortSignal;
        stopped.push(signal);
        signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
      });
    },
  };
}

function connect(version: 5 | 6) {
  const native = nativeProvider();
  // The server logs each request it receives (at debug), which names the RPC.
  const rpcs: string[] = [];
  const logger = createHclogLogger(
    {
      write: (text) => {
        const line = JSON.parse(text) as { "@message": string; tf_rpc?: unknown };
        if (line["@message"] === "Received request") rpcs.push(String(line.tf_rpc));
      },
    },
    "debug",
    "round-trip",
  );
  const handlers = createProviderHandlers(native, logger);
  const transport = createRouterTransport((router) => {
    if (version === 5) router.service(Tfplugin5Provider, handlers.v5);
    else router.service(Tfplugin6Provider, handlers.v6);
  });
  return {
    native,
    rpcs,
    conn: providerConnOver(version, transport, { label: `round-trip v${version}` }),
  };
}

async function codeOf(p: Promise<unknown>): Promise<ProviderErrorCode | "ok"> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (isProviderError(e)) return e.code;
    throw e;
  }
}

describe.each([5, 6] as const)(
  "tfplugin%i: plugin's client against provider-server's handlers, in memory",
  (version) => {
    test("GetSchema (GetProviderSchema) carries every block, capability and function signature", async () => {
      const { conn } = connect(version);
      expect(conn.protocolVersion).toBe(version);
      const s = await conn.getSchema();
      expect([...s.resources.keys()]).toEqual(["memory_item"]);
      expect([...s.dataSources.keys()]).toEqual(["memory_lookup"]);
      expect(s.resources.get("memory_item")!.version).toBe(1);
      expect(
        typeEquals(
          s.resources.get("memory_item")!.type,
          (await createMemoryProvider().getSchema()).resources.get("memory_item")!.type,
        ),
      ).toBe(true);
      expect(Object.keys(s.provider.block.attributes ?? {})).toEqual(
        Object.keys(memoryProviderBlock.attributes ?? {}),
      );
      expect(s.serverCapabilities.planDestroy).toBe(true);
      expect(s.serverCapabilities.getProviderSchemaOptional).toBe(true);
      expect([...(s.functions?.keys() ?? [])].sort()).toEqual(["count", "join", "wait"]);
      const join = s.functions!.get("join")!;
      expect(join.variadicParameter?.name).toBe("parts");
      expect(join.summary).toBe("Joins strings");
      expect(typeEquals(join.returnType, stringType)).toBe(true);
    });

    test("calls before Configure reject with not_configured without reaching the server", async () => {
      const { conn } = connect(version);
      const t = (await conn.getSchema()).resources.get("memory_item")!.type;
      expect(await codeOf(conn.readResource("memory_item", nullVal(t)))).toBe("not_configured");
    });

    test("Validate* and Configure; a config the schema does not describe is rejected by the client", async () => {
      const { conn, rpcs } = connect(version);
      await conn.getSchema();
      expect(
        await conn.configure(configValue(memoryProviderBlock, { id_prefix: "m-" }), "1.11.4"),
      ).toEqual({ warnings: [] });
      const t = (await conn.getSchema()).resources.get("memory_item")!.type;
      const config = configValue(memoryItemBlock, { name: "v" });
      await conn.planResourceChange(
        "memory_item",
        nullVal(t),
        proposedNewState(memoryItemBlock, nullVal(t), config),
        config,
      );
      await conn
        .readDataSource("memory_lookup", configValue(memoryLookupBlock, { name: "v" }))
        .catch(() => undefined);
      // Terraform's order: the provider config validated before Configure, each config before its use.
      expect(rpcs).toEqual([
        "GetProviderSchema",
        "ValidateProviderConfig",
        "ConfigureProvider",
        "ValidateResourceConfig",
        "PlanResourceChange",
        "ValidateDataResourceConfig",
        "ReadDataSource",
      ]);
      // An unknown resource type: the client's own check, before any RPC.
      expect(
        await codeOf(
          conn.planResourceChange(
            "nope",
            nullVal(stringType),
            nullVal(stringType),
            nullVal(stringType),
          ),
        ),
      ).toBe("unknown_type");
    });

    test("Plan, Apply, Read, ReadDataSource, Import, Upgrade: values, private state, paths and warnings round-trip", async () => {
      const { conn } = connect(version);
      await conn.getSchema();
      await conn.configure(configValue(memoryProviderBlock, { id_prefix: "m-" }), "1.11.4");
      const t = (await conn.getSchema()).resources.get("memory_item")!.type;
      const prior = nullVal(t);
      const config = configValue(memoryItemBlock, {
        name: "one",
        value: "warn",
        tags: { a: "b" },
        rule: [{ port: 80 }],
      });

      const plan = await conn.planResourceChange(
        "memory_item",
        prior,
        proposedNewState(memoryItemBlock, prior, config),
        config,
      );
      expect(plan.plannedState.getAttr("id").isKnown()).toBe(false);
      expect(plan.plannedState.getAttr("size").rawEquals(numberVal(3))).toBe(true);
      expect(
        plan.plannedState
          .getAttr("rule")
          .elements()[0]!
          .getAttr("protocol")
          .rawEquals(stringVal("tcp")),
      ).toBe(true);

      const applied = await conn.applyResourceChange(
        "memory_item",
        prior,
        plan.plannedState,
        config,
        { plannedPrivate: plan.plannedPrivate },
      );
      const state = applied.newState;
      expect(state.getAttr("id").rawEquals(stringVal("m-1"))).toBe(true);
      // The provider's warning, its attribute path intact.
      expect(applied.warnings.map((w) => [w.severity, w.summary, w.attribute?.toString()])).toEqual(
        [["warning", "memory_item was asked to warn", Path.root.attr("value").toString()]],
      );

      // An update that requires replacement: the path comes back through AttributePath.
      const renamed = configValue(memoryItemBlock, {
        name: "two",
        value: "v",
        tags: { a: "b" },
        rule: [{ port: 80 }],
      });
      const replace = await conn.planResourceChange(
        "memory_item",
        state,
        proposedNewState(memoryItemBlock, state, renamed),
        renamed,
        { priorPrivate: applied.private },
      );
      expect(replace.requiresReplace.map((p) => p.toString())).toEqual([
        Path.root.attr("name").toString(),
      ]);

      const read = await conn.readResource("memory_item", state, { private: applied.private });
      expect(read.gone).toBe(false);
      if (!read.gone) expect(read.newState.rawEquals(state)).toBe(true);

      const lookup = await conn.readDataSource(
        "memory_lookup",
        configValue(memoryLookupBlock, { name: "one" }),
      );
      expect(lookup.state.getAttr("id").rawEquals(stringVal("m-1"))).toBe(true);
      // An error diagnostic from the provider rejects with `diagnostics`, summary intact.
      try {
        await conn.readDataSource(
          "memory_lookup",
          configValue(memoryLookupBlock, { name: "absent" }),
        );
        throw new Error("expected diagnostics");
      } catch (e) {
        if (!isProviderError(e) || e.code !== "diagnostics") throw e;
        expect(e.detail.diagnostics.length).toBeGreaterThan(0);
      }

      const imported = await conn.importResourceState("memory_item", "m-1");
      expect(imported!.resources[0]!.typeName).toBe("memory_item");
      expect(imported!.resources[0]!.state.rawEquals(state)).toBe(true);
      // The server turns a null import into Terraform's own error diagnostic.
      expect(await codeOf(conn.importResourceState("memory_item", "nope"))).toBe("diagnostics");

      const upgraded = await conn.upgradeResourceState(
        "memory_item",
        0,
        '{"id":"m-9","name":"old","data":"payload","tags":{"a":"b"}}',
      );
      expect(upgraded.upgradedState.getAttr("value").rawEquals(stringVal("payload"))).toBe(true);

      // Destroy: a null plan and a null new state.
      const destroy = await conn.planResourceChange("memory_item", state, nullVal(t), nullVal(t));
      expect(destroy.plannedState.isNull()).toBe(true);
      const gone = await conn.applyResourceChange("memory_item", state, nullVal(t), nullVal(t));
      expect(gone.newState.isNull()).toBe(true);
      const after = await conn.readResource("memory_item", state);
      expect(after.gone).toBe(true);
    });

    test("a partial apply comes back as partially_applied with the state the server sent", async () => {
      const { conn } = connect(version);
      await conn.configure(configValue(memoryProviderBlock, {}), "1.11.4");
      const t = (await conn.getSchema()).resources.get("memory_item")!.type;
      const config = configValue(memoryItemBlock, { name: "p", value: "fail-after-create" });
      const plan = await conn.planResourceChange(
        "memory_item",
        nullVal(t),
        proposedNewState(memoryItemBlock, nullVal(t), config),
        config,
      );
      try {
        await conn.applyResourceChange("memory_item", nullVal(t), plan.plannedState, config, {
          plannedPrivate: plan.plannedPrivate,
        });
        throw new Error("expected partially_applied");
      } catch (e) {
        if (!isProviderError(e) || e.code !== "partially_applied") throw e;
        expect(e.detail.newState.getAttr("name").rawEquals(stringVal("p"))).toBe(true);
      }
    });

    test("GetFunctions and CallFunction: results, variadic arguments and function errors naming their argument", async () => {
      const { conn } = connect(version);
      const fns = await conn.getFunctions();
      expect([...fns.functions.keys()].sort()).toEqual(["count", "join", "wait"]);
      // No configure needed, as in Terraform.
      expect(
        (
          await conn.callFunction("join", [stringVal("-"), stringVal("a"), stringVal("b")])
        ).rawEquals(stringVal("a-b")),
      ).toBe(true);
      try {
        await conn.callFunction("count", [listValEmpty(stringType)]);
        throw new Error("expected a function error");
      } catch (e) {
        if (!isProviderError(e)) throw e;
        expect(e.message).toContain("the list must not be empty");
      }
      expect(await codeOf(conn.callFunction("missing", []))).not.toBe("ok");
    });

    test("Stop cancels the calls in flight on the server, and later calls still work", async () => {
      const { conn, native } = connect(version);
      const pending = conn.callFunction("wait", []);
      const settled = pending.then(
        () => "resolved",
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      while (native.stopped.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(await conn.stop()).toBe("");
      expect(await settled).toContain("stopped");
      expect(native.stopped[0]!.aborted).toBe(true);
      expect(
        (await conn.callFunction("join", [stringVal(","), stringVal("x")])).rawEquals(
          stringVal("x"),
        ),
      ).toBe(true);
    });
  },
);
