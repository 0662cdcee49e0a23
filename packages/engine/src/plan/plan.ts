import { createHash } from "node:crypto";
import type { PlannedInstanceChange } from "./planned-instance-change.js";
import { encodeChange } from "./encode-change.js";

/** The state a plan was made against: the lineage and serial of its prior state. */
export interface PlanPriorState {
  /** The prior state's lineage (a UUID fixed at its creation). */
  readonly lineage: string;
  /** The prior state's serial. */
  readonly serial: number;
}

/**
 * A plan: the change of every instance, the state it was made against and a digest of
 * the configuration, with an identity hash over all three. `apply` refuses a plan whose
 * state has moved on (see {@link assertPlanCurrent}).
 */
export interface Plan {
  /** The per-instance changes, in plan order. */
  readonly changes: readonly PlannedInstanceChange[];
  /** The state the plan was made against. */
  readonly prior: PlanPriorState;
  /** A digest of the configuration the plan was made from (hex), as the caller computed it. */
  readonly configDigest: string;
  /** The plan identity: SHA-256 (hex) over the changes, the prior lineage and serial, and the config digest. */
  readonly identity: string;
}

/** The parts of a {@link Plan} that {@link createPlan} takes. */
export interface PlanInput {
  /** The per-instance changes. */
  readonly changes: readonly PlannedInstanceChange[];
  /** The state the plan was made against. */
  readonly prior: PlanPriorState;
  /** A digest of the configuration (hex). */
  readonly configDigest: string;
}

/** Builds a {@link Plan}, computing its identity. */
export function createPlan(input: PlanInput): Plan {
  return { changes: input.changes, prior: input.prior, configDigest: input.configDigest, identity: planIdentity(input) };
}

/**
 * The plan identity: SHA-256 (hex) over the encoded changes (address, action, values with
 * their unknowns, requires-replace paths, private data — not the warnings), the prior
 * state's lineage and serial, and the config digest. Equal plans have equal identities.
 */
export function planIdentity(input: PlanInput): string {
  const h = createHash("sha256");
  h.update(JSON.stringify({ lineage: input.prior.lineage, serial: input.prior.serial, config: input.configDigest }));
  for (const c of input.changes) {
    h.update("\n");
    h.update(JSON.stringify(encodeChange(c)));
  }
  return h.digest("hex");
}
