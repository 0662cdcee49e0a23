import { walkConfig, type Config } from "@magma/config";
import type { Traversal } from "@magma/hcl";
import { formatInstanceKey, formatModuleInstance, parseModuleInstance, parseResourceInstance, type InstanceObjectState, type ModuleInstanceAddress, type ResourceState, type StateFile } from "@magma/state";
import { configPrefix } from "../eval/module-evaluator.js";
import { planError, type PlanDiagnostic } from "./plan-diagnostic.js";

/** A traversal (`module.a["k"].aws_x.y[0]`) as address text. */
export function traversalText(t: Traversal): string {
  let out = t.root;
  for (const s of t.steps) {
    if (s.kind === "attr") out += `.${s.name}`;
    else out += s.key.type.kind === "number" ? `[${s.key.asNumber().toString()}]` : `[${JSON.stringify(s.key.asString())}]`;
  }
  return out;
}

type Endpoint =
  /** `call`: the address ends in a module call without an instance key (`module.a`), which moves every instance of the call, keys kept (terraform's AbsModuleCall endpoint). */
  | { readonly kind: "module"; readonly module: ModuleInstanceAddress; readonly call: boolean }
  | { readonly kind: "resource"; readonly module: ModuleInstanceAddress; readonly mode: "managed" | "data"; readonly type: string; readonly name: string }
  | { readonly kind: "instance"; readonly module: ModuleInstanceAddress; readonly mode: "managed" | "data"; readonly type: string; readonly name: string; readonly key: number | string | undefined };

function endpoint(t: Traversal): Endpoint {
  const text = traversalText(t);
  const steps = t.steps;
  // A module address: module.a, module.a[0], module.a.module.b…
  let moduleOnly = t.root === "module";
  if (moduleOnly) {
    let i = 0;
    while (i < steps.length) {
      if (steps[i]?.kind !== "attr") {
        moduleOnly = false;
        break;
      }
      i++;
      if (steps[i]?.kind === "index") i++;
      if (i >= steps.length) break;
      const next = steps[i];
      if (next?.kind === "attr" && next.name === "module") i++;
      else {
        moduleOnly = false;
        break;
      }
    }
  }
  if (moduleOnly) return { kind: "module", module: parseModuleInstance(text), call: steps[steps.length - 1]?.kind !== "index" };
  const a = parseResourceInstance(text);
  if (a.mode === "ephemeral") throw new Error(`${text}: ephemeral resources cannot be moved`);
  const last = steps[steps.length - 1];
  return last?.kind === "index" ? { kind: "instance", module: a.module, mode: a.mode, type: a.type, name: a.name, key: a.key } : { kind: "resource", module: a.module, mode: a.mode, type: a.type, name: a.name };
}

/** An endpoint of a module's `moved` block, made absolute within one instance of the module. */
function within(mi: ModuleInstanceAddress, e: Endpoint): Endpoint {
  return mi.length === 0 ? e : { ...e, module: [...mi, ...e.module] };
}

function sameModule(a: ModuleInstanceAddress, b: ModuleInstanceAddress): boolean {
  return formatModuleInstance(a) === formatModuleInstance(b);
}

function startsWith(m: ModuleInstanceAddress, prefix: ModuleInstanceAddress): boolean {
  if (m.length < prefix.length) return false;
  return prefix.every((s, i) => s.name === m[i]!.name && s.key === m[i]!.key);
}

/** Whether `m` lies under any instance of the module call `call` (its last step matched by name, whatever its key). */
function underCall(m: ModuleInstanceAddress, call: ModuleInstanceAddress): boolean {
  if (m.length < call.length) return false;
  return call.every((s, i) => s.name === m[i]!.name && (i === call.length - 1 || s.key === m[i]!.key));
}

function address(r: ResourceState, i: InstanceObjectState): string {
  const m = formatModuleInstance(r.module);
  return `${m === "" ? "" : `${m}.`}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}${formatInstanceKey(i.indexKey)}`;
}

/**
 * Terraform's implied moves (`refactoring.ImpliedMoveStatements`), from the state before any
 * move: for each resource in state whose configuration exists, the no-key instance moves to
 * `[0]` when the configuration has `count`, and `[0]` to the no-key instance when it has
 * neither `count` nor `for_each` — unless an explicit `moved` block names the resource or one
 * of its instances (`explicit`). Module calls have none.
 */
function impliedMoves(config: Config, resources: readonly ResourceState[], explicit: readonly { from: Endpoint; to: Endpoint }[]): { from: Endpoint; to: Endpoint }[] {
  const configs = new Map([...walkConfig(config)].map((c) => [c.path.join("."), c.module]));
  const named = (e: Endpoint, r: ResourceState): boolean => e.kind !== "module" && sameModule(e.module, r.module) && e.mode === r.mode && e.type === r.type && e.name === r.name;
  const out: { from: Endpoint; to: Endpoint }[] = [];
  for (const r of resources) {
    if (r.mode !== "managed" && r.mode !== "data") continue;
    const module = configs.get(r.module.map((s) => s.name).join("."));
    const key = `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    const rc = r.mode === "data" ? module?.dataResources.get(key) : module?.managedResources.get(key);
    if (rc === undefined) continue;
    const has = (k: number | undefined): boolean => r.instances.some((i) => i.indexKey === k && i.deposed === undefined);
    let keys: [number | undefined, number | undefined] | undefined;
    if (rc.count !== undefined) keys = has(undefined) ? [undefined, 0] : undefined;
    else if (rc.forEach === undefined) keys = has(0) ? [0, undefined] : undefined;
    if (keys === undefined || explicit.some((m) => named(m.from, r) || named(m.to, r))) continue;
    const at = (k: number | undefined): Endpoint => ({ kind: "instance", module: r.module, mode: r.mode as "managed" | "data", type: r.type, name: r.name, key: k });
    out.push({ from: at(keys[0]), to: at(keys[1]) });
  }
  return out;
}

/**
 * Applies the `moved` blocks of every module to a copy of the state, as Terraform does
 * before planning (a module's blocks within each of its instances the state holds): each
 * block, in order (and again until nothing moves, for chains),
 * renames the objects at `from` (a module instance, a resource or one instance) to `to`
 * when nothing is at `to` yet; then terraform's implied moves between `[0]` and the no-key
 * instance ({@link impliedMoves}). Returns the moved state and, for every moved instance, its
 * previous address by new address.
 */
export function applyMoves(config: Config, state: StateFile | null): { state: StateFile | null; previous: Map<string, string>; diagnostics: PlanDiagnostic[] } {
  const previous = new Map<string, string>();
  const diagnostics: PlanDiagnostic[] = [];
  const withMoves = [...walkConfig(config)].filter((c) => c.module.moved.length > 0);
  if (state === null) return { state, previous, diagnostics };
  const resources: ResourceState[] = state.resources.map((r) => ({ ...r, instances: r.instances.map((i) => ({ ...i })) }));
  const out: StateFile = { ...state, resources };
  const moves: { from: Endpoint; to: Endpoint }[] = [];
  for (const c of withMoves) {
    // A module's moved blocks apply within each of its instances that the state holds.
    const instances = new Map<string, ModuleInstanceAddress>();
    if (c.path.length === 0) instances.set("", []);
    for (const r of resources) {
      if (r.module.length < c.path.length || !c.path.every((n, i) => r.module[i]!.name === n)) continue;
      const mi = r.module.slice(0, c.path.length);
      instances.set(formatModuleInstance(mi), mi);
    }
    for (const m of c.module.moved) {
      try {
        const from = endpoint(m.from);
        const to = endpoint(m.to);
        if (from.kind !== to.kind) {
          diagnostics.push(planError("Invalid \"moved\" addresses", `Cannot move ${traversalText(m.from)} to ${traversalText(m.to)}: both must be modules, resources, or resource instances.`, { subject: m.declRange }));
          continue;
        }
        for (const mi of instances.values()) moves.push({ from: within(mi, from), to: within(mi, to) });
      } catch (e) {
        diagnostics.push(planError("Invalid \"moved\" address", e instanceof Error ? e.message : String(e), { subject: m.declRange }));
      }
    }
  }
  // Implied from the state before any move (as terraform's, from the previous run's state), applied after the explicit ones.
  const implied = impliedMoves(config, resources, moves);
  if (moves.length === 0 && implied.length === 0) return { state, previous, diagnostics };
  const record = (before: Map<InstanceObjectState, string>): void => {
    for (const r of resources) {
      for (const i of r.instances) {
        const was = before.get(i);
        const now = address(r, i);
        if (was === undefined || was === now || i.deposed !== undefined) continue;
        previous.set(now, previous.get(was) ?? was);
        previous.delete(was);
      }
    }
  };
  type InstanceEndpoint = Endpoint & { readonly kind: "instance" };
  /** Moves the objects of instance `from` to `to` when `to` holds none: whether anything moved. */
  const moveInstance = (from: InstanceEndpoint, to: InstanceEndpoint): boolean => {
    const match = (r: ResourceState, e: InstanceEndpoint): boolean => sameModule(r.module, e.module) && r.mode === e.mode && r.type === e.type && r.name === e.name;
    const src = resources.find((r) => match(r, from));
    const objs = src?.instances.filter((i) => i.indexKey === from.key) ?? [];
    if (src === undefined || objs.length === 0) return false;
    let dst = resources.find((r) => match(r, to));
    if (dst?.instances.some((i) => i.indexKey === to.key) === true) return false;
    if (dst === undefined) {
      dst = { module: to.module, mode: to.mode, type: to.type, name: to.name, provider: src.provider, instances: [] };
      resources.push(dst);
    }
    src.instances = src.instances.filter((i) => !objs.includes(i));
    for (const o of objs) {
      o.indexKey = to.key;
      dst.instances.push(o);
    }
    return true;
  };
  for (let round = 0; round < moves.length + 1; round++) {
    let moved = false;
    for (const { from, to } of moves) {
      const before = new Map<InstanceObjectState, string>();
      for (const r of resources) for (const i of r.instances) before.set(i, address(r, i));
      if (from.kind === "module" && to.kind === "module" && from.call && to.call) {
        // A whole module call: every instance moves with its key.
        const occupied = resources.some((r) => underCall(r.module, to.module));
        const hit = resources.filter((r) => underCall(r.module, from.module));
        if (hit.length === 0 || occupied) continue;
        const n = from.module.length;
        for (const r of hit) r.module = [...to.module.slice(0, -1), { ...to.module[to.module.length - 1]!, key: r.module[n - 1]!.key }, ...r.module.slice(n)];
        moved = true;
      } else if (from.kind === "module" && to.kind === "module") {
        const occupied = resources.some((r) => startsWith(r.module, to.module));
        const hit = resources.filter((r) => startsWith(r.module, from.module));
        if (hit.length === 0 || occupied) continue;
        for (const r of hit) r.module = [...to.module, ...r.module.slice(from.module.length)];
        moved = true;
      } else if (from.kind === "resource" && to.kind === "resource") {
        const match = (r: ResourceState, e: typeof from): boolean => sameModule(r.module, e.module) && r.mode === e.mode && r.type === e.type && r.name === e.name;
        const src = resources.find((r) => match(r, from));
        if (src === undefined || resources.some((r) => match(r, to))) continue;
        src.module = to.module;
        src.type = to.type;
        src.name = to.name;
        moved = true;
      } else if (from.kind === "instance" && to.kind === "instance") {
        if (moveInstance(from, to)) moved = true;
      }
      record(before);
    }
    if (!moved) break;
  }
  for (const { from, to } of implied) {
    const before = new Map<InstanceObjectState, string>();
    for (const r of resources) for (const i of r.instances) before.set(i, address(r, i));
    if (from.kind === "instance" && to.kind === "instance" && moveInstance(from, to)) record(before);
  }
  out.resources = resources.filter((r) => r.instances.length > 0);
  return { state: out, previous, diagnostics };
}

/**
 * The `removed` blocks (of every module) that forget (`destroy = false`): whether an
 * absolute instance address (`module.m[0].aws_x.y["k"]`) lies under one of them.
 */
export function forgetMatcher(config: Config): (instanceAddress: string) => boolean {
  const targets: string[] = [];
  for (const c of walkConfig(config)) for (const r of c.module.removed) if (!r.destroy) targets.push(`${configPrefix(c.path)}${traversalText(r.from)}`);
  if (targets.length === 0) return () => false;
  return (a) => {
    const noKeys = a.replace(/\[[^\]]*\]/g, "");
    return targets.some((t) => noKeys === t || noKeys.startsWith(`${t}.`) || a === t);
  };
}
