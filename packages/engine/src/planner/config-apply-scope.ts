import { dynamicVal, type Value } from "@magma/cty";
import { decodeSchemaBody, evaluateSchemaBody, graphInputs, type Config } from "@magma/config";
import { evaluate } from "@magma/hcl";
import { emptyBlockValue } from "@magma/provider-api";
import { formatInstanceKey, parseResourceInstance } from "@magma/state";
import type { AppliedValues, ApplyScope } from "../apply/apply-scope.js";
import { Graph } from "../dag/graph.js";
import { buildEvalScope, EvalValues, type ScopeContext } from "../eval/eval-values.js";
import { evaluateExpansion, expansionInstances } from "../eval/expansion.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { applyIgnoreChanges, traversalPath } from "./ignore-changes.js";
import type { ConfigurationPlan } from "./plan-configuration.js";
import { throwIfErrors } from "./plan-diagnostic.js";

/** What {@link createConfigApplyScope} needs besides the configuration. */
export interface ConfigApplyScopeInput {
  /** The configuration the plan was made from. */
  readonly config: Config;
  /** The root module's variable values the plan was made with (sensitive ones marked). */
  readonly variables: ReadonlyMap<string, Value>;
  /** The fixed parts of the scope. */
  readonly scope: ScopeContext;
  /** The planner's result: expansions, schemas, provider configurations, data sources read at plan. */
  readonly planned: Pick<ConfigurationPlan, "expansions" | "schemas" | "providerConfigs" | "dataValues">;
}

/**
 * The planner's {@link ApplyScope}: re-evaluates the root module's configuration with the
 * values the apply knows so far — variables as planned, every resource instance's current
 * object from {@link AppliedValues} (data sources read at plan from the plan), locals in
 * dependency order — to give an instance's configuration, a provider's configuration and
 * the root outputs.
 */
export function createConfigApplyScope(input: ConfigApplyScopeInput): ApplyScope {
  const { config, planned, scope: ctx } = input;
  const module = config.module;
  // The locals in dependency order.
  const localGraph = new Graph<string>();
  for (const name of module.locals.keys()) localGraph.add(name, name);
  for (const gi of graphInputs(module).inputs) {
    if (gi.kind !== "local") continue;
    const self = gi.address.slice("local.".length);
    for (const r of gi.references) if (r.subject.kind === "local" && localGraph.has(r.subject.name) && r.subject.name !== self) localGraph.dependOn(self, r.subject.name);
  }
  const localOrder = localGraph.findCycle() === undefined ? localGraph.topologicalOrder() : [...module.locals.keys()];

  const valuesFrom = (applied: AppliedValues): EvalValues => {
    const values = new EvalValues();
    for (const [name, v] of input.variables) values.variables.set(name, v);
    for (const [key, expansion] of planned.expansions) {
      const isData = key.startsWith("data.");
      const [type, name] = (isData ? key.slice(5) : key).split(".") as [string, string];
      const instances = new Map<number | string | undefined, Value>();
      for (const inst of expansionInstances(expansion)) {
        const address = `${key}${formatInstanceKey(inst.key)}`;
        instances.set(inst.key, applied.instance(address) ?? planned.dataValues.get(address) ?? dynamicVal);
      }
      values.resources.set(key, { mode: isData ? "data" : "managed", type, name, expansion, instances });
    }
    for (const name of localOrder) {
      const l = module.locals.get(name)!;
      const r = evaluate(l.expr, buildEvalScope(values, ctx));
      throwIfErrors(r.diags, `local.${name}`);
      values.locals.set(name, r.value);
    }
    return values;
  };

  return {
    async providerConfig(address: string, applied: AppliedValues): Promise<Value> {
      const pc = planned.providerConfigs.get(address);
      if (pc === undefined) throw new Error(`no provider configuration ${address} in the plan's configuration`);
      if (pc.body === undefined) return emptyBlockValue(pc.block);
      const d = decodeSchemaBody(pc.body, pc.block);
      throwIfErrors(d.diags, address);
      const ev = evaluateSchemaBody(d.decoded, pc.block, buildEvalScope(valuesFrom(applied), ctx));
      throwIfErrors(ev.diags, address);
      return ev.value.unmarkDeep().value;
    },

    async instanceConfig(change: PlannedInstanceChange, applied: AppliedValues): Promise<Value> {
      const addr = parseResourceInstance(change.address);
      const key = `${addr.mode === "data" ? "data." : ""}${addr.type}.${addr.name}`;
      const r = addr.mode === "data" ? module.dataResources.get(key) : module.managedResources.get(`${addr.type}.${addr.name}`);
      const entry = planned.schemas.get(key);
      if (r === undefined || entry === undefined || addr.module.length > 0) throw new Error(`${change.address} is not in the plan's configuration`);
      const values = valuesFrom(applied);
      const base = buildEvalScope(values, ctx);
      const ex = evaluateExpansion(r.count, r.forEach, base);
      throwIfErrors(ex.diags, key);
      const inst = expansionInstances(ex.expansion).find((i) => i.key === addr.key);
      if (inst === undefined) throw new Error(`${change.address} is no longer in the expansion of ${key}`);
      const d = decodeSchemaBody(r.config, entry.block);
      throwIfErrors(d.diags, key);
      const ev = evaluateSchemaBody(d.decoded, entry.block, buildEvalScope(values, ctx, inst));
      throwIfErrors(ev.diags, change.address);
      const cfg = ev.value.unmarkDeep().value;
      const m = r.managed;
      if (m === undefined || change.before.isNull()) return cfg;
      return applyIgnoreChanges(change.before, cfg, entry.block, m.ignoreChanges.map(traversalPath), m.ignoreAllChanges);
    },

    async outputs(applied: AppliedValues): Promise<Readonly<Record<string, { readonly value: Value; readonly sensitive: boolean }>>> {
      const scope = buildEvalScope(valuesFrom(applied), ctx);
      const out: Record<string, { value: Value; sensitive: boolean }> = {};
      for (const [name, o] of module.outputs) {
        const r = evaluate(o.expr, scope);
        throwIfErrors(r.diags, `output.${name}`);
        out[name] = { value: r.value.unmarkDeep().value, sensitive: o.sensitive };
      }
      return out;
    },
  };
}
