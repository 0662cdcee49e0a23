import { isEngineError } from "../engine-error.js";
import { Graph } from "./graph.js";

function chain(...ids: string[]): Graph<null> {
  const g = new Graph<null>();
  for (const id of ids) g.add(id, null);
  for (let i = 1; i < ids.length; i++) g.dependOn(ids[i]!, ids[i - 1]!);
  return g;
}

describe("Graph", () => {
  it("orders dependencies before dependents, ties in insertion order", () => {
    const g = new Graph<number>().add("c", 3).add("a", 1).add("b", 2).add("d", 4);
    g.dependOn("c", "b").dependOn("d", "a");
    expect(g.topologicalOrder()).toEqual(["a", "b", "d", "c"]);
    expect(g.get("c")).toBe(3);
    expect(g.dependencies("c")).toEqual(["b"]);
    expect(g.dependents("a")).toEqual(["d"]);
  });

  it("names a cycle in the error, with a stable code", () => {
    const g = chain("a", "b", "c").dependOn("a", "c");
    let err: unknown;
    try {
      g.assertAcyclic();
    } catch (e) {
      err = e;
    }
    expect(isEngineError(err)).toBe(true);
    expect(err).toMatchObject({ code: "cycle" });
    const cycle = (err as { cycle: string[] }).cycle;
    expect(cycle[0]).toBe(cycle[cycle.length - 1]);
    expect(new Set(cycle)).toEqual(new Set(["a", "b", "c"]));
    expect((err as Error).message).toMatch(/^\[cycle\] dependency cycle: \w → \w → \w → \w/);
    expect(() => g.topologicalOrder()).toThrow(/cycle/);
  });

  it("reports a self-dependency as a cycle", () => {
    const g = new Graph<null>().add("x", null).dependOn("x", "x");
    expect(g.findCycle()).toEqual(["x", "x"]);
  });

  it("has no cycle in a diamond", () => {
    const g = new Graph<null>().add("a", null).add("b", null).add("c", null).add("d", null);
    g.dependOn("b", "a").dependOn("c", "a").dependOn("d", "b").dependOn("d", "c");
    expect(g.findCycle()).toBeUndefined();
    expect(g.descendants("a")).toEqual(new Set(["b", "c", "d"]));
    expect(g.ancestors("d")).toEqual(new Set(["a", "b", "c"]));
  });

  it("rejects edges to unknown nodes", () => {
    const g = new Graph<null>().add("a", null);
    expect(() => g.dependOn("a", "nope")).toThrow(expect.objectContaining({ code: "unknown_node" }) as Error);
    expect(() => g.get("nope")).toThrow(/no node "nope"/);
  });

  it("lists the cycles as strongly connected components, in Tarjan's pop order", () => {
    // a → b → c → a (each depends on the next), d ⇄ e, f alone, g depending on itself.
    const g = chain("c", "b", "a").dependOn("c", "a").add("d", null).add("e", null).add("f", null).add("g", null);
    g.dependOn("d", "e").dependOn("e", "d").dependOn("f", "a").dependOn("g", "g");
    expect(g.cycles()).toEqual([
      ["b", "a", "c"],
      ["e", "d"],
    ]);
    expect(chain("a", "b", "c").cycles()).toEqual([]);
  });

  it("removes implied edges in the transitive reduction", () => {
    const g = chain("a", "b", "c").dependOn("c", "a");
    expect(g.dependencies("c").sort()).toEqual(["a", "b"]);
    g.transitiveReduction();
    expect(g.dependencies("c")).toEqual(["b"]);
    expect(g.dependencies("b")).toEqual(["a"]);
    expect(g.topologicalOrder()).toEqual(["a", "b", "c"]);
  });
});
