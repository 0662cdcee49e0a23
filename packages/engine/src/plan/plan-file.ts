import { readFile, rename, writeFile } from "node:fs/promises";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import type { Value } from "@magma/cty";
import type { ConfigSnapshot } from "@magma/config";
import { isStateError, readStateFile, type StateFile } from "@magma/state";
import { decodeChange, decodeValue } from "./encode-change.js";
import { PLAN_FORMAT, planBody } from "./plan-body.js";
import type { CheckStatus, PlannedCheck } from "./planned-check.js";
import { planIdentity, type DataReadSource, type Plan, type PlanMode, type PlannedOutput, type PlannedProvider, type PlanPriorState } from "./plan.js";

export { PLAN_FORMAT };

/**
 * A plan as JSON text: its file body (see {@link planBody}: the changes, prior lineage and
 * serial, config digest and every planner field present, the configuration snapshot
 * included) with its identity, computed afresh over that body. Warnings are not kept.
 */
export function formatPlan(plan: Plan): string {
  const body = planBody(plan);
  return `${JSON.stringify({ format: body["format"], identity: planIdentity(plan), ...body }, null, 2)}\n`;
}

/**
 * Parses a plan written by {@link formatPlan}, checking its identity.
 *
 * @param source Names the plan in errors (e.g. its file name).
 * @throws {@link EngineError} `invalid_plan_file` for text that is not such a plan, or
 * whose content does not match its identity (edited or damaged).
 */
export function parsePlan(text: string, source = "plan"): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    // JSON.parse's message quotes up to 10 characters of the text, which may be anything
    // (a secret handed over by mistake): name one character, as terraform does.
    throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source} is not valid JSON: ${jsonSyntaxError(text, (e as Error).message)}`);
  }
  const r = raw as Record<string, unknown> | null;
  if (typeof r !== "object" || r === null || Array.isArray(r)) throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source} is not a JSON object`);
  if (r["format"] !== PLAN_FORMAT) throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: format is ${JSON.stringify(r["format"])}, expected ${JSON.stringify(PLAN_FORMAT)}`);
  const prior = r["prior_state"] as { lineage?: unknown; serial?: unknown } | null | undefined;
  if (typeof prior !== "object" || prior === null || typeof prior.lineage !== "string" || !Number.isSafeInteger(prior.serial)) {
    throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: prior_state must be {lineage: string, serial: integer}`);
  }
  if (typeof r["config_digest"] !== "string") throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: config_digest is not a string`);
  if (!Array.isArray(r["changes"])) throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: changes is not a list`);
  const changes = r["changes"].map((c: unknown, i) => decodeChange(c, `${source}: changes[${i}]`));
  const input = { changes, prior: { lineage: prior.lineage, serial: prior.serial as number }, configDigest: r["config_digest"], ...plannerFields(r, source) };
  // Over everything the file holds: an edit anywhere (an output's value or sensitivity, a variable, the configuration) is refused.
  const identity = planIdentity(input);
  if (r["identity"] !== identity) {
    throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: the content does not match the plan identity ${JSON.stringify(r["identity"])} (computed ${identity}); the plan was edited or damaged`);
  }
  return { ...input, identity };
}

const MODES: readonly string[] = ["normal", "destroy", "refresh-only"];
const OUTPUT_ACTIONS: readonly string[] = ["create", "update", "delete", "no-op"];

/** The configuration-level planner's fields of a plan file (mode, outputs, providers, variables, data reads, drift), each when present. */
type PlannerField = "mode" | "outputs" | "providers" | "variables" | "dataReads" | "dataReadSources" | "dataRemovals" | "drift" | "targets" | "functionResults" | "checks" | "refreshedDependencies" | "configSnapshot" | "dependencyLocks" | "applyTimeVariables" | "defaultedVariables" | "priorStateFile";

function plannerFields(r: Record<string, unknown>, source: string): Pick<Plan, PlannerField> {
  const bad = (what: string): EngineError => new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: ${what}`);
  const out: { -readonly [K in PlannerField]?: Plan[K] } = {};
  if (r["config_snapshot"] !== undefined) out.configSnapshot = decodeSnapshot(r["config_snapshot"], bad);
  if (r["dependency_locks"] !== undefined) {
    if (typeof r["dependency_locks"] !== "string") throw bad("dependency_locks is not a string");
    out.dependencyLocks = r["dependency_locks"];
  }
  if (r["prior_state_file"] !== undefined) {
    if (typeof r["prior_state_file"] !== "string") throw bad("prior_state_file is not a string");
    let prior: StateFile | undefined;
    try {
      prior = readStateFile(r["prior_state_file"], { source: "prior_state_file" });
    } catch (e) {
      if (!isStateError(e)) throw e;
      throw bad(e.message);
    }
    if (prior !== undefined) out.priorStateFile = prior;
  }
  if (r["drift"] !== undefined) {
    if (!Array.isArray(r["drift"])) throw bad("drift is not a list");
    out.drift = r["drift"].map((c: unknown, i) => decodeChange(c, `${source}: drift[${i}]`));
  }
  if (r["mode"] !== undefined) {
    if (typeof r["mode"] !== "string" || !MODES.includes(r["mode"])) throw bad(`mode is ${JSON.stringify(r["mode"])}, not a plan mode`);
    out.mode = r["mode"] as PlanMode;
  }
  if (r["outputs"] !== undefined) {
    if (!Array.isArray(r["outputs"])) throw bad("outputs is not a list");
    out.outputs = r["outputs"].map((o: unknown, i): PlannedOutput => {
      const x = o as Record<string, unknown> | null;
      if (typeof x !== "object" || x === null || typeof x["name"] !== "string" || typeof x["action"] !== "string" || !OUTPUT_ACTIONS.includes(x["action"]) || typeof x["sensitive"] !== "boolean") {
        throw bad(`outputs[${i}] is not {name, action, before, after, sensitive}`);
      }
      return { name: x["name"], action: x["action"] as PlannedOutput["action"], before: decodeValue(x["before"], `outputs[${i}].before`), after: decodeValue(x["after"], `outputs[${i}].after`), sensitive: x["sensitive"], ...(x["sensitiveBefore"] === true ? { sensitiveBefore: true } : {}) };
    });
  }
  if (r["providers"] !== undefined) {
    if (!Array.isArray(r["providers"])) throw bad("providers is not a list");
    out.providers = r["providers"].map((p: unknown, i): PlannedProvider => {
      const x = p as Record<string, unknown> | null;
      const deps = x?.["dependencies"];
      if (typeof x !== "object" || x === null || typeof x["address"] !== "string" || typeof x["source"] !== "string" || !Array.isArray(deps) || !deps.every((d) => typeof d === "string") || (x["version"] !== undefined && typeof x["version"] !== "string")) {
        throw bad(`providers[${i}] is not {address, source, version?, dependencies}`);
      }
      return { address: x["address"], source: x["source"], dependencies: deps as string[], ...(typeof x["version"] === "string" ? { version: x["version"] } : {}) };
    });
  }
  const valueMap = (k: string): Record<string, Value> | undefined => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw bad(`${k} is not an object`);
    return Object.fromEntries(Object.entries(v).map(([name, e]) => [name, decodeValue(e, `${k}.${name}`)]));
  };
  const variables = valueMap("variables");
  if (variables !== undefined) out.variables = variables;
  const dataReads = valueMap("data_reads");
  if (dataReads !== undefined) out.dataReads = dataReads;
  const sources = r["data_read_sources"];
  if (sources !== undefined) {
    if (typeof sources !== "object" || sources === null || Array.isArray(sources)) throw bad("data_read_sources is not an object");
    for (const [k, v] of Object.entries(sources)) {
      const x = v as Record<string, unknown> | null;
      if (typeof x !== "object" || x === null || typeof x["provider"] !== "string" || !Number.isSafeInteger(x["schemaVersion"]) || (x["typeJson"] !== undefined && typeof x["typeJson"] !== "string")) throw bad(`data_read_sources.${k} is not {provider, schemaVersion}`);
    }
    out.dataReadSources = sources as Record<string, DataReadSource>;
  }
  const removals = r["data_removals"];
  if (removals !== undefined) {
    if (!Array.isArray(removals) || !removals.every((a) => typeof a === "string")) throw bad("data_removals is not a list of addresses");
    out.dataRemovals = removals as string[];
  }
  const refreshed = r["refreshed_dependencies"];
  if (refreshed !== undefined) {
    if (typeof refreshed !== "object" || refreshed === null || Array.isArray(refreshed)) throw bad("refreshed_dependencies is not an object");
    for (const [k, v] of Object.entries(refreshed)) if (!Array.isArray(v) || !v.every((d) => typeof d === "string")) throw bad(`refreshed_dependencies.${k} is not a list of addresses`);
    out.refreshedDependencies = refreshed as Record<string, string[]>;
  }
  const applyTime = r["apply_time_variables"];
  if (applyTime !== undefined) {
    if (!Array.isArray(applyTime) || !applyTime.every((t) => typeof t === "string")) throw bad("apply_time_variables is not a list of variable names");
    out.applyTimeVariables = applyTime as string[];
  }
  const defaulted = r["defaulted_variables"];
  if (defaulted !== undefined) {
    if (!Array.isArray(defaulted) || !defaulted.every((t) => typeof t === "string")) throw bad("defaulted_variables is not a list of variable names");
    out.defaultedVariables = defaulted as string[];
  }
  const targets = r["targets"];
  if (targets !== undefined) {
    if (!Array.isArray(targets) || !targets.every((t) => typeof t === "string")) throw bad("targets is not a list of addresses");
    out.targets = targets as string[];
  }
  const fr = r["function_results"];
  if (fr !== undefined) {
    const hex = (x: unknown): x is string => typeof x === "string" && /^[0-9a-f]{64}$/.test(x);
    if (!Array.isArray(fr)) throw bad("function_results is not a list");
    out.functionResults = fr.map((f: unknown, i) => {
      const x = f as Record<string, unknown> | null;
      if (typeof x !== "object" || x === null || !hex(x["key"]) || !hex(x["result"])) throw bad(`function_results[${i}] is not {key, result} (hex SHA-256 digests)`);
      return { key: x["key"], result: x["result"] };
    });
  }
  if (r["checks"] !== undefined) out.checks = decodeChecks(r["checks"], bad);
  return out;
}

/** The `config_snapshot` of a plan file: `{modules: [{path, dir, files: [[name, text]]}]}`, the root module among them. */
function decodeSnapshot(raw: unknown, bad: (what: string) => EngineError): ConfigSnapshot {
  const x = raw as { modules?: unknown } | null;
  if (typeof x !== "object" || x === null || !Array.isArray(x.modules)) throw bad("config_snapshot is not {modules: [...]}");
  const modules = x.modules.map((m: unknown, i) => {
    const y = m as { path?: unknown; dir?: unknown; files?: unknown } | null;
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((e) => typeof e === "string");
    if (typeof y !== "object" || y === null || !strings(y.path) || typeof y.dir !== "string" || !Array.isArray(y.files) || !y.files.every((f) => strings(f) && f.length === 2)) {
      throw bad(`config_snapshot.modules[${i}] is not {path, dir, files: [[name, text]]}`);
    }
    return { path: y.path, dir: y.dir, files: (y.files as [string, string][]).map(([n, t]) => [n, t] as const) };
  });
  if (!modules.some((m) => m.path.length === 0)) throw bad("config_snapshot has no root module");
  return { modules };
}

const STATUSES: readonly string[] = ["pass", "fail", "error", "unknown"];
const CHECK_KINDS: readonly string[] = ["resource", "output_value", "check", "var"];

/** The `checks` of a plan file (written as the {@link PlannedCheck}s themselves). */
function decodeChecks(raw: unknown, bad: (what: string) => EngineError): PlannedCheck[] {
  if (!Array.isArray(raw)) throw bad("checks is not a list");
  const optString = (x: Record<string, unknown>, k: string): boolean => x[k] === undefined || typeof x[k] === "string";
  return raw.map((c: unknown, i): PlannedCheck => {
    const x = c as Record<string, unknown> | null;
    if (
      typeof x !== "object" || x === null || typeof x["address"] !== "string" || typeof x["name"] !== "string" || typeof x["kind"] !== "string" || !CHECK_KINDS.includes(x["kind"]) ||
      typeof x["status"] !== "string" || !STATUSES.includes(x["status"]) || !optString(x, "module") || !optString(x, "type") || (x["mode"] !== undefined && x["mode"] !== "managed" && x["mode"] !== "data") || !Array.isArray(x["instances"])
    ) {
      throw bad(`checks[${i}] is not {kind, address, name, status, instances, module?, mode?, type?}`);
    }
    const instances = x["instances"].map((inst: unknown, j) => {
      const y = inst as Record<string, unknown> | null;
      const key = y?.["instanceKey"];
      const problems = y?.["problems"];
      if (typeof y !== "object" || y === null || typeof y["address"] !== "string" || typeof y["status"] !== "string" || !STATUSES.includes(y["status"]) || !optString(y, "module") || (key !== undefined && typeof key !== "string" && typeof key !== "number") || !Array.isArray(problems) || !problems.every((m) => typeof m === "string")) {
        throw bad(`checks[${i}].instances[${j}] is not {address, status, problems, module?, instanceKey?}`);
      }
      return { address: y["address"], status: y["status"] as CheckStatus, problems: problems as string[], ...(typeof y["module"] === "string" ? { module: y["module"] } : {}), ...(key !== undefined ? { instanceKey: key as string | number } : {}) };
    });
    return {
      kind: x["kind"] as PlannedCheck["kind"],
      address: x["address"],
      name: x["name"],
      status: x["status"] as CheckStatus,
      instances,
      ...(typeof x["module"] === "string" ? { module: x["module"] } : {}),
      ...(x["mode"] !== undefined ? { mode: x["mode"] as "managed" | "data" } : {}),
      ...(typeof x["type"] === "string" ? { type: x["type"] } : {}),
    };
  });
}

/** Writes a plan to a file (atomically: a temporary file renamed over it). */
export async function writePlanFile(path: string, plan: Plan): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, formatPlan(plan), { mode: 0o600 });
  await rename(tmp, path);
}

/** Reads a plan file written by {@link writePlanFile}. @throws {@link EngineError} `invalid_plan_file`. */
export async function readPlanFile(path: string): Promise<Plan> {
  return parsePlan(await readFile(path, "utf8"), path);
}

/**
 * Checks that a saved plan still applies to the current state: same lineage and serial.
 *
 * @throws {@link EngineError} `stale_plan` naming what moved on.
 */
export function assertPlanCurrent(plan: Plan, current: PlanPriorState): void {
  if (current.lineage !== plan.prior.lineage) {
    throw new EngineError(EngineErrorCode.StalePlan, `Saved plan is for a different state: the plan was made against lineage ${plan.prior.lineage}, the state has lineage ${current.lineage}`);
  }
  if (current.serial !== plan.prior.serial) {
    throw new EngineError(EngineErrorCode.StalePlan, `Saved plan is stale: it was made against serial ${plan.prior.serial}, the state is now at serial ${current.serial}; create a new plan`);
  }
}

/** Go's wording of a JSON syntax error, quoting only the offending character. */
function jsonSyntaxError(text: string, message: string): string {
  if (text.trim() === "" || /end of JSON input/.test(message)) return "unexpected end of JSON input";
  const token = /Unexpected (?:token|non-whitespace character)[^']*'(.)'/u.exec(message)?.[1];
  const at = /position (\d+)/.exec(message);
  if (token === undefined && at !== null && Number(at[1]) >= text.length) return "unexpected end of JSON input";
  const ch = token ?? (at !== null ? String.fromCodePoint(text.codePointAt(Number(at[1])) ?? 0x20) : text.trimStart()[0]!);
  const code = ch.codePointAt(0)!;
  const shown = code < 0x20 || ch === "'" || ch === "\\" ? JSON.stringify(ch).slice(1, -1) : ch;
  return `invalid character '${shown}' looking for beginning of value`;
}
