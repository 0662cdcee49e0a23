import { emptyObjectVal, objectVal, stringVal, toJson, unknownVal, stringType, nullVal } from "@magma/cty";
import { configValue, type Provider } from "@magma/provider-api";
import { createRandomProvider } from "@magma/provider-random";
import { applyInstance } from "./apply-instance.js";
import { importInstance } from "./import-instance.js";
import type { InstanceTarget } from "./instance-target.js";
import { planDestroy } from "./plan-destroy.js";
import { planInstance } from "./plan-instance.js";
import { readDataSourceInstance } from "./read-data-source-instance.js";
import { refreshInstance } from "./refresh-instance.js";
import { itemConfig, lookupConfig, memoryTarget } from "./test-support.js";
import { upgradeInstance } from "./upgrade-instance.js";

const A = "memory_item.a";

async function stored(target: InstanceTarget, name: string) {
  const r = await applyInstance(target, await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name }) }));
  return r.object!;
}

describe("upgradeInstance", () => {
  it("always calls UpgradeResourceState with the stored JSON, keeping private and taint", async () => {
    const { target, memory } = await memoryTarget();
    const old = JSON.stringify({ id: "item-9", name: "n", data: "from-v0" });
    const priv = Uint8Array.of(1, 2);
    const r = await upgradeInstance(target, A, "memory_item", { schemaVersion: 0, attributesJson: old, private: priv, tainted: true });
    expect(r.object.state.getAttr("value").asString()).toBe("from-v0");
    expect(r.object.private).toBe(priv);
    expect(r.object.tainted).toBe(true);
    const obj = await stored(target, "abc");
    const again = await upgradeInstance(target, A, "memory_item", { schemaVersion: 1, attributesJson: toJson(obj.state, obj.state.type), private: undefined, tainted: false });
    expect(again.object.state.rawEquals(obj.state)).toBe(true);
    expect(again.object.private).toEqual(new Uint8Array());
    expect(memory.calls.get("upgradeResourceState")).toBe(2);
  });

  it("refuses legacy flatmap-only objects with a typed error", async () => {
    const { target } = await memoryTarget();
    await expect(upgradeInstance(target, A, "memory_item", { schemaVersion: 0, attributesJson: undefined, private: undefined, tainted: false })).rejects.toMatchObject({ code: "unsupported_state" });
  });

  it("passes the provider's failure through", async () => {
    const { target } = await memoryTarget();
    await expect(upgradeInstance(target, A, "memory_item", { schemaVersion: 1, attributesJson: "{not json", private: undefined, tainted: false })).rejects.toMatchObject({ code: "diagnostics" });
  });
});

describe("refreshInstance", () => {
  it("reads with the prior private and reports drift", async () => {
    const privs: string[] = [];
    const { target, memory } = await memoryTarget({
      wrap: (m) => ({
        readResource: async (t, s, o) => {
          privs.push(new TextDecoder().decode(o?.private ?? new Uint8Array()));
          return m.readResource(t, s, o);
        },
      }),
    });
    const obj = await stored(target, "abc");
    const same = await refreshInstance(target, A, "memory_item", obj);
    expect(same.drifted).toBe(false);
    expect(same.object!.state.rawEquals(obj.state)).toBe(true);
    expect(privs).toEqual(['{"memory":1}']);
    const id = obj.state.getAttr("id").asString();
    memory.items.set(id, objectVal({ ...obj.state.attributes(), value: stringVal("changed outside") }));
    const changed = await refreshInstance(target, A, "memory_item", { ...obj, tainted: true });
    expect(changed.drifted).toBe(true);
    expect(changed.object!.state.getAttr("value").asString()).toBe("changed outside");
    expect(changed.object!.tainted).toBe(true);
  });

  it("returns null for an object gone, and the plan then creates it", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await stored(target, "abc");
    memory.items.clear();
    const r = await refreshInstance(target, A, "memory_item", obj);
    expect(r).toEqual({ object: null, drifted: true, warnings: [] });
    const plan = await planInstance(target, { address: A, typeName: "memory_item", prior: r.object, config: itemConfig({ name: "abc" }) });
    expect(plan.action).toBe("create");
  });

  it("refuses a read that returns unknown values", async () => {
    const { target } = await memoryTarget({
      wrap: (m) => ({
        readResource: async (t, s, o) => {
          const r = await m.readResource(t, s, o);
          return r.gone ? r : { ...r, newState: objectVal({ ...r.newState.attributes(), value: unknownVal(stringType) }) };
        },
      }),
    });
    const obj = await stored(target, "abc");
    await expect(refreshInstance(target, A, "memory_item", obj)).rejects.toMatchObject({ code: "invalid_provider_response" });
  });
});

describe("readDataSourceInstance", () => {
  it("reads at plan when the configuration is known", async () => {
    const { target } = await memoryTarget();
    const obj = await stored(target, "abc");
    const r = await readDataSourceInstance(target, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: lookupConfig({ name: "abc" }) });
    expect(r.kind).toBe("read");
    if (r.kind === "read") expect(r.state.getAttr("id").rawEquals(obj.state.getAttr("id"))).toBe(true);
  });

  it("defers the read when the configuration has unknowns or a dependency has pending changes", async () => {
    const { target, memory } = await memoryTarget();
    const unknownName = objectVal({ ...lookupConfig({ name: "x" }).attributes(), name: unknownVal(stringType) });
    const r = await readDataSourceInstance(target, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: unknownName });
    expect(r.kind).toBe("deferred");
    if (r.kind !== "deferred") return;
    expect(r.change).toMatchObject({ mode: "data", action: "read", address: "data.memory_lookup.l" });
    expect(r.change.after.getAttr("id").isKnown()).toBe(false);
    expect(r.change.before.isNull()).toBe(true);
    const pending = await readDataSourceInstance(target, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: lookupConfig({ name: "abc" }), dependsOnPendingChanges: true });
    expect(pending.kind).toBe("deferred");
    if (pending.kind === "deferred") expect(pending.change.after.getAttr("name").asString()).toBe("abc");
    expect(memory.calls.get("readDataSource")).toBeUndefined();
  });

  it("passes a failing read through, and refuses a null result", async () => {
    const { target } = await memoryTarget();
    await expect(readDataSourceInstance(target, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: lookupConfig({ name: "nope" }) })).rejects.toMatchObject({ code: "diagnostics" });
    const { target: t2 } = await memoryTarget({
      wrap: (m) => ({ readDataSource: async (t, c, o) => ({ ...(await m.readDataSource(t, c, o)), state: nullVal(target.schema.dataSources.get("memory_lookup")!.type) }) }),
    });
    await stored(t2, "abc");
    await expect(readDataSourceInstance(t2, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: lookupConfig({ name: "abc" }) })).rejects.toMatchObject({ code: "invalid_provider_response" });
  });
});

describe("importInstance", () => {
  it("imports then reads with the import's private", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await stored(target, "abc");
    const id = obj.state.getAttr("id").asString();
    const r = await importInstance(target, A, "memory_item", id);
    expect(r.objects).toHaveLength(1);
    expect(r.objects[0]!.typeName).toBe("memory_item");
    expect(r.objects[0]!.object.state.rawEquals(obj.state)).toBe(true);
    expect(memory.calls.get("readResource")).toBe(1);
    // The imported object plans a no-op against the same configuration.
    const plan = await planInstance(target, { address: A, typeName: "memory_item", prior: r.objects[0]!.object, config: itemConfig({ name: "abc" }) });
    expect(plan.action).toBe("no-op");
  });

  it("fails with import_not_found when nothing has the id, or the read finds it gone", async () => {
    const { target } = await memoryTarget();
    await expect(importInstance(target, A, "memory_item", "item-404")).rejects.toMatchObject({ code: "import_not_found" });
    const { target: t2 } = await memoryTarget({ wrap: () => ({ readResource: async () => ({ gone: true as const, warnings: [] }) }) });
    const obj = await stored(t2, "abc");
    await expect(importInstance(t2, A, "memory_item", obj.state.getAttr("id").asString())).rejects.toThrow(/Cannot import non-existent remote object/);
  });
});

describe("with provider-random (a native provider)", () => {
  it("creates, keeps, replaces on a keeper change, and destroys a random_string", async () => {
    const provider: Provider = createRandomProvider();
    const schema = await provider.getSchema();
    await provider.configure(emptyObjectVal, "1.11.4");
    const target: InstanceTarget = { provider, schema };
    const block = schema.resources.get("random_string")!.block;
    const cfg = (k: string) => configValue(block, { length: 12, keepers: { k } });
    const create = await planInstance(target, { address: "random_string.s", typeName: "random_string", prior: null, config: cfg("1") });
    expect(create.action).toBe("create");
    expect(create.after.getAttr("result").isKnown()).toBe(false);
    const made = await applyInstance(target, create);
    expect(made.error).toBeUndefined();
    const result = made.object!.state.getAttr("result").asString();
    expect(result).toHaveLength(12);
    const refreshed = await refreshInstance(target, "random_string.s", "random_string", made.object!);
    expect(refreshed.drifted).toBe(false);
    const same = await planInstance(target, { address: "random_string.s", typeName: "random_string", prior: refreshed.object, config: cfg("1") });
    expect(same.action).toBe("no-op");
    const rep = await planInstance(target, { address: "random_string.s", typeName: "random_string", prior: refreshed.object, config: cfg("2") });
    expect(rep.action).toBe("delete-then-create");
    expect(rep.requiresReplace.map((p) => p.toString())).toEqual([expect.stringContaining("keepers")]);
    const replaced = await applyInstance(target, rep);
    expect(replaced.error).toBeUndefined();
    expect(replaced.object!.state.getAttr("result").asString()).not.toBe(result);
    const gone = await applyInstance(target, await planDestroy(target, "random_string.s", "random_string", replaced.object!));
    expect(gone).toMatchObject({ object: null });
  });
});
