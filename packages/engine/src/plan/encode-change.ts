import { fromMsgpack, toMsgpack, typeFromJson, typeToJson, type Value } from "@magma/cty";
import { decodeSensitivePaths, encodeSensitivePaths } from "@magma/state";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction, ReadReason, ReplaceReason, type DeleteReason } from "./plan-action.js";
import type { PlannedInstanceChange } from "./planned-instance-change.js";

/** A cty value in a plan file: its type as cty JSON, and the value as base64 msgpack (which keeps unknowns). */
export interface EncodedValue {
  /** The type, as cty's type JSON. */
  readonly type: string;
  /** The value, msgpack-encoded with that type, in base64. */
  readonly msgpack: string;
}

/** A {@link PlannedInstanceChange} as a plan file holds it (warnings are not kept). */
export interface EncodedChange {
  readonly address: string;
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly action: PlanAction;
  readonly before: EncodedValue;
  readonly after: EncodedValue;
  readonly config: EncodedValue;
  /** Terraform's path JSON (as in `sensitive_attributes`). */
  readonly requires_replace: string;
  readonly replace_reason?: ReplaceReason;
  readonly read_reason?: ReadReason;
  readonly delete_reason?: DeleteReason;
  /** Base64. */
  readonly prior_private: string;
  /** Base64. */
  readonly planned_private: string;
  readonly prior_tainted: boolean;
  readonly legacy_type_system: boolean;
  // The configuration-level planner's fields, present when set.
  readonly module_address?: string;
  readonly provider_config?: string;
  readonly dependencies?: readonly string[];
  readonly create_before_destroy?: boolean;
  readonly deposed_key?: string;
  readonly schema_version?: number;
  readonly previous_address?: string;
  readonly import_id?: string;
  readonly provider_meta?: EncodedValue;
  /** Terraform's path JSON. */
  readonly after_sensitive_paths?: string;
  /** Terraform's path JSON. */
  readonly before_sensitive_paths?: string;
}

/** Encodes a change for a plan file and the plan identity. */
export function encodeChange(c: PlannedInstanceChange): EncodedChange {
  const out: EncodedChange = {
    address: c.address,
    mode: c.mode,
    type: c.typeName,
    action: c.action,
    before: encodeValue(c.before),
    after: encodeValue(c.after),
    config: encodeValue(c.persistedConfig ?? c.config),
    requires_replace: encodeSensitivePaths(c.requiresReplace),
    prior_private: Buffer.from(c.priorPrivate).toString("base64"),
    planned_private: Buffer.from(c.plannedPrivate).toString("base64"),
    prior_tainted: c.priorTainted,
    legacy_type_system: c.legacyTypeSystem,
  };
  return {
    ...out,
    ...(c.replaceReason !== undefined ? { replace_reason: c.replaceReason } : {}),
    ...(c.readReason !== undefined ? { read_reason: c.readReason } : {}),
    ...(c.deleteReason !== undefined ? { delete_reason: c.deleteReason } : {}),
    ...(c.moduleAddress !== undefined ? { module_address: c.moduleAddress } : {}),
    ...(c.providerConfig !== undefined ? { provider_config: c.providerConfig } : {}),
    ...(c.dependencies !== undefined ? { dependencies: [...c.dependencies] } : {}),
    ...(c.createBeforeDestroy !== undefined ? { create_before_destroy: c.createBeforeDestroy } : {}),
    ...(c.deposedKey !== undefined ? { deposed_key: c.deposedKey } : {}),
    ...(c.schemaVersion !== undefined ? { schema_version: c.schemaVersion } : {}),
    ...(c.previousAddress !== undefined ? { previous_address: c.previousAddress } : {}),
    ...(c.importId !== undefined ? { import_id: c.importId } : {}),
    ...(c.providerMeta !== undefined ? { provider_meta: encodeValue(c.providerMeta) } : {}),
    ...(c.afterSensitivePaths !== undefined ? { after_sensitive_paths: encodeSensitivePaths(c.afterSensitivePaths) } : {}),
    ...(c.beforeSensitivePaths !== undefined ? { before_sensitive_paths: encodeSensitivePaths(c.beforeSensitivePaths) } : {}),
  };
}

/**
 * Decodes a change of a plan file.
 *
 * @param where Names the change in errors (e.g. `changes[3]`).
 * @throws {@link EngineError} `invalid_plan_file` naming the field that is wrong.
 */
export function decodeChange(raw: unknown, where: string): PlannedInstanceChange {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw bad(where, "is not an object");
  const r = raw as Record<string, unknown>;
  const str = (k: string): string => {
    const v = r[k];
    if (typeof v !== "string") throw bad(`${where}.${k}`, "is not a string");
    return v;
  };
  const bool = (k: string): boolean => {
    const v = r[k];
    if (typeof v !== "boolean") throw bad(`${where}.${k}`, "is not a boolean");
    return v;
  };
  const mode = str("mode");
  if (mode !== "managed" && mode !== "data") throw bad(`${where}.mode`, `is ${JSON.stringify(mode)}, not "managed" or "data"`);
  const action = str("action");
  if (!(Object.values(PlanAction) as string[]).includes(action)) throw bad(`${where}.action`, `is ${JSON.stringify(action)}, not a plan action`);
  let requiresReplace;
  try {
    requiresReplace = decodeSensitivePaths(str("requires_replace"));
  } catch (e) {
    throw bad(`${where}.requires_replace`, `is not a list of paths (${(e as Error).message})`, e);
  }
  const out: PlannedInstanceChange = {
    address: str("address"),
    mode,
    typeName: str("type"),
    action: action as PlanAction,
    before: decodeValue(r["before"], `${where}.before`),
    after: decodeValue(r["after"], `${where}.after`),
    config: decodeValue(r["config"], `${where}.config`),
    requiresReplace,
    priorPrivate: Uint8Array.from(Buffer.from(str("prior_private"), "base64")),
    plannedPrivate: Uint8Array.from(Buffer.from(str("planned_private"), "base64")),
    priorTainted: bool("prior_tainted"),
    legacyTypeSystem: bool("legacy_type_system"),
    warnings: [],
  };
  const opt = <T,>(k: string, check: (v: unknown) => v is T, what: string): T | undefined => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (!check(v)) throw bad(`${where}.${k}`, `is not ${what}`);
    return v;
  };
  const isStr = (v: unknown): v is string => typeof v === "string";
  const paths = (k: string) => {
    const v = opt(k, isStr, "a string");
    if (v === undefined) return undefined;
    try {
      return decodeSensitivePaths(v);
    } catch (e) {
      throw bad(`${where}.${k}`, `is not a list of paths (${(e as Error).message})`, e);
    }
  };
  const reason = opt("replace_reason", isStr, "a string");
  if (reason !== undefined && !(Object.values(ReplaceReason) as string[]).includes(reason)) throw bad(`${where}.replace_reason`, `is ${JSON.stringify(reason)}, not a replace reason`);
  const readReason = opt("read_reason", isStr, "a string");
  if (readReason !== undefined && !(Object.values(ReadReason) as string[]).includes(readReason)) throw bad(`${where}.read_reason`, `is ${JSON.stringify(readReason)}, not a read reason`);
  const deleteReason = opt("delete_reason", isStr, "a string");
  if (deleteReason !== undefined && !DELETE_REASONS.includes(deleteReason)) throw bad(`${where}.delete_reason`, `is ${JSON.stringify(deleteReason)}, not a delete reason`);
  const moduleAddress = opt("module_address", isStr, "a string");
  const providerConfig = opt("provider_config", isStr, "a string");
  const dependencies = opt("dependencies", (v): v is string[] => Array.isArray(v) && v.every(isStr), "a list of strings");
  const createBeforeDestroy = opt("create_before_destroy", (v): v is boolean => typeof v === "boolean", "a boolean");
  const deposedKey = opt("deposed_key", isStr, "a string");
  const schemaVersion = opt("schema_version", (v): v is number => Number.isSafeInteger(v), "an integer");
  const previousAddress = opt("previous_address", isStr, "a string");
  const importId = opt("import_id", isStr, "a string");
  const providerMeta = r["provider_meta"] === undefined ? undefined : decodeValue(r["provider_meta"], `${where}.provider_meta`);
  const afterSensitivePaths = paths("after_sensitive_paths");
  const beforeSensitivePaths = paths("before_sensitive_paths");
  return {
    ...out,
    ...(reason !== undefined ? { replaceReason: reason as ReplaceReason } : {}),
    ...(readReason !== undefined ? { readReason: readReason as ReadReason } : {}),
    ...(deleteReason !== undefined ? { deleteReason: deleteReason as DeleteReason } : {}),
    ...(moduleAddress !== undefined ? { moduleAddress } : {}),
    ...(providerConfig !== undefined ? { providerConfig } : {}),
    ...(dependencies !== undefined ? { dependencies } : {}),
    ...(createBeforeDestroy !== undefined ? { createBeforeDestroy } : {}),
    ...(deposedKey !== undefined ? { deposedKey } : {}),
    ...(schemaVersion !== undefined ? { schemaVersion } : {}),
    ...(previousAddress !== undefined ? { previousAddress } : {}),
    ...(importId !== undefined ? { importId } : {}),
    ...(providerMeta !== undefined ? { providerMeta } : {}),
    ...(afterSensitivePaths !== undefined ? { afterSensitivePaths } : {}),
    ...(beforeSensitivePaths !== undefined ? { beforeSensitivePaths } : {}),
  };
}

/** Encodes a value for a plan file (type JSON and base64 msgpack, unknowns kept). */
export function encodeValue(v: Value): EncodedValue {
  return { type: typeToJson(v.type), msgpack: Buffer.from(toMsgpack(v, v.type)).toString("base64") };
}

const DELETE_REASONS: readonly string[] = [
  "delete_because_no_resource_config",
  "delete_because_wrong_repetition",
  "delete_because_count_index",
  "delete_because_each_key",
  "delete_because_no_module",
  "delete_because_no_move_target",
] satisfies readonly DeleteReason[];

/** Decodes a value of a plan file. @throws {@link EngineError} `invalid_plan_file`. */
export function decodeValue(raw: unknown, where: string): Value {
  const r = raw as { type?: unknown; msgpack?: unknown } | null;
  if (typeof r !== "object" || r === null || typeof r.type !== "string" || typeof r.msgpack !== "string") throw bad(where, "is not a {type, msgpack} value");
  try {
    return fromMsgpack(Buffer.from(r.msgpack, "base64"), typeFromJson(r.type));
  } catch (e) {
    throw bad(where, `does not decode: ${(e as Error).message}`, e);
  }
}

function bad(where: string, what: string, cause?: unknown): EngineError {
  return new EngineError(EngineErrorCode.InvalidPlanFile, `plan file: ${where} ${what}`, cause === undefined ? {} : { cause });
}
