import type { Value } from "@magma/cty";
import type { Block, PlainConfig, SchemaEntry } from "@magma/provider-api";
import { CliError, CliErrorCode } from "../cli-error.js";
import { jsonNodeToPlain, type JsonNode, type RawJson } from "../json-text.js";
import { buildConfig, PlanAction, type PlanOutcome, type StateOutcome } from "../operations.js";
import { renderState } from "../plan-diff.js";
import { decodeBase64, describeNode, encodeBase64, readJsonInput, readJsonObjectInput } from "../read-input.js";
import { assertNotRedacted, sensitiveValues } from "../sensitive-json.js";
import { diagToJson, unknownMask, valueFromJson, valueToJson } from "../value-json.js";
import type { ResourceOptions } from "./common-options.js";

// What the single-resource commands read from their options and print: prior state and
// configuration inputs, the JSON of states and plans, saved plans.

/** The past tense of a plan action, for "Apply complete" lines. */
export function pastTense(action: PlanAction): string {
  switch (action) {
    case "create":
      return "created";
    case "update":
      return "updated in place";
    case "replace":
      return "replaced";
    case "delete":
      return "destroyed";
    case "no-op":
      return "unchanged";
  }
}

/** A state in the human form (one line per attribute), or "" when empty. */
export function stateHuman(entry: SchemaEntry, state: Value): string {
  const lines = renderState(entry.block, state);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** The JSON of an operation's resulting state: state, private, warnings, sensitive_values. */
export function stateJson(entry: SchemaEntry, r: StateOutcome): Record<string, unknown> {
  const { sensitive_values, ...values } = valuesJson(entry.block, { state: valueToJson(r.state, entry.type) });
  return { ...values, private: encodeBase64(r.private), warnings: r.warnings.map(diagToJson), sensitive_values };
}

/** The values with their `sensitive_values` companion (one mask per member). */
export function valuesJson(block: Block, values: Record<string, RawJson>): Record<string, unknown> {
  const masks: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(values)) masks[k] = sensitiveValues(block, v);
  return { ...values, sensitive_values: masks };
}

/** The `--config` object, built against the entry's schema. */
export function configInput(o: ResourceOptions, entry: SchemaEntry): Value {
  const plain = o.config === undefined ? {} : (jsonNodeToPlain(readJsonObjectInput("--config", o.config)) as PlainConfig);
  return buildConfig("--config", entry, plain);
}

/** The prior state and private from `--state`/`--from`/`--private`; `required` makes a missing state a usage error. */
export function priorInput(o: ResourceOptions, entry: SchemaEntry, required = false): { prior?: Value; priorPrivate?: Uint8Array } {
  const stateArg = o.state ?? o.priorState;
  if (stateArg !== undefined && o.from !== undefined) throw new CliError(CliErrorCode.Usage, "give either --state or --from, not both");
  const r: { prior?: Value; priorPrivate?: Uint8Array } = {};
  if (o.from !== undefined) {
    const doc = readJsonObjectInput("--from", o.from);
    const st = doc.members.get("state");
    if (st === undefined) throw new CliError(CliErrorCode.BadInput, "--from: the JSON has no \"state\" member (give the output of apply, read, import or upgrade)");
    assertNotRedacted("--from", doc, ["state"]);
    r.prior = valueFromJson("--from: state", st.raw, entry.type);
    const p = doc.members.get("private");
    if (p !== undefined && p.kind === "string") r.priorPrivate = decodeBase64("--from: private", p.value);
  } else if (stateArg !== undefined) {
    const node = readJsonInput("--state", stateArg);
    if (node.kind !== "object" && node.kind !== "null") throw new CliError(CliErrorCode.BadInput, `--state: expected a JSON object, got ${describeNode(node)}`);
    r.prior = valueFromJson("--state", node.raw, entry.type);
  }
  if (o.private !== undefined) r.priorPrivate = decodeBase64("--private", o.private);
  if (required && (r.prior === undefined || r.prior.isNull())) {
    throw new CliError(CliErrorCode.Usage, "this command needs the object's state: give --state JSON or --from an earlier command's output");
  }
  return r;
}

/** The JSON form of a plan, which `apply --plan` reads back. */
export function planJson(plan: PlanOutcome): Record<string, unknown> {
  const t = plan.entry.type;
  const prior = valueToJson(plan.prior, t);
  const config = valueToJson(plan.config, t);
  const planned = valueToJson(plan.change.plannedState, t);
  const { sensitive_values } = valuesJson(plan.entry.block, { prior_state: prior, config, planned_state: planned });
  return {
    type: plan.typeName,
    action: plan.action,
    prior_state: prior,
    prior_private: encodeBase64(plan.priorPrivate),
    config,
    planned_state: planned,
    after_unknown: unknownMask(plan.change.plannedState),
    sensitive_values,
    requires_replace: plan.change.requiresReplace.map((p) => p.toString()),
    replacing: plan.replacing.map((p) => p.toString()),
    planned_private: encodeBase64(plan.change.plannedPrivate),
    warnings: plan.change.warnings.map(diagToJson),
  };
}

/** Reads a saved `magma plan` JSON output (`apply --plan FILE`). */
export function savedPlan(file: string, type: string, entry: SchemaEntry): PlanOutcome {
  const doc = readJsonObjectInput("--plan", file);
  const member = (k: string): JsonNode => {
    const v = doc.members.get(k);
    if (v === undefined) throw new CliError(CliErrorCode.BadInput, `--plan: missing ${JSON.stringify(k)} (give the JSON output of \`magma plan\`)`);
    return v;
  };
  const str = (k: string): string => {
    const v = member(k);
    if (v.kind !== "string") throw new CliError(CliErrorCode.BadInput, `--plan: ${JSON.stringify(k)} must be a string`);
    return v.value;
  };
  if (str("type") !== type) throw new CliError(CliErrorCode.BadInput, `--plan: the plan is for ${str("type")}, not ${type}`);
  assertNotRedacted("--plan", doc, ["prior_state", "config", "planned_state"]);
  const action = str("action");
  if (!Object.values(PlanAction).includes(action as PlanAction)) throw new CliError(CliErrorCode.BadInput, `--plan: unknown action ${JSON.stringify(action)}`);
  const t = entry.type;
  const plannedState = valueFromJson("--plan: planned_state", member("planned_state").raw, t, member("after_unknown"));
  return {
    typeName: type,
    entry,
    action: action as PlanAction,
    prior: valueFromJson("--plan: prior_state", member("prior_state").raw, t),
    priorPrivate: decodeBase64("--plan: prior_private", str("prior_private")),
    config: valueFromJson("--plan: config", member("config").raw, t),
    change: { plannedState, requiresReplace: [], plannedPrivate: decodeBase64("--plan: planned_private", str("planned_private")), legacyTypeSystem: false, warnings: [] },
    replacing: [],
  };
}
