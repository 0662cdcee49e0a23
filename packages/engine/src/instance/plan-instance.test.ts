import { Path, objectVal, stringVal, unknownVal, stringType } from "@magma/cty";
import type { PlannedChange } from "@magma/provider-api";
import { isEngineError } from "../engine-error.js";
import { applyInstance } from "./apply-instance.js";
import { planDestroy } from "./plan-destroy.js";
import { planInstance } from "./plan-instance.js";
import { itemConfig, memoryTarget } from "./test-support.js";
import type { InstanceObject, InstanceTarget } from "./instance-target.js";

async function created(target: InstanceTarget, plain: Parameters<typeof itemConfig>[0]): Promise<InstanceObject> {
  const change = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior: null, config: itemConfig(plain) });
  const r = await applyInstance(target, change);
  expect(r.error).toBeUndefined();
  return r.object!;
}

describe("planInstance", () => {
  it("plans a create with unknowns for computed values", async () => {
    const { target } = await memoryTarget();
    const c = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior: null, config: itemConfig({ name: "abc" }) });
    expect(c.action).toBe("create");
    expect(c.before.isNull()).toBe(true);
    expect(c.after.getAttr("id").isKnown()).toBe(false);
    expect(c.after.getAttr("size").asNumber().toString()).toBe("3");
    expect(c.requiresReplace).toEqual([]);
    expect(c.replaceReason).toBeUndefined();
    expect(new TextDecoder().decode(c.plannedPrivate)).toBe('{"memory":1}');
  });

  it("plans a no-op for an unchanged object and an update for a changed one", async () => {
    const { target } = await memoryTarget();
    const prior = await created(target, { name: "abc", value: "v1" });
    const same = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: itemConfig({ name: "abc", value: "v1" }) });
    expect(same.action).toBe("no-op");
    const upd = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: itemConfig({ name: "abc", value: "v2" }) });
    expect(upd.action).toBe("update");
    expect(upd.after.getAttr("value").asString()).toBe("v2");
    expect(upd.after.getAttr("id").rawEquals(prior.state.getAttr("id"))).toBe(true);
  });

  it("replaces when a requiresReplace path really changes, re-planning the create from a null prior", async () => {
    const seen: { prior: boolean; priv: string }[] = [];
    const { target } = await memoryTarget({
      wrap: (m) => ({
        planResourceChange: async (t, prior, proposed, config, o) => {
          seen.push({ prior: prior.isNull(), priv: new TextDecoder().decode(o?.priorPrivate ?? new Uint8Array()) });
          return m.planResourceChange(t, prior, proposed, config, o);
        },
      }),
    });
    const prior = await created(target, { name: "abc" });
    seen.length = 0;
    const c = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: itemConfig({ name: "xyz" }) });
    expect(c.action).toBe("delete-then-create");
    expect(c.replaceReason).toBe("cannot-update");
    expect(c.requiresReplace.map((p) => p.toString())).toEqual([Path.root.attr("name").toString()]);
    expect(c.after.getAttr("id").isKnown()).toBe(false); // the create half's plan
    expect(c.before.rawEquals(prior.state)).toBe(true);
    // Terraform's second call: null prior, the first plan's planned private.
    expect(seen).toEqual([{ prior: false, priv: new TextDecoder().decode(prior.private) }, { prior: true, priv: '{"memory":1}' }]);
  });

  it("replaces create-then-delete under create_before_destroy", async () => {
    const { target } = await memoryTarget();
    const prior = await created(target, { name: "abc" });
    const c = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: itemConfig({ name: "xyz" }), createBeforeDestroy: true });
    expect(c.action).toBe("create-then-delete");
  });

  it("does not replace when a requiresReplace path is listed but unchanged", async () => {
    const { target } = await memoryTarget({
      wrap: (m) => ({
        planResourceChange: async (...a: Parameters<typeof m.planResourceChange>) => {
          const r: PlannedChange = await m.planResourceChange(...a);
          return { ...r, requiresReplace: [Path.root.attr("name")] };
        },
      }),
    });
    const prior = await created(target, { name: "abc" });
    const c = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: itemConfig({ name: "abc", value: "new" }) });
    expect(c.action).toBe("update");
    expect(c.requiresReplace).toEqual([]);
  });

  it("replaces a tainted object, and on request or trigger, naming the reason", async () => {
    const { target } = await memoryTarget();
    const prior = await created(target, { name: "abc" });
    const cfg = itemConfig({ name: "abc" });
    const tainted = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior: { ...prior, tainted: true }, config: cfg });
    expect([tainted.action, tainted.replaceReason, tainted.priorTainted]).toEqual(["delete-then-create", "tainted", true]);
    const requested = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: cfg, replaceRequested: true });
    expect([requested.action, requested.replaceReason]).toEqual(["delete-then-create", "requested"]);
    const triggered = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior, config: cfg, replaceTriggered: true, createBeforeDestroy: true });
    expect([triggered.action, triggered.replaceReason]).toEqual(["create-then-delete", "triggered"]);
  });

  it("rejects an invalid plan as Terraform does, and only records it for the log for a legacy provider", async () => {
    const mk = (legacyTypeSystem: boolean) =>
      memoryTarget({
        wrap: (m) => ({
          planResourceChange: async (...a: Parameters<typeof m.planResourceChange>) => {
            const r = await m.planResourceChange(...a);
            const attrs = r.plannedState.attributes();
            return { ...r, legacyTypeSystem, plannedState: objectVal({ ...attrs, name: stringVal("not-what-was-configured") }) };
          },
        }),
      });
    const strict = await mk(false);
    let err: unknown;
    try {
      await planInstance({ ...strict.target, providerAddress: "registry.terraform.io/magma/memory" }, { address: "memory_item.a", typeName: "memory_item", prior: null, config: itemConfig({ name: "abc" }) });
    } catch (e) {
      err = e;
    }
    expect(isEngineError(err)).toBe(true);
    expect(err).toMatchObject({ code: "invalid_plan" });
    expect((err as Error).message).toContain("Provider produced invalid plan for memory_item.a");
    expect((err as { diagnostics: { summary: string }[] }).diagnostics[0]!.summary).toBe("Provider produced invalid plan");
    const legacy = await mk(true);
    const c = await planInstance(legacy.target, { address: "memory_item.a", typeName: "memory_item", prior: null, config: itemConfig({ name: "abc" }) });
    expect(c.action).toBe("create");
    expect(c.legacyTypeSystem).toBe(true);
    // Terraform only logs what a legacy provider is forgiven: no warning, the problems in `tolerated`.
    expect(c.warnings).toEqual([]);
    expect(c.tolerated).toEqual([{ kind: "invalid_plan", address: "memory_item.a", problems: ['.name: planned value cty.StringVal("not-what-was-configured") does not match config value cty.StringVal("abc")'] }]);
  });

  it("refuses a deferral it did not allow", async () => {
    const { target } = await memoryTarget({
      wrap: (m) => ({
        planResourceChange: async (...a: Parameters<typeof m.planResourceChange>) => ({ ...(await m.planResourceChange(...a)), deferred: { reason: "absent_prereq" as const } }),
      }),
    });
    await expect(planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior: null, config: itemConfig({ name: "abc" }) })).rejects.toMatchObject({ code: "unexpected_deferral" });
  });

  it("sends unknown config values through ProposedNew and the provider", async () => {
    const { target } = await memoryTarget();
    const cfg = objectVal({ ...itemConfig({ name: "abc" }).attributes(), value: unknownVal(stringType) });
    const c = await planInstance(target, { address: "memory_item.a", typeName: "memory_item", prior: null, config: cfg });
    expect(c.after.getAttr("value").isKnown()).toBe(false);
  });
});

describe("planDestroy", () => {
  it("asks a provider with the planDestroy capability, with the prior private", async () => {
    const privs: string[] = [];
    const { target } = await memoryTarget({
      wrap: (m) => ({
        planResourceChange: async (t, prior, proposed, config, o) => {
          if (proposed.isNull()) privs.push(new TextDecoder().decode(o?.priorPrivate ?? new Uint8Array()));
          return m.planResourceChange(t, prior, proposed, config, o);
        },
      }),
    });
    const prior = await created(target, { name: "abc" });
    const c = await planDestroy(target, "memory_item.a", "memory_item", prior);
    expect(c.action).toBe("delete");
    expect(c.after.isNull()).toBe(true);
    expect(privs).toEqual([new TextDecoder().decode(prior.private)]);
  });

  it("makes no call for a provider without the capability and passes the prior private on", async () => {
    const { target, memory } = await memoryTarget();
    const prior = await created(target, { name: "abc" });
    const before = memory.calls.get("planResourceChange");
    const noCap: InstanceTarget = { ...target, schema: { ...target.schema, serverCapabilities: { ...target.schema.serverCapabilities, planDestroy: false } } };
    const c = await planDestroy(noCap, "memory_item.a", "memory_item", prior);
    expect(memory.calls.get("planResourceChange")).toBe(before);
    expect(c.plannedPrivate).toBe(prior.private);
  });

  it("rejects a destroy plan that is not null", async () => {
    const { target } = await memoryTarget();
    const prior = await created(target, { name: "abc" });
    const liar: InstanceTarget = {
      ...target,
      provider: Object.assign(Object.create(null) as object, target.provider, {
        planResourceChange: async () => ({ plannedState: prior.state, requiresReplace: [], plannedPrivate: new Uint8Array(), legacyTypeSystem: false, warnings: [] }),
      }) as InstanceTarget["provider"],
    };
    await expect(planDestroy(liar, "memory_item.a", "memory_item", prior)).rejects.toMatchObject({ code: "invalid_plan" });
  });
});
