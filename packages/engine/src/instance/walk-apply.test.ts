/**
 * The layers together, as the apply walk will use them: instance applies run by walkGraph,
 * with a provider failing mid-walk.
 */
import { Graph } from "../dag/graph.js";
import { walkGraph } from "../dag/walk.js";
import { applyInstance } from "./apply-instance.js";
import type { InstanceObject } from "./instance-target.js";
import { planInstance } from "./plan-instance.js";
import { itemConfig, memoryTarget } from "./test-support.js";

describe("instance applies on the graph walk", () => {
  it("saves the partial create of a failing node, skips its dependents and finishes the rest", async () => {
    const { target, memory } = await memoryTarget();
    const values: Record<string, string> = { "memory_item.a": "fail-after-create", "memory_item.b": "v", "memory_item.c": "v", "memory_item.d": "v" };
    const g = new Graph<string>();
    for (const address of Object.keys(values)) g.add(address, values[address]!);
    g.dependOn("memory_item.b", "memory_item.a").dependOn("memory_item.d", "memory_item.b");

    const saved = new Map<string, InstanceObject>();
    const walk = await walkGraph(
      g,
      async (address, value) => {
        const change = await planInstance(target, { address, typeName: "memory_item", prior: null, config: itemConfig({ name: address, value }) });
        const r = await applyInstance(target, change);
        if (r.object !== null) saved.set(address, r.object); // persisted before the error is reported
        if (r.error !== undefined) throw r.error;
        return r.object;
      },
      { parallelism: 2, groupOf: () => "memory", groupLimits: { memory: 1 } },
    );

    expect([...walk.failed.keys()]).toEqual(["memory_item.a"]);
    expect(walk.failed.get("memory_item.a")).toMatchObject({ code: "partially_applied" });
    expect(walk.skipped).toEqual(new Map([["memory_item.b", { because: "memory_item.a" }], ["memory_item.d", { because: "memory_item.a" }]]));
    expect([...walk.done.keys()]).toEqual(["memory_item.c"]);
    expect(saved.get("memory_item.a")!.tainted).toBe(true);
    expect(saved.get("memory_item.c")!.tainted).toBe(false);
    // Every object that exists remotely is in what was saved: nothing lost, nothing extra.
    expect(new Set([...memory.items.values()].map((v) => v.getAttr("name").asString()))).toEqual(new Set(saved.keys()));
  });
});
