import type { Plan, PlanInput } from "./plan.js";
import { formatStateFile } from "@magma/state";
import { encodeChange, encodeValue } from "./encode-change.js";

/** The format marker of magma's saved plans. */
export const PLAN_FORMAT = "magma-plan/1";

/**
 * A plan as the JSON object of its file, without its identity: the format marker, the prior
 * lineage and serial, the config digest, the changes (values with their unknowns, private data,
 * requires-replace paths) and every planner field present — mode, outputs, providers,
 * variables, drift, targets, function results, checks, data reads, the configuration snapshot,
 * the dependency locks and the prior state file. The plan identity is the SHA-256 of its JSON text, so it covers all
 * of it. Warnings are not kept.
 */
export function planBody(plan: PlanInput & Partial<Omit<Plan, "identity">>): Record<string, unknown> {
  return {
    format: PLAN_FORMAT,
    prior_state: { lineage: plan.prior.lineage, serial: plan.prior.serial },
    config_digest: plan.configDigest,
    changes: plan.changes.map(encodeChange),
    ...(plan.mode !== undefined ? { mode: plan.mode } : {}),
    ...(plan.outputs !== undefined ? { outputs: plan.outputs.map((o) => ({ name: o.name, action: o.action, before: encodeValue(o.before), after: encodeValue(o.after), sensitive: o.sensitive, ...(o.sensitiveBefore === true ? { sensitiveBefore: true } : {}) })) } : {}),
    ...(plan.providers !== undefined ? { providers: plan.providers.map((p) => ({ address: p.address, source: p.source, ...(p.version !== undefined ? { version: p.version } : {}), dependencies: [...p.dependencies] })) } : {}),
    ...(plan.variables !== undefined ? { variables: Object.fromEntries(Object.entries(plan.variables).map(([k, v]) => [k, encodeValue(v)])) } : {}),
    ...(plan.drift !== undefined ? { drift: plan.drift.map(encodeChange) } : {}),
    ...(plan.targets !== undefined ? { targets: [...plan.targets] } : {}),
    ...(plan.applyTimeVariables !== undefined && plan.applyTimeVariables.length > 0 ? { apply_time_variables: [...plan.applyTimeVariables] } : {}),
    ...(plan.defaultedVariables !== undefined && plan.defaultedVariables.length > 0 ? { defaulted_variables: [...plan.defaultedVariables] } : {}),
    ...(plan.functionResults !== undefined && plan.functionResults.length > 0 ? { function_results: plan.functionResults.map((f) => ({ key: f.key, result: f.result })) } : {}),
    ...(plan.checks !== undefined ? { checks: plan.checks } : {}),
    ...(plan.dataReads !== undefined ? { data_reads: Object.fromEntries(Object.entries(plan.dataReads).map(([k, v]) => [k, encodeValue(v)])) } : {}),
    ...(plan.dataReadSources !== undefined ? { data_read_sources: plan.dataReadSources } : {}),
    ...(plan.dataRemovals !== undefined && plan.dataRemovals.length > 0 ? { data_removals: [...plan.dataRemovals] } : {}),
    ...(plan.refreshedDependencies !== undefined ? { refreshed_dependencies: plan.refreshedDependencies } : {}),
    ...(plan.configSnapshot !== undefined ? { config_snapshot: { modules: plan.configSnapshot.modules.map((m) => ({ path: [...m.path], dir: m.dir, files: m.files.map(([name, text]) => [name, text]) })) } } : {}),
    ...(plan.dependencyLocks !== undefined ? { dependency_locks: plan.dependencyLocks } : {}),
    ...(plan.priorStateFile !== undefined ? { prior_state_file: formatStateFile(plan.priorStateFile) } : {}),
  };
}
