import { stringVal, type Value } from "@magma/cty";
import { decodeSchemaBody, descendantConfig, evaluateSchemaBody, walkConfig, type Config } from "@magma/config";
import { emptyBlockValue } from "@magma/provider-api";
import { formatInstanceKey, formatModuleInstance, parseModuleInstance, parseResourceInstance } from "@magma/state";
import type { AppliedValues, ApplyChecksRequest, ApplyChecksResult, ApplyEphemeralInstance, ApplyEphemeralResource, ApplyScope, InstanceConditions } from "../apply/apply-scope.js";
import { evaluateApplyChecks, resourceConditions } from "./apply-checks.js";
import type { PlanDiagnostic } from "./plan-diagnostic.js";
import { evaluateExpansion, expansionInstances, type Expansion } from "../eval/expansion.js";
import { expandedInstance } from "./expanded-instance.js";
import { isReplace, PlanAction } from "../plan/plan-action.js";
import type { Plan } from "../plan/plan.js";
import { configPrefix, instancePrefix, ModuleEvaluator } from "../eval/module-evaluator.js";
import { settleProviderCalls } from "../eval/provider-functions.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { configEdges } from "./config-edges.js";
import { configResourceDependencies } from "./config-resource-dependencies.js";
import { applyIgnoreChanges, traversalPath } from "./ignore-changes.js";
import type { ConfigurationPlan, PlanScopeContext } from "./plan-configuration.js";
import { throwIfErrors } from "./plan-diagnostic.js";

/** What {@link createConfigApplyScope} needs besides the configuration. */
export interface ConfigApplyScopeInput {
  /** The configuration the plan was made from. */
  readonly config: Config;
  /** The root module's variable values the plan was made with. */
  readonly variables: ReadonlyMap<string, Value>;
  /** The fixed parts of the scope. */
  readonly scope: PlanScopeContext;
  /** The planner's result: expansions, schemas, provider configurations, data sources read at plan. */
  readonly planned: Pick<ConfigurationPlan, "expansions" | "schemas" | "providerConfigs" | "dataValues">;
  /** The root outputs to evaluate (default: all); a targeted plan evaluates only the outputs it planned. */
  readonly outputs?: ReadonlySet<string>;
}

/** Expansions by `module instance|key` of an untargeted plan: a configured resource missing from them has none. */
class CompleteExpansions extends Map<string, Expansion> {
  readonly #config: Config;
  constructor(config: Config) {
    super();
    this.#config = config;
  }
  override get(id: string): Expansion | undefined {
    const found = super.get(id);
    if (found !== undefined) return found;
    const bar = id.indexOf("|");
    if (bar < 0) return undefined;
    const module = descendantConfig(this.#config, parseModuleInstance(id.slice(0, bar)))?.module;
    const key = id.slice(bar + 1);
    const r = key.startsWith("data.") ? module?.dataResources.get(key) : module?.managedResources.get(key);
    if (r?.count !== undefined) return { kind: "count", count: 0 };
    if (r?.forEach !== undefined) return { kind: "for_each", entries: new Map() };
    return undefined;
  }
}

/**
 * The expansions and data reads of a (saved) plan, for {@link createConfigApplyScope}:
 * every instance the plan keeps (all changes but deletes and forgets, and the data sources
 * read at plan), grouped by module instance and resource. A resource with no such instance
 * is left out (its references evaluate to unknown) — unless `config` is given and the plan is
 * not targeted: then every instance of the configuration has a change, so a resource of the
 * configuration with none has no instances (`count` 0 or an empty `for_each`), as terraform's
 * apply evaluates it.
 */
export function plannedFromPlan(plan: Plan, config?: Config): Pick<ConfigurationPlan, "expansions" | "dataValues"> {
  const keys = new Map<string, (number | string | undefined)[]>();
  const add = (address: string): void => {
    const a = parseResourceInstance(address);
    const id = `${formatModuleInstance(a.module)}|${a.mode === "data" ? "data." : ""}${a.type}.${a.name}`;
    const list = keys.get(id) ?? [];
    list.push(a.key);
    keys.set(id, list);
  };
  for (const c of plan.changes) if (c.deposedKey === undefined && c.action !== PlanAction.Delete && c.action !== PlanAction.Forget) add(c.address);
  const dataValues = new Map<string, Value>(Object.entries(plan.dataReads ?? {}));
  for (const a of dataValues.keys()) add(a);
  const expansions = config !== undefined && plan.targets === undefined ? new CompleteExpansions(config) : new Map<string, Expansion>();
  for (const [id, ks] of keys) {
    if (ks.every((k) => k === undefined)) expansions.set(id, { kind: "single" });
    else if (ks.every((k) => typeof k === "number")) expansions.set(id, { kind: "count", count: Math.max(...(ks as number[])) + 1 });
    else expansions.set(id, { kind: "for_each", entries: new Map(ks.filter((k): k is string => typeof k === "string").map((k) => [k, stringVal(k)])) });
  }
  return { expansions, dataValues };
}

/**
 * The planner's {@link ApplyScope}: re-evaluates the configuration (every module instance)
 * with the values the apply knows so far — variables as planned, every resource instance's
 * current object from {@link AppliedValues} (data sources read at plan from the plan) — to
 * give an instance's configuration (with `ignore_changes` applied against its prior), a
 * provider's configuration and the root outputs.
 */
export function createConfigApplyScope(input: ConfigApplyScopeInput): ApplyScope {
  const { config, planned } = input;
  /** The expansions of the ephemeral resources as the apply evaluated them (by `module instance|key`). */
  const ephemeralExpansions = new Map<string, Expansion>();
  const evaluatorOf = (applied: AppliedValues): ModuleEvaluator =>
    new ModuleEvaluator(config, input.variables, { ...input.scope, applying: true }, {
      expansion: (m, k) => ephemeralExpansions.get(`${m}|${k}`) ?? planned.expansions.get(`${m}|${k}`),
      instance: (a) => applied.instance(a) ?? planned.dataValues.get(a),
    });
  const ephemeralResources = applyEphemeralResources(config, planned.schemas);

  /** Re-evaluates until the provider-defined function calls it makes are answered. */
  const settle = <T>(run: () => T): Promise<T> => settleProviderCalls(input.scope.providerFunctions, run);

  return {
    async providerConfig(address: string, applied: AppliedValues): Promise<Value> {
      const pc = planned.providerConfigs.get(address);
      if (pc === undefined) throw new Error(`no provider configuration ${address} in the plan's configuration`);
      if (pc.body === undefined) return emptyBlockValue(pc.block);
      const body = pc.body;
      return settle(() => {
        const ev = evaluatorOf(applied);
        const mi = ev.instancesOf(pc.modulePath)[0] ?? [];
        const d = decodeSchemaBody(body, pc.block);
        throwIfErrors(d.diags, address);
        const r = evaluateSchemaBody(d.decoded, pc.block, ev.scope(mi, undefined, ev.refsOfBody(body)));
        throwIfErrors(r.diags, address);
        return r.value.unmarkDeep().value;
      });
    },

    async instanceConfig(change: PlannedInstanceChange, applied: AppliedValues): Promise<Value> {
      return settle(() => instanceConfigNow(change, applied));
    },

    async outputs(applied: AppliedValues, skip?: ReadonlySet<string>): Promise<Readonly<Record<string, { readonly value: Value; readonly sensitive: boolean }>>> {
      return settle(() => {
        const ev = evaluatorOf(applied);
        const out: Record<string, { value: Value; sensitive: boolean }> = Object.create(null) as Record<string, { value: Value; sensitive: boolean }>;
        for (const [name, o] of config.module.outputs) if ((input.outputs === undefined || input.outputs.has(name)) && skip?.has(name) !== true) out[name] = { value: ev.output([], name).unmarkDeep().value, sensitive: o.sensitive };
        return out;
      });
    },

    async checks(applied: AppliedValues, request: ApplyChecksRequest): Promise<ApplyChecksResult> {
      return settle(() => evaluateApplyChecks(evaluatorOf(applied), config, request));
    },

    inCheckBlock(address: string): boolean {
      const addr = parseResourceInstance(address);
      if (addr.mode !== "data") return false;
      const c = descendantConfig(config, addr.module.map((s) => s.name));
      return c?.module.dataResources.get(`data.${addr.type}.${addr.name}`)?.inCheck !== undefined;
    },

    async instanceConditions(change: PlannedInstanceChange, applied: AppliedValues, which?: "pre" | "post"): Promise<InstanceConditions> {
      return settle(() => {
        const addr = parseResourceInstance(change.address);
        const ev = evaluatorOf(applied);
        const path = addr.module.map((s) => s.name);
        const key = `${addr.mode === "data" ? "data." : ""}${addr.type}.${addr.name}`;
        const module = ev.configAt(path).module;
        const r = addr.mode === "data" ? module.dataResources.get(key) : module.managedResources.get(key);
        const diagnostics: PlanDiagnostic[] = [];
        if (r === undefined || (r.preconditions.length === 0 && r.postconditions.length === 0)) return { outcomes: [], diagnostics };
        return { outcomes: resourceConditions(ev, r, addr.module, addr.key, diagnostics, which ?? "all"), diagnostics };
      });
    },

    ephemeralResources,

    async ephemeralConditions(address: string, which: "precondition" | "postcondition", applied: AppliedValues): Promise<InstanceConditions> {
      return settle(() => {
        const addr = parseResourceInstance(address);
        const ev = evaluatorOf(applied);
        const r = ev.configAt(addr.module.map((s) => s.name)).module.ephemeralResources.get(`ephemeral.${addr.type}.${addr.name}`);
        const diagnostics: PlanDiagnostic[] = [];
        if (r === undefined || r[which === "precondition" ? "preconditions" : "postconditions"].length === 0) return { outcomes: [], diagnostics };
        return { outcomes: resourceConditions(ev, r, addr.module, addr.key, diagnostics, which === "precondition" ? "pre" : "post"), diagnostics };
      });
    },

    async ephemeralInstances(id: string, applied: AppliedValues): Promise<readonly ApplyEphemeralInstance[]> {
      return settle(() => ephemeralInstancesNow(id, applied));
    },
  };

  function ephemeralInstancesNow(id: string, applied: AppliedValues): ApplyEphemeralInstance[] {
    const e = ephemeralResources.find((x) => x.id === id);
    const entry = planned.schemas.get(id);
    if (e === undefined || entry === undefined) throw new Error(`${id} is not an ephemeral resource of the plan's configuration`);
    const path = e.modulePath;
    const key = id.slice(configPrefix(path).length);
    const ev = evaluatorOf(applied);
    const r = ev.configAt(path).module.ephemeralResources.get(key)!;
    const d = decodeSchemaBody(r.config, entry.block);
    throwIfErrors(d.diags, id);
    const out: ApplyEphemeralInstance[] = [];
    for (const mi of ev.instancesOf(path)) {
      const prefix = instancePrefix(mi);
      const ex = evaluateExpansion(r.count, r.forEach, ev.scope(mi, undefined, ev.refsOfExprs([r.count, r.forEach])), { allowEphemeral: true });
      throwIfErrors(ex.diags, `${prefix}${key}`);
      ephemeralExpansions.set(`${formatModuleInstance(mi)}|${key}`, ex.expansion);
      for (const inst of expansionInstances(ex.expansion)) {
        const address = `${prefix}${key}${formatInstanceKey(inst.key)}`;
        const v = evaluateSchemaBody(d.decoded, entry.block, ev.scope(mi, inst, ev.refsOfBody(r.config)));
        throwIfErrors(v.diags, address);
        out.push({ address, config: v.value.unmarkDeep().value });
      }
    }
    return out;
  }

  function instanceConfigNow(change: PlannedInstanceChange, applied: AppliedValues): Value {
    const addr = parseResourceInstance(change.address);
    const path = addr.module.map((s) => s.name);
    const key = `${addr.mode === "data" ? "data." : ""}${addr.type}.${addr.name}`;
    const ev = evaluatorOf(applied);
    const module = ev.configAt(path).module;
    const r = addr.mode === "data" ? module.dataResources.get(key) : module.managedResources.get(key);
    const entry = planned.schemas.get(`${configPrefix(path)}${key}`);
    if (r === undefined || entry === undefined) throw new Error(`${change.address} is not in the plan's configuration`);
    const ex = evaluateExpansion(r.count, r.forEach, ev.scope(addr.module, undefined, ev.refsOfExprs([r.count, r.forEach])));
    throwIfErrors(ex.diags, change.address);
    const inst = expandedInstance(ex.expansion, addr.key);
    if (inst === undefined) throw new Error(`${change.address} is no longer in the expansion of ${key}`);
    const d = decodeSchemaBody(r.config, entry.block);
    throwIfErrors(d.diags, change.address);
    const ev2 = evaluateSchemaBody(d.decoded, entry.block, ev.scope(addr.module, inst, ev.refsOfBody(r.config)));
    throwIfErrors(ev2.diags, change.address);
    const cfg = ev2.value.unmarkDeep().value;
    const m = r.managed;
    // A replace creates from the configuration as written: there is no prior object to ignore changes against.
    if (m === undefined || change.before.isNull() || isReplace(change.action)) return cfg;
    return applyIgnoreChanges(change.before, cfg, entry.block, m.ignoreChanges.map(traversalPath), m.ignoreAllChanges);
  }
}

/**
 * The ephemeral resources of a configuration whose schemas are known (every module's, in
 * configuration order), with their provider configurations and the resources each depends on.
 */
function applyEphemeralResources(config: Config, schemas: ConfigurationPlan["schemas"]): (ApplyEphemeralResource & { readonly modulePath: readonly string[] })[] {
  const edges = configEdges(config);
  const dependenciesOf = configResourceDependencies(config, edges);
  const out: (ApplyEphemeralResource & { modulePath: readonly string[] })[] = [];
  for (const c of walkConfig(config)) {
    for (const [key, r] of c.module.ephemeralResources) {
      const id = `${configPrefix(c.path)}${key}`;
      const p = edges.providers.get(id);
      if (p === undefined || "error" in p || !schemas.has(id)) continue;
      out.push({ id, typeName: r.type, modulePath: c.path, provider: { address: p.address, source: p.source, dependencies: dependenciesOf(p.address) }, dependencies: dependenciesOf(id) });
    }
  }
  return out;
}
