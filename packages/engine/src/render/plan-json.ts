import { Mark, typeToJson, type Path, type Value } from "@magma/cty";
import type { ProviderSchema } from "@magma/provider-api";
import {
  TERRAFORM_VERSION,
  compareInstanceKeys,
  formatModuleInstance,
  formatProviderSource,
  parseProviderConfig,
  parseResourceInstance,
  type ResourceInstanceAddress,
  type StateFile,
} from "@magma/state";
import { PlanAction, type DeleteReason, type ReplaceReason } from "../plan/plan-action.js";
import type { Plan, PlannedOutput } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { compareUtf8, goEscape, jsonArray, jsonMap, jsonString, jsonStruct } from "./go-json.js";
import { RenderError } from "./render-error.js";
import { plannedReadReason, READ_REASON_NAMES } from "../events/change-reason.js";
import { entryFor, normaliseSchemas, type RenderSchemas } from "./render-schemas.js";
import { stateJsonText } from "./state-json.js";
import { configurationJsonText } from "./config-json.js";
import { descendantConfig, type Config } from "@magma/config";
import { relevantAttributes, type RelevantAttributesInput } from "./relevant-attributes.js";
import { refreshedPriorState } from "./refreshed-state.js";
import { checksJson } from "./checks-json.js";
import { attributeValuesJson, schemaSensitivePaths, sensitiveAsBoolJson, unknownAsBoolJson, valueJson } from "./value-json.js";

/** The `format_version` of `terraform show -json` for a plan. */
export const PLAN_JSON_FORMAT_VERSION = "1.2";

export type { DeleteReason };

/** Options of {@link planJson}. */
export interface PlanJsonOptions {
  /** The provider schemas, by provider source address. */
  readonly schemas: RenderSchemas;
  /**
   * The state the plan was made from, as stored: `prior_state` shows it refreshed as
   * Terraform's plan keeps it (the plan's moves, drift, imports, data sources read and known
   * outputs applied, see `refreshedPriorState`); also the provider of changes that do not
   * name their provider configuration.
   */
  readonly priorState?: StateFile;
  /**
   * The configuration's root module variable declarations' defaults, for the variables the
   * plan does not list (Terraform shows them too).
   */
  readonly variableDefaults?: Readonly<Record<string, Value>>;
  /**
   * The configuration the plan was made from (`@magma/config`'s `loadConfig`): rendered as
   * `configuration` (see {@link configurationJson}), and its root variables' defaults shown
   * for variables the plan does not list. Omitted when absent.
   */
  readonly config?: Config;
  /**
   * The instance addresses of each resource in the configuration, for the delete reasons:
   * `resources` maps a resource address (`module.m.aws_x.y`, no instance keys) to its
   * repetition (`"none"`, `"count"`, `"for_each"`); `modules` lists the module instance
   * addresses that exist. Without it the reasons are derived from the plan's other changes.
   */
  readonly expansion?: {
    readonly resources: ReadonlyMap<string, "none" | "count" | "for_each">;
    readonly modules: ReadonlySet<string>;
  };
  /** Per address, a delete reason that overrides the derived one. */
  readonly deleteReasons?: ReadonlyMap<string, DeleteReason>;
  /** The version written to `terraform_version` (default magma's declared Terraform version, 1.11.4). */
  readonly terraformVersion?: string;
  /** The plan's timestamp (RFC 3339, or a Date written in UTC without fractions); omitted when absent. */
  readonly timestamp?: string | Date;
  /** Whether the plan can be applied (default: derived — some resource or output change is not a no-op, or imports or moves). */
  readonly applyable?: boolean;
  /** Whether the plan is complete (default true). */
  readonly complete?: boolean;
  /** Whether planning failed (default false). */
  readonly errored?: boolean;
}

const ACTIONS: Readonly<Record<PlanAction, string>> = {
  "no-op": '["no-op"]',
  create: '["create"]',
  read: '["read"]',
  update: '["update"]',
  "delete-then-create": '["delete","create"]',
  "create-then-delete": '["create","delete"]',
  delete: '["delete"]',
  forget: '["forget"]',
};

const REPLACE_REASONS: Readonly<Record<ReplaceReason, string>> = {
  tainted: "replace_because_tainted",
  requested: "replace_by_request",
  triggered: "replace_by_triggers",
  "cannot-update": "replace_because_cannot_update",
};

/** @internal A change with its parsed address, module and provider. */
export interface Located {
  readonly change: PlannedInstanceChange;
  readonly addr: ResourceInstanceAddress;
  readonly module: string;
  readonly provider: string;
}

/**
 * `terraform show -json PLANFILE` of a magma {@link Plan} (format version 1.2):
 * `variables`, `planned_values`, `resource_changes` (actions as Terraform lists them, e.g.
 * `["delete","create"]`; before/after with `after_unknown`, `before_sensitive`,
 * `after_sensitive`, `replace_paths`, `importing`, `previous_address`, `action_reason`),
 * `resource_drift`, `output_changes`, `prior_state` (refreshed), `configuration` and
 * `relevant_attributes` (when the configuration is given, see {@link configurationJson} and
 * `relevantAttributes`), `checks` (the plan's), `timestamp`, `applyable`,
 * `complete` and `errored`. Values are decoded with the schemas' types; sensitive values
 * follow the change's sensitive paths and the schema's sensitive attributes.
 *
 * The planner's fields of a change may be absent (plans built from the per-instance steps):
 * the module, key and mode are then parsed from the address, and the provider is taken from
 * the prior state's resource or, failing that, from the one schema that declares the type.
 *
 * @throws RenderError `missing_schema`, `invalid_plan` (an address that does not parse, a
 *   provider that cannot be determined), `invalid_state` (from the prior state).
 */
export function planJson(plan: Plan, planOptions: PlanJsonOptions): string {
  let options = planOptions;
  const schemas = normaliseSchemas(options.schemas);
  const prepared = prepareChanges(plan, options, schemas);
  const sorted = prepared.sorted;
  options = prepared.options;
  const outputs = plan.outputs ?? [];
  return goEscape(
    jsonStruct([
      ["format_version", jsonString(PLAN_JSON_FORMAT_VERSION)],
      ["terraform_version", jsonString(options.terraformVersion ?? TERRAFORM_VERSION)],
      ["variables", variablesJson(plan, options)],
      ["planned_values", plannedValuesJson(sorted, outputs, schemas)],
      ["resource_drift", resourceDriftJson(plan, options, schemas)],
      ["resource_changes", resourceChangesJson(sorted, plan, options, schemas)],
      ["output_changes", outputs.length === 0 ? undefined : jsonMap(outputs.map((o) => [o.name, outputChangeJson(o)]))],
      ["prior_state", options.priorState === undefined ? undefined : priorStateJson(refreshedPriorState(plan, options.priorState, schemas), schemas)],
      ["configuration", options.config === undefined ? undefined : configurationJsonText(options.config, schemas)],
      ["relevant_attributes", options.config === undefined ? undefined : relevantAttributesJson(options.config, plan, sorted, outputs, schemas, options.priorState)],
      ["checks", checksJson(plan.checks)],
      ["timestamp", options.timestamp === undefined ? undefined : jsonString(formatTimestamp(options.timestamp))],
      ["applyable", String(options.applyable ?? (options.errored !== true && isApplyable(plan, options.priorState)))],
      ["complete", String(options.complete ?? true)],
      ["errored", String(options.errored ?? false)],
    ]),
  );
}

function priorStateJson(state: StateFile, schemas: ReadonlyMap<string, ProviderSchema>): string | undefined {
  const text = stateJsonText(state, schemas);
  // Terraform leaves prior_state out for an empty state.
  return text.includes('"values"') ? text : undefined;
}

function formatTimestamp(t: string | Date): string {
  return typeof t === "string" ? t : t.toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * Terraform's `Changes.Empty()`, negated: some change is not a no-op (or moves or imports).
 * A refresh-only plan is applyable when the refresh changed the state's managed objects or
 * root outputs (`ManagedResourcesEqual`, which compares the stored JSON bytes: every object
 * read back from a state file and refreshed counts as changed).
 */
function isApplyable(plan: Plan, prior: StateFile | undefined): boolean {
  if (plan.mode === "refresh-only") {
    if ((prior?.resources ?? []).some((r) => r.mode === "managed" && r.instances.length > 0)) return true;
    return (plan.outputs ?? []).some((o) => o.action !== "no-op");
  }
  for (const c of plan.changes) {
    if (c.action !== PlanAction.NoOp) return true;
    if (c.previousAddress !== undefined && c.previousAddress !== c.address) return true;
    if (c.importId !== undefined) return true;
  }
  return (plan.outputs ?? []).some((o) => o.action !== "no-op");
}

/** @internal The changes located and in Terraform's order, and the options with the expansion the delete reasons use. */
export function prepareChanges(plan: Plan, options: PlanJsonOptions, schemas: ReadonlyMap<string, ProviderSchema>): { sorted: Located[]; options: PlanJsonOptions } {
  const located = plan.changes.map((c) => locate(c, schemas, options.priorState));
  const sorted = [...located].sort(compareChanges);
  const expansion = options.expansion ?? (options.config === undefined ? undefined : expansionFromConfig(options.config, located));
  return { sorted, options: expansion === undefined ? options : { ...options, expansion } };
}

function locate(change: PlannedInstanceChange, schemas: ReadonlyMap<string, ProviderSchema>, prior: StateFile | undefined): Located {
  let addr: ResourceInstanceAddress;
  try {
    addr = parseResourceInstance(change.address);
  } catch (e) {
    throw new RenderError("invalid_plan", `the change of ${JSON.stringify(change.address)} has an invalid address: ${e instanceof Error ? e.message : String(e)}`, e);
  }
  const module = change.moduleAddress ?? formatModuleInstance(addr.module);
  return { change, addr, module, provider: providerOf(change, addr, module, schemas, prior) };
}

function providerOf(change: PlannedInstanceChange, addr: ResourceInstanceAddress, module: string, schemas: ReadonlyMap<string, ProviderSchema>, prior: StateFile | undefined): string {
  if (change.providerConfig !== undefined) {
    try {
      return formatProviderSource(parseProviderConfig(change.providerConfig).provider);
    } catch (e) {
      throw new RenderError("invalid_plan", `the change of ${change.address} has an invalid provider configuration address ${JSON.stringify(change.providerConfig)}`, e);
    }
  }
  const r = prior?.resources.find((x) => x.mode === addr.mode && x.type === addr.type && x.name === addr.name && formatModuleInstance(x.module) === module);
  if (r !== undefined) return formatProviderSource(r.provider.provider);
  const declaring = [...schemas].filter(([, s]) => (addr.mode === "data" ? s.dataSources : s.resources).has(addr.type)).map(([k]) => k);
  if (declaring.length === 1) return declaring[0]!;
  const prefix = addr.type.split("_")[0];
  const implied = declaring.filter((k) => k.split("/").pop() === prefix);
  if (implied.length === 1) return implied[0]!;
  throw new RenderError(
    "invalid_plan",
    declaring.length === 0
      ? `no schema declares ${addr.mode === "data" ? "data source" : "resource type"} ${JSON.stringify(addr.type)} (needed for ${change.address})`
      : `the provider of ${change.address} is ambiguous (${declaring.join(", ")}); set the change's providerConfig`,
  );
}

function compareChanges(a: Located, b: Located): number {
  const ma = a.addr.module;
  const mb = b.addr.module;
  if (ma.length !== mb.length) return ma.length - mb.length;
  for (let i = 0; i < ma.length; i++) {
    const x = ma[i]!;
    const y = mb[i]!;
    if (x.name !== y.name) return compareUtf8(x.name, y.name);
    const k = compareInstanceKeys(x.key, y.key);
    if (k !== 0) return k;
  }
  if (a.addr.mode !== b.addr.mode) return a.addr.mode === "data" ? -1 : b.addr.mode === "data" ? 1 : compareUtf8(a.addr.mode, b.addr.mode);
  if (a.addr.type !== b.addr.type) return compareUtf8(a.addr.type, b.addr.type);
  if (a.addr.name !== b.addr.name) return compareUtf8(a.addr.name, b.addr.name);
  const k = compareInstanceKeys(a.addr.key, b.addr.key);
  if (k !== 0) return k;
  return compareUtf8(a.change.deposedKey ?? "", b.change.deposedKey ?? "");
}

function indexJson(addr: ResourceInstanceAddress): string | undefined {
  return addr.key === undefined ? undefined : typeof addr.key === "number" ? String(addr.key) : jsonString(addr.key);
}

/** The paths where a value itself carries the sensitive mark. */
/** @internal */
export function markedPaths(v: Value): Path[] {
  return v
    .unmarkDeep()
    .paths.filter((p) => p.marks.has(Mark.Sensitive))
    .map((p) => p.path);
}

function variablesJson(plan: Plan, options: PlanJsonOptions): string | undefined {
  const vars = new Map<string, Value>(Object.entries(plan.variables ?? {}));
  for (const [k, v] of Object.entries(options.variableDefaults ?? {})) if (!vars.has(k)) vars.set(k, v);
  for (const v of options.config?.module.variables.values() ?? []) if (!vars.has(v.name) && v.default !== undefined) vars.set(v.name, v.default);
  if (vars.size === 0) return undefined;
  return jsonMap([...vars].map(([k, v]) => [k, jsonStruct([["value", v.isKnown() ? valueJson(v.unmarkDeep().value, true) : undefined]])]));
}

function plannedValuesJson(sorted: readonly Located[], outputs: readonly PlannedOutput[], schemas: ReadonlyMap<string, ProviderSchema>): string {
  const byModule = new Map<string, string[]>();
  const children = new Map<string, Set<string>>();
  const modules = new Map<string, Located["addr"]["module"]>();
  for (const l of sorted) {
    const a = l.change.action;
    // Deposed objects are never planned values.
    if (a === PlanAction.Delete || a === PlanAction.Forget || l.change.deposedKey !== undefined) continue;
    const entry = entryFor(schemas, l.provider, l.addr.mode === "data" ? "data" : "managed", l.addr.type, l.change.address);
    const after = l.change.after.unmarkDeep().value;
    // Terraform's planned values carry the plan's own marks: a managed resource's planned object
    // is marked with the schema's sensitive attributes too (write-only ones among them, though
    // null) — but not a replacement's, which terraform plans again as a create and marks with
    // the configuration's paths alone (node_resource_abstract_instance.go's replace branch) —
    // and a data source read at apply only with the configuration's.
    const schemaPaths = schemaSensitivePaths(entry.block, after);
    const replace = a === PlanAction.DeleteThenCreate || a === PlanAction.CreateThenDelete;
    const planPaths = l.addr.mode === "managed" && !replace ? [...(l.change.afterSensitivePaths ?? []), ...schemaPaths] : (l.change.afterSensitivePaths ?? []).filter((p) => !schemaPaths.some((s) => s.equals(p)));
    const json = jsonStruct([
      ["address", jsonString(l.change.address)],
      ["mode", jsonString(l.addr.mode)],
      ["type", jsonString(l.addr.type)],
      ["name", jsonString(l.addr.name)],
      ["index", indexJson(l.addr)],
      ["provider_name", jsonString(l.provider)],
      ["schema_version", String(entry.version)],
      ["values", attributeValuesJson(after)],
      ["sensitive_values", sensitiveAsBoolJson(after, [...planPaths, ...markedPaths(l.change.after)])],
    ]);
    const key = l.module;
    let list = byModule.get(key);
    if (list === undefined) byModule.set(key, (list = []));
    list.push(`${l.change.address}\u0000${json}`);
    for (let m = l.addr.module; m.length > 0; m = m.slice(0, -1)) {
      const parent = formatModuleInstance(m.slice(0, -1));
      const self = formatModuleInstance(m);
      modules.set(self, m);
      let set = children.get(parent);
      if (set === undefined) children.set(parent, (set = new Set()));
      set.add(self);
    }
  }
  const render = (key: string, isRoot: boolean): string => {
    const resources = [...(byModule.get(key) ?? [])].sort((a, b) => compareUtf8(a.slice(0, a.indexOf("\u0000")), b.slice(0, b.indexOf("\u0000")))).map((s) => s.slice(s.indexOf("\u0000") + 1));
    const kids = [...(children.get(key) ?? [])].sort(compareUtf8);
    return jsonStruct([
      ["resources", resources.length === 0 ? undefined : jsonArray(resources)],
      ["address", isRoot ? undefined : jsonString(key)],
      ["child_modules", kids.length === 0 ? undefined : jsonArray(kids.map((k) => render(k, false)))],
    ]);
  };
  const planned = outputs.filter((o) => o.action !== "delete");
  const outputsJson =
    planned.length === 0
      ? undefined
      : jsonMap(
          planned.map((o) => {
            const v = o.after.unmarkDeep().value;
            const known = v.isWhollyKnown();
            return [o.name, jsonStruct([["sensitive", String(o.sensitive)], ["type", known ? typeToJson(v.type) : undefined], ["value", known ? valueJson(v) : undefined]])];
          }),
        );
  return jsonStruct([["outputs", outputsJson], ["root_module", render("", true)]]);
}

/**
 * `resource_drift`: the objects the refresh found changed or gone; in a refresh-only plan
 * also those only moved (no-op with a previous address).
 */
function resourceDriftJson(plan: Plan, options: PlanJsonOptions, schemas: ReadonlyMap<string, ProviderSchema>): string | undefined {
  // A destroy plan is made from the refreshed state: Terraform reports no drift for it.
  if (plan.mode === "destroy") return undefined;
  // Terraform compares current objects only: a refreshed deposed object is in prior_state, never in resource_drift.
  const drift = (plan.drift ?? []).filter((c) => c.deposedKey === undefined && (plan.mode === "refresh-only" || c.action !== PlanAction.NoOp));
  if (drift.length === 0) return undefined;
  const sorted = drift.map((c) => locate(c, schemas, options.priorState)).sort(compareChanges);
  return resourceChangesJson(sorted, plan, options, schemas, true);
}

function relevantAttributesJson(config: Config, plan: Plan, sorted: readonly Located[], outputs: readonly PlannedOutput[], schemas: ReadonlyMap<string, ProviderSchema>, prior: StateFile | undefined): string | undefined {
  const changed: RelevantAttributesInput["resources"][number][] = sorted.filter((l) => l.change.action !== PlanAction.NoOp).map((l) => ({ module: l.addr.module, mode: l.addr.mode === "data" ? "data" : "managed", type: l.addr.type, name: l.addr.name }));
  // A destroy plan deletes the data sources in state too (Terraform's changes hold those deletes; magma's plan does not).
  if (plan.mode === "destroy") for (const r of prior?.resources ?? []) if (r.mode === "data" && r.instances.length > 0) changed.push({ module: r.module, mode: "data", type: r.type, name: r.name });
  const found = relevantAttributes(
    config,
    {
      resources: changed,
      outputs: outputs.filter((o) => o.action !== "no-op").map((o) => o.name),
    },
    schemas,
  );
  if (found.length === 0) return undefined;
  return jsonArray(found.map((r) => jsonStruct([["resource", jsonString(r.resource)], ["attribute", jsonArray(r.attribute.map((s) => (typeof s === "number" ? String(s) : jsonString(s))))]])));
}

function resourceChangesJson(sorted: readonly Located[], plan: Plan, options: PlanJsonOptions, schemas: ReadonlyMap<string, ProviderSchema>, drift = false): string | undefined {
  const out: string[] = [];
  for (const l of sorted) {
    const c = l.change;
    // Terraform plans deletes of data sources to clean state up, and never shows them.
    if (l.addr.mode === "data" && c.action === PlanAction.Delete) continue;
    const entry = entryFor(schemas, l.provider, l.addr.mode === "data" ? "data" : "managed", l.addr.type, c.address);
    const before = c.before.unmarkDeep().value;
    const after = c.after.unmarkDeep().value;
    const beforeSensitive = sensitiveAsBoolJson(before, [...(c.beforeSensitivePaths ?? []), ...markedPaths(c.before), ...schemaSensitivePaths(entry.block, before)]);
    const afterSensitive = sensitiveAsBoolJson(after, [...(c.afterSensitivePaths ?? []), ...markedPaths(c.after), ...schemaSensitivePaths(entry.block, after)]);
    let afterJson: string | undefined;
    let afterUnknown: string;
    if (after.isWhollyKnown()) {
      afterJson = valueJson(after);
      afterUnknown = "{}";
    } else {
      afterJson = after.isKnown() ? valueJson(after, true) : undefined;
      afterUnknown = unknownAsBoolJson(after);
    }
    const change = jsonStruct([
      ["actions", ACTIONS[c.action]],
      ["before", valueJson(before)],
      ["after", afterJson],
      ["after_unknown", afterUnknown],
      ["before_sensitive", beforeSensitive],
      ["after_sensitive", afterSensitive],
      ["replace_paths", c.requiresReplace.length === 0 ? undefined : jsonArray(c.requiresReplace.map(pathJson))],
      ["importing", c.importId === undefined ? undefined : jsonStruct([["id", c.importId === "" ? undefined : jsonString(c.importId)]])],
    ]);
    out.push(
      jsonStruct([
        ["address", jsonString(c.address)],
        // A destroy plan is made from the refreshed (moved) state: no previous addresses.
        ["previous_address", c.previousAddress !== undefined && c.previousAddress !== c.address && plan.mode !== "destroy" ? jsonString(c.previousAddress) : undefined],
        ["module_address", l.module === "" ? undefined : jsonString(l.module)],
        ["mode", jsonString(l.addr.mode)],
        ["type", jsonString(l.addr.type)],
        ["name", jsonString(l.addr.name)],
        ["index", indexJson(l.addr)],
        ["provider_name", jsonString(l.provider)],
        ["deposed", c.deposedKey === undefined ? undefined : jsonString(c.deposedKey)],
        ["change", change],
        ["action_reason", drift ? undefined : actionReason(l, sorted, plan, options)],
      ]),
    );
  }
  return out.length === 0 ? undefined : jsonArray(out);
}

function pathJson(p: Path): string {
  return jsonArray(p.steps.map((s) => (s.kind === "attr" ? jsonString(s.name) : s.kind === "key" ? jsonString(s.key) : String(s.index))));
}

/** @internal The `action_reason` (JSON text) of a change. */
export function actionReason(l: Located, all: readonly Located[], plan: Plan, options: PlanJsonOptions): string | undefined {
  const c = l.change;
  if (c.replaceReason !== undefined) return jsonString(REPLACE_REASONS[c.replaceReason]);
  const read = plannedReadReason(c);
  if (read !== undefined) return jsonString(READ_REASON_NAMES[read]);
  // A forgotten object (`removed { destroy = false }`) has the reason an orphan's delete would have, as terraform's.
  if ((c.action !== PlanAction.Delete && c.action !== PlanAction.Forget) || c.deposedKey !== undefined || plan.mode === "destroy" || l.addr.mode !== "managed") return undefined;
  const given = options.deleteReasons?.get(c.address) ?? c.deleteReason;
  if (given !== undefined) return jsonString(given);
  return jsonString(deleteReason(l, all, options));
}

/** Why an orphan is deleted, as Terraform's orphan planning decides it. */
function deleteReason(l: Located, all: readonly Located[], options: PlanJsonOptions): DeleteReason {
  const resource = `${l.module === "" ? "" : `${l.module}.`}${l.addr.type}.${l.addr.name}`;
  const key = l.addr.key;
  const byKey = (rep: "none" | "count" | "for_each"): DeleteReason =>
    rep === "count" && typeof key === "number" ? "delete_because_count_index" : rep === "for_each" && typeof key === "string" ? "delete_because_each_key" : "delete_because_wrong_repetition";
  // As Terraform's orphan planning: no configuration for the resource at all (its module call
  // gone too) is `no_resource_config`, or `no_move_target` for an object a `moved` block moved
  // there; a configured resource in a module instance that no longer exists is `no_module`.
  const moved = l.change.previousAddress !== undefined && l.change.previousAddress !== l.change.address;
  if (options.expansion !== undefined) {
    const configAddr = `${l.addr.module.map((s) => `module.${s.name}.`).join("")}${l.addr.type}.${l.addr.name}`;
    const rep = options.expansion.resources.get(configAddr);
    if (rep === undefined) return moved ? "delete_because_no_move_target" : "delete_because_no_resource_config";
    if (l.module !== "" && !options.expansion.modules.has(l.module)) return "delete_because_no_module";
    return byKey(rep);
  }
  if (moved) return "delete_because_no_move_target";
  // Without the configuration: the other planned instances of the same resource tell its repetition.
  const siblings = all.filter((o) => o !== l && o.change.action !== PlanAction.Delete && `${o.module === "" ? "" : `${o.module}.`}${o.addr.type}.${o.addr.name}` === resource && o.addr.mode === "managed");
  if (siblings.length === 0) {
    const moduleLives = l.module === "" || all.some((o) => o.module === l.module && o.change.action !== PlanAction.Delete);
    return moduleLives ? "delete_because_no_resource_config" : "delete_because_no_module";
  }
  const k = siblings[0]!.addr.key;
  return byKey(k === undefined ? "none" : typeof k === "number" ? "count" : "for_each");
}

/**
 * The delete reasons' view of the configuration: every resource's repetition, and the module
 * instances that exist — a module call present in the configuration, and for a call with
 * `count`/`for_each` an instance something is still planned in (not only deleted).
 */
function expansionFromConfig(config: Config, located: readonly Located[]): NonNullable<PlanJsonOptions["expansion"]> {
  const resources = new Map<string, "none" | "count" | "for_each">();
  const visit = (c: Config): void => {
    const prefix = c.path.map((n) => `module.${n}.`).join("");
    for (const r of c.module.managedResources.values()) resources.set(`${prefix}${r.type}.${r.name}`, r.count !== undefined ? "count" : r.forEach !== undefined ? "for_each" : "none");
    for (const child of c.children.values()) visit(child);
  };
  visit(config);
  const live = new Set(located.filter((l) => l.change.action !== PlanAction.Delete).map((l) => l.module));
  const modules = new Set<string>();
  for (const l of located) {
    for (let n = 1; n <= l.addr.module.length; n++) {
      const steps = l.addr.module.slice(0, n);
      const key = formatModuleInstance(steps);
      if (n > 1 && !modules.has(formatModuleInstance(steps.slice(0, -1)))) break;
      // The steps before the last were checked on earlier rounds (the loop stops below a module not kept).
      const call = descendantConfig(config, steps)?.call;
      if (call === undefined) continue;
      const repeated = call.count !== undefined || call.forEach !== undefined;
      // An instance of a repeated call has a key; one without is not in the configuration.
      const keyed = steps[steps.length - 1]?.key !== undefined;
      const inUse = [...live].some((m) => m === key || m.startsWith(`${key}.`));
      if (!repeated || (keyed && inUse)) modules.add(key);
    }
  }
  return { resources, modules };
}

function outputChangeJson(o: PlannedOutput): string {
  const before = o.before.unmarkDeep().value;
  const after = o.after.unmarkDeep().value;
  let afterJson: string | undefined;
  let afterUnknown: string;
  if (after.isWhollyKnown()) {
    afterJson = valueJson(after);
    afterUnknown = "false";
  } else {
    afterJson = after.isKnown() ? valueJson(after, true) : undefined;
    afterUnknown = unknownAsBoolJson(after);
  }
  // Terraform's output change is sensitive when the prior value or the configuration is.
  const sensitive = String(o.sensitive || o.sensitiveBefore === true);
  return jsonStruct([
    ["actions", `[${jsonString(o.action)}]`],
    ["before", valueJson(before)],
    ["after", afterJson],
    ["after_unknown", afterUnknown],
    ["before_sensitive", sensitive],
    ["after_sensitive", sensitive],
  ]);
}
