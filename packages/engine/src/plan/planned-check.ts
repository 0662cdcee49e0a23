/** The status of a checkable object or of one of its instances, as Terraform's `checks` report it. */
export type CheckStatus = "pass" | "fail" | "error" | "unknown";

/** One instance of a checkable object and how its conditions came out. */
export interface PlannedCheckInstance {
  /** The instance address (`aws_x.y[0]`, `module.m[1].output.o`, `check.c`, `var.v`). */
  readonly address: string;
  /** The module instance address, when not the root module. */
  readonly module?: string;
  /** The resource instance key, when the resource repeats. */
  readonly instanceKey?: number | string;
  readonly status: CheckStatus;
  /** The error messages of the conditions that failed. */
  readonly problems: readonly string[];
}

/**
 * A checkable object of the configuration (Terraform's `addrs.ConfigCheckable`): a resource
 * with preconditions or postconditions, an output with preconditions, a `check` block, or a
 * variable with validations, with the status of each of its instances the plan evaluated.
 */
export interface PlannedCheck {
  readonly kind: "resource" | "output_value" | "check" | "var";
  /** The configuration address (`module.m.aws_x.y`, `output.o`, `check.c`, `var.v`). */
  readonly address: string;
  /** The module path (`module.m.module.n`), when not the root module. */
  readonly module?: string;
  /** `managed` or `data` (resources only). */
  readonly mode?: "managed" | "data";
  /** The resource type (resources only). */
  readonly type?: string;
  /** The resource, output, check or variable name. */
  readonly name: string;
  /** The aggregate status: `error` over `fail` over `unknown` over `pass`; `unknown` when no instance was evaluated. */
  readonly status: CheckStatus;
  readonly instances: readonly PlannedCheckInstance[];
}

/** Terraform's aggregation of statuses: any error, else any failure, else any unknown, else pass; none is unknown. */
export function aggregateCheckStatus(statuses: readonly CheckStatus[]): CheckStatus {
  if (statuses.length === 0) return "unknown";
  if (statuses.includes("error")) return "error";
  if (statuses.includes("fail")) return "fail";
  if (statuses.includes("unknown")) return "unknown";
  return "pass";
}
