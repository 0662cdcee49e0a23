import { readFile, rename, writeFile } from "node:fs/promises";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { decodeChange, encodeChange } from "./encode-change.js";
import { planIdentity, type Plan, type PlanPriorState } from "./plan.js";

/** The format marker of magma's saved plans. */
export const PLAN_FORMAT = "magma-plan/1";

/**
 * A plan as JSON text: the changes with their values (unknowns kept), private data and
 * requires-replace paths, the prior lineage and serial, the config digest and the identity.
 * Warnings are not kept.
 */
export function formatPlan(plan: Plan): string {
  return `${JSON.stringify(
    {
      format: PLAN_FORMAT,
      identity: plan.identity,
      prior_state: { lineage: plan.prior.lineage, serial: plan.prior.serial },
      config_digest: plan.configDigest,
      changes: plan.changes.map(encodeChange),
    },
    null,
    2,
  )}\n`;
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
    throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source} is not valid JSON: ${(e as Error).message}`, { cause: e });
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
  const input = { changes, prior: { lineage: prior.lineage, serial: prior.serial as number }, configDigest: r["config_digest"] };
  const identity = planIdentity(input);
  if (r["identity"] !== identity) {
    throw new EngineError(EngineErrorCode.InvalidPlanFile, `${source}: the content does not match the plan identity ${JSON.stringify(r["identity"])} (computed ${identity}); the plan was edited or damaged`);
  }
  return { ...input, identity };
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
