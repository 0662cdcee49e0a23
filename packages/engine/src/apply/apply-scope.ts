import type { Value } from "@magma/cty";
import type { CheckStatus, PlannedCheck } from "../plan/planned-check.js";
import type { PlannedProvider } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import type { PlanDiagnostic } from "../planner/plan-diagnostic.js";

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
  /**
   * The conditions evaluated again after the apply walk (Terraform's apply-time checks): absent
   * → the state keeps no check results.
   */
  checks?(values: AppliedValues, request: ApplyChecksRequest): Promise<ApplyChecksResult>;
  /**
   * The conditions of a resource instance, as Terraform's apply node evaluates them: its
   * preconditions (`which` "pre") before the instance is applied or read (a failed one fails
   * the instance before any provider call), its postconditions ("post") with its new object,
   * before its dependents start; both by default. Absent → left to {@link checks}.
   */
  instanceConditions?(change: PlannedInstanceChange, values: AppliedValues, which?: "pre" | "post"): Promise<InstanceConditions>;
  /**
   * The preconditions (before its open) or the postconditions (after it, `self` its value
   * among `values`) of an ephemeral resource instance, evaluated as Terraform's open node
   * evaluates them in every walk: a failed one fails the instance. Absent → not evaluated.
   */
  ephemeralConditions?(address: string, which: "precondition" | "postcondition", values: AppliedValues): Promise<InstanceConditions>;
  /** Whether a data source instance is scoped in a `check` block (its read failing only warns and fails the check). */
  inCheckBlock?(address: string): boolean;
}

/** One condition's outcome: its status, and the failure's message. */
export interface ConditionOutcome {
  readonly status: CheckStatus;
  readonly message?: string;
}

/** The outcome of {@link ApplyScope.instanceConditions}. */
export interface InstanceConditions {
  /** Each condition's outcome, preconditions first (none when the instance has no conditions). */
  readonly outcomes: readonly ConditionOutcome[];
  /** Failed conditions (errors), and conditions that could not be evaluated. */
  readonly diagnostics: readonly PlanDiagnostic[];
}

/** What {@link ApplyScope.checks} is asked to evaluate. */
export interface ApplyChecksRequest {
  /** The plan's checks: which checkable objects and instances the plan knew. */
  readonly planned: readonly PlannedCheck[];
  /**
   * Whether the apply walk visited a resource instance (applied it, read it, or left it as a
   * no-op), so that its conditions are evaluated again; the others' stay `unknown`.
   */
  readonly applied: (address: string) => boolean;
  /** The data sources scoped in `check` blocks whose read failed at apply, with the error's text. */
  readonly failedCheckData: ReadonlyMap<string, string>;
  /** The resource instances whose conditions the walk evaluated ({@link ApplyScope.instanceConditions}), with their outcomes. */
  readonly evaluated?: ReadonlyMap<string, readonly ConditionOutcome[]>;
}

/** The outcome of {@link ApplyScope.checks}. */
export interface ApplyChecksResult {
  /** Every checkable object of the plan with the apply's statuses. */
  readonly checks: readonly PlannedCheck[];
  /** Failed conditions (errors; warnings for `check` blocks) and conditions that could not be evaluated. */
  readonly diagnostics: readonly PlanDiagnostic[];
}
