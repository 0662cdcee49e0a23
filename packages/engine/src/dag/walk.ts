import { EngineError, EngineErrorCode } from "../engine-error.js";
import type { Graph } from "./graph.js";

/** Terraform's default parallelism (`-parallelism=10`). */
export const DEFAULT_PARALLELISM = 10;

/** What a visit is given besides the node. */
export interface VisitContext {
  /** The walk's cancellation signal (fires when the caller's signal does). */
  readonly signal: AbortSignal;
  /**
   * Lets the node's dependents start before its visit settles, and frees its place under
   * `parallelism` (and its group's limit): for a visit whose remaining work its dependents do
   * not need (the apply's wait for a state write holding the object). The node still ends in
   * `done` or `failed` by how its visit settles, and the walk waits for it. When it then
   * fails, the dependents already started run on (each ends by its own visit) and the ones not
   * started yet are skipped. Calling it again, or after the visit settled, does nothing.
   */
  release(): void;
}

/** Options of {@link walkGraph}. */
export interface WalkOptions {
  /** How many nodes run at once at most (default {@link DEFAULT_PARALLELISM}). */
  readonly parallelism?: number;
  /** The group of a node (e.g. its provider), for {@link WalkOptions.groupLimits}; undefined for none. */
  readonly groupOf?: (id: string) => string | undefined;
  /** Per-group limits of nodes running at once (e.g. to pace a rate-limited API); groups not listed only share the global bound. */
  readonly groupLimits?: Readonly<Record<string, number>>;
  /**
   * Cancels the walk: no node starts after it fires, the nodes in flight are awaited (their
   * visit sees the signal), and every node not done is reported in `canceled`.
   */
  readonly signal?: AbortSignal;
}

/** Why a node was skipped: a dependency (direct or not) failed, was skipped or canceled. */
export interface SkippedNode {
  /** The failed node whose failure caused the skip. */
  readonly because: string;
}

/** The outcome of {@link walkGraph}. Every node is in exactly one of the four. */
export interface WalkResult<R> {
  /** The nodes that succeeded, with their results, in completion order. */
  readonly done: Map<string, R>;
  /** The nodes whose visit threw, with the error, in completion order. */
  readonly failed: Map<string, unknown>;
  /** The nodes not run because a dependency failed (Terraform skips dependents, finishes the rest). */
  readonly skipped: Map<string, SkippedNode>;
  /** The nodes not run because the walk was canceled. */
  readonly canceled: string[];
}

/**
 * Walks a dependency graph: each node is visited once all its dependencies succeeded, with
 * at most `parallelism` visits at once (and at most a group's limit within a group). After
 * a failure, independent branches finish and the failed node's dependents are skipped, as
 * Terraform's walk does. The returned promise never rejects for a visit's failure: every
 * node is accounted for in the result.
 *
 * Ready nodes start in the graph's insertion order. A visit may let its dependents start
 * before it settles ({@link VisitContext.release}).
 *
 * @throws {@link EngineError} `cycle` (before visiting anything) when the graph has a
 * cycle; `invalid_argument` for a parallelism or group limit below 1.
 */
export async function walkGraph<T, R>(graph: Graph<T>, visit: (id: string, value: T, ctx: VisitContext) => Promise<R>, options: WalkOptions = {}): Promise<WalkResult<R>> {
  const parallelism = options.parallelism ?? DEFAULT_PARALLELISM;
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new EngineError(EngineErrorCode.InvalidArgument, `parallelism must be an integer of at least 1, got ${parallelism}`);
  for (const [g, n] of Object.entries(options.groupLimits ?? {})) {
    if (!Number.isInteger(n) || n < 1) throw new EngineError(EngineErrorCode.InvalidArgument, `the limit of group ${JSON.stringify(g)} must be an integer of at least 1, got ${n}`);
  }
  graph.assertAcyclic();

  const result: WalkResult<R> = { done: new Map(), failed: new Map(), skipped: new Map(), canceled: [] };
  const order = graph.ids();
  const position = new Map(order.map((id, i) => [id, i]));
  const waiting = new Map<string, number>(order.map((id) => [id, graph.dependencies(id).length]));
  let ready: string[] = order.filter((id) => waiting.get(id) === 0);
  const groupRunning = new Map<string, number>();
  let running = 0;
  /** Visits released (see {@link VisitContext.release}) and not settled yet. */
  let settling = 0;
  const started = new Set<string>();

  const inner = new AbortController();
  const outer = options.signal;
  const onAbort = (): void => inner.abort(outer?.reason);
  if (outer !== undefined) {
    if (outer.aborted) onAbort();
    else outer.addEventListener("abort", onAbort, { once: true });
  }

  const limitOf = (g: string | undefined): number => (g === undefined ? Infinity : (options.groupLimits?.[g] ?? Infinity));

  return new Promise<WalkResult<R>>((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      outer?.removeEventListener("abort", onAbort);
      for (const id of order) {
        if (!result.done.has(id) && !result.failed.has(id) && !result.skipped.has(id)) result.canceled.push(id);
      }
      resolve(result);
    };

    const skipDependents = (id: string): void => {
      for (const d of graph.descendants(id)) {
        // A dependent started early (its dependency released it) runs on; its visit decides its outcome.
        if (!result.skipped.has(d) && !started.has(d)) result.skipped.set(d, { because: id });
      }
    };

    const releaseDependents = (id: string): void => {
      for (const d of graph.dependents(id)) {
        const left = waiting.get(d)! - 1;
        waiting.set(d, left);
        if (left === 0 && !result.skipped.has(d)) insertReady(d);
      }
    };

    /** Puts a node into `ready` at its place in insertion order (binary search: no sort of the whole list per completion). */
    const insertReady = (id: string): void => {
      const at = position.get(id)!;
      let lo = 0;
      let hi = ready.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (position.get(ready[mid]!)! < at) lo = mid + 1;
        else hi = mid;
      }
      ready.splice(lo, 0, id);
    };

    const pump = (): void => {
      if (!inner.signal.aborted) {
        let i = 0;
        while (running < parallelism && i < ready.length) {
          const id = ready[i]!;
          const g = options.groupOf?.(id);
          if (g !== undefined && (groupRunning.get(g) ?? 0) >= limitOf(g)) {
            i++;
            continue;
          }
          ready.splice(i, 1);
          start(id, g);
        }
      }
      if (running === 0 && settling === 0 && (ready.length === 0 || inner.signal.aborted)) finish();
    };

    const start = (id: string, g: string | undefined): void => {
      running++;
      started.add(id);
      if (g !== undefined) groupRunning.set(g, (groupRunning.get(g) ?? 0) + 1);
      const leave = (): void => {
        running--;
        if (g !== undefined) groupRunning.set(g, groupRunning.get(g)! - 1);
      };
      let released = false;
      let settled = false;
      const release = (): void => {
        if (released || settled) return;
        released = true;
        leave();
        settling++;
        releaseDependents(id);
        // Not from inside the visit's own call stack: the dependents start on the next microtask.
        queueMicrotask(pump);
      };
      let p: Promise<R>;
      try {
        p = Promise.resolve(visit(id, graph.get(id), { signal: inner.signal, release }));
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then(
        (r) => {
          result.done.set(id, r);
          if (!released) releaseDependents(id);
        },
        (e: unknown) => {
          result.failed.set(id, e);
          skipDependents(id);
          ready = ready.filter((r) => !result.skipped.has(r));
        },
      ).finally(() => {
        settled = true;
        if (released) settling--;
        else leave();
        pump();
      });
    };

    pump();
  });
}
