import {
  compareInstanceKeys,
  formatModuleInstance,
  formatResource,
  formatResourceInstance,
  isStateError,
  parseModuleInstance,
  parseResourceInstance,
  type InstanceObjectState,
  type InstanceKey,
  type ModuleInstanceAddress,
  type ResourceInstanceAddress,
  type ResourceState,
  type StateFile,
} from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";

/** One resource instance of a state: its address, its resource, and its objects (current and deposed). */
export interface StateInstance {
  /** The instance's absolute address. */
  readonly addr: ResourceInstanceAddress;
  /** The address as Terraform prints it. */
  readonly text: string;
  /** The resource holding it. */
  readonly resource: ResourceState;
  /** Its current object, if it has one. */
  readonly current: InstanceObjectState | undefined;
}

/** What a command-line address argument selects: a module instance (and everything in it), a resource, or one instance. */
export type StateSelector =
  | { readonly kind: "module"; readonly module: ModuleInstanceAddress; readonly text: string }
  | { readonly kind: "resource" | "instance"; readonly addr: ResourceInstanceAddress; readonly text: string };

function compareModules(a: ModuleInstanceAddress, b: ModuleInstanceAddress): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name) return x.name < y.name ? -1 : 1;
    const k = compareInstanceKeys(x.key, y.key);
    if (k !== 0) return k;
  }
  return 0;
}

/** Terraform's `AbsResourceInstance.Less`: shallower modules first, data before managed, then type, name and key. */
export function compareInstanceAddrs(a: ResourceInstanceAddress, b: ResourceInstanceAddress): number {
  const m = compareModules(a.module, b.module);
  if (m !== 0) return m;
  if (a.mode !== b.mode) return a.mode === "data" ? -1 : b.mode === "data" ? 1 : a.mode < b.mode ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return compareInstanceKeys(a.key, b.key);
}

/** Every resource instance of the state, in Terraform's order. */
export function stateInstances(state: StateFile): StateInstance[] {
  const out: StateInstance[] = [];
  for (const r of state.resources) {
    const keys = new Map<string, InstanceKey>();
    for (const o of r.instances) keys.set(JSON.stringify(o.indexKey ?? null), o.indexKey);
    for (const key of keys.values()) {
      const addr: ResourceInstanceAddress = { module: r.module, mode: r.mode, type: r.type, name: r.name, key };
      out.push({ addr, text: formatResourceInstance(addr), resource: r, current: r.instances.find((o) => o.indexKey === key && o.deposed === undefined) });
    }
  }
  return out.sort((a, b) => compareInstanceAddrs(a.addr, b.addr));
}

/**
 * Parses an address argument of a state command: `module.m` (a module instance), a
 * resource (`aws_x.y`, `module.m.data.aws_z.w`) or an instance (`aws_x.y[0]`).
 *
 * @throws CliError `usage` for an address that is none of these, naming what is wrong.
 */
export function parseSelector(text: string): StateSelector {
  try {
    const addr = parseResourceInstance(text);
    return { kind: addr.key === undefined ? "resource" : "instance", addr, text };
  } catch (e) {
    if (!isStateError(e)) throw e;
    try {
      return { kind: "module", module: parseModuleInstance(text), text };
    } catch {
      throw new CliError(CliErrorCode.Usage, "Error parsing instance address: " + text, { detail: e.message.replace(/^\[[a-z_]+\] /, "") });
    }
  }
}

function moduleHasPrefix(m: ModuleInstanceAddress, prefix: ModuleInstanceAddress): boolean {
  return prefix.length <= m.length && prefix.every((s, i) => s.name === m[i]!.name && s.key === m[i]!.key);
}

/** Whether `addr` is selected by `sel` (a resource selects each of its instances; a module everything in it and below). */
export function selectorMatches(sel: StateSelector, addr: ResourceInstanceAddress): boolean {
  if (sel.kind === "module") return moduleHasPrefix(addr.module, sel.module);
  const s = sel.addr;
  const same = formatModuleInstance(s.module) === formatModuleInstance(addr.module) && s.mode === addr.mode && s.type === addr.type && s.name === addr.name;
  if (!same) return false;
  return sel.kind === "resource" || s.key === addr.key;
}

/** The address of the instance with `key` of resource `r`, as Terraform prints it. */
export function instanceText(r: ResourceState, key: InstanceKey): string {
  return formatResourceInstance({ module: r.module, mode: r.mode, type: r.type, name: r.name, key });
}

/** A resource's address as Terraform prints it. */
export function resourceText(r: ResourceState): string {
  return formatResource({ module: r.module, mode: r.mode, type: r.type, name: r.name });
}

/** A deep copy of the state's resources (so an edit never touches the state it started from). */
export function cloneResources(state: StateFile): ResourceState[] {
  return state.resources.map((r) => ({ ...r, instances: r.instances.map((o) => ({ ...o })) }));
}

/**
 * @deprecated Renamed {@link selectorMatches} (a verb alone did not say what it answers); this
 * alias goes in the next minor release.
 */
export const selects: typeof selectorMatches = selectorMatches;
