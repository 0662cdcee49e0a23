import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { refreshInstance, type RefreshInstanceResult } from "../instance/refresh-instance.js";
import type { RefreshOutcome } from "./refresh-outcome.js";

/** What {@link refreshWithOutcome} resolves. */
export interface RefreshWithOutcome {
  /** How the read ended, for the refresh guard. */
  readonly outcome: RefreshOutcome;
  /** The read's result (the object now, or null when gone); undefined when the read failed (`outcome.error` says why). */
  readonly result?: RefreshInstanceResult;
}

/**
 * {@link refreshInstance} for a refresh that is judged as a whole: never rejects, and
 * classifies the read into a {@link RefreshOutcome} — `gone` (the provider says the object
 * no longer exists), `changed` (it differs from `prior`), `in-sync`, or `failed` with the
 * error (a provider failure, a deferral, unknown values in the answer).
 *
 * The planner refreshes every object with it, collects the outcomes, calls
 * `assertRefreshSafe(outcomes)` and only then uses the results (or writes them, in a
 * refresh-only run); the prior objects stay untouched until then.
 *
 * @param provider The provider configuration address (state's `provider`), copied into the
 * outcome so that the guard judges each provider's objects on their own too.
 */
export async function refreshWithOutcome(target: InstanceTarget, address: string, typeName: string, prior: InstanceObject, provider?: string): Promise<RefreshWithOutcome> {
  const scope = provider === undefined ? {} : { provider };
  try {
    const result = await refreshInstance(target, address, typeName, prior);
    const kind: RefreshOutcome["result"] = result.object === null ? "gone" : result.drifted ? "changed" : "in-sync";
    return { outcome: { address, result: kind, ...scope }, result };
  } catch (error) {
    return { outcome: { address, result: "failed", error, ...scope } };
  }
}
