import { randomBytes } from "node:crypto";
import type { Config } from "@magma/config";
import { formatInstanceKey, formatProviderConfig, parseResourceInstance, type InstanceObjectState, type StateFile } from "@magma/state";
import { Graph } from "../dag/graph.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { configPrefix, instancePrefix } from "../eval/module-evaluator.js";
import { moduleRestrictionDiagnostics } from "./module-restrictions.js";
import { planError, PlanDiagnosticsError } from "./plan-diagnostic.js";
import { configEdges, providerBlockAddress, type ConfigEdge, type ConfigVertex } from "./config-edges.js";

/** The operations whose graph {@link operationGraph} builds (terraform graph's `-type`). */
export type OperationGraphType = "plan" | "plan-refresh-only" | "plan-destroy" | "apply";

/** The operation graph types, in terraform graph's spelling. */
export const OPERATION_GRAPH_TYPES: readonly OperationGraphType[] = ["plan", "plan-refresh-only", "plan-destroy", "apply"];

/**
 * What a node of an operation graph stands for: `resource` (a resource's expansion, an
 * orphaned instance, a destroyed resource or a saved plan's changed instance), `provider` (a
 * provider configuration), `provider-close` (its close), `root-variable` (an input variable
 * of the root module) or `other` (locals, outputs, module variables, module calls and closes,
 * the root).
 */
export type OperationGraphNodeKind = "resource" | "provider" | "provider-close" | "root-variable" | "other";

/** One node of an operation graph. */
export interface OperationGraphNode {
  /** Terraform's node name without the `[root] ` prefix: `aws_x.a (expand)`, `provider["registry.terraform.io/hashicorp/aws"] (close)`, `var.n`, `root`. */
  readonly name: string;
  readonly kind: OperationGraphNodeKind;
  /** The address the node is about (its name without the `(expand)`-style suffix or instance key). */
  readonly label: string;
  /** How many of Terraform's graph nodes carry this name: one per instance for a destroy plan's resources, else 1. */
  readonly multiplicity: number;
  /** For a `resource` node: the configuration resource it is about (module path without instance keys). */
  readonly resource?: OperationGraphResource;
}

/** The configuration resource a `resource` node is about (Terraform's `addrs.ConfigResource`). */
export interface OperationGraphResource {
  /** The module path: the module call names from the root (`[]` for the root module). */
  readonly module: readonly string[];
  readonly mode: "managed" | "data" | "ephemeral";
  readonly type: string;
  readonly name: string;
}

/**
 * The graph of an operation: nodes sorted by name, edges (dependent → dependency) sorted,
 * transitively reduced — unless it has cycles (built with `keepCycles`), which Terraform
 * does not reduce.
 */
export interface OperationGraph {
  readonly nodes: readonly OperationGraphNode[];
  readonly edges: readonly (readonly [from: string, to: string])[];
  /** The cycles (strongly connected components, node names in Tarjan's pop order): empty but with `keepCycles`. */
  readonly cycles: readonly (readonly string[])[];
}

/** How {@link operationGraph} builds a graph. */
export interface OperationGraphOptions {
  /**
   * Return a graph with cycles instead of failing (`terraform graph -draw-cycles`, which
   * skips Terraform's graph validation): such a graph is not reduced, and its root waits only
   * for the nodes nothing else waits for, as Terraform builds it.
   */
  readonly keepCycles?: boolean;
  /**
   * For `apply`: the changes of a saved plan (`terraform graph -plan=FILE`). Each change
   * other than a no-op gets a node of its own named by its instance address, waiting for its
   * resource's expansion; references to the resource wait for its instances' nodes (a
   * reference with an instance key for that instance's, when it has one), as Terraform's
   * apply graph connects them. A delete, the destroy half of a replace (`(destroy)`, or
   * `(destroy deposed KEY)` for a create_before_destroy replace under a key drawn at random, as
   * Terraform draws one) and a deposed object's delete get a destroyer node ordered as
   * Terraform's destroy edges order it (from the state's `dependencies` and
   * `create_before_destroy`). A `forget` is refused.
   */
  readonly changes?: readonly PlannedInstanceChange[];
  /** With `changes`: the plan is a destroy plan (`plan -destroy`), whose apply graph keeps only the destroyers, what they wait for and the root outputs. */
  readonly destroyPlan?: boolean;
}

interface ModScope {
  readonly config: Config;
  /** `module.a.module.b.` (`""` for the root). */
  readonly prefix: string;
}

/**
 * The graph Terraform 1.11 builds for an operation on a configuration and its prior state,
 * with Terraform's node names (`terraform graph -type=…` prints it): the configuration's
 * objects connected by the planner's rules (config-edges.ts: a resource waits for what its
 * expressions reference and for its provider; a module's objects wait for the module call),
 * and what only Terraform's graph has: a variable's validation node and a module argument's
 * node in the child, a module's and a provider's close (waiting for what they close), a
 * check's report, orphaned state instances for a plan, the state's resources for a destroy
 * plan, and a `root` that waits for everything — transitively reduced.
 * Read-only: no provider is started and nothing is evaluated.
 *
 * @throws PlanDiagnosticsError when the graph has a cycle (one `Cycle: a, b, …` error per
 *   cycle, as Terraform's graph validation words it; not with `keepCycles`), or a module call
 *   breaks Terraform's module restrictions (count, for_each or depends_on on a module with its
 *   own providers), or `changes` hold a forget (not drawn).
 */
export function operationGraph(config: Config, state: StateFile | undefined, type: OperationGraphType, options: OperationGraphOptions = {}): OperationGraph {
  const restrictions = moduleRestrictionDiagnostics(config).filter((d) => d.severity === "error");
  if (restrictions.length > 0) throw new PlanDiagnosticsError(restrictions);
  const shared = configEdges(config);
  const g = new Graph<OperationGraphNode>();
  const node = (name: string, kind: OperationGraphNodeKind, label: string, multiplicity = 1, resource?: OperationGraphResource): string => {
    g.add(name, { name, kind, label, multiplicity, ...(resource !== undefined ? { resource } : {}) });
    return name;
  };
  const expand = (address: string): string => node(`${address} (expand)`, "other", address);
  const providerClose = new Map<string, string>();
  const provider = (address: string): string => {
    if (!providerClose.has(address)) {
      node(address, "provider", address);
      providerClose.set(address, node(`${address} (close)`, "provider-close", `${address} (close)`));
      g.dependOn(`${address} (close)`, address);
    }
    return address;
  };
  const uses = (id: string, providerAddress: string): void => {
    g.dependOn(id, provider(providerAddress));
    g.dependOn(providerClose.get(providerAddress)!, id);
  };
  const mods: ModScope[] = [];
  const visit = (c: Config): void => {
    mods.push({ config: c, prefix: configPrefix(c.path) });
    for (const child of c.children.values()) visit(child);
  };
  visit(config);

  if (type === "plan-destroy") {
    // Destroying needs only the state's objects and their providers; the root module's outputs are removed.
    for (const name of config.module.outputs.keys()) expand(`output.${name}`);
    for (const r of state?.resources ?? []) {
      if (r.mode !== "managed" || r.instances.length === 0) continue;
      const address = `${instancePrefix(r.module)}${r.type}.${r.name}`;
      uses(node(`${address} (destroy)`, "resource", address, r.instances.length, { module: r.module.map((m) => m.name), mode: r.mode, type: r.type, name: r.name }), formatProviderConfig(r.provider));
    }
    // The root module's provider configurations still evaluate their arguments: the variables and locals they reference.
    const valueRefs = (from: string, edges: readonly ConfigEdge[]): void => {
      for (const { to } of edges) {
        if (to.kind === "variable" && !to.id.startsWith("module.")) g.dependOn(from, node(to.id, "root-variable", to.id));
        else if (to.kind === "local" && !to.id.startsWith("module.")) {
          const id = `${to.id} (expand)`;
          const fresh = !g.has(id);
          g.dependOn(from, expand(to.id));
          if (fresh) valueRefs(id, shared.edges.filter((e) => e.why === "reference" && e.from.kind === "local" && e.from.id === to.id));
        }
      }
    };
    for (const key of config.module.providerConfigs.keys()) {
      const addr = providerBlockAddress(config, key)!;
      if (providerClose.has(addr)) valueRefs(addr, shared.edges.filter((e) => e.why === "reference" && e.from.kind === "provider" && e.from.id === addr));
    }
    return finish(g, options.keepCycles === true);
  }

  const varNode = (mod: ModScope, name: string): string => (mod.prefix === "" ? `var.${name}` : `${mod.prefix}var.${name} (expand)`);
  /** The module (scope) an address is declared in: the longest `module.a.module.b.` prefix of it that is a module. */
  const byPrefix = new Map(mods.map((m) => [m.prefix, m]));
  const scopeOf = (id: string): ModScope => {
    let best = mods[0]!;
    for (const m of mods) if (m.prefix.length > best.prefix.length && id.startsWith(m.prefix)) best = m;
    return best;
  };
  /** This graph's node for a vertex of the shared edges, as what waits (`from`) or what is waited for (`to`). */
  const nodeOf = (v: ConfigVertex, role: "from" | "to"): string => {
    switch (v.kind) {
      case "provider":
        return v.id;
      case "variable": {
        const mod = scopeOf(v.id);
        const name = v.id.slice(`${mod.prefix}var.`.length);
        // A reference to a variable waits for its validation when it has validation rules.
        if (role === "to" && (mod.config.module.variables.get(name)?.validations.length ?? 0) > 0) return `${v.id} (validation)`;
        return varNode(mod, name);
      }
      case "validation":
        return `${v.id} (validation)`;
      case "module-value":
        return v.whole ? `${v.id} (close)` : `${v.outputs[0]!} (expand)`;
      default:
        // resource, local, output, check, module, and a module argument: the child's variable it sets.
        return `${v.id} (expand)`;
    }
  };
  /** The nodes each module's objects are, to wait for the module call and be waited for by its close. */
  const members = new Map<ModScope, string[]>(mods.map((m) => [m, []]));

  // Nodes.
  for (const mod of mods) {
    const m = mod.config.module;
    for (const key of m.providerConfigs.keys()) provider(providerBlockAddress(mod.config, key)!);
    for (const [name, v] of m.variables) {
      if (mod.prefix === "") node(`var.${name}`, "root-variable", `var.${name}`);
      else expand(`${mod.prefix}var.${name}`);
      if (v.validations.length > 0) node(`${mod.prefix}var.${name} (validation)`, "other", `${mod.prefix}var.${name}`);
    }
    for (const name of m.locals.keys()) expand(`${mod.prefix}local.${name}`);
    for (const name of m.outputs.keys()) expand(`${mod.prefix}output.${name}`);
    for (const [key, r] of [...m.managedResources, ...m.dataResources, ...m.ephemeralResources]) node(`${mod.prefix}${key} (expand)`, "resource", `${mod.prefix}${key}`, 1, { module: mod.config.path, mode: r.mode, type: r.type, name: r.name });
    for (const name of m.checks.keys()) {
      expand(`${mod.prefix}check.${name}`);
      // A plan reports the check's results.
      if (type !== "apply") {
        g.dependOn(`${mod.prefix}check.${name} (expand)`, node(`${mod.prefix}check.${name} (report)`, "other", `${mod.prefix}check.${name}`));
        members.get(mod)!.push(`${mod.prefix}check.${name} (report)`);
      }
    }
    for (const name of mod.config.children.keys()) {
      expand(`${mod.prefix}module.${name}`);
      members.get(mod)!.push(node(`${mod.prefix}module.${name} (close)`, "other", `${mod.prefix}module.${name}`));
    }
  }
  if (type === "plan" || type === "plan-refresh-only") {
    // State resources whose configuration is gone are planned for deletion instance by instance.
    const inConfig = new Set(g.ids());
    for (const r of state?.resources ?? []) {
      if (r.mode !== "managed") continue;
      const configAddress = `${configPrefix(r.module.map((s) => s.name))}${r.type}.${r.name} (expand)`;
      if (inConfig.has(configAddress)) continue;
      const mod = byPrefix.get(configPrefix(r.module.map((s) => s.name)));
      for (const inst of r.instances) {
        const resource = `${instancePrefix(r.module)}${r.type}.${r.name}`;
        const id = node(`${resource}${inst.indexKey === undefined ? "" : formatInstanceKey(inst.indexKey)} (orphan)`, "resource", resource, 1, { module: r.module.map((s) => s.name), mode: r.mode, type: r.type, name: r.name });
        uses(id, formatProviderConfig(r.provider));
        if (mod !== undefined) members.get(mod)!.push(id);
      }
    }
  }
  // A saved plan's changes: one node per changed instance (Terraform's DiffTransformer).
  /** The instance nodes of a resource (by its configuration address) and of one instance (`<address>[key]`). */
  const instanceNodes = new Map<string, string[]>();
  const addInstanceNode = (key: string, id: string): void => void instanceNodes.set(key, [...(instanceNodes.get(key) ?? []), id]);
  /** A saved plan's instance nodes that create or update (Terraform's GraphNodeCreator) and that destroy (GraphNodeDestroyer). */
  const creators: ChangeNode[] = [];
  const destroyers: ChangeNode[] = [];
  if (type === "apply") {
    const changes = (options.changes ?? []).filter((c) => c.action !== "no-op");
    const unsupported = changes.filter((c) => c.action === "forget");
    if (unsupported.length > 0) {
      throw new PlanDiagnosticsError([
        planError("Unsupported change in the plan", `The apply graph of a saved plan is not drawn for objects left in place by a removed block; this plan has ${unsupported.map((c) => `${c.action} ${c.address}${c.deposedKey !== undefined ? ` (deposed ${c.deposedKey})` : ""}`).join(", ")}.`),
      ]);
    }
    const prior = priorObjects(state);
    for (const c of changes) {
      const a = parseResourceInstance(c.address);
      const prefix = configPrefix(a.module.map((m) => m.name));
      const resource = `${prefix}${a.mode === "data" ? "data." : a.mode === "ephemeral" ? "ephemeral." : ""}${a.type}.${a.name}`;
      const graphResource: OperationGraphResource = { module: a.module.map((m) => m.name), mode: a.mode, type: a.type, name: a.name };
      const resolved = shared.providers.get(resource);
      const configProvider = resolved !== undefined && !("error" in resolved) ? resolved.address : undefined;
      // What Terraform's nodes know of the prior object: its stored dependencies and create_before_destroy.
      const current = prior.get(c.address);
      const base = { address: c.address, resource, moduleConfig: prefix, moduleInstance: instancePrefix(a.module), dependencies: current?.object.dependencies ?? [] };
      if (c.action !== "delete") {
        const expandId = `${resource} (expand)`;
        if (g.has(expandId)) {
          const id = node(c.address, "resource", resource, 1, graphResource);
          g.dependOn(id, expandId);
          if (configProvider !== undefined) uses(id, configProvider);
          const mod = byPrefix.get(prefix);
          if (mod !== undefined) members.get(mod)!.push(id);
          addInstanceNode(resource, id);
          addInstanceNode(`${resource}${formatInstanceKey(a.key)}`, id);
          creators.push({ ...base, id, provider: configProvider ?? "", createBeforeDestroy: false });
        }
      }
      if (c.action === "delete" || c.action === "delete-then-create" || c.action === "create-then-delete") {
        // The old half of a create_before_destroy replace is deposed first, under a key drawn now (as Terraform's DiffTransformer does).
        const deposed = c.deposedKey ?? (c.action === "create-then-delete" ? newDeposedKey() : undefined);
        const id = node(deposed === undefined ? `${c.address} (destroy)` : `${c.address} (destroy deposed ${deposed})`, "resource", resource, 1, graphResource);
        const provider = configProvider ?? current?.provider ?? c.providerConfig;
        if (provider !== undefined) uses(id, provider);
        // A deposed object is destroyed after its replacement by definition; a current one as it was created.
        const createBeforeDestroy = deposed !== undefined || (current?.object.createBeforeDestroy ?? c.createBeforeDestroy === true);
        destroyers.push({ ...base, id, provider: provider ?? "", createBeforeDestroy });
      }
    }
  }

  // Edges: the planner's (references, provider use, module nesting), then what only this graph has.
  for (const e of shared.edges) {
    const from = nodeOf(e.from, "from");
    if (e.why === "provider") {
      uses(from, e.to.id);
      continue;
    }
    if (e.why === "reference" && e.to.kind === "resource" && instanceNodes.size > 0) {
      // A reference to one instance waits for that instance's node when the plan changes it, else (as Terraform falls back to the resource) for the resource's expansion and changed instances.
      const one = e.instanceKey === undefined ? undefined : instanceNodes.get(`${e.to.id}${e.instanceKey}`);
      for (const to of one ?? [nodeOf(e.to, "to"), ...(instanceNodes.get(e.to.id) ?? [])]) if (from !== to && g.has(from) && g.has(to)) g.dependOn(from, to);
      continue;
    }
    const to = nodeOf(e.to, "to");
    if (from === to || !g.has(from) || !g.has(to)) continue;
    g.dependOn(from, to);
    // A module's close waits for everything in it.
    if (e.why === "module") g.dependOn(`${e.to.id} (close)`, from);
  }
  for (const mod of mods) {
    for (const [name, v] of mod.config.module.variables) if (v.validations.length > 0) g.dependOn(`${mod.prefix}var.${name} (validation)`, varNode(mod, name));
    // Check reports, nested modules' closes and orphans belong to the module too.
    if (mod.prefix === "") continue;
    const call = `${mod.prefix.slice(0, -1)} (expand)`;
    const close = `${mod.prefix.slice(0, -1)} (close)`;
    for (const id of members.get(mod)!) {
      g.dependOn(id, call);
      g.dependOn(close, id);
    }
  }
  // An ephemeral resource's close waits for everything that references it, and its provider's close for it (Terraform's ephemeralResourceCloseTransformer).
  for (const mod of mods) {
    for (const key of mod.config.module.ephemeralResources.keys()) {
      const expandId = `${mod.prefix}${key} (expand)`;
      if (!g.has(expandId)) continue;
      const closeId = node(`${mod.prefix}${key} (close)`, "other", `${mod.prefix}${key}`);
      for (const d of g.dependents(expandId)) {
        const kind = g.get(d).kind;
        if (kind === "provider-close") g.dependOn(d, closeId);
        else if (d !== closeId) g.dependOn(closeId, d);
      }
      g.dependOn(closeId, expandId);
    }
  }
  if (destroyers.length > 0) destroyEdges(g, creators, destroyers, options.destroyPlan === true);
  if (type === "apply" && options.destroyPlan === true) {
    return finish(pruneForDestroy(g, destroyers, [...config.module.outputs.keys()].map((name) => `output.${name} (expand)`)), options.keepCycles === true);
  }
  return finish(g, options.keepCycles === true);
}

/**
 * A destroy plan's apply graph as Terraform prunes it: only the destroyers, what they wait
 * for (their providers and what those are configured with), the root module's outputs (which
 * the destroy removes) and the kept providers' closes.
 */
function pruneForDestroy(g: Graph<OperationGraphNode>, destroyers: readonly ChangeNode[], rootOutputs: readonly string[]): Graph<OperationGraphNode> {
  const keep = new Set<string>(rootOutputs.filter((id) => g.has(id)));
  for (const d of destroyers) {
    keep.add(d.id);
    for (const a of g.ancestors(d.id)) keep.add(a);
  }
  for (const id of g.ids()) if (g.get(id).kind === "provider" && keep.has(id)) keep.add(`${id} (close)`);
  const out = new Graph<OperationGraphNode>();
  for (const id of g.ids()) if (keep.has(id)) out.add(id, g.get(id));
  for (const id of keep) for (const d of g.dependencies(id)) if (keep.has(d)) out.dependOn(id, d);
  return out;
}

/** A saved plan's instance node that creates, updates or destroys, with what Terraform's destroy ordering reads of it. */
interface ChangeNode {
  readonly id: string;
  /** The instance address. */
  readonly address: string;
  /** The configuration resource (`module.a.aws_x.y`). */
  readonly resource: string;
  /** The module (`module.a.`) and module instance (`module.a[0].`) it is in. */
  readonly moduleConfig: string;
  readonly moduleInstance: string;
  /** The provider configuration address (`""` when none resolves). */
  readonly provider: string;
  /** The prior object's stored dependencies (configuration resources). */
  readonly dependencies: readonly string[];
  /** For a destroyer: whether it runs after the replacement's create (its edges from creators reversed). */
  readonly createBeforeDestroy: boolean;
}

/**
 * Terraform's destroy ordering in an apply graph (its DestroyEdgeTransformer, then
 * CBDEdgeTransformer): an instance's create waits for its destroy; what an object was stored
 * as depending on is destroyed after it, and created or updated after it too; with
 * create_before_destroy those creator-to-destroyer edges are reversed. Outside a destroy plan,
 * an edge between two providers' nodes that would close a cycle is left out.
 */
function destroyEdges(g: Graph<OperationGraphNode>, creators: readonly ChangeNode[], destroyers: readonly ChangeNode[], destroyPlan: boolean): void {
  const otherInstanceOfModule = (x: ChangeNode, y: ChangeNode): boolean => x.moduleConfig === y.moduleConfig && x.moduleInstance !== y.moduleInstance;
  const byResource = (list: readonly ChangeNode[], resource: string): ChangeNode[] => list.filter((n) => n.resource === resource);
  const interProvider = (from: ChangeNode, to: ChangeNode): void => {
    g.dependOn(from.id, to.id);
    if (!destroyPlan && from.provider !== to.provider && g.ancestors(to.id).has(from.id)) g.removeDependency(from.id, to.id);
  };
  for (const c of creators) for (const d of destroyers) if (d.address === c.address) g.dependOn(c.id, d.id);
  for (const c of creators) for (const r of c.dependencies) for (const d of byResource(destroyers, r)) if (!otherInstanceOfModule(c, d)) g.dependOn(c.id, d.id);
  for (const des of destroyers) {
    for (const r of des.dependencies) {
      for (const d of byResource(destroyers, r)) if (!otherInstanceOfModule(d, des)) interProvider(d, des);
      for (const c of byResource(creators, r)) if (!otherInstanceOfModule(c, des)) interProvider(c, des);
    }
  }
  const creatorIds = new Set(creators.map((c) => c.id));
  for (const des of destroyers) {
    if (!des.createBeforeDestroy) continue;
    for (const src of g.dependents(des.id)) {
      if (!creatorIds.has(src)) continue;
      g.removeDependency(src, des.id);
      g.dependOn(des.id, src);
    }
  }
}

/** The state's managed objects by instance address (`aws_x.y[0]`), current ones only, with their provider configuration. */
function priorObjects(state: StateFile | undefined): Map<string, { readonly object: InstanceObjectState; readonly provider: string }> {
  const out = new Map<string, { readonly object: InstanceObjectState; readonly provider: string }>();
  for (const r of state?.resources ?? []) {
    if (r.mode !== "managed") continue;
    for (const o of r.instances) if (o.deposed === undefined) out.set(`${instancePrefix(r.module)}${r.type}.${r.name}${formatInstanceKey(o.indexKey)}`, { object: o, provider: formatProviderConfig(r.provider) });
  }
  return out;
}

/** A fresh deposed key, as Terraform's `states.NewDeposedKey` draws one: 8 hex digits of a random 31-bit number. */
function newDeposedKey(): string {
  return (randomBytes(4).readUInt32BE(0) & 0x7fffffff).toString(16).padStart(8, "0");
}

/** Adds the root, checks for cycles, reduces and lists. */
function finish(g: Graph<OperationGraphNode>, keepCycles: boolean): OperationGraph {
  const all = g.ids();
  const cycles = g.cycles();
  if (cycles.length > 0 && !keepCycles) throw new PlanDiagnosticsError(cycles.map((c) => planError(`Cycle: ${c.join(", ")}`, "")));
  g.add("root", { name: "root", kind: "other", label: "root", multiplicity: 1 });
  // The root waits for what nothing else waits for (with no cycle, the reduction leaves the same edges as waiting for everything).
  for (const id of all) if (g.dependents(id).length === 0) g.dependOn("root", id);
  if (cycles.length === 0) g.transitiveReduction();
  const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const names = g.ids().sort(byCode);
  const edges: (readonly [string, string])[] = [];
  for (const n of names) for (const d of g.dependencies(n).sort(byCode)) edges.push([n, d]);
  return { nodes: names.map((n) => g.get(n)), edges, cycles };
}
