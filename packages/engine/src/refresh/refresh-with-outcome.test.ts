import { objectVal, stringVal } from "@magma/cty";
import { transportError } from "@magma/provider-api";
import { applyInstance } from "../instance/apply-instance.js";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { planInstance } from "../instance/plan-instance.js";
import { itemConfig, memoryTarget } from "../instance/test-support.js";
import { assertRefreshSafe } from "./refresh-guard.js";
import { refreshWithOutcome } from "./refresh-with-outcome.js";

async function create(target: InstanceTarget, name: string): Promise<InstanceObject> {
  return (await applyInstance(target, await planInstance(target, { address: `memory_item.${name}`, typeName: "memory_item", prior: null, config: itemConfig({ name }) }))).object!;
}

describe("refreshWithOutcome", () => {
  it("classifies reads as in-sync, changed, gone and failed, and never rejects", async () => {
    let fail = false;
    const { memory, target } = await memoryTarget({ wrap: (m) => ({ readResource: (t, s, o) => (fail ? Promise.reject(transportError("connection refused")) : m.readResource(t, s, o)) }) });
    const a = await create(target, "a");
    const b = await create(target, "b");
    const c = await create(target, "c");
    const P = 'provider["registry.terraform.io/magma/memory"]';

    const same = await refreshWithOutcome(target, "memory_item.a", "memory_item", a, P);
    expect(same.outcome).toEqual({ address: "memory_item.a", result: "in-sync", provider: P });
    expect(same.result?.object?.state.rawEquals(a.state)).toBe(true);

    const bid = b.state.getAttr("id").asString();
    memory.items.set(bid, objectVal({ ...memory.items.get(bid)!.attributes(), value: stringVal("edited outside") }));
    const changed = await refreshWithOutcome(target, "memory_item.b", "memory_item", b);
    expect(changed.outcome).toEqual({ address: "memory_item.b", result: "changed" });
    expect(changed.result?.object?.state.getAttr("value").asString()).toBe("edited outside");

    memory.items.delete(c.state.getAttr("id").asString());
    const gone = await refreshWithOutcome(target, "memory_item.c", "memory_item", c);
    expect(gone.outcome).toEqual({ address: "memory_item.c", result: "gone" });
    expect(gone.result?.object).toBeNull();

    fail = true;
    const failed = await refreshWithOutcome(target, "memory_item.a", "memory_item", a);
    expect(failed.outcome).toMatchObject({ address: "memory_item.a", result: "failed", error: { name: "ProviderError", code: "transport" } });
    expect(failed.result).toBeUndefined();
  });

  it("feeds the guard: a provider failing every read makes the refresh unknown and refused", async () => {
    const { target } = await memoryTarget({ wrap: () => ({ readResource: () => Promise.reject(transportError("503 Service Unavailable")) }) });
    const objects = await Promise.all(["a", "b", "c"].map((n) => create(target, n)));
    const outcomes = await Promise.all(objects.map(async (o, i) => (await refreshWithOutcome(target, `memory_item.${i}`, "memory_item", o)).outcome));
    expect(() => assertRefreshSafe(outcomes)).toThrow(/\[refresh_suspect\] Refresh unknown: every read failed \(3 objects: 0 in sync, 0 changed, 0 gone, 3 failed\).*503 Service Unavailable/s);
  });
});
