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
 * Applies the `moved` blocks of every module to a copy of the state, as Terraform does
 * before planning (a module's blocks within each of its instances the state holds): each
 * block, in order (and again until nothing moves, for chains),
 * renames the objects at `from` (a module instance, a resource or one instance) to `to`
 * when nothing is at `to` yet. Returns the moved state and, for every moved instance, its
 * previous address by new address.
 */
export function applyMoves(config: Config, state: StateFile | null): { state: StateFile | null; previous: Map<string, string>; diagnostics: PlanDiagnostic[] } {
  const previous = new Map<string, string>();
  const diagnostics: PlanDiagnostic[] = [];
  const withMoves = [...walkConfig(config)].filter((c) => c.module.moved.length > 0);
  if (state === null || withMoves.length === 0) return { state, previous, diagnostics };
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
        const match = (r: ResourceState, e: typeof from): boolean => sameModule(r.module, e.module) && r.mode === e.mode && r.type === e.type && r.name === e.name;
        const src = resources.find((r) => match(r, from));
        const objs = src?.instances.filter((i) => i.indexKey === from.key) ?? [];
        if (src === undefined || objs.length === 0) continue;
        let dst = resources.find((r) => match(r, to));
        if (dst?.instances.some((i) => i.indexKey === to.key) === true) continue;
        if (dst === undefined) {
          dst = { module: to.module, mode: to.mode, type: to.type, name: to.name, provider: src.provider, instances: [] };
          resources.push(dst);
        }
        src.instances = src.instances.filter((i) => !objs.includes(i));
        for (const o of objs) {
          o.indexKey = to.key;
          dst.instances.push(o);
        }
        moved = true;
      }
      record(before);
    }
    if (!moved) break;
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
