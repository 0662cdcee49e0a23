import type { Config } from "@magma/config";
import { configEdges, type ConfigEdges, type ConfigVertex } from "./config-edges.js";

/**
 * The resources (managed, data and ephemeral, by configuration address) each object of a
 * configuration depends on, directly or through locals, variables, outputs, module calls and
 * provider configurations — what the planner records as an object's `dependencies`, computed
 * from the configuration alone (for an apply, which has no plan graph). Takes the object's
 * id as the planner names it (`module.m.ephemeral.x.y`, `provider["…"].alias`); unknown ids
 * have no dependencies. Sorted.
 */
export function configResourceDependencies(root: Config, edges: ConfigEdges = configEdges(root)): (id: string) => string[] {
  const uses = new Map<string, Set<string>>();
  const resources = new Set<string>();
  const idsOf = (v: ConfigVertex): readonly string[] => (v.kind === "module-value" ? [v.id, ...v.outputs] : [v.id]);
  for (const e of edges.edges) {
    if (e.to.kind === "resource") resources.add(e.to.id);
    if (e.from.kind === "resource") resources.add(e.from.id);
    for (const from of idsOf(e.from)) {
      let set = uses.get(from);
      if (set === undefined) uses.set(from, (set = new Set()));
      for (const to of idsOf(e.to)) if (to !== from) set.add(to);
    }
  }
  const memo = new Map<string, string[]>();
  return (id: string): string[] => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const stack = [...(uses.get(id) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const next of uses.get(n) ?? []) stack.push(next);
    }
    const out = [...seen].filter((n) => resources.has(n) && n !== id).sort();
    memo.set(id, out);
    return out;
  };
}
