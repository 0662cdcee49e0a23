import { objectVal, stringVal } from "@magma/cty";
import { errorDiag, partiallyAppliedError, diagnosticsError, type Provider } from "@magma/provider-api";
import { isEngineError } from "../engine-error.js";
import { applyInstance } from "./apply-instance.js";
import type { InstanceObject, InstanceTarget } from "./instance-target.js";
import { planDestroy } from "./plan-destroy.js";
import { planInstance } from "./plan-instance.js";
import { itemConfig, memoryTarget } from "./test-support.js";

const A = "memory_item.a";

async function create(target: InstanceTarget, plain: Parameters<typeof itemConfig>[0], cbd = false): Promise<InstanceObject> {
  const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig(plain), createBeforeDestroy: cbd });
  const r = await applyInstance(target, change);
  expect(r.error).toBeUndefined();
  return r.object!;
}

function override(target: InstanceTarget, o: Partial<Provider>): InstanceTarget {
  return { ...target, provider: Object.assign(Object.create(null) as object, target.provider, o) as Provider };
}

/** The target with its applies recorded in order ("create" / "delete"), each a diagnostics error when `failDelete` and a delete. */
function recordingOrder(target: InstanceTarget, apply: Provider["applyResourceChange"], options: { failDelete?: boolean } = {}): { t: InstanceTarget; order: string[] } {
  const order: string[] = [];
  const t = override(target, {
    applyResourceChange: async (ty, prior, planned, config, o) => {
      order.push(planned.isNull() ? "delete" : "create");
      if (options.failDelete === true && planned.isNull()) throw diagnosticsError([errorDiag("cannot delete now")]);
      return apply(ty, prior, planned, config, o);
    },
  });
  return { t, order };
}

describe("applyInstance", () => {
  it("creates, updates and deletes through the provider", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await create(target, { name: "abc", value: "v1" });
    const id = obj.state.getAttr("id").asString();
    expect(memory.items.has(id)).toBe(true);
    expect(obj.tainted).toBe(false);
    expect(new TextDecoder().decode(obj.private)).toBe('{"memory":1}');

    const upd = await planInstance(target, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "abc", value: "v2" }) });
    const u = await applyInstance(target, upd);
    expect(u.error).toBeUndefined();
    expect(u.object!.state.getAttr("value").asString()).toBe("v2");
    expect(memory.items.get(id)!.getAttr("value").asString()).toBe("v2");

    const del = await planDestroy(target, A, "memory_item", u.object!);
    const d = await applyInstance(target, del);
    expect(d).toEqual({ object: null, warnings: [] });
    expect(memory.items.size).toBe(0);
  });

  it("returns the prior object for a no-op without calling apply", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await create(target, { name: "abc" });
    const before = memory.calls.get("applyResourceChange");
    const same = await planInstance(target, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "abc" }) });
    const r = await applyInstance(target, same);
    expect(r.object!.state.rawEquals(obj.state)).toBe(true);
    expect(memory.calls.get("applyResourceChange")).toBe(before);
  });

  it("replaces delete-then-create: the old object goes first", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await create(target, { name: "abc" });
    const { t, order } = recordingOrder(target, memory.applyResourceChange.bind(memory));
    const change = await planInstance(t, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "xyz" }) });
    const r = await applyInstance(t, change);
    expect(r.error).toBeUndefined();
    expect(order).toEqual(["delete", "create"]);
    expect(r.object!.state.getAttr("name").asString()).toBe("xyz");
    expect([...memory.items.values()].map((v) => v.getAttr("name").asString())).toEqual(["xyz"]);
  });

  it("replaces create-then-delete under create_before_destroy, and keeps the old object deposed when its destroy fails", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await create(target, { name: "abc" });
    const { t, order } = recordingOrder(target, memory.applyResourceChange.bind(memory), { failDelete: true });
    const change = await planInstance(t, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "xyz" }), createBeforeDestroy: true });
    const r = await applyInstance(t, change);
    expect(order).toEqual(["create", "delete"]);
    expect(r.object!.state.getAttr("name").asString()).toBe("xyz");
    expect(r.deposed!.state.rawEquals(obj.state)).toBe(true);
    expect(r.error).toMatchObject({ code: "diagnostics" });
    expect(memory.items.size).toBe(2);
  });

  it("keeps the old object current when the create of a create_before_destroy replace makes nothing", async () => {
    const { target } = await memoryTarget();
    const obj = await create(target, { name: "abc" });
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "xyz", value: "fail" }), createBeforeDestroy: true });
    const r = await applyInstance(target, change);
    expect(r.error).toMatchObject({ code: "diagnostics" });
    expect(r.object!.state.rawEquals(obj.state)).toBe(true);
    expect(r.deposed).toBeUndefined();
  });

  it("a create that fails without a state leaves nothing", async () => {
    const { target, memory } = await memoryTarget();
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc", value: "fail" }) });
    const r = await applyInstance(target, change);
    expect(r.object).toBeNull();
    expect(r.error).toMatchObject({ name: "ProviderError", code: "diagnostics" });
    expect(memory.items.size).toBe(0);
  });

  it("a create that fails with a state keeps it, tainted", async () => {
    const { target, memory } = await memoryTarget();
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc", value: "fail-after-create" }) });
    const r = await applyInstance(target, change);
    expect(r.error).toMatchObject({ code: "partially_applied" });
    expect(r.object!.tainted).toBe(true);
    expect(memory.items.has(r.object!.state.getAttr("id").asString())).toBe(true);
    // The next plan replaces it.
    const next = await planInstance(target, { address: A, typeName: "memory_item", prior: r.object, config: itemConfig({ name: "abc" }) });
    expect([next.action, next.replaceReason]).toEqual(["delete-then-create", "tainted"]);
  });

  it("an update that fails without a state keeps the prior; with a state keeps that, untainted", async () => {
    const { target } = await memoryTarget();
    const obj = await create(target, { name: "abc" });
    const failing = await planInstance(target, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "abc", value: "fail" }) });
    const r1 = await applyInstance(target, failing);
    expect(r1.error).toBeDefined();
    expect(r1.object).toEqual(obj);
    const partial = await planInstance(target, { address: A, typeName: "memory_item", prior: obj, config: itemConfig({ name: "abc", value: "fail-after-create" }) });
    const r2 = await applyInstance(target, partial);
    expect(r2.error).toMatchObject({ code: "partially_applied" });
    expect(r2.object!.state.getAttr("value").asString()).toBe("fail-after-create");
    expect(r2.object!.tainted).toBe(false);
  });

  it("saves the object of an inconsistent result, tainting a create", async () => {
    const { target, memory } = await memoryTarget();
    const t = override(target, {
      applyResourceChange: async (...a: Parameters<Provider["applyResourceChange"]>) => {
        const r = await memory.applyResourceChange(...a);
        return { ...r, newState: objectVal({ ...r.newState.attributes(), value: stringVal("drifted") }) };
      },
    });
    const change = await planInstance(t, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc", value: "v" }) });
    const r = await applyInstance(t, change);
    expect(isEngineError(r.error)).toBe(true);
    expect(r.error).toMatchObject({ code: "inconsistent_result" });
    expect((r.error as Error).message).toContain("Provider produced inconsistent result after apply for memory_item.a");
    expect(r.object!.state.getAttr("value").asString()).toBe("drifted");
    expect(r.object!.tainted).toBe(true);
  });

  it("checks the result by the apply answer's type-system flag, not the re-plan's (as Terraform)", async () => {
    const { target, memory } = await memoryTarget();
    const drift = (legacyTypeSystem: boolean): InstanceTarget =>
      override(target, {
        planResourceChange: async (...a: Parameters<Provider["planResourceChange"]>) => ({ ...(await memory.planResourceChange(...a)), legacyTypeSystem: true }),
        applyResourceChange: async (...a: Parameters<Provider["applyResourceChange"]>) => {
          const r = await memory.applyResourceChange(...a);
          return { ...r, legacyTypeSystem, newState: objectVal({ ...r.newState.attributes(), value: stringVal("drifted") }) };
        },
      });
    const strict = drift(false);
    const r = await applyInstance(strict, await planInstance(strict, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc", value: "v" }) }));
    expect(r.error).toMatchObject({ code: "inconsistent_result" });
    expect(r.object!.tainted).toBe(true);
    const legacy = drift(true);
    const r2 = await applyInstance(legacy, await planInstance(legacy, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abd", value: "v" }) }));
    expect(r2.error).toBeUndefined();
    expect(r2.warnings.map((w) => w.summary)).not.toContain("Provider produced inconsistent result after apply");
    expect(r2.tolerated?.map((w) => w.summary)).toContain("Provider produced inconsistent result after apply");
  });

  it("fails with an inconsistent final plan when the re-plan breaks the saved plan, applying nothing", async () => {
    const { target, memory } = await memoryTarget();
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc" }) });
    const r = await applyInstance(target, change, { config: itemConfig({ name: "abcdef" }) });
    expect(r.error).toMatchObject({ code: "inconsistent_final_plan" });
    expect((r.error as { diagnostics: { summary: string }[] }).diagnostics[0]!.summary).toBe("Provider produced inconsistent final plan");
    expect(r.object).toBeNull();
    expect(memory.items.size).toBe(0);
  });

  it("keeps an object a destroy failed to remove", async () => {
    const { target, memory } = await memoryTarget();
    const obj = await create(target, { name: "abc" });
    const t = override(target, {
      applyResourceChange: async () => {
        throw partiallyAppliedError(obj.state, obj.private, [errorDiag("half deleted")]);
      },
    });
    const r = await applyInstance(t, await planDestroy(t, A, "memory_item", obj));
    expect(r.error).toMatchObject({ code: "partially_applied" });
    expect(r.object!.state.rawEquals(obj.state)).toBe(true);
    const t2 = override(target, {
      applyResourceChange: async () => ({ newState: obj.state, private: new Uint8Array(), legacyTypeSystem: false, warnings: [] }),
    });
    const r2 = await applyInstance(t2, await planDestroy(t2, A, "memory_item", obj));
    expect(r2.error).toMatchObject({ code: "invalid_provider_response" });
    expect(r2.object!.state.rawEquals(obj.state)).toBe(true);
    expect(memory.items.size).toBe(1);
  });

  it("carries provider warnings", async () => {
    const { target } = await memoryTarget();
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc", value: "warn" }) });
    const r = await applyInstance(target, change);
    expect(r.error).toBeUndefined();
    expect(r.warnings.map((w) => w.summary)).toEqual(["memory_item was asked to warn"]);
  });

  it("refuses a data source read change", async () => {
    const { target } = await memoryTarget();
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "abc" }) });
    await expect(applyInstance(target, { ...change, mode: "data", action: "read" })).rejects.toMatchObject({ code: "invalid_argument" });
  });
});
