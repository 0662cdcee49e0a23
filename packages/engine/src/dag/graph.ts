import { EngineError, EngineErrorCode } from "../engine-error.js";

/**
 * A directed graph of dependencies, knowing nothing of Terraform (Terraform's
 * `internal/dag`): nodes are string ids carrying a value, and an edge says that one node
 * depends on another (it may only start once the other is done).
 *
 * Iteration orders are the insertion orders, so walks and errors are deterministic.
 */
export class Graph<T> {
  readonly #nodes = new Map<string, T>();
  readonly #deps = new Map<string, Set<string>>();
  readonly #dependents = new Map<string, Set<string>>();

  /** Adds a node (or replaces the value of an existing one). */
  add(id: string, value: T): this {
    if (!this.#nodes.has(id)) {
      this.#deps.set(id, new Set());
      this.#dependents.set(id, new Set());
    }
    this.#nodes.set(id, value);
    return this;
  }

  /**
   * Records that `id` depends on `dependency` (the walk starts `id` only after `dependency`
   * succeeded). A self-dependency is a cycle, reported by {@link Graph.assertAcyclic}.
   *
   * @throws {@link EngineError} `unknown_node` when either node was not added.
   */
  dependOn(id: string, dependency: string): this {
    this.#need(id);
    this.#need(dependency);
    this.#deps.get(id)!.add(dependency);
    this.#dependents.get(dependency)!.add(id);
    return this;
  }

  /** Removes the edge `id` → `dependency`, if present. */
  removeDependency(id: string, dependency: string): this {
    this.#deps.get(id)?.delete(dependency);
    this.#dependents.get(dependency)?.delete(id);
    return this;
  }

  /** Whether the node exists. */
  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  /** The value of a node. @throws {@link EngineError} `unknown_node`. */
  get(id: string): T {
    this.#need(id);
    return this.#nodes.get(id) as T;
  }

  /** The node ids, in insertion order. */
  ids(): string[] {
    return [...this.#nodes.keys()];
  }

  /** How many nodes there are. */
  get size(): number {
    return this.#nodes.size;
  }

  /** The direct dependencies of a node. @throws {@link EngineError} `unknown_node`. */
  dependencies(id: string): string[] {
    this.#need(id);
    return [...this.#deps.get(id)!];
  }

  /** The nodes that depend directly on a node. @throws {@link EngineError} `unknown_node`. */
  dependents(id: string): string[] {
    this.#need(id);
    return [...this.#dependents.get(id)!];
  }

  /** Every node that depends on `id`, directly or not (not `id` itself unless in a cycle). */
  descendants(id: string): Set<string> {
    this.#need(id);
    const seen = new Set<string>();
    const stack = [...this.#dependents.get(id)!];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...this.#dependents.get(n)!);
    }
    return seen;
  }

  /** Every node `id` depends on, directly or not. */
  ancestors(id: string): Set<string> {
    this.#need(id);
    const seen = new Set<string>();
    const stack = [...this.#deps.get(id)!];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...this.#deps.get(n)!);
    }
    return seen;
  }

  /** The first cycle found, as node ids with the first repeated at the end; undefined when acyclic. */
  findCycle(): string[] | undefined {
    const state = new Map<string, 1 | 2>(); // 1 = on the current path, 2 = finished
    for (const root of this.#nodes.keys()) {
      if (state.has(root)) continue;
      // Iterative depth-first search over dependencies, keeping the path.
      const path: string[] = [];
      const iters: Iterator<string>[] = [];
      const enter = (n: string): void => {
        state.set(n, 1);
        path.push(n);
        iters.push(this.#deps.get(n)![Symbol.iterator]());
      };
      enter(root);
      while (iters.length > 0) {
        const next = iters[iters.length - 1]!.next();
        if (next.done === true) {
          state.set(path.pop()!, 2);
          iters.pop();
          continue;
        }
        const d = next.value;
        const s = state.get(d);
        if (s === 1) return [...path.slice(path.indexOf(d)), d];
        if (s === undefined) enter(d);
      }
    }
    return undefined;
  }

  /**
   * The strongly connected components with more than one node: the cycles, as Terraform's
   * `AcyclicGraph.Cycles` finds them with Tarjan's algorithm (a self-dependency is not
   * listed; {@link Graph.findCycle} reports it). Each component
   * lists its nodes in the order Tarjan pops them off its stack, so that for a simple cycle
   * each node is followed by one of its dependents. Nodes and edges are visited in insertion
   * order, so the result is deterministic.
   */
  cycles(): string[][] {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const out: string[][] = [];
    let next = 0;
    for (const root of this.#nodes.keys()) {
      if (index.has(root)) continue;
      // Iterative depth-first search: each frame is a node and the iterator over its dependencies.
      const frames: { id: string; deps: Iterator<string> }[] = [];
      const enter = (n: string): void => {
        index.set(n, next);
        low.set(n, next);
        next++;
        stack.push(n);
        onStack.add(n);
        frames.push({ id: n, deps: this.#deps.get(n)![Symbol.iterator]() });
      };
      enter(root);
      while (frames.length > 0) {
        const f = frames[frames.length - 1]!;
        const step = f.deps.next();
        if (step.done !== true) {
          const d = step.value;
          if (!index.has(d)) enter(d);
          else if (onStack.has(d)) low.set(f.id, Math.min(low.get(f.id)!, index.get(d)!));
          continue;
        }
        frames.pop();
        const parent = frames[frames.length - 1];
        if (parent !== undefined) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(f.id)!));
        if (low.get(f.id) !== index.get(f.id)) continue;
        const component: string[] = [];
        for (;;) {
          const n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
          if (n === f.id) break;
        }
        if (component.length > 1) out.push(component);
      }
    }
    return out;
  }

  /**
   * Checks that the graph has no cycle.
   *
   * @throws {@link EngineError} `cycle`, naming the cycle (`a → b → a`, each node waiting on the next).
   */
  assertAcyclic(): void {
    const cycle = this.findCycle();
    if (cycle !== undefined) {
      throw new EngineError(EngineErrorCode.Cycle, `dependency cycle: ${cycle.join(" → ")} (each depends on the next)`, { cycle });
    }
  }

  /**
   * The node ids in an order where every node comes after its dependencies; ties keep
   * insertion order.
   *
   * @throws {@link EngineError} `cycle` when there is a cycle.
   */
  topologicalOrder(): string[] {
    this.assertAcyclic();
    const remaining = new Map<string, number>();
    for (const [id, deps] of this.#deps) remaining.set(id, deps.size);
    const out: string[] = [];
    const ready = [...this.#nodes.keys()].filter((id) => remaining.get(id) === 0);
    while (ready.length > 0) {
      const n = ready.shift()!;
      out.push(n);
      for (const d of this.#dependents.get(n)!) {
        const left = remaining.get(d)! - 1;
        remaining.set(d, left);
        if (left === 0) ready.push(d);
      }
    }
    return out;
  }

  /**
   * Removes every edge implied by others (Terraform's `TransitiveReduction`): when `a`
   * depends on `b` and `b` (transitively) on `c`, a direct `a` → `c` edge goes. The walk
   * order is unchanged; the graph is smaller to show and to walk.
   *
   * @throws {@link EngineError} `cycle` when there is a cycle.
   */
  transitiveReduction(): this {
    this.assertAcyclic();
    for (const id of this.#nodes.keys()) {
      const direct = [...this.#deps.get(id)!];
      for (const d of direct) {
        const viaD = this.ancestors(d);
        for (const other of direct) if (other !== d && viaD.has(other)) this.removeDependency(id, other);
      }
    }
    return this;
  }

  #need(id: string): void {
    if (!this.#nodes.has(id)) throw new EngineError(EngineErrorCode.UnknownNode, `no node ${JSON.stringify(id)} in the graph`);
  }
}
