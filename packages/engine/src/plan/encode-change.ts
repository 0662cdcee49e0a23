import { fromMsgpack, toMsgpack, typeFromJson, typeToJson, type Value } from "@magma/cty";
import { decodeSensitivePaths, encodeSensitivePaths } from "@magma/state";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction, ReplaceReason } from "./plan-action.js";
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
  /** Base64. */
  readonly prior_private: string;
  /** Base64. */
  readonly planned_private: string;
  readonly prior_tainted: boolean;
  readonly legacy_type_system: boolean;
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
    config: encodeValue(c.config),
    requires_replace: encodeSensitivePaths(c.requiresReplace),
    prior_private: Buffer.from(c.priorPrivate).toString("base64"),
    planned_private: Buffer.from(c.plannedPrivate).toString("base64"),
    prior_tainted: c.priorTainted,
    legacy_type_system: c.legacyTypeSystem,
  };
  return c.replaceReason === undefined ? out : { ...out, replace_reason: c.replaceReason };
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
  if (r["replace_reason"] === undefined) return out;
  const reason = str("replace_reason");
  if (!(Object.values(ReplaceReason) as string[]).includes(reason)) throw bad(`${where}.replace_reason`, `is ${JSON.stringify(reason)}, not a replace reason`);
  return { ...out, replaceReason: reason as ReplaceReason };
}

function encodeValue(v: Value): EncodedValue {
  return { type: typeToJson(v.type), msgpack: Buffer.from(toMsgpack(v, v.type)).toString("base64") };
}

function decodeValue(raw: unknown, where: string): Value {
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
