import { Graph } from "./graph.js";
import { walkGraph } from "./walk.js";

/** A promise with its resolve function, to hold visits open until the test says. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("walkGraph", () => {
  it("visits every node after its dependencies", async () => {
    const g = new Graph<null>();
    for (const id of ["a", "b", "c", "d", "e"]) g.add(id, null);
    g.dependOn("b", "a").dependOn("c", "a").dependOn("d", "b").dependOn("d", "c").dependOn("e", "d");
    const seen: string[] = [];
    const r = await walkGraph(g, async (id) => {
      for (const dep of g.dependencies(id)) expect(seen).toContain(dep);
      await tick();
      seen.push(id);
      return id.toUpperCase();
    });
    expect(seen).toHaveLength(5);
    expect(seen[0]).toBe("a");
    expect(seen[4]).toBe("e");
    expect([...r.done.entries()].sort()).toEqual([["a", "A"], ["b", "B"], ["c", "C"], ["d", "D"], ["e", "E"]]);
    expect(r.failed.size + r.skipped.size + r.canceled.length).toBe(0);
  });

  it("starts ready nodes in the graph's insertion order, however they became ready", async () => {
    const g = new Graph<null>();
    const n = 30;
    for (let i = 0; i < n; i++) g.add(`x${i}`, null);
    g.add("root", null);
    g.add("other", null);
    // The edges in reverse: root's dependents become ready in the order x29 … x0.
    for (let i = n - 1; i >= 0; i--) g.dependOn(`x${i}`, "root");
    for (let i = n - 1; i >= 0; i -= 2) g.dependOn(`x${i}`, "other");
    const started: string[] = [];
    await walkGraph(
      g,
      async (id) => {
        started.push(id);
        await tick();
      },
      { parallelism: 1 },
    );
    // root (inserted before other) first; then the even x's (ready after root alone) and other, in insertion order; then the odd ones.
    const evens = Array.from({ length: n / 2 }, (_, i) => `x${2 * i}`);
    const odds = Array.from({ length: n / 2 }, (_, i) => `x${2 * i + 1}`);
    expect(started).toEqual(["root", ...evens, "other", ...odds]);
  });

  it("never runs more than `parallelism` nodes at once, and does reach it", async () => {
    const g = new Graph<null>();
    for (let i = 0; i < 40; i++) g.add(`n${i}`, null);
    let running = 0;
    let max = 0;
    const r = await walkGraph(
      g,
      async () => {
        running++;
        max = Math.max(max, running);
        for (let i = 0; i < 3; i++) await tick();
        running--;
      },
      { parallelism: 4 },
    );
    expect(r.done.size).toBe(40);
    expect(max).toBe(4);
  });

  it("uses 10 as the default parallelism", async () => {
    const g = new Graph<null>();
    for (let i = 0; i < 25; i++) g.add(`n${i}`, null);
    let running = 0;
    let max = 0;
    await walkGraph(g, async () => {
      running++;
      max = Math.max(max, running);
      await tick();
      running--;
    });
    expect(max).toBe(10);
  });

  it("keeps each group within its limit while other groups proceed", async () => {
    const g = new Graph<string>();
    for (let i = 0; i < 12; i++) g.add(`slow${i}`, "slow");
    for (let i = 0; i < 6; i++) g.add(`fast${i}`, "fast");
    const running = new Map<string, number>();
    const max = new Map<string, number>();
    const r = await walkGraph(
      g,
      async (_id, group) => {
        running.set(group, (running.get(group) ?? 0) + 1);
        max.set(group, Math.max(max.get(group) ?? 0, running.get(group)!));
        for (let i = 0; i < 3; i++) await tick();
        running.set(group, running.get(group)! - 1);
      },
      { parallelism: 5, groupOf: (id) => g.get(id), groupLimits: { slow: 2 } },
    );
    expect(r.done.size).toBe(18);
    expect(max.get("slow")).toBe(2);
    expect(max.get("fast")).toBe(3); // the 3 slots the slow group cannot use
  });

  it("skips the dependents of a failed node and finishes the independent branches", async () => {
    const g = new Graph<null>();
    for (const id of ["a", "b", "c", "x", "y"]) g.add(id, null);
    g.dependOn("b", "a").dependOn("c", "b").dependOn("y", "x");
    const boom = new Error("a failed");
    const r = await walkGraph(g, async (id) => {
      await tick();
      if (id === "a") throw boom;
      return id;
    });
    expect(r.failed).toEqual(new Map([["a", boom]]));
    expect(r.skipped).toEqual(new Map([["b", { because: "a" }], ["c", { because: "a" }]]));
    expect([...r.done.keys()].sort()).toEqual(["x", "y"]);
    expect(r.canceled).toEqual([]);
  });

  it("treats a visit that throws synchronously as a failure", async () => {
    const g = new Graph<null>().add("a", null).add("b", null).dependOn("b", "a");
    const r = await walkGraph(g, (() => {
      throw new Error("sync");
    }) as () => Promise<void>);
    expect([...r.failed.keys()]).toEqual(["a"]);
    expect([...r.skipped.keys()]).toEqual(["b"]);
  });

  it("on cancellation starts nothing more, waits for the nodes in flight and reports the rest", async () => {
    const g = new Graph<null>();
    for (let i = 0; i < 6; i++) g.add(`n${i}`, null);
    g.dependOn("n5", "n0");
    const ac = new AbortController();
    const held = gate();
    const started: string[] = [];
    let sawAbort = 0;
    const walk = walkGraph(
      g,
      async (id, _v, ctx) => {
        started.push(id);
        await held.promise;
        if (ctx.signal.aborted) sawAbort++;
        return id;
      },
      { parallelism: 2, signal: ac.signal },
    );
    await tick();
    expect(started).toEqual(["n0", "n1"]);
    ac.abort(new Error("user pressed ctrl-c"));
    held.open();
    const r = await walk;
    expect(started).toEqual(["n0", "n1"]);
    expect([...r.done.keys()].sort()).toEqual(["n0", "n1"]);
    expect(sawAbort).toBe(2);
    expect(r.canceled).toEqual(["n2", "n3", "n4", "n5"]);
  });

  it("does nothing when the signal fired before the walk", async () => {
    const g = new Graph<null>().add("a", null);
    const ac = new AbortController();
    ac.abort();
    let visited = false;
    const r = await walkGraph(g, async () => void (visited = true), { signal: ac.signal });
    expect(visited).toBe(false);
    expect(r.canceled).toEqual(["a"]);
  });

  it("refuses a cyclic graph before visiting anything, and bad limits", async () => {
    const g = new Graph<null>().add("a", null).add("b", null).dependOn("a", "b").dependOn("b", "a");
    let visited = false;
    await expect(walkGraph(g, async () => void (visited = true))).rejects.toMatchObject({ code: "cycle" });
    expect(visited).toBe(false);
    const ok = new Graph<null>().add("a", null);
    await expect(walkGraph(ok, async () => undefined, { parallelism: 0 })).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(walkGraph(ok, async () => undefined, { groupLimits: { p: 0.5 } })).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("walks an empty graph", async () => {
    const r = await walkGraph(new Graph<null>(), async () => undefined);
    expect(r.done.size + r.failed.size + r.skipped.size + r.canceled.length).toBe(0);
  });
  describe("release: dependents start before a visit settles", () => {
    it("starts the dependents of a released node while it is still open, frees its place, and waits for it", async () => {
      // a → b → c (a chain), and x independent; parallelism 1.
      const g = new Graph<null>().add("a", null).add("b", null).add("c", null).add("x", null);
      g.dependOn("b", "a").dependOn("c", "b");
      const hold = gate();
      const events: string[] = [];
      let walkDone = false;
      const walking = walkGraph(
        g,
        async (id, _v, ctx) => {
          events.push(`start ${id}`);
          if (id === "a") {
            ctx.release();
            ctx.release(); // again: nothing more
            await hold.promise;
          }
          events.push(`end ${id}`);
          return id;
        },
        { parallelism: 1 },
      ).then((r) => {
        walkDone = true;
        return r;
      });
      for (let i = 0; i < 5; i++) await tick();
      // a is open, yet b, c and x ran (a's place under parallelism 1 was freed); the walk waits for a.
      expect(events).toEqual(["start a", "start b", "end b", "start c", "end c", "start x", "end x"]);
      expect(walkDone).toBe(false);
      hold.open();
      const r = await walking;
      expect(events.at(-1)).toBe("end a");
      expect([...r.done.keys()].sort()).toEqual(["a", "b", "c", "x"]);
      expect(r.failed.size + r.skipped.size + r.canceled.length).toBe(0);
    });

    it("a released node that then fails: the dependents started run on, the ones not started are skipped", async () => {
      // a → b → c: a releases, b starts and is held; a fails; b finishes; c is skipped because of a.
      const g = new Graph<null>().add("a", null).add("b", null).add("c", null);
      g.dependOn("b", "a").dependOn("c", "b");
      const failA = gate();
      const holdB = gate();
      const walking = walkGraph(g, async (id, _v, ctx) => {
        if (id === "a") {
          ctx.release();
          await failA.promise;
          throw new Error("write failed");
        }
        if (id === "b") await holdB.promise;
        return id;
      });
      for (let i = 0; i < 3; i++) await tick();
      failA.open();
      for (let i = 0; i < 3; i++) await tick();
      holdB.open();
      const r = await walking;
      expect([...r.failed.keys()]).toEqual(["a"]);
      expect([...r.done.keys()]).toEqual(["b"]);
      expect([...r.skipped.entries()]).toEqual([["c", { because: "a" }]]);
      expect(r.canceled).toEqual([]);
    });

    it("a release after the visit settled does nothing, and dependents are released once", async () => {
      const g = new Graph<null>().add("a", null).add("b", null).dependOn("b", "a");
      let late: (() => void) | undefined;
      const seen: string[] = [];
      const r = await walkGraph(g, async (id, _v, ctx) => {
        seen.push(id);
        if (id === "a") late = ctx.release;
        else late?.();
        return id;
      });
      expect(seen).toEqual(["a", "b"]);
      expect([...r.done.keys()]).toEqual(["a", "b"]);
    });
  });
});
