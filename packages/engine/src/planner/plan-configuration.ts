import { dynamicType, nullVal, type Path, type Value } from "@magma/cty";
import { decodeSchemaBody, evaluateSchemaBody, graphInputs, impliedProvider, parseRef, providerAddrString, subjectString, type Config, type DecodedBody, type Reference, type Resource } from "@magma/config";
import { evaluate, type Body, type Expression } from "@magma/hcl";
import { emptyBlockValue, type Block, type SchemaEntry } from "@magma/provider-api";
import { decodeOutput, decodeSensitivePaths, formatInstanceKey, formatProviderConfig, formatProviderSource, type InstanceObjectState, type ResourceState, type StateFile } from "@magma/state";
import { Graph } from "../dag/graph.js";
import { walkGraph } from "../dag/walk.js";
import { buildEvalScope, EvalValues, type InstanceRepetition, type ScopeContext } from "../eval/eval-values.js";
import { evaluateExpansion, expansionInstances, type Expansion } from "../eval/expansion.js";
import { markSensitive, schemaSensitivePaths, splitSensitive, unionPaths } from "../eval/schema-sensitive.js";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { planDestroy } from "../instance/plan-destroy.js";
import { planInstance } from "../instance/plan-instance.js";
import { readDataSourceInstance } from "../instance/read-data-source-instance.js";
import { refreshInstance } from "../instance/refresh-instance.js";
import { upgradeInstance } from "../instance/upgrade-instance.js";
import { isReplace, PlanAction } from "../plan/plan-action.js";
import type { PlanMode, PlannedOutput, PlannedProvider } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import type { OpenedProvider } from "../provider-source.js";
import type { ProviderPool } from "../providers/provider-pool.js";
import type { RefreshOutcome } from "../refresh/refresh-outcome.js";
import { applyIgnoreChanges, traversalPath } from "./ignore-changes.js";
import { diagnosticsOfError, planError, PlanDiagnosticsError, throwIfErrors, type PlanDiagnostic } from "./plan-diagnostic.js";

/** Options of {@link planConfiguration}. */
export interface PlanConfigurationOptions {
  /** The configuration (its root module is planned). */
  readonly config: Config;
  /** The prior state; null for none. */
  readonly state: StateFile | null;
  /** The providers (opened and configured once per configuration address). */
  readonly providers: ProviderPool;
  /** The root module's input variable values (already collected and converted; sensitive ones marked). */
  readonly variables: ReadonlyMap<string, Value>;
  /** The plan mode (default `normal`). */
  readonly mode?: PlanMode;
  /** Refresh every object in state before planning (default true). */
  readonly refresh?: boolean;
  /** Instance addresses to replace (`-replace=ADDR`). */
  readonly replace?: readonly string[];
  /** How many nodes are visited at once (default 10). */
  readonly parallelism?: number;
  /** The fixed parts of the evaluation scope (paths, workspace, functions). */
  readonly scope: ScopeContext;
  /** Cancels the walk. */
  readonly signal?: AbortSignal;
}

/** What {@link planConfiguration} produces. */
export interface ConfigurationPlan {
  /** The per-instance changes (no-ops included), in address order. */
  readonly changes: PlannedInstanceChange[];
  /** The root module's outputs as planned. */
  readonly outputs: PlannedOutput[];
  /** The provider configurations used. */
  readonly providers: PlannedProvider[];
  /** How the refresh of every object in state ended. */
  readonly refreshOutcomes: RefreshOutcome[];
  /** Errors and warnings; the plan is unusable when any is an error. */
  readonly diagnostics: PlanDiagnostic[];
  /** The data source instances read during the plan, by address (their values are not changes). */
  readonly dataValues: ReadonlyMap<string, Value>;
  /** The instance keys each resource and data source expanded to, by `type.name` / `data.type.name`. */
  readonly expansions: ReadonlyMap<string, Expansion>;
  /** The schema of each resource and data source, by `type.name` / `data.type.name`. */
  readonly schemas: ReadonlyMap<string, SchemaEntry>;
  /** Each provider configuration: its address, source, configuration body (absent: empty) and schema block. */
  readonly providerConfigs: ReadonlyMap<string, { readonly source: string; readonly body?: Body; readonly block: Block }>;
}

type Node =
  | { readonly kind: "provider"; readonly address: string; readonly source: string; readonly body?: Body; readonly version?: string }
  | { readonly kind: "variable"; readonly name: string }
  | { readonly kind: "local"; readonly name: string }
  | { readonly kind: "resource"; readonly key: string; readonly resource: Resource; readonly providerAddress: string; readonly providerSource: string }
  | { readonly kind: "orphan"; readonly key: string; readonly state: ResourceState; readonly providerAddress: string; readonly providerSource: string }
  | { readonly kind: "output"; readonly name: string };

/** `type.name` or `data.type.name`. */
function resourceKey(mode: string, type: string, name: string): string {
  return `${mode === "data" ? "data." : ""}${type}.${name}`;
}

/** The graph node a reference points at, or a diagnostic when it names nothing declared. */
function refTarget(ref: Reference, nodes: Graph<Node>): { id?: string; diag?: PlanDiagnostic } {
  const s = ref.subject;
  const subject = { subject: ref.range };
  switch (s.kind) {
    case "resource": {
      if (s.mode === "ephemeral") return { diag: planError("Unsupported ephemeral resource", "magma does not support ephemeral resources yet.", subject) };
      const id = resourceKey(s.mode, s.type, s.name);
      if (nodes.has(id)) return { id };
      const what = s.mode === "data" ? "A data resource" : "A managed resource";
      return { diag: planError("Reference to undeclared resource", `${what} "${s.type}" "${s.name}" has not been declared in the root module.`, subject) };
    }
    case "var":
      return nodes.has(`var.${s.name}`)
        ? { id: `var.${s.name}` }
        : { diag: planError("Reference to undeclared input variable", `An input variable with the name "${s.name}" has not been declared. This variable can be declared with a variable "${s.name}" {} block.`, subject) };
    case "local":
      return nodes.has(`local.${s.name}`) ? { id: `local.${s.name}` } : { diag: planError("Reference to undeclared local value", `A local value with the name "${s.name}" has not been declared.`, subject) };
    case "module":
      return { diag: planError("Unsupported module call", `magma does not plan module calls yet (module.${s.name}).`, subject) };
    default:
      return {};
  }
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

/**
 * Plans the root module of a configuration against a prior state, as Terraform's plan walk
 * does: a graph of provider configurations, variables, locals, resources and data sources
 * (expanded to instances), outputs and orphans, edges from references, `depends_on` and
 * provider use; each provider configured once; every object in state upgraded and
 * (optionally) refreshed; every instance planned (ProposedNew → PlanResourceChange →
 * checks → action); data sources read now or deferred; orphans planned for delete.
 *
 * Errors are returned as diagnostics (a failed node's dependents are skipped); never throws
 * for configuration or provider problems.
 */
export async function planConfiguration(options: PlanConfigurationOptions): Promise<ConfigurationPlan> {
  const { config, providers: pool } = options;
  const module = config.module;
  const mode: PlanMode = options.mode ?? "normal";
  const refresh = options.refresh ?? true;
  const replace = new Set(options.replace ?? []);
  const parallelism = options.parallelism ?? 10;
  const limit = limiter(parallelism);
  const diagnostics: PlanDiagnostic[] = [];
  const changes: PlannedInstanceChange[] = [];
  const refreshOutcomes: RefreshOutcome[] = [];
  const dataValues = new Map<string, Value>();
  const expansions = new Map<string, Expansion>();
  const values = new EvalValues();
  /** The same values as the prior state had them (for `replace_triggered_by`): managed instances' `before`. */
  const priorValues = new EvalValues();
  const pending = new Set<string>();
  const schemas = new Map<string, SchemaEntry>();
  const providerConfigs = new Map<string, { source: string; body?: Body; block: Block }>();

  // Prior state of the root module.
  const stateResources = new Map<string, ResourceState>();
  for (const r of options.state?.resources ?? []) if (r.module.length === 0) stateResources.set(resourceKey(r.mode, r.type, r.name), r);

  // ---- the graph
  const graph = new Graph<Node>();
  const providerNodes = new Map<string, Node & { kind: "provider" }>();
  const addProvider = (address: string, source: string, body?: Body): void => {
    if (providerNodes.has(address)) return;
    const node: Node & { kind: "provider" } = { kind: "provider", address, source, ...(body !== undefined ? { body } : {}) };
    providerNodes.set(address, node);
    graph.add(address, node);
  };
  const providerKeyAddress = new Map<string, string>();
  for (const [key, pc] of module.providerConfigs) {
    const addr = module.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name);
    const address = formatProviderConfig({ module: [], provider: addr, alias: pc.alias });
    providerKeyAddress.set(key, address);
    addProvider(address, providerAddrString(addr), pc.config);
  }
  for (const [name] of module.variables) graph.add(`var.${name}`, { kind: "variable", name });
  for (const [name] of module.locals) graph.add(`local.${name}`, { kind: "local", name });
  const resources = [...module.managedResources, ...module.dataResources];
  for (const [key, r] of resources) {
    const alias = r.providerConfigRef?.alias;
    const providerAddress = formatProviderConfig({ module: [], provider: r.provider, alias });
    addProvider(providerAddress, providerAddrString(r.provider));
    graph.add(key, { kind: "resource", key, resource: r, providerAddress, providerSource: providerAddrString(r.provider) });
  }
  for (const [key, s] of stateResources) {
    if (graph.has(key) || s.mode === "data") continue;
    const providerAddress = formatProviderConfig(s.provider);
    addProvider(providerAddress, formatProviderSource(s.provider.provider));
    graph.add(`orphan:${key}`, { kind: "orphan", key, state: s, providerAddress, providerSource: formatProviderSource(s.provider.provider) });
  }
  for (const [name] of module.outputs) graph.add(`output.${name}`, { kind: "output", name });
  for (const m of module.moduleCalls.values()) diagnostics.push(planError("Unsupported module call", `magma does not plan module calls yet: module "${m.name}".`, { subject: m.declRange }));

  // Edges.
  const inputs = graphInputs(module);
  diagnostics.push(...inputs.diags);
  for (const input of inputs.inputs) {
    let id: string | undefined;
    if (input.kind === "resource" || input.kind === "data") id = input.address;
    else if (input.kind === "local" || input.kind === "output") id = input.address;
    else if (input.kind === "provider") id = providerKeyAddress.get(input.address.slice("provider.".length));
    else if (input.kind === "variable") id = input.address;
    if (id === undefined || !graph.has(id)) continue;
    for (const ref of input.references) {
      const t = refTarget(ref, graph);
      if (t.diag !== undefined) diagnostics.push({ ...t.diag, address: id });
      if (t.id !== undefined && t.id !== id) graph.dependOn(id, t.id);
    }
  }
  for (const id of graph.ids()) {
    const n = graph.get(id);
    if (n.kind === "resource" || n.kind === "orphan") graph.dependOn(id, n.providerAddress);
  }
  if (diagnostics.some((d) => d.severity === "error")) return empty();
  const cycle = graph.findCycle();
  if (cycle !== undefined) {
    diagnostics.push(planError("Cycle", `The configuration has a dependency cycle: ${cycle.join(" → ")}.`));
    return empty();
  }

  // create_before_destroy propagates from a resource to the resources it depends on.
  const cbd = new Map<string, boolean>();
  for (const [key, r] of module.managedResources) cbd.set(key, r.managed?.createBeforeDestroy ?? false);
  for (const [key, r] of module.managedResources) {
    if (r.managed?.createBeforeDestroy !== true) continue;
    for (const a of graph.ancestors(key)) {
      const n = graph.get(a);
      if (n.kind === "resource" && n.resource.mode === "managed" && n.resource.managed?.createBeforeDestroySet !== true) cbd.set(a, true);
    }
  }

  /** State `dependencies` of a resource: the resources and data sources it depends on, directly or through locals and variables. */
  const dependenciesOf = (id: string): string[] => {
    const out: string[] = [];
    for (const a of graph.ancestors(id)) if (graph.get(a).kind === "resource") out.push(a);
    return out.sort();
  };

  const opened = new Map<string, OpenedProvider>();
  const targetOf = (address: string, source: string): InstanceTarget => {
    const p = opened.get(address);
    if (p === undefined) throw new PlanDiagnosticsError([planError("Provider not configured", `The provider configuration ${address} was not configured.`, { address })]);
    const t: { provider: OpenedProvider["provider"]; schema: OpenedProvider["schema"]; providerAddress: string; signal?: AbortSignal } = { provider: p.provider, schema: p.schema, providerAddress: source };
    if (options.signal !== undefined) t.signal = options.signal;
    return t;
  };

  const loadPrior = async (target: InstanceTarget, address: string, type: string, stored: InstanceObjectState, doRefresh: boolean): Promise<InstanceObject | null> => {
    const up = await upgradeInstance(target, address, type, { schemaVersion: stored.schemaVersion, attributesJson: stored.attributesJson, private: stored.private, tainted: stored.tainted });
    if (!doRefresh) return up.object;
    const shown = stored.deposed !== undefined ? `${address} (deposed ${stored.deposed})` : address;
    try {
      const r = await refreshInstance(target, address, type, up.object);
      refreshOutcomes.push({ address: shown, result: r.object === null ? "gone" : r.drifted ? "changed" : "in-sync" });
      return r.object;
    } catch (e) {
      refreshOutcomes.push({ address: shown, result: "failed", error: e });
      throw e;
    }
  };

  const scopeFor = (rep?: InstanceRepetition) => buildEvalScope(values, options.scope, rep);

  const decoded = new Map<string, DecodedBody>();
  const decode = (key: string, body: Body, entry: SchemaEntry): DecodedBody => {
    let d = decoded.get(key);
    if (d === undefined) {
      const r = decodeSchemaBody(body, entry.block);
      diagnostics.push(...throwIfErrors(r.diags, key));
      d = r.decoded;
      decoded.set(key, d);
    }
    return d;
  };

  const dependsOnPending = (r: Resource): boolean => {
    for (const t of r.dependsOn) {
      const ref = parseRef(t).ref;
      if (ref === undefined || ref.subject.kind !== "resource") continue;
      const id = subjectString(ref.subject);
      if (!graph.has(id)) continue;
      for (const a of [id, ...graph.ancestors(id)]) if (pending.has(a)) return true;
    }
    return false;
  };

  /**
   * Whether a `replace_triggered_by` reference fired: its value now (with the planned
   * objects) differs from its value over the prior objects, or is not yet known — an update
   * or replace of a referenced instance, or a change of a referenced attribute.
   */
  const replaceTriggeredBy = (exprs: readonly Expression[], inst: InstanceRepetition, address: string): boolean => {
    for (const expr of exprs) {
      const now = evaluate(expr, scopeFor(inst));
      const before = evaluate(expr, buildEvalScope(priorValues, options.scope, inst));
      diagnostics.push(...throwIfErrors(now.diags, address));
      const a = now.value.unmarkDeep().value;
      const b = before.value.unmarkDeep().value;
      if (!a.isWhollyKnown() || !a.rawEquals(b)) return true;
    }
    return false;
  };

  // ---- visits
  const visitProvider = async (n: Node & { kind: "provider" }): Promise<void> => {
    const p = await pool.open(n.address, n.source);
    const block = p.schema.provider.block;
    providerConfigs.set(n.address, { source: n.source, block, ...(n.body !== undefined ? { body: n.body } : {}) });
    let cfg: Value;
    if (n.body === undefined) cfg = emptyBlockValue(block);
    else {
      const d = decodeSchemaBody(n.body, block);
      diagnostics.push(...throwIfErrors(d.diags, n.address));
      const ev = evaluateSchemaBody(d.decoded, block, scopeFor());
      diagnostics.push(...throwIfErrors(ev.diags, n.address));
      cfg = ev.value.unmarkDeep().value;
    }
    opened.set(n.address, await pool.configure(n.address, n.source, cfg));
  };

  const visitLocal = (name: string): void => {
    const l = module.locals.get(name)!;
    const r = evaluate(l.expr, scopeFor());
    diagnostics.push(...throwIfErrors(r.diags, `local.${name}`));
    values.locals.set(name, r.value);
  };

  const visitVariable = (name: string): void => {
    const v = module.variables.get(name)!;
    const value = options.variables.get(name) ?? v.default;
    if (value === undefined) {
      throw new PlanDiagnosticsError([planError("No value for required variable", `The root module input variable "${name}" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`, { address: `var.${name}`, subject: v.declRange })]);
    }
    values.variables.set(name, v.sensitive ? value.mark("sensitive") : value);
    for (const rule of v.validations) {
      const scope = scopeFor();
      const c = evaluate(rule.condition, scope);
      diagnostics.push(...throwIfErrors(c.diags, `var.${name}`));
      const cv = c.value.unmarkDeep().value;
      if (!cv.isKnown() || cv.isNull() || cv.asBool()) continue;
      const m = evaluate(rule.errorMessage, scope);
      const msg = m.value.isKnown() && !m.value.isNull() && m.value.type.kind === "string" ? m.value.unmarkDeep().value.asString() : "";
      throw new PlanDiagnosticsError([planError("Invalid value for variable", `${msg}\n\nThis was checked by the validation rule at ${rule.declRange.filename}:${rule.declRange.start.line},${rule.declRange.start.column}-${rule.declRange.end.line},${rule.declRange.end.column}.`, { address: `var.${name}`, subject: rule.condition.range })]);
    }
  };

  const visitOutput = (name: string): void => {
    const o = module.outputs.get(name)!;
    const prior = options.state?.outputs.get(name);
    const before = prior !== undefined ? decodeOutput(prior).value : nullOf();
    if (mode === "destroy") {
      if (prior !== undefined) outputs.push({ name, action: "delete", before, after: nullOf(), sensitive: prior.sensitive });
      return;
    }
    const r = evaluate(o.expr, scopeFor());
    diagnostics.push(...throwIfErrors(r.diags, `output.${name}`));
    const { value: after, paths } = splitSensitive(r.value);
    if (paths.length > 0 && !o.sensitive) {
      throw new PlanDiagnosticsError([
        planError(
          "Output refers to sensitive values",
          "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
          { address: `output.${name}`, subject: o.declRange },
        ),
      ]);
    }
    let action: PlannedOutput["action"] = "create";
    if (prior !== undefined) {
      const eq = after.isWhollyKnown() ? after.equals(before) : undefined;
      action = eq !== undefined && eq.isKnown() && eq.asBool() && prior.sensitive === o.sensitive ? "no-op" : "update";
    }
    outputs.push({ name, action, before, after, sensitive: o.sensitive });
  };

  const visitResource = async (n: Node & { kind: "resource" }): Promise<void> => {
    const r = n.resource;
    const target = targetOf(n.providerAddress, n.providerSource);
    const isData = r.mode === "data";
    const entry = isData ? target.schema.dataSources.get(r.type) : target.schema.resources.get(r.type);
    if (entry === undefined) {
      throw new PlanDiagnosticsError([
        planError(isData ? "Invalid data source" : "Invalid resource type", `The provider ${n.providerSource} does not support ${isData ? "data source" : "resource type"} "${r.type}".`, { address: n.key, subject: r.typeRange }),
      ]);
    }
    schemas.set(n.key, entry);
    const body = decode(n.key, r.config, entry);
    const ex = evaluateExpansion(r.count, r.forEach, scopeFor());
    diagnostics.push(...throwIfErrors(ex.diags, n.key));
    expansions.set(n.key, ex.expansion);
    const instVals = new Map<number | string | undefined, Value>();
    const priorVals = new Map<number | string | undefined, Value>();
    const stored = stateResources.get(n.key);
    const current = new Map<number | string | undefined, InstanceObjectState>();
    const deposed: InstanceObjectState[] = [];
    for (const i of stored?.instances ?? []) (i.deposed === undefined ? current.set(i.indexKey, i) : deposed.push(i));
    const wanted = expansionInstances(ex.expansion);
    const dependencies = dependenciesOf(n.key);
    const extra = { moduleAddress: "", providerConfig: n.providerAddress, dependencies, schemaVersion: entry.version };
    const failures: unknown[] = [];
    const settle = async (ps: Promise<void>[]): Promise<void> => {
      for (const r2 of await Promise.allSettled(ps)) if (r2.status === "rejected") failures.push(r2.reason);
    };

    if (isData) {
      const forced = dependsOnPending(r);
      await settle(
        wanted.map((inst) =>
          limit(async () => {
            const address = `${n.key}${formatInstanceKey(inst.key)}`;
            const ev = evaluateSchemaBody(body, entry.block, scopeFor(inst));
            diagnostics.push(...throwIfErrors(ev.diags, address));
            const { value: cfg, paths: cfgPaths } = splitSensitive(ev.value);
            const out = await readDataSourceInstance(target, { address, typeName: r.type, config: cfg, dependsOnPendingChanges: forced });
            if (out.kind === "read") {
              dataValues.set(address, out.state);
              instVals.set(inst.key, markSensitive(out.state, unionPaths(cfgPaths, schemaSensitivePaths(out.state, entry.block))));
            } else {
              const afterPaths = unionPaths(cfgPaths, schemaSensitivePaths(out.change.after, entry.block));
              changes.push({ ...out.change, ...extra, afterSensitivePaths: afterPaths, beforeSensitivePaths: [] });
              instVals.set(inst.key, markSensitive(out.change.after, afterPaths));
            }
          }),
        ),
      );
      values.resources.set(n.key, { mode: "data", type: r.type, name: r.name, expansion: ex.expansion, instances: instVals });
      priorValues.resources.set(n.key, { mode: "data", type: r.type, name: r.name, expansion: ex.expansion, instances: instVals });
      if (failures.length > 0) throw failures[0];
      return;
    }

    const settings = r.managed!;
    const ignorePaths = settings.ignoreChanges.map(traversalPath);
    const createBeforeDestroy = cbd.get(n.key) ?? false;
    const wantedKeys = new Set(wanted.map((w) => w.key));
    const beforePathsOf = (s: InstanceObjectState, before: Value): Path[] => unionPaths(decodeSensitivePaths(s.sensitiveAttributesJson), schemaSensitivePaths(before, entry.block));
    const record = (c: PlannedInstanceChange): void => {
      if (c.action !== PlanAction.NoOp) pending.add(n.key);
      if (settings.preventDestroy && (c.action === PlanAction.Delete || isReplace(c.action))) {
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

    await settle(
      wanted.map((inst) =>
        limit(async () => {
          const address = `${n.key}${formatInstanceKey(inst.key)}`;
          const s = current.get(inst.key);
          const prior = s === undefined ? null : await loadPrior(target, address, r.type, s, refresh);
          if (mode === "destroy") {
            if (prior !== null && s !== undefined) {
              const c = await planDestroy(target, address, r.type, prior);
              record({ ...c, ...extra, createBeforeDestroy, beforeSensitivePaths: beforePathsOf(s, c.before), afterSensitivePaths: [] });
              instVals.set(inst.key, markSensitive(prior.state, beforePathsOf(s, prior.state)));
            }
            return;
          }
          const ev = evaluateSchemaBody(body, entry.block, scopeFor(inst));
          diagnostics.push(...throwIfErrors(ev.diags, address));
          const { value: rawCfg, paths: cfgPaths } = splitSensitive(ev.value);
          const cfg = applyIgnoreChanges(prior?.state ?? null, rawCfg, entry.block, ignorePaths, settings.ignoreAllChanges);
          const replaceTriggered = prior !== null && replaceTriggeredBy(settings.replaceTriggeredBy, inst, address);
          const c = await planInstance(target, { address, typeName: r.type, prior, config: cfg, createBeforeDestroy, replaceRequested: replace.has(address), replaceTriggered });
          if (prior !== null) priorVals.set(inst.key, markSensitive(prior.state, beforePathsOf(s!, prior.state)));
          const afterPaths = unionPaths(cfgPaths, schemaSensitivePaths(c.after, entry.block));
          record({ ...c, ...extra, createBeforeDestroy, afterSensitivePaths: afterPaths, beforeSensitivePaths: s === undefined ? [] : beforePathsOf(s, c.before) });
          instVals.set(inst.key, markSensitive(c.after, afterPaths));
        }),
      ),
    );
    // Instances in state that the expansion no longer has, and deposed objects: destroyed.
    const gone = [...current].filter(([k]) => !wantedKeys.has(k)).map(([, s]) => s);
    await settle(
      [...gone, ...deposed].map((s) =>
        limit(async () => {
          const address = `${n.key}${formatInstanceKey(s.indexKey)}`;
          const prior = await loadPrior(target, address, r.type, s, refresh && s.deposed === undefined);
          if (prior === null) return;
          const c = await planDestroy(target, address, r.type, prior);
          record({ ...c, ...extra, dependencies: s.dependencies, createBeforeDestroy: s.createBeforeDestroy, beforeSensitivePaths: beforePathsOf(s, c.before), afterSensitivePaths: [], ...(s.deposed !== undefined ? { deposedKey: s.deposed } : {}) });
        }),
      ),
    );
    values.resources.set(n.key, { mode: "managed", type: r.type, name: r.name, expansion: ex.expansion, instances: instVals });
    priorValues.resources.set(n.key, { mode: "managed", type: r.type, name: r.name, expansion: ex.expansion, instances: priorVals });
    if (failures.length > 0) throw failures[0];
  };

  const visitOrphan = async (n: Node & { kind: "orphan" }): Promise<void> => {
    const target = targetOf(n.providerAddress, n.providerSource);
    const type = n.state.type;
    const entry = target.schema.resources.get(type);
    const failures: unknown[] = [];
    const results = await Promise.allSettled(
      n.state.instances.map((s) =>
        limit(async () => {
          const address = `${n.key}${formatInstanceKey(s.indexKey)}`;
          const prior = await loadPrior(target, address, type, s, refresh && s.deposed === undefined);
          if (prior === null) return;
          const c = await planDestroy(target, address, type, prior);
          if (mode === "normal" || mode === "destroy") {
            pending.add(n.key);
            changes.push({
              ...c,
              moduleAddress: "",
              providerConfig: n.providerAddress,
              dependencies: s.dependencies,
              createBeforeDestroy: s.createBeforeDestroy,
              ...(entry !== undefined ? { schemaVersion: entry.version } : {}),
              beforeSensitivePaths: unionPaths(decodeSensitivePaths(s.sensitiveAttributesJson), entry === undefined ? [] : schemaSensitivePaths(c.before, entry.block)),
              afterSensitivePaths: [],
              ...(s.deposed !== undefined ? { deposedKey: s.deposed } : {}),
            });
          }
        }),
      ),
    );
    for (const r of results) if (r.status === "rejected") failures.push(r.reason);
    if (failures.length > 0) throw failures[0];
  };

  const outputs: PlannedOutput[] = [];
  const walk = await walkGraph(
    graph,
    async (id, n) => {
      switch (n.kind) {
        case "provider":
          return visitProvider(n);
        case "variable":
          return visitVariable(n.name);
        case "local":
          return visitLocal(n.name);
        case "resource":
          return visitResource(n);
        case "orphan":
          return visitOrphan(n);
        case "output":
          void id;
          return visitOutput(n.name);
      }
    },
    { parallelism, ...(options.signal !== undefined ? { signal: options.signal } : {}) },
  );
  for (const [id, e] of walk.failed) diagnostics.push(...diagnosticsOfError(e, id));
  for (const id of walk.canceled) diagnostics.push(planError("Plan canceled", `The plan was canceled before ${id} was planned.`, { address: id }));
  // Outputs in state that the configuration no longer declares.
  for (const [name, o] of options.state?.outputs ?? []) {
    if (!module.outputs.has(name)) outputs.push({ name, action: "delete", before: decodeOutput(o).value, after: nullOf(), sensitive: o.sensitive });
  }

  changes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : (a.deposedKey ?? "") < (b.deposedKey ?? "") ? -1 : 1));
  outputs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plannedProviders: PlannedProvider[] = [...providerNodes.values()]
    .filter((p) => changes.some((c) => c.providerConfig === p.address))
    .map((p) => ({ address: p.address, source: p.source, dependencies: dependenciesOf(p.address) }));
  return { changes, outputs, providers: plannedProviders, refreshOutcomes, diagnostics, dataValues, expansions, schemas, providerConfigs };

  function empty(): ConfigurationPlan {
    return { changes: [], outputs: [], providers: [], refreshOutcomes: [], diagnostics, dataValues, expansions, schemas, providerConfigs };
  }
}

/** The null of an absent output value. */
function nullOf(): Value {
  return nullVal(dynamicType);
}
