import type { Value } from "@magma/cty";
import type { PlannedProvider } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";

/** The objects the apply knows so far, for re-evaluating configuration with now-known values. */
export interface AppliedValues {
  /**
   * The current object of a resource instance by address (`aws_x.y[0]`,
   * `module.m.data.aws_z.w`): the applied result, the prior object of a no-op, or the
   * planned object (with unknowns) while it is still pending. `undefined` when the
   * instance does not exist (deleted, or never planned).
   */
  instance(address: string): Value | undefined;
}

/**
 * An ephemeral resource of the configuration (`ephemeral "T" "N"`), which the apply opens
 * again, as Terraform's apply graph does: after what its configuration depends on, before
 * what depends on it, and closed once those are done.
 */
export interface ApplyEphemeralResource {
  /** Its configuration address: `ephemeral.random_password.p`, `module.m.ephemeral.x.y`. */
  readonly id: string;
  /** Its type name. */
  readonly typeName: string;
  /** The provider configuration that opens it (with the resources its configuration depends on). */
  readonly provider: PlannedProvider;
  /** The configuration resources it depends on, as a change's `dependencies` name them. */
  readonly dependencies: readonly string[];
}

/** One instance of an {@link ApplyEphemeralResource}, evaluated with the values the apply knows. */
export interface ApplyEphemeralInstance {
  /** Its address (`module.m["a"].ephemeral.x.y[0]`). */
  readonly address: string;
  /** Its configuration now (unmarked). */
  readonly config: Value;
}

/**
 * How the apply re-evaluates configuration once the values it references are known
 * (Terraform evaluates each node's configuration again during apply). The configuration
 * planner provides one for its plans; without one, the apply uses the plan's values as they
 * are and refuses any that still hold unknowns.
 */
export interface ApplyScope {
  /** The configuration of a provider (by absolute address) now, to configure it with. */
  providerConfig(address: string, values: AppliedValues): Promise<Value>;
  /** The configuration of a planned instance now (the apply re-plans with it when the plan's held unknowns). */
  instanceConfig(change: PlannedInstanceChange, values: AppliedValues): Promise<Value>;
  /**
   * The root module's outputs after the apply; those named in `skip` (the apply keeps their
   * planned values) are neither evaluated nor returned.
   */
  outputs(values: AppliedValues, skip?: ReadonlySet<string>): Promise<Readonly<Record<string, { readonly value: Value; readonly sensitive: boolean }>>>;
  /** The configuration's ephemeral resources, which the apply opens (none when absent). */
  readonly ephemeralResources?: readonly ApplyEphemeralResource[];
  /**
   * The instances of an ephemeral resource (by {@link ApplyEphemeralResource.id}) in every
   * instance of its module now: its `count`/`for_each` and each instance's configuration
   * evaluated with the values known so far (the expansion is kept for later references).
   *
   * @throws PlanDiagnosticsError for an expression that does not evaluate.
   */
  ephemeralInstances?(id: string, values: AppliedValues): Promise<readonly ApplyEphemeralInstance[]>;
}
