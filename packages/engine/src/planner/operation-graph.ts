import { impliedProvider, parseRef, referencesInExpr, resourceProviderConfigKey, resourceReferences, type Config, type Reference } from "@magma/config";
import type { Value } from "@magma/cty";
import type { Body, Expression, Traversal } from "@magma/hcl";
import { formatInstanceKey, formatProviderConfig, parseResourceInstance, type StateFile } from "@magma/state";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { Graph } from "../dag/graph.js";
import { configPrefix, instancePrefix } from "../eval/module-evaluator.js";
import { moduleRestrictionDiagnostics } from "./module-restrictions.js";
import { planError, PlanDiagnosticsError } from "./plan-diagnostic.js";
import { resolveProviderConfig } from "./plan-configuration.js";

/** The operations whose graph {@link operationGraph} builds (terraform graph's `-type`). */
export type OperationGraphType = "plan" | "plan-refresh-only" | "plan-destroy" | "apply";

/** The operation graph types, in terraform graph's spelling. */
export const OPERATION_GRAPH_TYPES: readonly OperationGraphType[] = ["plan", "plan-refresh-only", "plan-destroy", "apply"];

/**
 * What a node of an operation graph stands for: `resource` (a resource's expansion, an
 * orphaned instance or a destroyed resource), `provider` (a provider configuration),
 * `provider-close` (its close), `root-variable` (an input variable of the root module) or
 * `other` (locals, outputs, module variables, module calls and closes, the root).
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
   * apply graph connects them. Only creates, updates and reads are drawn.
   */
  readonly changes?: readonly PlannedInstanceChange[];
}

interface ModScope {
  readonly config: Config;
  /** `module.a.module.b.` (`""` for the root). */
  readonly prefix: string;
}

/** The references of a provider configuration's arguments. */
function providerRefs(body: Body): Reference[] {
  return refsOfExprs([...body.justAttributes().attributes].filter(([k]) => k !== "alias" && k !== "version").map(([, a]) => a.expr));
}

function refsOfExprs(exprs: readonly (Expression | undefined)[], traversals: readonly Traversal[] = []): Reference[] {
  const out: Reference[] = [];
  for (const e of exprs) out.push(...referencesInExpr(e).refs);
  for (const t of traversals) {
    const r = parseRef(t);
    if (r.ref !== undefined) out.push(r.ref);
  }
  return out;
}

/**
 * The graph Terraform 1.11 builds for an operation on a configuration and its prior state,
 * with Terraform's node names (`terraform graph -type=…` prints it): the configuration's
 * objects as the planner connects them (a resource waits for what its expressions reference
 * and for its provider; a module's objects wait for the module call; a provider's close and a
 * module's close wait for what they close), orphaned state instances for a plan, the state's
 * resources for a destroy plan, and a `root` that waits for everything — transitively reduced.
 * Read-only: no provider is started and nothing is evaluated.
 *
 * @throws PlanDiagnosticsError when the graph has a cycle (one `Cycle: a, b, …` error per
 *   cycle, as Terraform's graph validation words it; not with `keepCycles`), or a module call
 *   breaks Terraform's module restrictions (count, for_each or depends_on on a module with its
 *   own providers), or `changes` hold a delete, replace or forget (not drawn).
 */
export function operationGraph(config: Config, state: StateFile | undefined, type: OperationGraphType, options: OperationGraphOptions = {}): OperationGraph {
  const restrictions = moduleRestrictionDiagnostics(config).filter((d) => d.severity === "error");
  if (restrictions.length > 0) throw new PlanDiagnosticsError(restrictions);
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
    const rm = config.module;
    const valueRefs = (from: string, refs: readonly Reference[]): void => {
      for (const ref of refs) {
        const s = ref.subject;
        if (s.kind === "var" && rm.variables.has(s.name)) g.dependOn(from, node(`var.${s.name}`, "root-variable", `var.${s.name}`));
        else if (s.kind === "local" && rm.locals.has(s.name)) {
          const id = `local.${s.name} (expand)`;
          const fresh = !g.has(id);
          g.dependOn(from, expand(`local.${s.name}`));
          if (fresh) valueRefs(id, refsOfExprs([rm.locals.get(s.name)!.expr]));
        }
      }
    };
    for (const [, pc] of rm.providerConfigs) {
      const addr = formatProviderConfig({ module: [], provider: rm.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name), alias: pc.alias });
      if (providerClose.has(addr)) valueRefs(addr, providerRefs(pc.config));
    }
    return finish(g, options.keepCycles === true);
  }

  const varNode = (mod: ModScope, name: string): string => (mod.prefix === "" ? `var.${name}` : `${mod.prefix}var.${name} (expand)`);
  /** What a reference to a variable waits for: its validation when it has validation rules. */
  const varRef = (mod: ModScope, name: string): string => ((mod.config.module.variables.get(name)?.validations.length ?? 0) > 0 ? `${mod.prefix}var.${name} (validation)` : varNode(mod, name));
  const callOf = (mod: ModScope): string | undefined => (mod.prefix === "" ? undefined : `${mod.prefix.slice(0, -1)} (expand)`);
  const closeOf = (mod: ModScope): string | undefined => (mod.prefix === "" ? undefined : `${mod.prefix.slice(0, -1)} (close)`);
  /** The nodes each module's objects are, to wait for the module call and be waited for by its close. */
  const members = new Map<ModScope, string[]>(mods.map((m) => [m, []]));
  const provided = new Map<string, string>();

  // Nodes.
  for (const mod of mods) {
    const m = mod.config.module;
    const own = members.get(mod)!;
    for (const [, pc] of m.providerConfigs) {
      const addr = formatProviderConfig({ module: mod.config.path, provider: m.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name), alias: pc.alias });
      own.push(provider(addr));
    }
    for (const [name, v] of m.variables) {
      own.push(mod.prefix === "" ? node(`var.${name}`, "root-variable", `var.${name}`) : expand(`${mod.prefix}var.${name}`));
      if (v.validations.length > 0) own.push(node(`${mod.prefix}var.${name} (validation)`, "other", `${mod.prefix}var.${name}`));
    }
    for (const name of m.locals.keys()) own.push(expand(`${mod.prefix}local.${name}`));
    for (const name of m.outputs.keys()) own.push(expand(`${mod.prefix}output.${name}`));
    for (const [key, r] of [...m.managedResources, ...m.dataResources]) {
      const id = node(`${mod.prefix}${key} (expand)`, "resource", `${mod.prefix}${key}`, 1, { module: mod.config.path, mode: r.mode, type: r.type, name: r.name });
      own.push(id);
      const resolved = resolveProviderConfig(config, mod.config.path, resourceProviderConfigKey(r), r.provider);
      if (!("error" in resolved)) provided.set(id, resolved.address);
    }
    for (const name of m.checks.keys()) {
      own.push(expand(`${mod.prefix}check.${name}`));
      // A plan reports the check's results.
      if (type !== "apply") {
        g.dependOn(`${mod.prefix}check.${name} (expand)`, node(`${mod.prefix}check.${name} (report)`, "other", `${mod.prefix}check.${name}`));
        own.push(`${mod.prefix}check.${name} (report)`);
      }
    }
    for (const name of mod.config.children.keys()) {
      own.push(expand(`${mod.prefix}module.${name}`));
      own.push(node(`${mod.prefix}module.${name} (close)`, "other", `${mod.prefix}module.${name}`));
    }
  }
  // A saved plan's changes: one node per changed instance (Terraform's DiffTransformer).
  /** The instance nodes of a resource (`<config module prefix>|<resource>`) and of one instance (`…|<resource>[key]`). */
  const instanceNodes = new Map<string, string[]>();
  const addInstanceNode = (key: string, id: string): void => void instanceNodes.set(key, [...(instanceNodes.get(key) ?? []), id]);
  if (type === "apply") {
    const unsupported = (options.changes ?? []).filter((c) => c.action !== "no-op" && c.action !== "create" && c.action !== "update" && c.action !== "read");
    if (unsupported.length > 0) {
      throw new PlanDiagnosticsError([
        planError("Unsupported change in the plan", `The apply graph of a saved plan is drawn for creates, updates and reads only; this plan also has ${unsupported.map((c) => `${c.action} ${c.address}${c.deposedKey !== undefined ? ` (deposed ${c.deposedKey})` : ""}`).join(", ")}.`),
      ]);
    }
    for (const c of options.changes ?? []) {
      if (c.action === "no-op") continue;
      const a = parseResourceInstance(c.address);
      const prefix = configPrefix(a.module.map((m) => m.name));
      const resource = `${a.mode === "data" ? "data." : a.mode === "ephemeral" ? "ephemeral." : ""}${a.type}.${a.name}`;
      const expandId = `${prefix}${resource} (expand)`;
      if (!g.has(expandId)) continue;
      const id = node(c.address, "resource", `${prefix}${resource}`, 1, { module: a.module.map((m) => m.name), mode: a.mode, type: a.type, name: a.name });
      g.dependOn(id, expandId);
      const providerAddress = provided.get(expandId);
      if (providerAddress !== undefined) provided.set(id, providerAddress);
      const mod = mods.find((x) => x.prefix === prefix);
      if (mod !== undefined) members.get(mod)!.push(id);
      addInstanceNode(`${prefix}|${resource}`, id);
      addInstanceNode(`${prefix}|${resource}${formatInstanceKey(a.key)}`, id);
    }
  }
  for (const [id, addr] of provided) uses(id, addr);
  if (type === "plan" || type === "plan-refresh-only") {
    // State resources whose configuration is gone are planned for deletion instance by instance.
    const inConfig = new Set(g.ids());
    for (const r of state?.resources ?? []) {
      if (r.mode !== "managed") continue;
      const configAddress = `${configPrefix(r.module.map((s) => s.name))}${r.type}.${r.name} (expand)`;
      if (inConfig.has(configAddress)) continue;
      const mod = mods.find((x) => x.prefix === configPrefix(r.module.map((s) => s.name)));
      for (const inst of r.instances) {
        const resource = `${instancePrefix(r.module)}${r.type}.${r.name}`;
        const id = node(`${resource}${inst.indexKey === undefined ? "" : formatInstanceKey(inst.indexKey)} (orphan)`, "resource", resource, 1, { module: r.module.map((s) => s.name), mode: r.mode, type: r.type, name: r.name });
        uses(id, formatProviderConfig(r.provider));
        if (mod !== undefined) members.get(mod)!.push(id);
      }
    }
  }

  // Edges: references, resolved in the module they are written in.
  const targets = (mod: ModScope, ref: Reference): string[] => {
    const s = ref.subject;
    const id = ((): string[] => {
      switch (s.kind) {
        case "resource": {
          const resource = `${s.mode === "data" ? "data." : s.mode === "ephemeral" ? "ephemeral." : ""}${s.type}.${s.name}`;
          // A reference to one instance waits for that instance's node when the plan changes it, else (as Terraform falls back to the resource) for the resource's expansion and changed instances.
          const step = ref.remaining[0];
          const key = step?.kind === "index" ? instanceKeyText(step.key) : undefined;
          const one = key === undefined ? undefined : instanceNodes.get(`${mod.prefix}|${resource}${key}`);
          return one ?? [`${mod.prefix}${resource} (expand)`, ...(instanceNodes.get(`${mod.prefix}|${resource}`) ?? [])];
        }
        case "var":
          return [varRef(mod, s.name)];
        case "local":
          return [`${mod.prefix}local.${s.name} (expand)`];
        case "module": {
          const child = mod.config.children.get(s.name);
          if (child === undefined) return [];
          const steps = ref.traversal.steps;
          const at = steps[1]?.kind === "index" ? 2 : 1;
          const step = steps[at];
          const out = step?.kind === "attr" ? step.name : undefined;
          return [out !== undefined ? `${mod.prefix}module.${s.name}.output.${out} (expand)` : `${mod.prefix}module.${s.name} (close)`];
        }
        default:
          return [];
      }
    })();
    return id.filter((x) => g.has(x));
  };
  const connect = (from: string, mod: ModScope, refs: readonly Reference[]): void => {
    for (const ref of refs) for (const to of targets(mod, ref)) if (to !== from) g.dependOn(from, to);
  };
  for (const mod of mods) {
    const m = mod.config.module;
    for (const [, pc] of m.providerConfigs) {
      const addr = formatProviderConfig({ module: mod.config.path, provider: m.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name), alias: pc.alias });
      connect(addr, mod, providerRefs(pc.config));
    }
    for (const [name, v] of m.variables) {
      if (v.validations.length === 0) continue;
      const id = `${mod.prefix}var.${name} (validation)`;
      g.dependOn(id, varNode(mod, name));
      connect(id, mod, refsOfExprs(v.validations.flatMap((r) => [r.condition, r.errorMessage])));
    }
    for (const [name, l] of m.locals) connect(`${mod.prefix}local.${name} (expand)`, mod, refsOfExprs([l.expr]));
    for (const [name, o] of m.outputs) connect(`${mod.prefix}output.${name} (expand)`, mod, refsOfExprs([o.expr, ...o.preconditions.flatMap((r) => [r.condition, r.errorMessage])], o.dependsOn));
    for (const [name, c] of m.checks) connect(`${mod.prefix}check.${name} (expand)`, mod, refsOfExprs(c.asserts.flatMap((r) => [r.condition, r.errorMessage])));
    for (const [key, r] of [...m.managedResources, ...m.dataResources]) {
      const id = `${mod.prefix}${key} (expand)`;
      connect(id, mod, resourceReferences(r));
    }
    for (const [name, call] of m.moduleCalls) {
      const child = mod.config.children.get(name);
      if (child === undefined) continue;
      const childScope = mods.find((x) => x.config === child)!;
      connect(`${mod.prefix}module.${name} (expand)`, mod, refsOfExprs([call.count, call.forEach], call.dependsOn));
      // Each argument is the child's input variable, evaluated in this module.
      for (const [arg, a] of call.config.justAttributes().attributes) {
        if (child.module.variables.has(arg)) connect(varNode(childScope, arg), mod, refsOfExprs([a.expr]));
      }
    }
  }
  // A module's objects wait for its call's expansion; its close waits for them; the root waits for everything.
  for (const mod of mods) {
    const call = callOf(mod);
    const close = closeOf(mod);
    for (const id of members.get(mod)!) {
      if (call !== undefined && id !== call) g.dependOn(id, call);
      if (close !== undefined && id !== close) g.dependOn(close, id);
    }
  }
  return finish(g, options.keepCycles === true);
}

/** An index step's key as an instance address writes it (`[0]`, `["a"]`), or undefined for a key that cannot be one. */
function instanceKeyText(key: Value): string | undefined {
  if (!key.isKnown() || key.isNull()) return undefined;
  if (key.type.kind === "string") return formatInstanceKey(key.asString());
  if (key.type.kind === "number" && key.asNumber().isInteger()) return `[${key.asNumber().toString()}]`;
  return undefined;
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
