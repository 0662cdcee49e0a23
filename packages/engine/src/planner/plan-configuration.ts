import type { Provider as InstanceProvider } from "@magma/provider-api";
import { EphemeralResources, type EphemeralOpEvent } from "../ephemeral/ephemeral-resources.js";
import { EPHEMERAL_MARK } from "../ephemeral/ephemeral-mark.js";
import { rejectEphemeralUse } from "../ephemeral/reject-ephemeral-use.js";
import { conditionErrorMessage } from "./apply-checks.js";
import { dynamicType, nullVal, stringVal, unknownVal, type Path, type Type, type Value } from "@magma/cty";
import { msgpackNormalForm } from "@magma/cty/msgpack";
import { dataReadSource } from "../plan/data-read-source.js";
import { decodeSchemaBody, descendantConfig, evaluateSchemaBody, impliedProvider, parseRef, providerAddrString, resourceReferences, selfReferenceDiagnostics, subjectString, type CheckRule, type Config, type DecodedBody, type Import, type ProviderAddr, type Resource } from "@magma/config";
import { absTraversalForExpr, evaluate, formatRange, scopeExpressionValues, type Body, type Expression, type HclFunction, type SourceRange } from "@magma/hcl";
import { emptyBlockValue, isProviderError, mapWriteOnlyAttributes, nonNullWriteOnlyPaths, proposedNewState, type Block, type Diag, type SchemaEntry } from "@magma/provider-api";
import { decodeOutput, decodeSensitivePaths, encodeSensitivePaths, formatInstanceKey, formatModuleInstance, formatProviderConfig, formatProviderSource, parseResourceInstance, type InstanceObjectState, type ModuleInstanceAddress, type ResourceState, type StateFile } from "@magma/state";
import { Graph } from "../dag/graph.js";
import { walkGraph } from "../dag/walk.js";
import type { InstanceRepetition } from "../eval/eval-values.js";
import { expansionInstances, evaluateExpansion, type Expansion } from "../eval/expansion.js";
import { configPrefix, instancePrefix, ModuleEvaluator, type InstanceValueSource } from "../eval/module-evaluator.js";
import { settleProviderCalls, type ProviderFunctionCalls } from "../eval/provider-functions.js";
import { markSensitive, schemaSensitivePaths, splitSensitive, unionPaths } from "../eval/schema-sensitive.js";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { planDestroy } from "../instance/plan-destroy.js";
import { targetContainsConfigResource, targetContainsInstance, type PlanTarget } from "./plan-targets.js";
import { planInstance } from "../instance/plan-instance.js";
import { readDataSourceInstance } from "../instance/read-data-source-instance.js";
import { refreshInstance } from "../instance/refresh-instance.js";
import { upgradeInstance } from "../instance/upgrade-instance.js";
import { isReplace, PlanAction, ReadReason, type DeleteReason } from "../plan/plan-action.js";
import type { DataReadSource, PlanMode, PlannedOutput, PlannedProvider } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import type { OpenedProvider } from "../provider-source.js";
import type { ApplyCompleteEvent, ApplyStartEvent } from "../events/engine-event.js";
import type { ProviderPool } from "../providers/provider-pool.js";
import type { RefreshOutcome } from "../refresh/refresh-outcome.js";
import { importInstance } from "../instance/import-instance.js";
import { applyMoves, forgetMatcher, traversalText } from "./apply-moves.js";
import { applyIgnoreChanges, traversalPath } from "./ignore-changes.js";
import { diagnosticsErrorText, diagnosticsOfError, isPlanDiagnosticsError, planError, PlanDiagnosticsError, providerDiagnosticsInBody, providerDiagsInBody, throwIfErrors, type PlanDiagnostic } from "./plan-diagnostic.js";
import { moduleRestrictionDiagnostics } from "./module-restrictions.js";
import { setProviderVersions } from "./provider-versions.js";
import { configEdges, type ConfigVertex } from "./config-edges.js";
import { CheckRecorder } from "./check-recorder.js";
import type { CheckStatus, PlannedCheck } from "../plan/planned-check.js";

/** The fixed parts of the evaluation scope. */
export interface PlanScopeContext {
  /** `path.cwd` (absolute); relative file paths resolve against it. */
  readonly cwd: string;
  /** `terraform.workspace`. */
  readonly workspace: string;
  /** Terraform's functions. */
  readonly functions: ReadonlyMap<string, HclFunction>;
  /** Provider-defined functions (`provider::<local name>::<fn>`); without it every such call is "Unknown provider function". */
  readonly providerFunctions?: ProviderFunctionCalls;
  /**
   * `magma test`'s `override_module`: the outputs given for an overridden module instance
   * (see the evaluator's `EvaluatorContext.moduleOverride`); nothing in such an instance is planned.
   */
  readonly moduleOverride?: (moduleInstance: string) => Value | undefined;
}

/** Options of {@link planConfiguration}. */
export interface PlanConfigurationOptions {
  /**
   * Answers the provider calls of the instances it returns a provider for (`magma test`'s
   * override_resource/override_data blocks), given the instance address and the configured provider.
   */
  readonly instanceProvider?: (address: string, provider: InstanceProvider) => InstanceProvider | undefined;
  /** The configuration (root module and the modules it calls). */
  readonly config: Config;
  /** The prior state; null for none. */
  readonly state: StateFile | null;
  /** The providers (opened and configured once per configuration address). */
  readonly providers: ProviderPool;
  /** The root module's input variable values (already collected and converted). */
  readonly variables: ReadonlyMap<string, Value>;
  /**
   * Where each root variable's value was written (a `.tfvars` file's expression), for the
   * diagnostics of its validation rules; a variable without one is reported at its declaration.
   */
  readonly variableRanges?: ReadonlyMap<string, SourceRange>;
  /** The plan mode (default `normal`). */
  readonly mode?: PlanMode;
  /** Refresh every object in state before planning (default true). */
  readonly refresh?: boolean;
  /** Instance addresses to replace (`-replace=ADDR`). */
  readonly replace?: readonly string[];
  /**
   * `-target` addresses: only the targeted resources (instances, modules) and what they
   * depend on are planned (in destroy mode: the targets and what depends on them); root
   * outputs only when every resource they derive from is in the plan.
   */
  readonly targets?: readonly PlanTarget[];
  /** How many nodes are visited at once (default 10). */
  readonly parallelism?: number;
  /** The fixed parts of the evaluation scope (working directory, workspace, functions). */
  readonly scope: PlanScopeContext;
  /** Cancels the walk. */
  readonly signal?: AbortSignal;
  /** Told when each object's refresh starts and completes (`refresh_start` / `refresh_complete`). */
  readonly onRefresh?: (phase: "start" | "complete", address: string, id: string | undefined) => void;
  /** Told when each ephemeral resource instance's open or close starts and completes (Terraform's `ephemeral_op_start` / `ephemeral_op_complete`). */
  readonly onEphemeral?: (e: EphemeralOpEvent) => void;
}

/** A provider configuration of the plan: where it is declared and how it is decoded. */
export interface PlannedProviderConfig {
  /** The provider's source address. */
  readonly source: string;
  /** The `provider` block's body (absent: an empty configuration). */
  readonly body?: Body;
  /** The provider's configuration schema block. */
  readonly block: Block;
  /** The module path the block is declared in (`[]` for the root, or for an implied configuration). */
  readonly modulePath: readonly string[];
}

/** What {@link planConfiguration} produces. */
export interface ConfigurationPlan {
  /** The per-instance changes (no-ops included), in address order. */
  readonly changes: PlannedInstanceChange[];
  /** The data sources read while planning, as Terraform's UI hook reports them (a start and a completion each, in the order read). */
  readonly dataReadEvents: readonly (ApplyStartEvent | ApplyCompleteEvent)[];
  /**
   * The ephemeral resource instances opened and closed while planning, as Terraform's UI
   * hook reports them, in order (every instance opened was closed before the plan returned).
   */
  readonly ephemeralEvents: readonly EphemeralOpEvent[];
  /**
   * Opens (and closes) once more the ephemeral resource instances the walk opened whose
   * addresses `keep` accepts, their events added to {@link ephemeralEvents}: terraform's
   * destroy plan walk after its refresh walk (see `EphemeralResources.reopenAll`).
   */
  readonly reopenEphemerals: (keep: (address: string) => boolean) => Promise<Diag[]>;
  /** The root module's outputs as planned. */
  readonly outputs: PlannedOutput[];
  /** The provider configurations used. */
  readonly providers: PlannedProvider[];
  /** How the refresh of every object in state ended. */
  readonly refreshOutcomes: RefreshOutcome[];
  /** The objects the refresh found changed or gone outside magma (Terraform's `resource_drift`): before = as stored (upgraded), after = as read (null when gone). */
  readonly drift: PlannedInstanceChange[];
  /** Errors and warnings; the plan is unusable when any is an error. */
  readonly diagnostics: PlanDiagnostic[];
  /** The data source instances read during the plan, by address (their values are not changes). */
  readonly dataValues: ReadonlyMap<string, Value>;
  /** Per data source of {@link dataValues}: its provider configuration's absolute address and its schema version (what state records with it). */
  readonly dataSources: ReadonlyMap<string, DataReadSource>;
  /**
   * The data source instances in the prior state that the configuration no longer has (their
   * data source, instance key or module instance gone), by address: Terraform's orphaned data
   * instances, which its plan removes from the refreshed state (`NodePlannableResourceInstanceOrphan`'s
   * `dataResourceExecute`) and so from the state the apply writes. Empty under -target and in a destroy plan.
   */
  readonly dataRemovals: readonly string[];
  /** The expansion of each resource and data source by `<module instance>|<type.name or data.type.name>` (`|aws_x.y` in the root). */
  readonly expansions: ReadonlyMap<string, Expansion>;
  /** The schema of each resource and data source, by configuration address (`module.m.aws_x.y`, `data.aws_z.w`). */
  readonly schemas: ReadonlyMap<string, SchemaEntry>;
  /** Each provider configuration by absolute address. */
  readonly providerConfigs: ReadonlyMap<string, PlannedProviderConfig>;
  /** The checkable objects and how their conditions came out (Terraform's `checks`). */
  readonly checks: PlannedCheck[];
  /** A refresh-only plan's objects whose stored dependencies lack configured ones: the union (see Plan.refreshedDependencies). */
  readonly refreshedDependencies: ReadonlyMap<string, readonly string[]>;
}

interface ModCtx {
  readonly config: Config;
  readonly path: readonly string[];
  readonly prefix: string;
}

type Node =
  | { readonly kind: "provider"; readonly address: string; readonly source: string; readonly body?: Body; readonly mod: ModCtx }
  | { readonly kind: "variable"; readonly mod: ModCtx; readonly name: string }
  | { readonly kind: "local"; readonly mod: ModCtx; readonly name: string }
  | { readonly kind: "call"; readonly mod: ModCtx; readonly name: string }
  | { readonly kind: "resource"; readonly mod: ModCtx; readonly key: string; readonly resource: Resource; readonly providerAddress: string; readonly providerSource: string }
  | { readonly kind: "orphan"; readonly key: string; readonly state: ResourceState; readonly providerAddress: string; readonly providerSource: string }
  | { readonly kind: "output"; readonly mod: ModCtx; readonly name: string }
  | { readonly kind: "check"; readonly mod: ModCtx; readonly name: string };

/** `type.name`, `data.type.name` or `ephemeral.type.name`. */
function resourceKey(mode: string, type: string, name: string): string {
  return `${mode === "data" ? "data." : mode === "ephemeral" ? "ephemeral." : ""}${type}.${name}`;
}

/** A small semaphore bounding the provider calls of the instances of one node. */
function limiter(n: number): <T>(f: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async <T,>(f: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((r) => queue.push(r));
    running++;
    try {
      return await f();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}

/** The key (`aws`, `aws.west`) of a provider configuration reference. */
function refKey(r: { name: string; alias?: string }): string {
  return r.alias === undefined ? r.name : `${r.name}.${r.alias}`;
}

/**
 * {@link resolveProviderConfig} for a resource of the module at `path`: its `provider`
 * argument's configuration, else the default configuration of its type's prefix (`aws` for
 * `aws_instance`).
 */
export function resolveResourceProviderConfig(root: Config, path: readonly string[], r: Pick<Resource, "providerConfigRef" | "type" | "provider">): ReturnType<typeof resolveProviderConfig> {
  return resolveProviderConfig(root, path, r.providerConfigRef !== undefined ? refKey(r.providerConfigRef) : r.type.split("_")[0]!, r.provider);
}

/**
 * Resolves the provider configuration a module's `key` (`aws`, `aws.west`) means, as
 * Terraform does: a `provider` block of the module itself; else what the module call's
 * `providers` map passes; else (default configurations only) the parent's, up to the
 * root, where an undeclared configuration is implied (empty).
 */
export function resolveProviderConfig(root: Config, path: readonly string[], key: string, fallback: ProviderAddr): { address: string; source: string; body?: Body; modulePath: readonly string[] } | { error: string } {
  // The modules from the root down to the one at path.
  const chain: Config[] = [];
  for (let depth = 0; depth <= path.length; depth++) {
    const c = descendantConfig(root, path.slice(0, depth));
    if (c === undefined) return { error: `The module ${configPrefix(path.slice(0, depth)).slice(0, -1)} is not in the configuration.` };
    chain.push(c);
  }
  let k = key;
  // A default configuration inherited from the parent is the parent's of the same provider
  // (Terraform matches by source address, whatever local name the parent gives it).
  let inherited: ProviderAddr | undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const mod = chain[depth]!;
    const name = k.split(".")[0]!;
    const alias = k.includes(".") ? k.slice(name.length + 1) : undefined;
    const addr = mod.module.requiredProviders.get(name)?.provider ?? inherited ?? (depth === path.length ? fallback : impliedProvider(name));
    const declared = mod.module.providerConfigs.get(k);
    const modulePath = path.slice(0, depth);
    if (declared !== undefined) return { address: formatProviderConfig({ module: modulePath, provider: addr, alias }), source: providerAddrString(addr), body: declared.config, modulePath };
    if (depth === 0) return { address: formatProviderConfig({ module: [], provider: addr, alias }), source: providerAddrString(addr), modulePath: [] };
    const passed = mod.call?.providers.find((p) => refKey(p.inChild) === k);
    if (passed !== undefined) {
      k = refKey(passed.inParent);
      inherited = undefined;
    } else if (alias === undefined) {
      inherited = addr;
      const source = providerAddrString(addr);
      const local = [...chain[depth - 1]!.module.requiredProviders.values()].find((rp) => providerAddrString(rp.provider) === source)?.name;
      if (local !== undefined) k = local;
    } else return { error: `The module ${configPrefix(modulePath).slice(0, -1)} needs the provider configuration ${k} to be passed in its module call's "providers" argument.` };
  }
  return { error: `no provider configuration for ${key}` };
}

/**
 * Plans a configuration against a prior state, as Terraform's plan walk does: a graph of
 * provider configurations, variables, locals, module calls (expanded with count/for_each),
 * resources and data sources (expanded to instances), outputs and orphans of every module;
 * edges from references, `depends_on`, module nesting and provider use; each provider
 * configured once; every object in state upgraded and (optionally) refreshed; every
 * instance planned (ProposedNew → PlanResourceChange → checks → action); data sources
 * read now or deferred; orphans planned for delete.
 *
 * Errors are returned as diagnostics (a failed node's dependents are skipped); never throws
 * for configuration or provider problems.
 */
export async function planConfiguration(options: PlanConfigurationOptions): Promise<ConfigurationPlan> {
  const { config: root, providers: pool } = options;
  const mode: PlanMode = options.mode ?? "normal";
  const refresh = options.refresh ?? true;
  const replace = new Set(options.replace ?? []);
  const parallelism = options.parallelism ?? 10;
  const limit = limiter(parallelism);
  const diagnostics: PlanDiagnostic[] = [];
  const changes: PlannedInstanceChange[] = [];
  const outputs: PlannedOutput[] = [];
  const refreshOutcomes: RefreshOutcome[] = [];
  const drift: PlannedInstanceChange[] = [];
  const refreshedDependencies = new Map<string, readonly string[]>();
  const dataValues = new Map<string, Value>();
  const dataReadEvents: (ApplyStartEvent | ApplyCompleteEvent)[] = [];
  const ephemeralEvents: EphemeralOpEvent[] = [];
  const ephemerals = new EphemeralResources((e) => {
    ephemeralEvents.push(e);
    options.onEphemeral?.(e);
  });
  const dataSources = new Map<string, DataReadSource>();
  /** The data source instances the configuration expands to (those in state but not here are orphans: {@link ConfigurationPlan.dataRemovals}). */
  const dataInstances = new Set<string>();
  const expansions = new Map<string, Expansion>();
  const instanceValues = new Map<string, Value>();
  const priorInstanceValues = new Map<string, Value>();
  const pending = new Set<string>();
  const schemas = new Map<string, SchemaEntry>();
  const providerConfigs = new Map<string, PlannedProviderConfig>();

  const checks = new CheckRecorder(root);
  const moves = applyMoves(root, options.state);
  diagnostics.push(...moves.diagnostics);
  const priorState = moves.state;
  const forget = forgetMatcher(root);
  /**
   * `import` blocks of the root module by target instance address, with the repetition
   * their `id` is evaluated with (`each.key`/`each.value` under `for_each`). Resolved on
   * first use: a `for_each` is evaluated then (it must be known at plan).
   */
  let importTargets: Map<string, { im: Import; rep?: InstanceRepetition }> | undefined;
  const resolveImports = (): Map<string, { im: Import; rep?: InstanceRepetition }> => {
    if (importTargets !== undefined) return importTargets;
    importTargets = new Map();
    for (const im of root.module.imports) {
      try {
        if (im.forEach === undefined) {
          const t = absTraversalForExpr(im.to);
          diagnostics.push(...t.diags);
          if (t.traversal !== undefined) importTargets.set(traversalText(t.traversal), { im });
          continue;
        }
        const ex = evaluateExpansion(undefined, im.forEach, evaluator.scope([], undefined, evaluator.refsOfExprs([im.forEach])));
        throwIfErrors(ex.diags, "import");
        for (const inst of expansionInstances(ex.expansion)) {
          const rep: InstanceRepetition = inst.eachValue !== undefined ? { key: inst.key, eachValue: inst.eachValue } : { key: inst.key };
          const to = im.to.kind === "index" ? absTraversalForExpr(im.to.collection).traversal : absTraversalForExpr(im.to).traversal;
          if (to === undefined) throw new PlanDiagnosticsError([planError("Invalid import address", "The import target must be a resource address, indexed by each.key or each.value under for_each.", { subject: im.toRange })]);
          let key = "";
          if (im.to.kind === "index") {
            const kv = evaluator.evaluate([], rep, im.to.key, "import").value.unmarkDeep().value;
            if (!kv.isWhollyKnown() || kv.isNull()) throw new PlanDiagnosticsError([planError("Invalid import address", "The import target's instance key must be known at plan.", { subject: im.to.key.range })]);
            key = formatInstanceKey(kv.type.kind === "number" ? kv.asNumber().toNumber() : kv.asString());
          }
          importTargets.set(`${traversalText(to)}${key}`, { im, rep });
        }
      } catch (e) {
        diagnostics.push(...diagnosticsOfError(e, "import"));
      }
    }
    return importTargets;
  };

  const source: InstanceValueSource = { expansion: (m, k) => expansions.get(`${m}|${k}`), instance: (a) => instanceValues.get(a) };
  const evaluator = new ModuleEvaluator(root, options.variables, options.scope, source);
  const priorEvaluator = new ModuleEvaluator(root, options.variables, options.scope, { expansion: source.expansion, instance: (a) => priorInstanceValues.get(a) });
  /** Runs a synchronous evaluation until the provider-defined function calls it makes are answered (see settleProviderCalls). */
  const pure = <T>(run: () => T): Promise<T> => settleProviderCalls(options.scope.providerFunctions, run, diagnostics);

  // Prior state, by configuration address (`module.m.aws_x.y`): one entry per module instance.
  const stateByConfig = new Map<string, ResourceState[]>();
  for (const r of priorState?.resources ?? []) {
    const k = `${configPrefix(r.module.map((s) => s.name))}${resourceKey(r.mode, r.type, r.name)}`;
    const list = stateByConfig.get(k) ?? [];
    list.push(r);
    stateByConfig.set(k, list);
  }

  // ---- the graph
  const configGraph = configEdges(root);
  const graph = new Graph<Node>();
  const providerNodes = new Map<string, Node & { kind: "provider" }>();
  const mods: ModCtx[] = [];
  const visitConfig = (c: Config): void => {
    mods.push({ config: c, path: c.path, prefix: configPrefix(c.path) });
    for (const child of c.children.values()) visitConfig(child);
  };
  visitConfig(root);
  diagnostics.push(...moduleRestrictionDiagnostics(root));
  const modByPrefix = new Map(mods.map((m) => [m.prefix, m]));
  // Version constraints by provider source (from every module's required_providers), for opening.
  const versions = setProviderVersions(root, pool);

  const addProvider = (address: string, src: string, mod: ModCtx, body?: Body): void => {
    if (providerNodes.has(address)) return;
    const node: Node & { kind: "provider" } = { kind: "provider", address, source: src, mod, ...(body !== undefined ? { body } : {}) };
    providerNodes.set(address, node);
    graph.add(address, node);
  };
  for (const mod of mods) {
    const m = mod.config.module;
    for (const [key, pc] of m.providerConfigs) {
      const addr = m.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name);
      addProvider(formatProviderConfig({ module: mod.path, provider: addr, alias: pc.alias }), providerAddrString(addr), mod, pc.config);
      void key;
    }
    for (const name of m.variables.keys()) graph.add(`${mod.prefix}var.${name}`, { kind: "variable", mod, name });
    for (const name of m.locals.keys()) graph.add(`${mod.prefix}local.${name}`, { kind: "local", mod, name });
    for (const name of m.moduleCalls.keys()) {
      if (!mod.config.children.has(name)) {
        diagnostics.push(planError("Module not installed", `The module call "${name}" in ${mod.prefix === "" ? "the root module" : mod.prefix.slice(0, -1)} has no loaded module (only local sources and modules installed by terraform init are supported).`, { subject: m.moduleCalls.get(name)!.declRange }));
        continue;
      }
      graph.add(`${mod.prefix}module.${name}`, { kind: "call", mod, name });
    }
    for (const [key, r] of [...m.managedResources, ...m.dataResources, ...m.ephemeralResources]) {
      const resolved = configGraph.providers.get(`${mod.prefix}${key}`)!;
      if ("error" in resolved) {
        diagnostics.push(planError("Provider configuration not present", resolved.error, { address: `${mod.prefix}${key}`, subject: r.declRange }));
        continue;
      }
      addProvider(resolved.address, resolved.source, modByPrefix.get(configPrefix(resolved.modulePath))!, resolved.body);
      graph.add(`${mod.prefix}${key}`, { kind: "resource", mod, key, resource: r, providerAddress: resolved.address, providerSource: resolved.source });
    }
    for (const name of m.outputs.keys()) graph.add(`${mod.prefix}output.${name}`, { kind: "output", mod, name });
    for (const name of m.checks.keys()) graph.add(`${mod.prefix}check.${name}`, { kind: "check", mod, name });
  }
  for (const [k, list] of stateByConfig) {
    if (graph.has(k)) continue;
    for (const s of list) {
      if (s.mode === "data") continue;
      const providerAddress = formatProviderConfig(s.provider);
      addProvider(providerAddress, formatProviderSource(s.provider.provider), mods[0]!);
      const abs = `${instancePrefix(s.module)}${resourceKey(s.mode, s.type, s.name)}`;
      graph.add(`orphan:${abs}`, { kind: "orphan", key: abs, state: s, providerAddress, providerSource: formatProviderSource(s.provider.provider) });
    }
  }

  // Edges: what depends on what (config-edges.ts, the rules operationGraph draws too), on this graph's nodes.
  const nodesOf = (v: ConfigVertex): string[] => {
    switch (v.kind) {
      // A variable node checks its own validations; a module call's argument is the child's
      // variable (Terraform's graph has no node for the call's arguments as a whole: two calls
      // may read each other's outputs).
      case "argument":
        return [v.id];
      case "module-value":
        return [v.id, ...v.outputs];
      default:
        return [v.id];
    }
  };
  for (const p of configGraph.problems) {
    if (p.from === undefined) diagnostics.push(p.diagnostic);
    else {
      // An argument for no variable of the child is reported at its call.
      const at = [...nodesOf(p.from), ...(p.from.kind === "argument" ? [p.from.call] : [])].find((id) => graph.has(id));
      if (at !== undefined) diagnostics.push({ ...p.diagnostic, address: at });
    }
  }
  for (const e of configGraph.edges) {
    for (const from of nodesOf(e.from)) {
      if (!graph.has(from)) continue;
      for (const to of nodesOf(e.to)) if (to !== from && graph.has(to)) graph.dependOn(from, to);
    }
  }
  for (const id of graph.ids()) {
    const n = graph.get(id);
    if (n.kind === "orphan") graph.dependOn(id, n.providerAddress);
  }
  // An erroneous plan is never applied: no orphaned data sources to drop.
  if (diagnostics.some((d) => d.severity === "error")) return result(false);
  const cycle = graph.findCycle();
  if (cycle !== undefined) {
    diagnostics.push(planError("Cycle", `The configuration has a dependency cycle: ${cycle.join(" → ")}.`));
    return result(false);
  }

  const selection = options.targets !== undefined && options.targets.length > 0 ? selectTargeted(graph, options.targets, mode) : undefined;

  // create_before_destroy propagates from a resource to the resources it depends on.
  const cbd = new Map<string, boolean>();
  for (const id of graph.ids()) {
    const n = graph.get(id);
    if (n.kind === "resource" && n.resource.managed !== undefined) cbd.set(id, n.resource.managed.createBeforeDestroy);
  }
  for (const [id, on] of [...cbd]) {
    if (!on) continue;
    for (const a of graph.ancestors(id)) {
      const n = graph.get(a);
      if (n.kind === "resource" && n.resource.managed !== undefined && !n.resource.managed.createBeforeDestroySet) cbd.set(a, true);
    }
  }

  /** State `dependencies`: the resources and data sources a node depends on, directly or through locals, variables and modules. */
  const dependenciesOf = (id: string): string[] => {
    const out: string[] = [];
    for (const a of graph.ancestors(id)) if (graph.get(a).kind === "resource") out.push(a);
    return out.sort();
  };

  const opened = new Map<string, OpenedProvider>();
  const targetOf = (address: string, src: string): InstanceTarget => {
    const p = opened.get(address);
    if (p === undefined) throw new PlanDiagnosticsError([planError("Provider not configured", `The provider configuration ${address} was not configured.`, { address })]);
    const t: { provider: OpenedProvider["provider"]; schema: OpenedProvider["schema"]; providerAddress: string; providerConfig: string; signal?: AbortSignal } = {
      provider: p.provider,
      schema: p.schema,
      providerAddress: src,
      providerConfig: address,
    };
    if (options.signal !== undefined) t.signal = options.signal;
    const hook = options.instanceProvider;
    if (hook !== undefined) return { ...t, providerFor: (a: string) => hook(a, p.provider) ?? p.provider };
    return t;
  };

  /**
   * The target of a module instance's objects: the provider with the module's
   * `provider_meta` value for it (Terraform's `providerMetas`: the block of the module that
   * declares the resource, evaluated against the provider's meta schema without instance
   * keys; null of that schema's type when the module has none; nothing when the provider
   * declares no meta schema, and then a block for it is an error).
   */
  const metaValues = new Map<string, Value>();
  const withMeta = async (base: InstanceTarget, source: string, mi: ModuleInstanceAddress, resource: string): Promise<InstanceTarget> => {
    const schema = base.schema.providerMeta;
    const modPath = mi.map((s) => s.name);
    const mod = mods.find((m) => m.path.length === modPath.length && m.path.every((x, i) => x === modPath[i]));
    const pm = mod === undefined ? undefined : [...mod.config.module.providerMetas.values()].find((m) => providerAddrString(mod.config.module.requiredProviders.get(m.provider)?.provider ?? impliedProvider(m.provider)) === source);
    if (pm === undefined || mod === undefined) return schema === undefined ? base : { ...base, providerMeta: nullVal(schema.type) };
    if (schema === undefined) {
      throw new PlanDiagnosticsError([planError(`Provider ${source} doesn't support provider_meta`, `The resource ${resource} belongs to a provider that doesn't support provider_meta blocks`, { address: `${instancePrefix(mi)}${resource}`, subject: pm.declRange })]);
    }
    const id = `${formatModuleInstance(mi)}|${source}`;
    let v = metaValues.get(id);
    if (v === undefined) {
      const address = `${instancePrefix(mi)}terraform.provider_meta.${pm.provider}`;
      const decodedMeta = decode(`${mod.prefix}terraform.provider_meta.${pm.provider}`, pm.config, schema.block);
      // A configuration that loaded has static provider_meta attributes (references and function calls are load errors, as in Terraform).
      v = (
        await pure(() => {
          const { variables: _refs, ...noRefs } = evaluator.scope(mi, undefined, []);
          void _refs;
          const out = evaluateSchemaBody(decodedMeta, schema.block, noRefs);
          diagnostics.push(...throwIfErrors(out.diags, address));
          return out.value;
        })
      ).unmarkDeep().value;
      metaValues.set(id, v);
    }
    return { ...base, providerMeta: v };
  };
  /** The change fields of a target's provider meta. */
  const metaField = (t: InstanceTarget): { providerMeta?: Value } => (t.providerMeta === undefined ? {} : { providerMeta: t.providerMeta });

  /** Upgrades (and refreshes) a stored object; a refresh that finds drift records it as Terraform's `resource_drift`. */
  /**
   * The object in state, upgraded and (with `doRefresh`) refreshed. A provider's refresh error
   * about an object of a resource in the configuration (`inBody`) is placed in its block, as
   * Terraform's (`with ADDR,` and the block's snippet).
   */
  const loadPrior = async (
    target: InstanceTarget,
    address: string,
    type: string,
    stored: InstanceObjectState,
    doRefresh: boolean,
    meta: { moduleAddress: string; providerConfig: string; schemaVersion?: number },
    inBody?: Resource,
  ): Promise<InstanceObject | null> => {
    let up;
    try {
      up = await upgradeInstance(target, address, type, { schemaVersion: stored.schemaVersion, attributesJson: stored.attributesJson, private: stored.private, tainted: stored.tainted });
    } catch (e) {
      // as terraform's: the provider's upgrade error placed in the resource's block
      throw inBody === undefined ? e : providerDiagnosticsInBody(e, inBody, address);
    }
    if (!doRefresh) return up.object;
    const shown = stored.deposed !== undefined ? `${address} (deposed object ${stored.deposed})` : address;
    let r;
    const notify = (phase: "start" | "complete", v: Value | undefined): void => {
      try {
        options.onRefresh?.(phase, shown, stringId(v));
      } catch {
        // A listener's failure must not break the plan.
      }
    };
    notify("start", up.object.state);
    try {
      r = await refreshInstance(target, address, type, up.object);
    } catch (e) {
      refreshOutcomes.push({ address: shown, result: "failed", error: e, provider: meta.providerConfig, ...(stored.deposed !== undefined ? { deposed: true } : {}) });
      throw inBody === undefined ? e : providerDiagnosticsInBody(e, inBody, address);
    }
    refreshOutcomes.push({ address: shown, result: r.object === null ? "gone" : r.drifted ? "changed" : "in-sync", provider: meta.providerConfig, ...(stored.deposed !== undefined ? { deposed: true } : {}) });
    notify("complete", r.object?.state);
    if (r.drifted) {
      const none = nullVal(up.object.state.type);
      drift.push({
        address,
        mode: "managed",
        typeName: type,
        action: r.object === null ? PlanAction.Delete : PlanAction.Update,
        before: up.object.state,
        after: r.object?.state ?? none,
        config: none,
        requiresReplace: [],
        priorPrivate: up.object.private,
        plannedPrivate: r.object?.private ?? new Uint8Array(),
        priorTainted: up.object.tainted,
        legacyTypeSystem: false,
        warnings: [...r.warnings],
        moduleAddress: meta.moduleAddress,
        providerConfig: meta.providerConfig,
        dependencies: stored.dependencies,
        createBeforeDestroy: stored.createBeforeDestroy,
        ...(meta.schemaVersion !== undefined ? { schemaVersion: meta.schemaVersion } : {}),
        ...(stored.deposed !== undefined ? { deposedKey: stored.deposed } : {}),
      });
    }
    return r.object;
  };

  const decoded = new Map<string, DecodedBody>();
  const decode = (id: string, body: Body, block: Block): DecodedBody => {
    let d = decoded.get(id);
    if (d === undefined) {
      const r = decodeSchemaBody(body, block);
      diagnostics.push(...throwIfErrors(r.diags, id));
      d = r.decoded;
      decoded.set(id, d);
    }
    return d;
  };

  const evalBody = (mod: ModCtx, mi: ModuleInstanceAddress, rep: InstanceRepetition | undefined, body: Body, d: DecodedBody, block: Block, address: string, ev: ModuleEvaluator = evaluator): Value => {
    const scope = ev.scope(mi, rep, ev.refsOfBody(body));
    const r = evaluateSchemaBody(d, block, scope);
    diagnostics.push(...throwIfErrors(r.diags, address));
    void mod;
    return r.value;
  };

  /**
   * Whether a data source must wait for the apply though its configuration is known
   * (Terraform's `forcePlanReadData` over the dependencies `attachDataResourceDependsOn`
   * gives it): a managed resource it refers to directly in its configuration, or names in
   * `depends_on`, has pending changes; for a `depends_on` naming a module (or anything but a
   * resource), any managed resource that one depends on. Data sources never force it.
   */
  const dependsOnPending = (mod: ModCtx, r: Resource): boolean => {
    const direct: string[] = [];
    const indirect: string[] = [];
    for (const t of r.dependsOn) {
      const ref = parseRef(t).ref;
      if (ref === undefined) continue;
      if (ref.subject.kind === "resource") direct.push(`${mod.prefix}${subjectString(ref.subject)}`);
      else if (ref.subject.kind === "module") {
        const call = `${mod.prefix}module.${ref.subject.name}`;
        indirect.push(call, ...[...graph.ids()].filter((x) => x.startsWith(`${call}.`)));
      }
    }
    for (const ref of resourceReferences(r)) if (ref.subject.kind === "resource" && ref.subject.mode === "managed") direct.push(`${mod.prefix}${subjectString(ref.subject)}`);
    if (direct.some((id) => pending.has(id))) return true;
    for (const id of indirect) {
      if (!graph.has(id)) continue;
      for (const a of [id, ...graph.ancestors(id)]) if (pending.has(a)) return true;
    }
    return false;
  };

  /** Whether a `replace_triggered_by` reference fired: its value over the planned objects differs from its value over the prior ones (or is unknown). */
  const replaceTriggeredBy = (exprs: readonly Expression[], mi: ModuleInstanceAddress, inst: InstanceRepetition, address: string): boolean => {
    for (const expr of exprs) {
      const now = evaluator.evaluate(mi, inst, expr, address).value.unmarkDeep().value;
      const before = priorEvaluator.evaluate(mi, inst, expr, address).value.unmarkDeep().value;
      if (!now.isWhollyKnown() || !now.rawEquals(before)) return true;
    }
    return false;
  };

  /**
   * Evaluates condition rules (Terraform's `evalCheckRules`): a false condition is an error
   * (a warning for `check` blocks) whose detail is the rule's error message; an unknown
   * condition is left for the apply.
   */
  /** The check block instances whose data source could not be read. */
  const failedCheckReads = new Set<string>();
  const checkRules = (rules: readonly CheckRule[], mi: ModuleInstanceAddress, rep: InstanceRepetition | undefined, address: string, summary: string, self?: Value, warnOnly = false, config?: string): void => {
    const ref = config === undefined ? undefined : { config, address, module: formatModuleInstance(mi), ...(rep?.key !== undefined ? { key: rep.key } : {}) };
    const note = (i: number, status: CheckStatus, problem?: string): void => {
      if (ref !== undefined) checks.note(ref, `${summary}#${i}`, status, problem);
    };
    /** A `check` block's assertions (Terraform marks their diagnostics with the check rule). */
    const inCheck = summary === "Check block assertion failed";
    for (const [i, rule] of rules.entries()) {
      const scopeOf = (expr: Expression) => {
        const sc = evaluator.scope(mi, rep, evaluator.refsOfExprs([expr]));
        if (self === undefined) return sc;
        // The scope's names are a Map (spreading it as an object would drop them: count, each, var…).
        const names = sc.variables instanceof Map ? [...(sc.variables as ReadonlyMap<string, Value>)] : Object.entries(sc.variables ?? {});
        return { ...sc, variables: new Map<string, Value>([...names, ["self", self]]) };
      };
      const conditionScope = scopeOf(rule.condition);
      // As Terraform (`validateCheckRule`): the error message is evaluated first, whatever the condition's result, so its
      // warnings (a message built from a sensitive or an ephemeral value) are reported even when the condition holds.
      const said = conditionErrorMessage(evaluate(rule.errorMessage, scopeOf(rule.errorMessage)).value, rule.errorMessage.range);
      diagnostics.push(...said.warnings.map((w) => ({ ...w, address })));
      const c = evaluate(rule.condition, conditionScope);
      // As Terraform: the values of the condition's references are listed under its snippet.
      const withValues = (d: PlanDiagnostic): PlanDiagnostic => {
        const values = scopeExpressionValues(rule.condition, conditionScope);
        return values.length > 0 ? { ...d, values } : d;
      };
      const errs = c.diags.filter((d) => d.severity === "error");
      if (errs.length > 0) {
        note(i, "error");
        if (warnOnly) diagnostics.push(...errs.map((d) => ({ ...d, severity: "warning" as const, address })));
        else throwIfErrors(c.diags, address);
        continue;
      }
      const cv = c.value.unmarkDeep().value;
      if (!cv.isKnown()) {
        note(i, "unknown");
        // As Terraform: an assertion of a check block not known yet says so (an apply evaluates it again).
        if (inCheck) diagnostics.push({ severity: "warning", summary: "Check block assertion known after apply", detail: "The condition could not be evaluated at this time, a result will be known when this plan is applied.", address, subject: rule.condition.range, values: scopeExpressionValues(rule.condition, scopeOf(rule.condition)), fromCheckBlock: true });
        continue;
      }
      if (cv.isNull()) {
        note(i, "error");
        const d = withValues(planError("Invalid condition result", "Condition expression must return either true or false, not null.", { address, subject: rule.condition.range }));
        if (warnOnly) diagnostics.push({ ...d, severity: "warning" });
        else throw new PlanDiagnosticsError([d]);
        continue;
      }
      if (cv.asBool()) {
        note(i, "pass");
        continue;
      }
      note(i, "fail", said.message);
      const d = withValues(planError(summary, said.detail, { address, subject: rule.condition.range }));
      if (warnOnly) diagnostics.push({ ...d, severity: "warning", ...(inCheck ? { fromCheckBlock: true } : {}) });
      else throw new PlanDiagnosticsError([d]);
    }
  };

  // ---- visits
  const visitProvider = async (n: Node & { kind: "provider" }): Promise<void> => {
    const p = await pool.open(n.address, n.source);
    const block = p.schema.provider.block;
    providerConfigs.set(n.address, { source: n.source, block, modulePath: n.mod.path, ...(n.body !== undefined ? { body: n.body } : {}) });
    let cfg: Value;
    if (n.body === undefined) cfg = emptyBlockValue(block);
    else {
      const body = n.body;
      const mi = (await pure(() => evaluator.instancesOf(n.mod.path)))[0];
      if (mi === undefined) return; // A module without instances: nothing uses the provider.
      cfg = (await pure(() => evalBody(n.mod, mi, undefined, body, decode(n.address, body, block), block, n.address))).unmarkDeep().value;
    }
    opened.set(n.address, await pool.configure(n.address, n.source, cfg));
  };

  /** Where a variable's value was given: the module call's argument or the root value's file range, else the declaration. */
  const variableValueRange = (mi: ModuleInstanceAddress, name: string, declRange: SourceRange): SourceRange => {
    if (mi.length === 0) return options.variableRanges?.get(name) ?? declRange;
    const call = evaluator.configAt(mi.map((s) => s.name)).call;
    return call?.config.justAttributes().attributes.get(name)?.expr.range ?? declRange;
  };

  const visitVariable = (n: Node & { kind: "variable" }): void => {
    const decl = n.mod.config.module.variables.get(n.name)!;
    const instances = evaluator.instancesOf(n.mod.path);
    if (mode !== "destroy") checks.known(`${configPrefix(n.mod.path)}var.${n.name}`);
    for (const mi of instances) {
      const address = `${instancePrefix(mi)}var.${n.name}`;
      evaluator.variable(mi, n.name);
      const ref = { config: `${configPrefix(n.mod.path)}var.${n.name}`, address, module: formatModuleInstance(mi) };
      for (const [i, rule] of decl.validations.entries()) {
        const c = evaluator.evaluate(mi, undefined, rule.condition, address).value.unmarkDeep().value;
        // A destroy plan does not report variable checks (Terraform leaves them unknown).
        const note = (status: CheckStatus, problem?: string): void => (mode === "destroy" ? undefined : checks.note(ref, `validation#${i}`, status, problem));
        if (!c.isKnown()) note("unknown");
        else if (c.isNull()) note("error");
        else if (c.asBool()) note("pass");
        if (!c.isKnown() || c.isNull() || c.asBool()) continue;
        const mv = evaluator.evaluate(mi, undefined, rule.errorMessage, address).value.unmarkDeep();
        const m = mv.value;
        // As Terraform: a message built from a sensitive value is not shown.
        const text = mv.paths.length > 0 ? "The error message included a sensitive value, so it will not be displayed." : m.isKnown() && !m.isNull() && m.type.kind === "string" ? m.asString().trim() : "";
        const msg = text === "" ? "Failed to evaluate condition error message." : text;
        note("fail", msg);
        // As Terraform: reported where the value was given (a module call's argument, a
        // .tfvars file's expression) or else at the declaration; the rule's range as hcl prints one.
        // The values of the condition's references are listed under the snippet, as Terraform does.
        const values = scopeExpressionValues(rule.condition, evaluator.scope(mi, undefined, evaluator.refsOfExprs([rule.condition])));
        const d = planError("Invalid value for variable", `${msg}\n\nThis was checked by the validation rule at ${formatRange(rule.declRange)}.`, { address, subject: variableValueRange(mi, n.name, decl.declRange) });
        throw new PlanDiagnosticsError([values.length > 0 ? { ...d, values } : d]);
      }
    }
  };

  const visitLocal = (n: Node & { kind: "local" }): void => {
    for (const mi of evaluator.instancesOf(n.mod.path)) evaluator.local(mi, n.name);
  };

  const visitCall = (n: Node & { kind: "call" }): void => {
    for (const mi of evaluator.instancesOf(n.mod.path)) {
      evaluator.checkCallArguments(mi, n.name);
      evaluator.childInstances(mi, n.name);
    }
  };

  const visitOutput = async (n: Node & { kind: "output" }): Promise<void> => {
    if (n.mod.path.length > 0) {
      if (mode !== "destroy") {
        await pure(() => {
          checks.known(`${configPrefix(n.mod.path)}output.${n.name}`);
          for (const mi of evaluator.instancesOf(n.mod.path, true)) {
            // An overridden instance's output is the value given: its preconditions are not evaluated (Terraform's NodeApplyableOutput).
            if (evaluator.moduleOverride(mi) === undefined) checkRules(n.mod.config.module.outputs.get(n.name)!.preconditions, mi, undefined, `${instancePrefix(mi)}output.${n.name}`, "Module output value precondition failed", undefined, false, `${configPrefix(n.mod.path)}output.${n.name}`);
            evaluator.output(mi, n.name);
          }
        });
      }
      return;
    }
    const o = n.mod.config.module.outputs.get(n.name)!;
    const prior = options.state?.outputs.get(n.name);
    const before = prior !== undefined ? decodeOutput(prior).value : nullVal(dynamicType);
    if (mode === "destroy") {
      // Terraform still expands root outputs in a destroy plan: their checks are unknown.
      for (const i of o.preconditions.keys()) checks.note({ config: `output.${n.name}`, address: `output.${n.name}`, module: "" }, `Module output value precondition failed#${i}`, "unknown");
      if (prior !== undefined) outputs.push({ name: n.name, action: "delete", before, after: nullVal(dynamicType), sensitive: prior.sensitive });
      return;
    }
    const evaluated = (
      await pure(() => {
        checkRules(o.preconditions, [], undefined, `output.${n.name}`, "Module output value precondition failed", undefined, false, `output.${n.name}`);
        return evaluator.output([], n.name);
      })
    ).unmarkDeep().value;
    // As the plan's msgpack gives it back (terraform's plan and state hold -0 as 0).
    const after = msgpackNormalForm(evaluated);
    let action: PlannedOutput["action"] = "create";
    // Null before and after is no change, whatever the sensitivity (terraform's output node).
    if (after.isKnown() && after.isNull() && before.isNull()) action = "no-op";
    else if (prior !== undefined) {
      // Compared before the msgpack step, as terraform does: pow(2, 64) is not the
      // 18446744073709550000 its state holds, an update the plan then shows as no change.
      const eq = evaluated.isWhollyKnown() ? evaluated.equals(before) : undefined;
      action = eq !== undefined && eq.isKnown() && eq.asBool() && prior.sensitive === o.sensitive ? "no-op" : "update";
    }
    outputs.push({ name: n.name, action, before, after, sensitive: o.sensitive, ...(prior?.sensitive === true ? { sensitiveBefore: true } : {}) });
  };

  /**
   * An ephemeral resource: each instance opened now when its configuration is wholly known
   * (else its value is unknown), its result marked ephemeral (and sensitive where the schema
   * says so) for what references it, and closed when the walk ends. Nothing is planned or
   * stored: Terraform keeps ephemeral resources out of plans and state.
   */
  const visitEphemeral = async (n: Node & { kind: "resource" }): Promise<void> => {
    const r = n.resource;
    const id = `${n.mod.prefix}${n.key}`;
    const baseTarget = targetOf(n.providerAddress, n.providerSource);
    const entry = baseTarget.schema.ephemeralResources?.get(r.type);
    if (entry === undefined) {
      throw new PlanDiagnosticsError([
        planError("Invalid ephemeral resource type", `The provider ${n.providerSource} does not support ephemeral resource type "${r.type}".`, { address: id, subject: r.typeRange }),
      ]);
    }
    schemas.set(id, entry);
    const body = decode(id, r.config, entry.block);
    const failures: unknown[] = [];
    for (const mi of await pure(() => evaluator.instancesOf(n.mod.path))) {
      const m = formatModuleInstance(mi);
      const prefix = instancePrefix(mi);
      const ex = await pure(() => {
        const x = evaluateExpansion(r.count, r.forEach, evaluator.scope(mi, undefined, evaluator.refsOfExprs([r.count, r.forEach])), { allowEphemeral: true });
        diagnostics.push(...throwIfErrors(x.diags, `${prefix}${n.key}`));
        return x;
      });
      expansions.set(`${m}|${n.key}`, ex.expansion);
      const target = await withMeta(baseTarget, n.providerSource, mi, n.key);
      const settled = await Promise.allSettled(
        expansionInstances(ex.expansion).map((inst) =>
          limit(async () => {
            const address = `${prefix}${n.key}${formatInstanceKey(inst.key)}`;
            const { value: cfg } = await pure(() => {
              checkRules(r.preconditions, mi, inst, address, "Resource precondition failed", undefined, false, `${configPrefix(n.mod.path)}${n.key}`);
              return splitSensitive(evalBody(n.mod, mi, inst, r.config, body, entry.block, address));
            });
            let out;
            try {
              out = await ephemerals.open(target, address, r.type, cfg.unmarkDeep().value);
            } catch (e) {
              throw providerDiagnosticsInBody(e, r, address);
            }
            if (out.kind === "opened") diagnostics.push(...out.warnings.map((w) => ({ severity: w.severity, summary: w.summary, detail: w.detail ?? "", address })));
            const value = markSensitive(out.value, schemaSensitivePaths(out.value, entry.block)).mark(EPHEMERAL_MARK);
            instanceValues.set(address, value);
            priorInstanceValues.set(address, value);
            if (out.kind === "opened") await pure(() => checkRules(r.postconditions, mi, inst, address, "Resource postcondition failed", value, false, `${configPrefix(n.mod.path)}${n.key}`));
          }),
        ),
      );
      for (const x of settled) if (x.status === "rejected") failures.push(x.reason);
    }
    if (failures.length > 0) throw instanceFailures(failures);
  };

  const visitResource = async (n: Node & { kind: "resource" }): Promise<void> => {
    // A module's own provider is not configured when every instance of the module is overridden (override_module): nothing to plan.
    if (!opened.has(n.providerAddress) && (await pure(() => evaluator.instancesOf(n.mod.path))).length === 0) return;
    const r = n.resource;
    const id = `${n.mod.prefix}${n.key}`;
    const baseTarget = targetOf(n.providerAddress, n.providerSource);
    const isData = r.mode === "data";
    if (r.mode === "ephemeral") return visitEphemeral(n);
    const entry = isData ? baseTarget.schema.dataSources.get(r.type) : baseTarget.schema.resources.get(r.type);
    if (entry === undefined) {
      throw new PlanDiagnosticsError([
        planError(isData ? "Invalid data source" : "Invalid resource type", `The provider ${n.providerSource} does not support ${isData ? "data source" : "resource type"} "${r.type}".`, { address: id, subject: r.typeRange }),
      ]);
    }
    schemas.set(id, entry);
    const body = decode(id, r.config, entry.block);
    // Under -target: whether this instance is planned (others keep their stored values, unrefreshed, for references).
    const valuesOnly = !isData && selection !== undefined && !selection.planned.has(id);
    const instanceTargets = selection?.instanceFilter.get(id);
    const doRefresh = selection === undefined || selection.refreshed.has(id);
    const isTargeted = (mi: ModuleInstanceAddress, key: number | string | undefined): boolean =>
      !valuesOnly && (instanceTargets === undefined || instanceTargets.some((t) => targetContainsInstance(t, { module: mi, mode: r.mode, type: r.type, name: r.name, key })));
    const moduleInstances = await pure(() => evaluator.instancesOf(n.mod.path));
    const liveModules = new Set(moduleInstances.map((mi) => formatModuleInstance(mi)));
    const stored = stateByConfig.get(id) ?? [];
    const failures: unknown[] = [];
    const settle = async (ps: Promise<void>[]): Promise<void> => {
      for (const x of await Promise.allSettled(ps)) if (x.status === "rejected") failures.push(x.reason);
    };
    const dependencies = dependenciesOf(id);
    const base = { providerConfig: n.providerAddress, dependencies, schemaVersion: entry.version };
    const settings = r.managed;
    const ignorePaths = settings?.ignoreChanges.map(traversalPath) ?? [];
    const createBeforeDestroy = cbd.get(id) ?? false;
    const beforePathsOf = (s: InstanceObjectState, before: Value): Path[] => unionPaths(decodeSensitivePaths(s.sensitiveAttributesJson), schemaSensitivePaths(before, entry.block));
    const record = (c: PlannedInstanceChange): void => {
      if (c.action !== PlanAction.NoOp) pending.add(id);
      // Not for a deposed object (as Terraform: its replacement was checked when it was planned).
      if (settings?.preventDestroy === true && c.deposedKey === undefined && (c.action === PlanAction.Delete || isReplace(c.action))) {
        throw new PlanDiagnosticsError([
          planError(
            "Instance cannot be destroyed",
            `Resource ${c.address} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target option.`,
            { address: c.address, subject: r.declRange },
          ),
        ]);
      }
      changes.push(c);
    };
    /** Why a current object of this (configured) resource is deleted, as Terraform's orphan planning decides it. */
    const deleteReasonOf = (moduleGone: boolean, key: number | string | undefined): DeleteReason => {
      if (moduleGone) return "delete_because_no_module";
      if (r.count !== undefined && typeof key === "number") return "delete_because_count_index";
      if (r.forEach !== undefined && typeof key === "string") return "delete_because_each_key";
      return "delete_because_wrong_repetition";
    };
    const destroyStored = (mi: ModuleInstanceAddress, s: InstanceObjectState, prefix: string, moduleGone = false): Promise<void> =>
      limit(async () => {
        const address = `${prefix}${n.key}${formatInstanceKey(s.indexKey)}`;
        const target = await withMeta(baseTarget, n.providerSource, mi, n.key);
        // Deposed objects are refreshed too (Terraform: in case they were deleted outside it);
        // an object `removed { destroy = false }` forgets is not (terraform's orphan node).
        const forgets = forget(address) && s.deposed === undefined && mode === "normal";
        const prior = await loadPrior(target, address, r.type, s, refresh && doRefresh && !forgets, { ...base, moduleAddress: formatModuleInstance(mi) });
        if (prior === null && s.deposed !== undefined && mode === "normal") {
          record({ ...goneDeposedChange(address, r.type, s.deposed), ...base, ...metaField(target), moduleAddress: formatModuleInstance(mi), dependencies: s.dependencies, createBeforeDestroy: s.createBeforeDestroy });
          return;
        }
        if (prior === null || mode === "refresh-only") return;
        const c = forget(address) && s.deposed === undefined ? forgetChange(address, r.type, prior, entry.type) : await planDestroy(target, address, r.type, prior);
        const reason = (c.action === PlanAction.Delete || c.action === PlanAction.Forget) && s.deposed === undefined && mode === "normal" ? { deleteReason: deleteReasonOf(moduleGone, s.indexKey) } : {};
        record({ ...c, ...base, ...metaField(target), moduleAddress: formatModuleInstance(mi), dependencies: s.dependencies, createBeforeDestroy: s.createBeforeDestroy, beforeSensitivePaths: beforePathsOf(s, c.before), afterSensitivePaths: [], ...reason, ...(s.deposed !== undefined ? { deposedKey: s.deposed } : {}) });
      });

    /**
     * Under -target, what references to the resource see is what Terraform's evaluator sees
     * (`GetResource`): the instances in state — stored values where not planned — and the
     * planned ones, less those planned for delete. So an instance a shrunk `count` left stays
     * visible while its delete is not planned, and one the configuration adds but the plan
     * leaves out is not (under `count`: indexes up to the last one present, gaps unknown).
     * `undefined` when that is the configuration's expansion.
     */
    const visibleUnderTargeting = async (
      mi: ModuleInstanceAddress,
      prefix: string,
      expansion: Expansion,
      wanted: readonly (number | string | undefined)[],
      current: ReadonlyMap<number | string | undefined, InstanceObjectState>,
      target: InstanceTarget,
      extra: Parameters<typeof loadPrior>[5],
    ): Promise<Expansion | undefined> => {
      if (expansion.kind === "single") return undefined;
      const keys = new Set(wanted.filter((k) => isTargeted(mi, k) || current.has(k)));
      for (const [k, s] of current) {
        if (keys.has(k) || isTargeted(mi, k)) continue;
        const address = `${prefix}${n.key}${formatInstanceKey(k)}`;
        const kept = await loadPrior(target, address, r.type, s, false, extra);
        if (kept === null) continue;
        instanceValues.set(address, markSensitive(kept.state, beforePathsOf(s, kept.state)));
        keys.add(k);
      }
      if (keys.size === wanted.length && wanted.every((k) => keys.has(k))) return undefined;
      if (expansion.kind === "count") return { kind: "count", count: Math.max(0, ...[...keys].filter((k): k is number => typeof k === "number").map((k) => k + 1)) };
      const entries = new Map<string, Value>();
      for (const k of keys) if (typeof k === "string") entries.set(k, expansion.entries.get(k) ?? stringVal(k));
      return { kind: "for_each", entries };
    };

    for (const mi of moduleInstances) {
      const m = formatModuleInstance(mi);
      const prefix = instancePrefix(mi);
      const ex = await pure(() => {
        const x = evaluateExpansion(r.count, r.forEach, evaluator.scope(mi, undefined, evaluator.refsOfExprs([r.count, r.forEach])));
        diagnostics.push(...throwIfErrors(x.diags, `${prefix}${n.key}`));
        return x;
      });
      expansions.set(`${m}|${n.key}`, ex.expansion);
      if (mode !== "destroy") checks.known(`${configPrefix(n.mod.path)}${n.key}`);
      const wanted = expansionInstances(ex.expansion);
      const st = stored.find((s) => formatModuleInstance(s.module) === m);
      const current = new Map<number | string | undefined, InstanceObjectState>();
      const deposed: InstanceObjectState[] = [];
      for (const i of st?.instances ?? []) (i.deposed === undefined ? current.set(i.indexKey, i) : deposed.push(i));
      const target = await withMeta(baseTarget, n.providerSource, mi, n.key);
      const extra = { ...base, moduleAddress: m, ...metaField(target) };

      if (isData) {
        const forced = dependsOnPending(n.mod, r);
        await settle(
          wanted.map((inst) => {
            dataInstances.add(`${prefix}${n.key}${formatInstanceKey(inst.key)}`);
            return limit(async () => {
              const address = `${prefix}${n.key}${formatInstanceKey(inst.key)}`;
              throwIfErrors(selfReferenceDiagnostics(r, formatInstanceKey(inst.key)), address);
              const { value: cfg, paths: cfgPaths } = await pure(() => {
                checkRules(r.preconditions, mi, inst, address, "Resource precondition failed", undefined, false, `${configPrefix(n.mod.path)}${n.key}`);
                const evaluated = evalBody(n.mod, mi, inst, r.config, body, entry.block, address);
                rejectEphemeralUse(evaluated, entry.block, body, address);
                return splitSensitive(evaluated);
              });
              let out;
              /**
               * A data source scoped in a check block, read now, is read again at apply (Terraform's
               * `read_because_check_nested`, not in refresh-only or destroy plans), so that the
               * check's assertions see current data: a read planned with the value read as `after`.
               */
              const checkNestedRead = (after: Value): void => {
                if (mode !== "normal") return;
                const empty = new Uint8Array();
                const afterPaths = unionPaths(cfgPaths, schemaSensitivePaths(after, entry.block));
                changes.push({ address, mode: "data", typeName: r.type, action: PlanAction.Read, readReason: ReadReason.CheckNested, before: nullVal(entry.type), after, config: cfg, requiresReplace: [], priorPrivate: empty, plannedPrivate: empty, priorTainted: false, legacyTypeSystem: false, warnings: [], ...extra, afterSensitivePaths: afterPaths, beforeSensitivePaths: [] });
              };
              const readStarted = Date.now();
              try {
                out = await readDataSourceInstance(target, { address, typeName: r.type, config: cfg, dependsOnPendingChanges: forced || mode === "destroy" });
              } catch (e) {
                // The read was attempted: Terraform's hook printed "Reading..." before it failed.
                dataReadEvents.push({ type: "apply_start", address, action: "read" });
                // A data source scoped in a check block only warns when it cannot be read; any other's provider error is placed in its block.
                if (r.inCheck === undefined) throw providerDiagnosticsInBody(e, r, address);
                const errs = diagnosticsOfError(e, address);
                // As Terraform: the provider's diagnostics as warnings, placed in the data source's block.
                const placed = providerDiagnosticsInBody(e, r, address);
                const shown = isPlanDiagnosticsError(placed) ? placed.diagnostics : errs;
                diagnostics.push(...shown.map((d) => ({ ...d, severity: "warning" as const, fromCheckBlock: true })));
                failedCheckReads.add(`${instancePrefix(mi)}check.${r.inCheck}`);
                // As Terraform: the check fails with the read's error, the read is still planned (its
                // computed values unknown) and that value is what the refreshed state holds.
                checks.note({ config: `${configPrefix(n.mod.path)}check.${r.inCheck}`, address: `${instancePrefix(mi)}check.${r.inCheck}`, module: formatModuleInstance(mi) }, `data:${address}`, "fail", errorText(e, errs));
                const planned = proposedNewState(entry.block, unknownVal(entry.type), cfg);
                dataValues.set(address, planned);
                dataSources.set(address, dataReadSource(n.providerAddress, entry));
                checkNestedRead(planned);
                instanceValues.set(address, unknownVal(entry.type));
                priorInstanceValues.set(address, unknownVal(entry.type));
                return;
              }
              if (out.kind === "read") {
                // As Terraform: the provider's warnings (its validation's and the read's), placed in the data source's block.
                diagnostics.push(...providerDiagsInBody(out.warnings, r, address));
                // Terraform's UI hook reports a read at plan time as an apply of action "read" ("Reading...", "Read complete after 0s [id=…]").
                const id = stringId(out.state);
                dataReadEvents.push({ type: "apply_start", address, action: "read" }, { type: "apply_complete", address, action: "read", ...(id === undefined ? {} : { idKey: "id", idValue: id }), elapsedSeconds: Math.floor((Date.now() - readStarted) / 1000) });
                const readPaths = unionPaths(cfgPaths, schemaSensitivePaths(out.state, entry.block));
                dataValues.set(address, out.state);
                dataSources.set(address, { ...dataReadSource(n.providerAddress, entry), ...(readPaths.length > 0 ? { sensitiveAttributesJson: encodeSensitivePaths(readPaths) } : {}) });
                instanceValues.set(address, markSensitive(out.state, readPaths));
                if (r.inCheck !== undefined) checkNestedRead(out.state);
              } else {
                const afterPaths = unionPaths(cfgPaths, schemaSensitivePaths(out.change.after, entry.block));
                if (mode === "normal") changes.push({ ...out.change, ...extra, afterSensitivePaths: afterPaths, beforeSensitivePaths: [] });
                instanceValues.set(address, markSensitive(out.change.after, afterPaths));
              }
              priorInstanceValues.set(address, instanceValues.get(address)!);
              if (out.kind === "read") await pure(() => checkRules(r.postconditions, mi, inst, address, "Resource postcondition failed", instanceValues.get(address), false, `${configPrefix(n.mod.path)}${n.key}`));
            });
          }),
        );
        continue;
      }

      const wantedKeys = new Set(wanted.map((w) => w.key));
      await settle(
        wanted.map((inst) =>
          limit(async () => {
            const address = `${prefix}${n.key}${formatInstanceKey(inst.key)}`;
            const s = current.get(inst.key);
            if (!isTargeted(mi, inst.key)) {
              if (s === undefined) return;
              const kept = await loadPrior(target, address, r.type, s, false, extra);
              if (kept === null) return;
              priorInstanceValues.set(address, markSensitive(kept.state, beforePathsOf(s, kept.state)));
              instanceValues.set(address, priorInstanceValues.get(address)!);
              return;
            }
            // Terraform's validateSelfRef, before the refresh: the configuration may not name its own instance or resource.
            throwIfErrors(selfReferenceDiagnostics(r, formatInstanceKey(inst.key)), address);
            const importTarget = s === undefined && mode === "normal" ? resolveImports().get(address) : undefined;
            // An import block whose target is already in the state is a no-op (terraform imports only what it does not manage yet).
            if (s !== undefined && mode === "normal") resolveImports().delete(address);
            const im = importTarget?.im;
            let importId: string | undefined;
            let prior = s === undefined ? null : await loadPrior(target, address, r.type, s, (refresh || mode === "refresh-only") && doRefresh, extra, r);
            if (im !== undefined) {
              resolveImports().delete(address);
              if (im.id === undefined) throw new PlanDiagnosticsError([planError("Missing import id", `The import block for ${address} has no id.`, { address, subject: im.declRange })]);
              const idExpr = im.id;
              const idv = (await pure(() => evaluator.evaluate([], importTarget?.rep, idExpr, address))).value.unmarkDeep().value;
              if (!idv.isWhollyKnown() || idv.isNull() || idv.type.kind !== "string") {
                throw new PlanDiagnosticsError([planError("Invalid import id argument", "The import ID must be a known, non-null string; it cannot depend on values known only after apply.", { address, subject: im.id.range })]);
              }
              importId = idv.asString();
              const imported = await importInstance(target, address, r.type, importId);
              if (imported.objects.length !== 1) {
                throw new PlanDiagnosticsError([planError("Multiple import states not supported", `${address}: the import of ${JSON.stringify(importId)} returned ${imported.objects.length} objects; import blocks take exactly one.`, { address })]);
              }
              prior = imported.objects[0]!.object;
            }
            if (prior !== null) priorInstanceValues.set(address, markSensitive(prior.state, s !== undefined ? beforePathsOf(s, prior.state) : schemaSensitivePaths(prior.state, entry.block)));
            if (mode === "refresh-only") {
              if (prior === null) return;
              instanceValues.set(address, priorInstanceValues.get(address)!);
              // Terraform's refresh writes the stored and configured dependencies merged (mergeDeps).
              if (s !== undefined && dependencies.some((d) => !s.dependencies.includes(d))) refreshedDependencies.set(address, [...new Set([...s.dependencies, ...dependencies])].sort());
              // Terraform checks the conditions against the refreshed object too (failures only warn).
              const configAddr = `${configPrefix(n.mod.path)}${n.key}`;
              await pure(() => checkRules(r.preconditions, mi, inst, address, "Resource precondition failed", undefined, true, configAddr));
              await pure(() => checkRules(r.postconditions, mi, inst, address, "Resource postcondition failed", instanceValues.get(address), true, configAddr));
              // An object only moved is drift too (shown in a refresh-only plan, with its previous address).
              if (moves.previous.has(address) && !drift.some((x) => x.address === address && x.deposedKey === undefined)) {
                drift.push({
                  address,
                  mode: "managed",
                  typeName: r.type,
                  action: PlanAction.NoOp,
                  before: prior.state,
                  after: prior.state,
                  config: nullVal(prior.state.type),
                  requiresReplace: [],
                  priorPrivate: prior.private,
                  plannedPrivate: prior.private,
                  priorTainted: prior.tainted,
                  legacyTypeSystem: false,
                  warnings: [],
                  moduleAddress: extra.moduleAddress,
                  providerConfig: extra.providerConfig,
                  ...(s !== undefined ? { dependencies: s.dependencies, createBeforeDestroy: s.createBeforeDestroy } : {}),
                  ...(extra.schemaVersion !== undefined ? { schemaVersion: extra.schemaVersion } : {}),
                });
              }
              return;
            }
            if (mode === "destroy") {
              if (prior !== null && s !== undefined) {
                const c = await planDestroy(target, address, r.type, prior);
                record({ ...c, ...extra, createBeforeDestroy, beforeSensitivePaths: beforePathsOf(s, c.before), afterSensitivePaths: [] });
                instanceValues.set(address, priorInstanceValues.get(address)!);
              }
              return;
            }
            const { value: rawCfg, paths: cfgPaths } = await pure(() => {
              checkRules(r.preconditions, mi, inst, address, "Resource precondition failed", undefined, false, `${configPrefix(n.mod.path)}${n.key}`);
              const evaluated = evalBody(n.mod, mi, inst, r.config, body, entry.block, address);
              rejectEphemeralUse(evaluated, entry.block, body, address);
              return splitSensitive(evaluated);
            });
            const cfg = applyIgnoreChanges(prior?.state ?? null, rawCfg, entry.block, ignorePaths, settings?.ignoreAllChanges ?? false);
            const replaceTriggered = prior !== null && (await pure(() => replaceTriggeredBy(settings?.replaceTriggeredBy ?? [], mi, inst, address)));
            const c = await planInstance(target, { address, typeName: r.type, prior, config: cfg, unignoredConfig: rawCfg, createBeforeDestroy, replaceRequested: replace.has(address), replaceTriggered }).catch((e: unknown) => {
              throw providerDiagnosticsInBody(e, r, address);
            });
            // As Terraform: the provider's warnings (its validation's and the plan's), placed in the resource's block.
            diagnostics.push(...providerDiagsInBody(c.warnings, r, address));
            const afterPaths = unionPaths(cfgPaths, schemaSensitivePaths(c.after, entry.block));
            const beforePaths = s === undefined ? (prior === null ? [] : schemaSensitivePaths(c.before, entry.block)) : beforePathsOf(s, c.before);
            // A plan file keeps no write-only value: unknown in the configuration it stores, so the apply of a saved
            // plan evaluates the configuration again to send them (as Terraform always does).
            const persisted = nonNullWriteOnlyPaths(entry.block, c.config).length === 0 ? undefined : mapWriteOnlyAttributes(entry.block, c.config, (v) => (v.isNull() ? v : unknownVal(v.type)));
            record({ ...c, ...extra, createBeforeDestroy, afterSensitivePaths: afterPaths, beforeSensitivePaths: beforePaths, ...(importId !== undefined ? { importId } : {}), ...(persisted !== undefined ? { persistedConfig: persisted } : {}) });
            // A replacement is planned again as a create, whose planned value terraform marks with the
            // configuration's paths alone, not the schema's (node_resource_abstract_instance.go's
            // replace branch): what refers to it sees its unknown sensitive attributes unmarked.
            instanceValues.set(address, markSensitive(c.after, isReplace(c.action) ? cfgPaths : afterPaths));
            await pure(() => checkRules(r.postconditions, mi, inst, address, "Resource postcondition failed", instanceValues.get(address), false, `${configPrefix(n.mod.path)}${n.key}`));
          }),
        ),
      );
      // Instances the expansion no longer has, and deposed objects: destroyed.
      const gone = [...current].filter(([k]) => !wantedKeys.has(k)).map(([, s]) => s);
      await settle([...gone, ...deposed].filter((s) => isTargeted(mi, s.indexKey)).map((s) => destroyStored(mi, s, prefix)));
      if (selection !== undefined && !isData && (valuesOnly || instanceTargets !== undefined)) {
        const visible = await visibleUnderTargeting(mi, prefix, ex.expansion, wanted.map((w) => w.key), current, target, extra);
        if (visible !== undefined) expansions.set(`${m}|${n.key}`, visible);
      }
    }
    // Objects of module instances that no longer exist: destroyed.
    if (!isData) {
      for (const st of stored) {
        const m = formatModuleInstance(st.module);
        if (liveModules.has(m)) continue;
        await settle(st.instances.filter((s) => isTargeted(st.module, s.indexKey)).map((s) => destroyStored(st.module, s, instancePrefix(st.module), true)));
      }
    }
    if (failures.length > 0) throw instanceFailures(failures);
  };

  const visitOrphan = async (n: Node & { kind: "orphan" }): Promise<void> => {
    const type = n.state.type;
    const target = await withMeta(targetOf(n.providerAddress, n.providerSource), n.providerSource, n.state.module, `${n.state.mode === "data" ? "data." : ""}${type}.${n.state.name}`);
    const entry = target.schema.resources.get(type);
    const orphanTargets = selection?.instanceFilter.get(`orphan:${n.key}`);
    const instances = n.state.instances.filter((s) => orphanTargets === undefined || orphanTargets.some((t) => targetContainsInstance(t, { module: n.state.module, mode: n.state.mode, type, name: n.state.name, key: s.indexKey })));
    const results = await Promise.allSettled(
      instances.map((s) =>
        limit(async () => {
          const address = `${n.key}${formatInstanceKey(s.indexKey)}`;
          // An object `removed { destroy = false }` forgets is not refreshed (terraform's orphan node).
          const forgets = forget(address) && s.deposed === undefined && mode === "normal";
          const prior = await loadPrior(target, address, type, s, refresh && !forgets && (selection === undefined || selection.refreshed.has(`orphan:${n.key}`)), { moduleAddress: formatModuleInstance(n.state.module), providerConfig: n.providerAddress, ...(entry !== undefined ? { schemaVersion: entry.version } : {}) });
          if (prior === null && s.deposed !== undefined && mode === "normal") {
            changes.push({ ...goneDeposedChange(address, type, s.deposed), moduleAddress: formatModuleInstance(n.state.module), providerConfig: n.providerAddress, ...metaField(target), dependencies: s.dependencies, createBeforeDestroy: s.createBeforeDestroy });
            return;
          }
          if (prior === null || mode === "refresh-only") return;
          const c = forget(address) && s.deposed === undefined && entry !== undefined ? forgetChange(address, type, prior, entry.type) : await planDestroy(target, address, type, prior);
          pending.add(n.key);
          changes.push({
            ...c,
            moduleAddress: formatModuleInstance(n.state.module),
            providerConfig: n.providerAddress,
            ...metaField(target),
            dependencies: s.dependencies,
            createBeforeDestroy: s.createBeforeDestroy,
            ...(entry !== undefined ? { schemaVersion: entry.version } : {}),
            beforeSensitivePaths: unionPaths(decodeSensitivePaths(s.sensitiveAttributesJson), entry === undefined ? [] : schemaSensitivePaths(c.before, entry.block)),
            afterSensitivePaths: [],
            // No configuration for the resource at all: Terraform's reason tells a `moved` block's missing target apart.
            ...((c.action === PlanAction.Delete || c.action === PlanAction.Forget) && s.deposed === undefined && mode === "normal" ? { deleteReason: moves.previous.has(address) ? ("delete_because_no_move_target" as const) : ("delete_because_no_resource_config" as const) } : {}),
            ...(s.deposed !== undefined ? { deposedKey: s.deposed } : {}),
          });
        }),
      ),
    );
    for (const x of results) if (x.status === "rejected") throw x.reason;
  };

  const walk = await walkGraph(
    graph,
    async (id, n) => {
      // Under -target, nodes outside the selection are left out, as Terraform's TargetsTransformer removes them.
      if (selection !== undefined && !selection.visit.has(id)) return;
      switch (n.kind) {
        case "provider":
          return visitProvider(n);
        case "variable":
          return pure(() => visitVariable(n));
        case "local":
          return pure(() => visitLocal(n));
        case "call":
          return pure(() => visitCall(n));
        case "resource":
          return visitResource(n);
        case "orphan":
          return visitOrphan(n);
        case "output":
          return visitOutput(n);
        case "check":
          if (mode === "destroy") return;
          return pure(() => {
            // Its instances are known now (none in a module expanded to none: then it passes, as Terraform reports it).
            checks.known(`${configPrefix(n.mod.path)}check.${n.name}`);
            for (const mi of evaluator.instancesOf(n.mod.path)) {
              const address = `${instancePrefix(mi)}check.${n.name}`;
              // As Terraform's nodeCheckAssert: a check whose data source could not be read is not evaluated further.
              if (failedCheckReads.has(address)) continue;
              checkRules(n.mod.config.module.checks.get(n.name)!.asserts, mi, undefined, address, "Check block assertion failed", undefined, true, `${configPrefix(n.mod.path)}check.${n.name}`);
            }
          });
      }
    },
    { parallelism, ...(options.signal !== undefined ? { signal: options.signal } : {}) },
  );
  // Every ephemeral resource instance opened by the walk is closed now, however the walk ended.
  diagnostics.push(...(await ephemerals.closeAll()).map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "" })));
  for (const [id, e] of walk.failed) diagnostics.push(...diagnosticsOfError(e, id));
  if (mode === "normal" && walk.failed.size === 0 && walk.skipped.size === 0) {
    for (const [to, { im }] of resolveImports()) {
      if (selection !== undefined && !isTargetedAddress(options.targets ?? [], to)) continue;
      diagnostics.push(planError("Configuration for import target does not exist", `The configuration for the given import target ${to} does not exist. All target instances must have an associated configuration to be imported.`, { address: to, subject: im.declRange }));
    }
  }
  for (const id of walk.canceled) diagnostics.push(planError("Plan canceled", `The plan was canceled before ${id} was planned.`, { address: id }));
  // Outputs in state that the configuration no longer declares (not under -target: outputs cannot be targeted).
  for (const [name, o] of options.state?.outputs ?? []) {
    if (!root.module.outputs.has(name) && selection === undefined) outputs.push({ name, action: "delete", before: decodeOutput(o).value, after: nullVal(dynamicType), sensitive: o.sensitive });
  }
  return result();

  /** The plan; `walked` false when it stops before the graph is walked (before `selection` exists). */
  function result(walked = true): ConfigurationPlan {
    for (let i = 0; i < changes.length; i++) {
      const c = changes[i]!;
      const was = c.deposedKey === undefined ? moves.previous.get(c.address) : undefined;
      if (was !== undefined) changes[i] = { ...c, previousAddress: was };
    }
    changes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : (a.deposedKey ?? "") < (b.deposedKey ?? "") ? -1 : 1));
    outputs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const plannedProviders: PlannedProvider[] = [...providerNodes.values()]
      .filter((p) => changes.some((c) => c.providerConfig === p.address))
      .map((p) => {
        const v = versions.get(p.source) ?? [];
        return { address: p.address, source: p.source, ...(v.length > 0 ? { version: v.join(", ") } : {}), dependencies: graph.has(p.address) ? dependenciesOf(p.address) : [] };
      });
    for (let i = 0; i < drift.length; i++) {
      const c = drift[i]!;
      const was = c.deposedKey === undefined ? moves.previous.get(c.address) : undefined;
      if (was !== undefined) drift[i] = { ...c, previousAddress: was };
    }
    drift.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    // As terraform's Context.plan: the objects `removed { destroy = false }` forgets, in one warning.
    const forgotten = changes.filter((c) => c.action === PlanAction.Forget).map((c) => ` - ${c.address}`);
    if (forgotten.length > 0) {
      diagnostics.push({
        severity: "warning",
        summary: "Some objects will no longer be managed by Terraform",
        detail: `If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:\n${forgotten.join("\n")}\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.`,
      });
    }
    const reopenEphemerals = (keep: (address: string) => boolean): Promise<Diag[]> => ephemerals.reopenAll(keep);
    // Orphaned data source instances (not under -target, whose graph leaves orphans out, nor in a destroy plan):
    // those of the state as moved, and those a `moved` block took away from their stored address (the apply's
    // state still has them there; the new address is written by the read).
    const dataRemovals = new Set<string>();
    if (walked && selection === undefined && mode !== "destroy") {
      for (const r of [...(options.state?.resources ?? []), ...(priorState?.resources ?? [])]) {
        if (r.mode !== "data") continue;
        for (const i of r.instances) {
          const address = `${instancePrefix(r.module)}${resourceKey(r.mode, r.type, r.name)}${formatInstanceKey(i.indexKey)}`;
          if (i.deposed === undefined && !dataInstances.has(address)) dataRemovals.add(address);
        }
      }
    }
    return { changes, outputs, providers: plannedProviders, refreshOutcomes, drift, diagnostics, dataValues, dataSources, dataRemovals: [...dataRemovals].sort(), dataReadEvents, ephemeralEvents, reopenEphemerals, expansions, schemas, providerConfigs, checks: checks.results(), refreshedDependencies };
  }
}

/** The change of a `removed { lifecycle { destroy = false } }` object: it leaves state, nothing is destroyed. */
function forgetChange(address: string, typeName: string, prior: InstanceObject, type: Type): PlannedInstanceChange {
  const none = nullVal(type);
  return { address, mode: "managed", typeName, action: PlanAction.Forget, before: prior.state, after: none, config: none, requiresReplace: [], priorPrivate: prior.private, plannedPrivate: prior.private, priorTainted: prior.tainted, legacyTypeSystem: false, warnings: [] };
}

/**
 * The change of a deposed object the refresh found gone: nothing to destroy, a no-op with
 * null values (as Terraform's `planDestroy` of an object already deleted).
 */
function goneDeposedChange(address: string, typeName: string, deposedKey: string): PlannedInstanceChange {
  const none = nullVal(dynamicType);
  const empty = new Uint8Array();
  return { address, mode: "managed", typeName, action: PlanAction.NoOp, before: none, after: none, config: none, requiresReplace: [], priorPrivate: empty, plannedPrivate: empty, priorTainted: false, legacyTypeSystem: false, warnings: [], deposedKey };
}

/** The text of a failure (a provider's diagnostics where it has them), as Terraform's `Diagnostics.Err().Error()`. */
function errorText(e: unknown, diags: readonly PlanDiagnostic[]): string {
  const provider = isProviderError(e) ? (e.detail as { diagnostics?: readonly Diag[] }).diagnostics : undefined;
  return diagnosticsErrorText(provider !== undefined && provider.length > 0 ? provider : diags);
}

/** An object's known string `id` (for refresh events). */
function stringId(v: Value | undefined): string | undefined {
  if (v === undefined || v.isNull() || !v.isKnown() || v.type.kind !== "object" || !("id" in v.type.attributes)) return undefined;
  const id = v.getAttr("id").unmark();
  return id.isKnown() && !id.isNull() && id.type.kind === "string" ? id.asString() : undefined;
}

/** The nodes a targeted plan walks, the resource nodes it plans, and per directly targeted node the targets that pick its instances. */
interface TargetSelection {
  readonly visit: ReadonlySet<string>;
  readonly planned: ReadonlySet<string>;
  /** The resource nodes refreshed: a targeted destroy refreshes only what a normal targeted plan would (terraform refreshes with a normal plan first). */
  readonly refreshed: ReadonlySet<string>;
  readonly instanceFilter: ReadonlyMap<string, readonly PlanTarget[]>;
}

/**
 * Terraform's `TargetsTransformer` over the plan graph: the resource nodes a target
 * addresses (generalised to the configuration), and everything they depend on; in destroy
 * mode, the targets and every resource that depends on them (in the configuration, or by
 * an orphan's stored dependencies), walked with what they depend on for evaluation. Root
 * outputs whose every resource ancestor is planned are kept (not in destroy mode).
 */
function selectTargeted(graph: Graph<Node>, targets: readonly PlanTarget[], mode: PlanMode): TargetSelection {
  const instanceFilter = new Map<string, PlanTarget[]>();
  const direct = new Set<string>();
  for (const id of graph.ids()) {
    const n = graph.get(id);
    let matching: PlanTarget[] = [];
    if (n.kind === "resource") matching = targets.filter((t) => targetContainsConfigResource(t, n.mod.path, n.resource.mode, n.resource.type, n.resource.name));
    else if (n.kind === "orphan") matching = targets.filter((t) => n.state.instances.some((s) => targetContainsInstance(t, { module: n.state.module, mode: n.state.mode, type: n.state.type, name: n.state.name, key: s.indexKey })));
    if (matching.length === 0) continue;
    direct.add(id);
    instanceFilter.set(id, matching);
  }
  const isResource = (id: string): boolean => {
    const k = graph.get(id).kind;
    return k === "resource" || k === "orphan";
  };
  const refreshed = new Set<string>(direct);
  for (const id of direct) for (const a of graph.ancestors(id)) if (isResource(a)) refreshed.add(a);
  const planned = new Set<string>(direct);
  if (mode === "destroy") {
    let grew = true;
    while (grew) {
      grew = false;
      for (const id of [...planned]) for (const d of graph.descendants(id)) if (isResource(d) && !planned.has(d)) (planned.add(d), (grew = true));
      for (const id of graph.ids()) {
        const n = graph.get(id);
        if (n.kind !== "orphan" || planned.has(id)) continue;
        if (n.state.instances.some((s) => s.dependencies.some((d) => planned.has(d)))) (planned.add(id), (grew = true));
      }
    }
  } else {
    for (const id of refreshed) planned.add(id);
  }
  const visit = new Set<string>(planned);
  for (const id of planned) for (const a of graph.ancestors(id)) visit.add(a);
  // A targeted destroy plans no root output (terraform leaves them as they are).
  for (const id of mode === "destroy" ? [] : graph.ids()) {
    const n = graph.get(id);
    if (n.kind !== "output" || n.mod.path.length > 0) continue;
    const ancestors = graph.ancestors(id);
    const resources = [...ancestors].filter(isResource);
    if (resources.length > 0 && resources.every((r) => planned.has(r))) {
      visit.add(id);
      for (const a of ancestors) visit.add(a);
    }
  }
  return { visit, planned, refreshed, instanceFilter };
}

/** Whether a resource instance address is contained by one of the targets. */
function isTargetedAddress(targets: readonly PlanTarget[], address: string): boolean {
  const a = parseResourceInstance(address);
  return targets.some((t) => targetContainsInstance(t, a));
}

/**
 * What a resource's instances that failed to plan throw together: as Terraform, which plans
 * each instance on its own, every instance's diagnostics (in instance order) when each
 * failed with diagnostics; otherwise the first failure that is not one (a crash, a cancel).
 */
function instanceFailures(failures: readonly unknown[]): unknown {
  const other = failures.find((f) => !isPlanDiagnosticsError(f));
  if (other !== undefined || failures.length === 1) return other ?? failures[0];
  return new PlanDiagnosticsError(failures.flatMap((f) => (f as PlanDiagnosticsError).diagnostics));
}
