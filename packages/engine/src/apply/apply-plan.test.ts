import { mapType, nullVal, objectVal, stringVal, unknownVal, stringType, type Value } from "@magma/cty";
import { configValue, type Provider } from "@magma/provider-api";
import { createMemoryProvider, type MemoryProvider } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { decodeOutput, newStateFile, readStateFile, writeStateFile, type StateFile } from "@magma/state";
import type { EngineEvent } from "../events/engine-event.js";
import { planDestroy } from "../instance/plan-destroy.js";
import { planInstance } from "../instance/plan-instance.js";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { itemConfig, lookupConfig, memoryTarget } from "../instance/test-support.js";
import { readDataSourceInstance } from "../instance/read-data-source-instance.js";
import { createPlan, type Plan, type PlannedOutput, type PlannedProvider } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import type { OpenedProvider, ProviderSource } from "../provider-source.js";
import { ProviderPool } from "../providers/provider-pool.js";
import { applyPlan, type ApplyPlanOptions } from "./apply-plan.js";
import type { ApplyScope } from "./apply-scope.js";

const MEM_SOURCE = "registry.terraform.io/magma/memory";
const MEM = `provider["${MEM_SOURCE}"]`;
const RANDOM_SOURCE = "registry.terraform.io/hashicorp/random";
const RANDOM = `provider["${RANDOM_SOURCE}"]`;

/** A provider source recording the calls of the providers it opens (in-memory and random). */
class RecordingSource implements ProviderSource {
  readonly calls: string[] = [];
  readonly memories: MemoryProvider[] = [];
  /** memory_item applies running now, and at most at once. */
  running = 0;
  maxRunning = 0;
  /** Hooks into a memory_item apply by item name: awaited before the provider's apply. */
  readonly gates = new Map<string, () => Promise<void>>();
  onStop: (() => void) | undefined;
  readonly seed: Map<string, Value>;
  constructor(seed: Map<string, Value> = new Map()) {
    this.seed = seed;
  }

  async open(source: string): Promise<OpenedProvider> {
    const inner: Provider = source === RANDOM_SOURCE ? createRandomProvider() : this.#memory();
    const schema = await inner.getSchema();
    const provider = Object.assign(Object.create(null) as object, inner, {
      configure: (...a: Parameters<Provider["configure"]>) => {
        this.calls.push(`configure ${source}`);
        return inner.configure(...a);
      },
      applyResourceChange: async (...a: Parameters<Provider["applyResourceChange"]>) => {
        const [typeName, prior, planned] = a;
        const obj = planned.isNull() ? prior : planned;
        const name = typeName === "memory_item" ? obj.getAttr("name").asString() : typeName;
        const kind = prior.isNull() ? "create" : planned.isNull() ? "delete" : "update";
        const counted = typeName === "memory_item";
        if (counted) this.maxRunning = Math.max(this.maxRunning, ++this.running);
        try {
          await this.gates.get(name)?.();
          this.calls.push(`${kind} ${name}`);
          return await inner.applyResourceChange(...a);
        } finally {
          if (counted) this.running--;
        }
      },
    }) as Provider;
    return {
      provider,
      schema,
      stop: () => {
        this.calls.push(`stop ${source}`);
        this.onStop?.();
        return Promise.resolve("");
      },
      close: () => Promise.resolve(),
    };
  }

  #memory(): MemoryProvider {
    const m = createMemoryProvider({ items: this.seed });
    this.memories.push(m);
    return m;
  }
}

const memProvider: PlannedProvider = { address: MEM, source: MEM_SOURCE, dependencies: [] };

let planner: InstanceTarget;
beforeAll(async () => {
  planner = (await memoryTarget()).target;
});

/** Plans a memory_item instance as the configuration planner would hand it over. */
async function item(address: string, plain: Record<string, unknown>, extra: Partial<PlannedInstanceChange> & { prior?: InstanceObject | null; cbd?: boolean } = {}): Promise<PlannedInstanceChange> {
  const { prior = null, cbd, ...rest } = extra;
  const change = await planInstance(planner, { address, typeName: "memory_item", prior, config: itemConfig(plain as never), ...(cbd === undefined ? {} : { createBeforeDestroy: cbd }) });
  return { ...change, providerConfig: MEM, ...rest };
}

function planOf(state: StateFile, changes: PlannedInstanceChange[], extra: { outputs?: PlannedOutput[]; providers?: PlannedProvider[]; mode?: "destroy" } = {}): Plan {
  return { ...createPlan({ changes, prior: { lineage: state.lineage, serial: state.serial }, configDigest: "test" }), providers: extra.providers ?? [memProvider], ...(extra.outputs === undefined ? {} : { outputs: extra.outputs }), ...(extra.mode === undefined ? {} : { mode: extra.mode }) };
}

interface Run {
  readonly source: RecordingSource;
  readonly persisted: StateFile[];
  readonly events: EngineEvent[];
}

async function run(plan: Plan, state: StateFile, source: RecordingSource, options: Partial<ApplyPlanOptions> = {}): Promise<Run & { result: Awaited<ReturnType<typeof applyPlan>> }> {
  const persisted: StateFile[] = [];
  const events: EngineEvent[] = [];
  const pool = new ProviderPool(source);
  try {
    const result = await applyPlan(plan, {
      providers: pool,
      state,
      persist: async (s) => {
        // As a store would: the snapshot is written as a file and must read back.
        persisted.push(readStateFile(writeStateFile(s))!);
        await Promise.resolve();
      },
      onEvent: (e) => events.push(e),
      ...options,
    });
    return { result, source, persisted, events };
  } finally {
    await pool.close();
  }
}

/** The current objects of a state by instance address, as `InstanceObject`s (for planning the next step). */
function objects(source: RecordingSource): Map<string, InstanceObject> {
  const out = new Map<string, InstanceObject>();
  for (const m of source.memories) for (const v of m.items.values()) out.set(`memory_item.${v.getAttr("name").asString()}`, { state: v, private: new Uint8Array(), tainted: false });
  return out;
}

function addresses(s: StateFile): string[] {
  return s.resources.flatMap((r) => r.instances.map((i) => `${r.type}.${r.name}${i.deposed === undefined ? "" : ` deposed`}${i.tainted ? " tainted" : ""}`)).sort();
}

/** Applies creates of `a`, `b` → a, `c` → b and returns the state and the remote objects. */
async function chain(): Promise<{ state: StateFile; source: RecordingSource; objs: Map<string, InstanceObject> }> {
  const state = newStateFile();
  const changes = [
    await item("memory_item.c", { name: "c", value: "v" }, { dependencies: ["memory_item.b"] }),
    await item("memory_item.b", { name: "b", value: "v" }, { dependencies: ["memory_item.a"] }),
    await item("memory_item.a", { name: "a", value: "v" }, { dependencies: [] }),
  ];
  const r = await run(planOf(state, changes), state, new RecordingSource());
  expect(r.result.success).toBe(true);
  return { state: r.result.state, source: r.source, objs: objects(r.source) };
}

describe("applyPlan", () => {
  it("creates in dependency order, configures each provider once, and persists after every object", async () => {
    const state = newStateFile();
    const changes = [
      await item("memory_item.c", { name: "c", value: "v" }, { dependencies: ["memory_item.b"], schemaVersion: 1 }),
      await item("memory_item.b", { name: "b", value: "v" }, { dependencies: ["memory_item.a"], afterSensitivePaths: [] }),
      await item("memory_item.a", { name: "a", value: "v" }, { dependencies: [] }),
    ];
    const { result, source, persisted, events } = await run(planOf(state, changes), state, new RecordingSource());

    expect(result.success).toBe(true);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, "create a", "create b", "create c"]);
    expect(result.applied.map((r) => `${r.action} ${r.address}`)).toEqual(["create memory_item.a", "create memory_item.b", "create memory_item.c"]);
    // One persisted snapshot per object, each holding the objects done so far, serial up by one each time.
    expect(persisted.map(addresses)).toEqual([["memory_item.a"], ["memory_item.a", "memory_item.b"], ["memory_item.a", "memory_item.b", "memory_item.c"]]);
    expect(persisted.map((s) => s.serial)).toEqual([1, 2, 3]);
    expect(persisted.every((s) => s.lineage === state.lineage)).toBe(true);
    const c = persisted[2]!.resources.find((r) => r.name === "c")!;
    expect(c.provider).toMatchObject({ provider: { hostname: "registry.terraform.io", namespace: "magma", type: "memory" }, alias: undefined });
    expect(c.instances[0]).toMatchObject({ schemaVersion: 1, dependencies: ["memory_item.b"], tainted: false, deposed: undefined, createBeforeDestroy: false });
    expect(new TextDecoder().decode(c.instances[0]!.private)).toBe('{"memory":1}');
    expect(JSON.parse(c.instances[0]!.attributesJson!)).toMatchObject({ name: "c", value: "v", size: 1, id: expect.stringMatching(/^item-/) });
    expect(result.state.serial).toBe(3);
    // The caller's state object is not touched.
    expect(state.resources).toEqual([]);
    expect(state.serial).toBe(0);

    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === "apply_start")).toHaveLength(3);
    expect(events.find((e) => e.type === "apply_complete" && e.address === "memory_item.a")).toMatchObject({ action: "create", idKey: "id", idValue: expect.stringMatching(/^item-/) });
    expect(events.at(-1)).toMatchObject({ type: "change_summary", operation: "apply", add: 3, change: 0, remove: 0 });
  });

  it("destroys in reverse dependency order, from the state's dependencies for orphans", async () => {
    const { state, source: first, objs } = await chain();
    const source = new RecordingSource(new Map([...first.memories[0]!.items]));
    const changes: PlannedInstanceChange[] = [];
    for (const name of ["a", "b", "c"]) {
      const d = await planDestroy(planner, `memory_item.${name}`, "memory_item", objs.get(`memory_item.${name}`)!);
      changes.push({ ...d, providerConfig: MEM }); // no `dependencies`: the state's are used
    }
    const { result, persisted } = await run(planOf(state, changes, { mode: "destroy" }), state, source);
    expect(result.success).toBe(true);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, "delete c", "delete b", "delete a"]);
    expect(persisted.map(addresses)).toEqual([["memory_item.a", "memory_item.b"], ["memory_item.a"], []]);
    expect(result.state.resources).toEqual([]);
    expect(source.memories[0]!.items.size).toBe(0);
  });

  it("replaces delete-then-create with the destroy after the dependents' destroys", async () => {
    const { state, source: first, objs } = await chain();
    const source = new RecordingSource(new Map([...first.memories[0]!.items]));
    const changes = [
      await item("memory_item.a", { name: "a2", value: "v" }, { prior: objs.get("memory_item.a")!, dependencies: [] }),
      await item("memory_item.b", { name: "b2", value: "v" }, { prior: objs.get("memory_item.b")!, dependencies: ["memory_item.a"] }),
    ];
    expect(changes.map((c) => c.action)).toEqual(["delete-then-create", "delete-then-create"]);
    const { result } = await run(planOf(state, changes), state, source);
    expect(result.success).toBe(true);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, "delete b", "delete a", "create a2", "create b2"]);
    expect(addresses(result.state)).toEqual(["memory_item.a", "memory_item.b", "memory_item.c"]);
    expect(result.applied.map((r) => `${r.action} ${r.address}`)).toEqual(["delete memory_item.b", "delete memory_item.a", "create memory_item.a", "create memory_item.b"]);
  });

  it("replaces create-before-destroy: create, the dependents' updates, then the deposed object's destroy", async () => {
    const { state, source: first, objs } = await chain();
    const source = new RecordingSource(new Map([...first.memories[0]!.items]));
    const changes = [
      await item("memory_item.a", { name: "a2", value: "v" }, { prior: objs.get("memory_item.a")!, dependencies: [], cbd: true, createBeforeDestroy: true }),
      await item("memory_item.b", { name: "b", value: "w" }, { prior: objs.get("memory_item.b")!, dependencies: ["memory_item.a"] }),
    ];
    expect(changes.map((c) => c.action)).toEqual(["create-then-delete", "update"]);
    const { result, persisted } = await run(planOf(state, changes), state, source);
    expect(result.success).toBe(true);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, "create a2", "update b", "delete a"]);
    // The old object was deposed (and persisted so) before the create, and is gone at the end.
    expect(persisted[0]!.resources.find((r) => r.name === "a")!.instances.map((i) => i.deposed)).toEqual([expect.stringMatching(/^[0-9a-f]{8}$/)]);
    expect(persisted.some((s) => addresses(s).includes("memory_item.a deposed") && addresses(s).includes("memory_item.a"))).toBe(true);
    expect(addresses(result.state)).toEqual(["memory_item.a", "memory_item.b", "memory_item.c"]);
    const a = result.state.resources.find((r) => r.name === "a")!.instances[0]!;
    expect(a.createBeforeDestroy).toBe(true);
    expect(JSON.parse(a.attributesJson!)).toMatchObject({ name: "a2" });
    const deletes = result.applied.filter((r) => r.action === "delete");
    expect(deletes).toEqual([{ address: "memory_item.a", action: "delete", deposedKey: expect.stringMatching(/^[0-9a-f]{8}$/) }]);
  });

  it("keeps a failed create tainted, finishes independent branches and skips the dependents", async () => {
    const state = newStateFile();
    const changes = [
      await item("memory_item.a", { name: "a", value: "fail-after-create" }, { dependencies: [] }),
      await item("memory_item.b", { name: "b", value: "v" }, { dependencies: ["memory_item.a"] }),
      await item("memory_item.c", { name: "c", value: "v" }, { dependencies: [] }),
      await item("memory_item.d", { name: "d", value: "v" }, { dependencies: ["memory_item.b"] }),
    ];
    const { result, persisted, source, events } = await run(planOf(state, changes, { outputs: [{ name: "o", action: "create", before: stringVal("x"), after: stringVal("y"), sensitive: false }] }), state, new RecordingSource());
    expect(result.success).toBe(false);
    expect(result.failed).toEqual([{ address: "memory_item.a", action: "create", diagnostics: [expect.objectContaining({ severity: "error", summary: "memory_item failed after storing the object" })], error: expect.objectContaining({ code: "partially_applied" }) }]);
    expect(result.skipped).toEqual([
      { address: "memory_item.b", action: "create", because: "memory_item.a" },
      { address: "memory_item.d", action: "create", because: "memory_item.a" },
    ]);
    expect(result.applied.map((r) => r.address)).toEqual(["memory_item.c"]);
    expect(addresses(result.state)).toEqual(["memory_item.a tainted", "memory_item.c"]);
    expect(addresses(persisted.at(-1)!)).toEqual(["memory_item.a tainted", "memory_item.c"]);
    expect(source.calls.filter((c) => c.startsWith("create")).sort()).toEqual(["create a", "create c"]);
    // Outputs are not computed after a failure; the error is reported as an event.
    expect(result.outputs).toEqual({});
    expect(result.state.outputs.size).toBe(0);
    expect(events).toContainEqual(expect.objectContaining({ type: "apply_errored", address: "memory_item.a", action: "create" }));
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", summary: "memory_item failed after storing the object" }));
  });

  it("keeps the prior object of an update that failed without a new state", async () => {
    const { state, source: first, objs } = await chain();
    const source = new RecordingSource(new Map([...first.memories[0]!.items]));
    const changes = [await item("memory_item.a", { name: "a", value: "fail" }, { prior: objs.get("memory_item.a")!, dependencies: [] })];
    const { result } = await run(planOf(state, changes), state, source);
    expect(result.failed.map((f) => f.address)).toEqual(["memory_item.a"]);
    expect(result.state.resources).toEqual(state.resources);
    expect(result.state.serial).toBe(state.serial);
  });

  it("on cancellation sends StopProvider, lets the call in flight finish and persists it, and reports what was not done", async () => {
    const state = newStateFile();
    const source = new RecordingSource();
    const controller = new AbortController();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    source.gates.set("x", () => {
      controller.abort();
      return released;
    });
    source.onStop = () => release();
    const changes = [await item("memory_item.x", { name: "x", value: "v" }, { dependencies: [] }), await item("memory_item.y", { name: "y", value: "v" }, { dependencies: ["memory_item.x"] })];
    const { result, persisted } = await run(planOf(state, changes), state, source, { signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(result.success).toBe(false);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, `stop ${MEM_SOURCE}`, "create x"]);
    expect(result.applied.map((r) => r.address)).toEqual(["memory_item.x"]);
    expect(result.canceled).toEqual([{ address: "memory_item.y", action: "create" }]);
    expect(addresses(persisted.at(-1)!)).toEqual(["memory_item.x"]);
  });

  it("refuses a stale plan before calling anything", async () => {
    const state = newStateFile();
    const plan = planOf(state, [await item("memory_item.a", { name: "a" }, { dependencies: [] })]);
    const source = new RecordingSource();
    await expect(run(plan, { ...state, serial: 4 }, source)).rejects.toMatchObject({ code: "stale_plan" });
    await expect(run(plan, { ...state, lineage: "other" }, source)).rejects.toMatchObject({ code: "stale_plan" });
    expect(source.calls).toEqual([]);
  });

  it("refuses a configuration still holding unknowns, and re-evaluates it through the scope", async () => {
    const state = newStateFile();
    const a = await item("memory_item.a", { name: "a", value: "v" }, { dependencies: [] });
    const bConfig = objectVal({ ...itemConfig({ name: "b" }).attributes(), value: unknownVal(stringType) });
    const bPlan = await planInstance(planner, { address: "memory_item.b", typeName: "memory_item", prior: null, config: bConfig });
    const b: PlannedInstanceChange = { ...bPlan, providerConfig: MEM, dependencies: ["memory_item.a"] };

    const without = await run(planOf(state, [a, b]), state, new RecordingSource());
    expect(without.result.failed).toEqual([expect.objectContaining({ address: "memory_item.b", error: expect.objectContaining({ code: "invalid_argument", message: expect.stringMatching(/still holds unknown values/) }) })]);
    expect(without.source.calls).toEqual([`configure ${MEM_SOURCE}`, "create a"]);

    const scope = (name: string): ApplyScope => ({
      providerConfig: () => Promise.resolve(configValue({ attributes: { id_prefix: { type: stringType, optional: true } } }, { id_prefix: "m-" })),
      instanceConfig: (change, values) => Promise.resolve(objectVal({ ...change.config.attributes(), name: stringVal(name), value: values.instance("memory_item.a")!.getAttr("id") })),
      outputs: (values) => Promise.resolve({ b_value: { value: values.instance("memory_item.b")!.getAttr("value"), sensitive: true } }),
    });
    const withScope = await run(planOf(state, [a, b]), state, new RecordingSource(), { scope: scope("b") });
    expect(withScope.result.success).toBe(true);
    const stored = JSON.parse(withScope.result.state.resources.find((r) => r.name === "b")!.instances[0]!.attributesJson!) as { value: string };
    expect(stored.value).toBe("m-1");
    expect(decodeOutput(withScope.result.state.outputs.get("b_value")!)).toMatchObject({ value: stringVal("m-1"), sensitive: true });
    expect(withScope.result.outputs["b_value"]).toEqual({ value: stringVal("m-1"), sensitive: true });
    expect(withScope.events).toContainEqual({ type: "outputs", outputs: { b_value: { sensitive: true, typeJson: '"string"' } } });

    // A re-evaluated configuration that contradicts the saved plan's known values fails the final plan check.
    const changed = await run(planOf(state, [a, b]), state, new RecordingSource(), { scope: scope("other") });
    expect(changed.result.failed).toEqual([expect.objectContaining({ address: "memory_item.b", error: expect.objectContaining({ code: "inconsistent_final_plan" }) })]);
    expect(changed.source.calls).not.toContain("create other");
  });

  it("stores the plan's known outputs without a scope", async () => {
    const state = newStateFile();
    const plan = planOf(state, [await item("memory_item.a", { name: "a" }, { dependencies: [] })], {
      outputs: [
        { name: "known", action: "create", before: stringVal(""), after: stringVal("k"), sensitive: false },
        { name: "secret", action: "create", before: stringVal(""), after: stringVal("s"), sensitive: true },
      ],
    });
    const { result } = await run(plan, state, new RecordingSource());
    expect([...result.state.outputs.keys()].sort()).toEqual(["known", "secret"]);
    expect(result.state.outputs.get("secret")).toEqual({ valueJson: '"s"', typeJson: '"string"', sensitive: true });
  });

  it("reports apply_progress for a running object and its elapsed time", async () => {
    const state = newStateFile();
    const source = new RecordingSource();
    const events: EngineEvent[] = [];
    let progressed!: () => void;
    const seen = new Promise<void>((r) => (progressed = r));
    source.gates.set("slow", () => seen);
    const plan = planOf(state, [await item("memory_item.slow", { name: "slow" }, { dependencies: [] })]);
    const pool = new ProviderPool(source);
    const result = await applyPlan(plan, {
      providers: pool,
      state,
      persist: () => Promise.resolve(),
      progressIntervalMs: 5,
      onEvent: (e) => {
        events.push(e);
        if (e.type === "apply_progress") progressed();
      },
    });
    await pool.close();
    expect(result.success).toBe(true);
    const mine = events.filter((e) => "address" in e && e.address === "memory_item.slow").map((e) => e.type);
    expect(mine[0]).toBe("apply_start");
    expect(mine).toContain("apply_progress");
    expect(mine.at(-1)).toBe("apply_complete");
    expect(events.find((e) => e.type === "apply_progress")).toMatchObject({ action: "create", elapsedSeconds: expect.any(Number) });
  });

  it("paces a provider by its source address and mixes providers (provider-random)", async () => {
    const state = newStateFile();
    const random = await createRandomProvider().getSchema();
    const rsBlock = random.resources.get("random_string")!.block;
    const rp = createRandomProvider();
    await rp.configure(configValue(random.provider.block, {}), "1.11.4");
    const rs = await planInstance({ provider: rp, schema: random }, { address: "random_string.s", typeName: "random_string", prior: null, config: configValue(rsBlock, { length: 8 }) });
    const changes = [
      { ...rs, providerConfig: RANDOM, dependencies: [] },
      ...(await Promise.all(["p", "q", "r", "s"].map((n) => item(`memory_item.${n}`, { name: n, value: "v" }, { dependencies: [] })))),
    ];
    const source = new RecordingSource();
    const { result } = await run(planOf(state, changes, { providers: [memProvider, { address: RANDOM, source: RANDOM_SOURCE, dependencies: [] }] }), state, source, {
      providerParallelism: { [MEM_SOURCE]: 1 },
    });
    expect(result.success).toBe(true);
    expect(source.maxRunning).toBe(1);
    expect(source.calls.filter((c) => c.startsWith("configure")).sort()).toEqual([`configure ${RANDOM_SOURCE}`, `configure ${MEM_SOURCE}`]);
    const s = result.state.resources.find((r) => r.type === "random_string")!;
    expect(s.provider.provider.type).toBe("random");
    expect((JSON.parse(s.instances[0]!.attributesJson!) as { result: string }).result).toHaveLength(8);
    expect(s.instances[0]!.schemaVersion).toBe(random.resources.get("random_string")!.version);
  });

  it("records an object adopted in place of a failed create", async () => {
    const state = newStateFile();
    const source = new RecordingSource();
    const change = await item("memory_item.a", { name: "a", value: "fail" }, { dependencies: [] });
    const { result } = await run(planOf(state, [change]), state, source, {
      onCreateConflict: (input) => {
        expect(input.change.address).toBe("memory_item.a");
        expect(input.error).toMatchObject({ code: "diagnostics" });
        const adopted = objectVal({ ...input.config.attributes(), id: stringVal("pre-1"), size: input.change.after.getAttr("size"), rule: input.change.after.getAttr("rule") });
        return Promise.resolve({ object: { state: adopted, private: new Uint8Array(), tainted: false }, id: "pre-1", warnings: [] });
      },
    });
    expect(result.success).toBe(true);
    expect(result.adoptions).toEqual([{ address: "memory_item.a", id: "pre-1", warnings: [] }]);
    expect(JSON.parse(result.state.resources[0]!.instances[0]!.attributesJson!)).toMatchObject({ id: "pre-1", name: "a" });
  });

  it("records an adopted object whose remaining update failed, untainted, and fails the instance", async () => {
    const state = newStateFile();
    const source = new RecordingSource();
    const change = await item("memory_item.a", { name: "a", value: "fail" }, { dependencies: [] });
    const { result } = await run(planOf(state, [change]), state, source, {
      onCreateConflict: (input) => {
        const adopted = objectVal({ ...input.config.attributes(), id: stringVal("pre-2"), size: input.change.after.getAttr("size"), rule: input.change.after.getAttr("rule") });
        return Promise.resolve({ object: { state: adopted, private: new Uint8Array(), tainted: false }, id: "pre-2", warnings: [], error: new Error("update after adoption failed") });
      },
    });
    expect(result.success).toBe(false);
    expect(result.failed.map((f) => f.address)).toEqual(["memory_item.a"]);
    expect(result.adoptions.map((a) => a.id)).toEqual(["pre-2"]);
    const inst = result.state.resources[0]!.instances[0]!;
    expect(JSON.parse(inst.attributesJson!)).toMatchObject({ id: "pre-2" });
    expect(inst.tainted).toBe(false);
  });

  it("reads a deferred data source after the resource it depends on, and stores it in state", async () => {
    const state = newStateFile();
    const a = await item("memory_item.a", { name: "a", value: "payload" }, { dependencies: [] });
    const deferred = await readDataSourceInstance(planner, { address: "data.memory_lookup.l", typeName: "memory_lookup", config: lookupConfig({ name: "a" }), dependsOnPendingChanges: true });
    if (deferred.kind !== "deferred") throw new Error("expected a deferred read");
    const read: PlannedInstanceChange = { ...deferred.change, providerConfig: MEM, dependencies: ["memory_item.a"] };
    const { result, events } = await run(planOf(state, [read, a]), state, new RecordingSource());
    expect(result.success).toBe(true);
    expect(result.applied.map((r) => `${r.action} ${r.address}`)).toEqual(["create memory_item.a", "read data.memory_lookup.l"]);
    const l = result.state.resources.find((r) => r.mode === "data")!;
    expect(l).toMatchObject({ type: "memory_lookup", name: "l" });
    expect(JSON.parse(l.instances[0]!.attributesJson!)).toMatchObject({ name: "a", value: "payload", id: expect.stringMatching(/^item-/) });
    expect(events).toContainEqual(expect.objectContaining({ type: "apply_complete", address: "data.memory_lookup.l", action: "read" }));
  });

  it("reads a check block's data source again (read_because_check_nested); a failed read there only warns", async () => {
    const state = newStateFile();
    const a = await item("memory_item.a", { name: "a", value: "fresh" }, { dependencies: [] });
    // What the plan read (before memory_item.a existed, say): the apply reads again.
    const stale = objectVal({ id: stringVal("old"), name: stringVal("a"), value: stringVal("stale"), tags: nullVal(mapType(stringType)) });
    const nested = (address: string, name: string): PlannedInstanceChange => ({
      address,
      mode: "data",
      typeName: "memory_lookup",
      action: "read",
      readReason: "check-nested",
      before: nullVal(stale.type),
      after: stale,
      config: lookupConfig({ name }),
      requiresReplace: [],
      priorPrivate: new Uint8Array(),
      plannedPrivate: new Uint8Array(),
      priorTainted: false,
      legacyTypeSystem: false,
      warnings: [],
      providerConfig: MEM,
      dependencies: ["memory_item.a"],
    });
    const { result } = await run(planOf(state, [nested("data.memory_lookup.l", "a"), nested("data.memory_lookup.m", "nothing-by-that-name"), a]), state, new RecordingSource());
    expect(result.success).toBe(true);
    const l = result.state.resources.find((r) => r.mode === "data" && r.name === "l")!;
    expect(JSON.parse(l.instances[0]!.attributesJson!)).toMatchObject({ name: "a", value: "fresh" });
    expect(result.state.resources.find((r) => r.mode === "data" && r.name === "m")).toBeUndefined();
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: "warning", summary: "no such item" })]);
    expect(result.failed).toEqual([]);
  });

  it("moves a no-op object to its new address, forgets another, and destroys a deposed object", async () => {
    const { state, source: first, objs } = await chain();
    // An interrupted create-before-destroy left a deposed object of memory_item.c.
    const old = objs.get("memory_item.a")!;
    const withDeposed = structuredClone(state);
    const cRes = withDeposed.resources.find((r) => r.name === "c")!;
    cRes.instances.push({ ...cRes.instances[0]!, deposed: "0badc0de" });
    const source = new RecordingSource(new Map([...first.memories[0]!.items]));
    const moved = await item("memory_item.z", { name: "a", value: "v" }, { prior: old, dependencies: [], previousAddress: "memory_item.a" });
    expect(moved.action).toBe("no-op");
    const forget: PlannedInstanceChange = { ...(await planDestroy(planner, "memory_item.b", "memory_item", objs.get("memory_item.b")!)), action: "forget", providerConfig: MEM };
    const deposed: PlannedInstanceChange = { ...(await planDestroy(planner, "memory_item.c", "memory_item", objs.get("memory_item.c")!)), providerConfig: MEM, deposedKey: "0badc0de", dependencies: [] };
    const { result, events } = await run(planOf(withDeposed, [moved, forget, deposed]), withDeposed, source);
    // A forget calls no apply hook in terraform (node_resource_forget.go): no events, not counted.
    expect(events.at(-1)).toEqual({ type: "change_summary", operation: "apply", add: 0, change: 0, import: 0, remove: 1, forget: 0 });
    expect(events.filter((e) => e.type === "apply_start").map((e) => "address" in e && e.address)).toEqual(["memory_item.c"]);
    expect(result.success).toBe(true);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, "delete c"]);
    expect(addresses(result.state)).toEqual(["memory_item.c", "memory_item.z"]);
    expect(result.applied).toContainEqual({ address: "memory_item.c", action: "delete", deposedKey: "0badc0de" });
    expect(result.state.resources.find((r) => r.name === "z")!.instances[0]!.attributesJson).toBe(state.resources.find((r) => r.name === "a")!.instances[0]!.attributesJson);
  });

  it("stops at a failed persist: the object fails, nothing more starts, the state is in the result", async () => {
    // a → b → c. a's create returns and b starts while a's write is under way (see below);
    // that write fails: a fails, the walk stops. b, already started, ends by its own write
    // (which fails too); c, not started, is skipped. Nothing is acknowledged as done.
    const state = newStateFile();
    const changes = [
      await item("memory_item.a", { name: "a" }, { dependencies: [] }),
      await item("memory_item.b", { name: "b" }, { dependencies: ["memory_item.a"] }),
      await item("memory_item.c", { name: "c" }, { dependencies: ["memory_item.b"] }),
    ];
    const source = new RecordingSource();
    const pool = new ProviderPool(source);
    let writes = 0;
    const events: EngineEvent[] = [];
    const result = await applyPlan(planOf(state, changes), {
      providers: pool,
      state,
      persist: () => {
        writes++;
        return Promise.reject(new Error("disk full"));
      },
      onEvent: (e) => events.push(e),
    });
    await pool.close();
    expect(result.success).toBe(false);
    expect(result.failed.map((f) => f.address).sort()).toEqual(["memory_item.a", "memory_item.b"]);
    for (const f of result.failed) expect(f.diagnostics).toEqual([expect.objectContaining({ summary: "Failed to persist state", detail: "disk full" })]);
    expect(result.skipped).toEqual([expect.objectContaining({ address: "memory_item.c", because: "memory_item.a" })]);
    expect(result.applied).toEqual([]);
    expect(events.filter((e) => e.type === "apply_complete")).toEqual([]);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, "create a", "create b"]);
    // The objects created are in the result's state, for the caller to save elsewhere.
    expect(addresses(result.state)).toEqual(["memory_item.a", "memory_item.b"]);
    expect(writes).toBe(3); // a's write, b's write, and the last try at the end
  });

  it("starts a dependent once its dependency's apply returned, while the dependency's write is under way; each object is acknowledged only after a durable write holding it", async () => {
    // Two chains a1 → a2 → a3 and b1 → b2 → b3; every write is held until the test lets it finish.
    const state = newStateFile();
    const changes: PlannedInstanceChange[] = [];
    for (const c of ["a", "b"]) {
      for (let i = 1; i <= 3; i++) changes.push(await item(`memory_item.${c}${i}`, { name: `${c}${i}` }, { dependencies: i === 1 ? [] : [`memory_item.${c}${i - 1}`] }));
    }
    const source = new RecordingSource();
    const pool = new ProviderPool(source);
    const log: string[] = [];
    const durable: StateFile[] = [];
    const pending: (() => void)[] = [];
    const applying = applyPlan(planOf(state, changes), {
      providers: pool,
      state,
      persist: (s) =>
        new Promise<void>((resolve) => {
          log.push(`write ${addresses(s).length}`);
          pending.push(() => {
            durable.push(readStateFile(writeStateFile(s))!);
            log.push(`durable ${addresses(s).length}`);
            resolve();
          });
        }),
      onEvent: (e) => {
        if (e.type === "apply_complete") {
          // Acknowledged: a durable write holds it.
          expect(durable.some((d) => addresses(d).includes(e.address))).toBe(true);
          log.push(`complete ${e.address.replace("memory_item.", "")}`);
        }
        if (e.type === "apply_start") log.push(`start ${e.address.replace("memory_item.", "")}`);
      },
    });
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    for (let i = 0; i < 20; i++) await tick();
    // The first write (holding what was applied first) is still under way: nothing acknowledged, yet the
    // chains went on — every create ran, each dependent after its dependency's apply returned.
    expect(log.filter((l) => l.startsWith("complete"))).toEqual([]);
    expect(source.calls.filter((c) => c.startsWith("create"))).toHaveLength(6);
    for (const c of ["a", "b"]) expect(source.calls.indexOf(`create ${c}1`)).toBeLessThan(source.calls.indexOf(`create ${c}2`));
    expect(source.calls.indexOf("create a2")).toBeLessThan(source.calls.indexOf("create a3"));
    // Let the writes finish, one at a time (each write is a snapshot of everything recorded before it).
    while (pending.length > 0 || log.at(-1)?.startsWith("write") === true) {
      pending.shift()?.();
      await tick();
    }
    const result = await applying;
    await pool.close();
    expect(result.success).toBe(true);
    expect(result.applied).toHaveLength(6);
    // Group commits: far fewer writes than objects; the last one holds all six.
    expect(durable.length).toBeLessThan(6);
    expect(addresses(durable.at(-1)!)).toHaveLength(6);
    // The events keep Terraform's order: a dependent is reported as started after its dependency completed.
    for (const c of ["a", "b"]) {
      for (let i = 1; i < 3; i++) expect(log.indexOf(`start ${c}${i + 1}`)).toBeGreaterThan(log.indexOf(`complete ${c}${i}`));
    }
    // No durable state ever holds a dependent without its dependency.
    for (const d of durable) {
      const held = addresses(d);
      for (const a of held) {
        const m = /^memory_item\.([ab])(\d)$/.exec(a)!;
        if (m[2] !== "1") expect(held).toContain(`memory_item.${m[1]}${Number(m[2]) - 1}`);
      }
    }
  });

  it("refuses a provider configuration still holding unknowns and skips the provider's objects", async () => {
    const state = newStateFile();
    const changes = [await item("memory_item.a", { name: "a" }, { dependencies: [] })];
    const scope: ApplyScope = {
      providerConfig: () => Promise.resolve(objectVal({ id_prefix: unknownVal(stringType) })),
      instanceConfig: (c) => Promise.resolve(c.config),
      outputs: () => Promise.resolve({}),
    };
    const { result, source } = await run(planOf(state, changes), state, new RecordingSource(), { scope });
    expect(result.failed).toEqual([expect.objectContaining({ address: MEM, action: "configure", error: expect.objectContaining({ message: expect.stringMatching(/still holds unknown values/) }) })]);
    expect(result.skipped).toEqual([{ address: "memory_item.a", action: "create", because: `provider:${MEM}` }]);
    expect(source.calls).toEqual([]);
  });

  it("on cancellation keeps the prior object of an in-flight update that the stop made fail (as SDKv2 providers do)", async () => {
    const { state, source: first, objs } = await chain();
    const source = new RecordingSource(new Map([...first.memories[0]!.items]));
    const controller = new AbortController();
    let stopped!: (e: Error) => void;
    const failed = new Promise<void>((_, reject) => (stopped = reject));
    source.gates.set("a", () => {
      controller.abort();
      return failed;
    });
    source.onStop = () => stopped(new Error("context canceled"));
    const changes = [
      await item("memory_item.a", { name: "a", value: "w" }, { prior: objs.get("memory_item.a")!, dependencies: [] }),
      await item("memory_item.b", { name: "b", value: "w" }, { prior: objs.get("memory_item.b")!, dependencies: ["memory_item.a"] }),
    ];
    const { result } = await run(planOf(state, changes), state, source, { signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(result.failed).toEqual([expect.objectContaining({ address: "memory_item.a", action: "update", diagnostics: [expect.objectContaining({ severity: "error", summary: "context canceled" })] })]);
    expect([...result.skipped, ...result.canceled].map((x) => x.address)).toEqual(["memory_item.b"]);
    expect(source.calls).toEqual([`configure ${MEM_SOURCE}`, `stop ${MEM_SOURCE}`]);
    expect(result.state.resources).toEqual(state.resources);
  });
});
