import type { Diag } from "@magma/provider-api";

/** The stable codes of {@link EngineError}. */
export const EngineErrorCode = {
  /** The dependency graph has a cycle; the message names it. */
  Cycle: "cycle",
  /** A graph edge or lookup named a node that was never added. */
  UnknownNode: "unknown_node",
  /** A caller passed a bad argument (e.g. a parallelism below 1). */
  InvalidArgument: "invalid_argument",
  /** "Provider produced invalid plan": the provider's plan breaks Terraform's plan rules. */
  InvalidPlan: "invalid_plan",
  /** "Provider produced inconsistent final plan": the plan at apply differs from the saved one. */
  InconsistentFinalPlan: "inconsistent_final_plan",
  /** "Provider produced inconsistent result after apply"; the object is still carried (`state`). */
  InconsistentResult: "inconsistent_result",
  /** The provider answered something the engine cannot use (e.g. a destroy that left an object). */
  InvalidProviderResponse: "invalid_provider_response",
  /** An import found nothing with the id, or the read after it found the object gone. */
  ImportNotFound: "import_not_found",
  /** A stored object cannot be used (e.g. legacy flatmap attributes only, which magma does not upgrade). */
  UnsupportedState: "unsupported_state",
  /** A provider deferred an operation though the engine did not allow it. */
  UnexpectedDeferral: "unexpected_deferral",
  /** A saved plan was made against a state that has since moved on (other lineage or serial). */
  StalePlan: "stale_plan",
  /** A saved plan file is not valid (not JSON, wrong format version, a value that does not decode). */
  InvalidPlanFile: "invalid_plan_file",
  /** A provider could not be opened (not found, failed to start); the message names its address. */
  ProviderUnavailable: "provider_unavailable",
  /** A provider's `configure` failed; the diagnostics are carried. */
  ProviderConfigureFailed: "provider_configure_failed",

  // SAFETY (refresh guard, import).

  /**
   * A refresh looks like an outage rather than real changes (every or most reads failed, or
   * an unusual share of objects "vanished"): nothing was written; the message gives the
   * counts and example addresses. See `judgeRefresh`.
   */
  RefreshSuspect: "refresh_suspect",
  /** An import found several objects for one id ("Multiple import states not supported"). */
  ImportMultiple: "import_multiple",
  /** An import returned an object of another resource type than the one asked for. */
  ImportTypeMismatch: "import_type_mismatch",
  /** An import to an address that state already holds ("Resource already managed by Terraform"). */
  AlreadyManaged: "already_managed",
} as const;

/** One of the {@link EngineErrorCode} values. */
export type EngineErrorCode = (typeof EngineErrorCode)[keyof typeof EngineErrorCode];

/** Options of the {@link EngineError} constructor. */
export interface EngineErrorOptions {
  /** The underlying error, kept as `Error.cause`. */
  readonly cause?: unknown;
  /** For `cycle`: the node ids of the cycle, in order (the first repeated at the end). */
  readonly cycle?: readonly string[];
  /** The diagnostics behind the error (e.g. each invalid path of a plan), errors and warnings. */
  readonly diagnostics?: readonly Diag[];
}

/**
 * The one error class of `@magma/engine`. The message starts with `[code]` and names what
 * and where; `code` is stable. Check with {@link isEngineError}, never `instanceof`.
 */
export class EngineError extends Error {
  /** Always `"EngineError"`. */
  override readonly name = "EngineError" as const;
  /** What kind of failure this is. */
  readonly code: EngineErrorCode;
  /** For `cycle`: the node ids of the cycle, the first repeated at the end. */
  readonly cycle: readonly string[] | undefined;
  /** The diagnostics behind the error (empty when none). */
  readonly diagnostics: readonly Diag[];

  /**
   * @param code - the stable error code.
   * @param message - what was wrong and where (the `[code] ` prefix is added here).
   * @param options - `cause`, `diagnostics` and, for cycles, `cycle`.
   */
  constructor(code: EngineErrorCode, message: string, options: EngineErrorOptions = {}) {
    super(`[${code}] ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.cycle = options.cycle;
    this.diagnostics = options.diagnostics ?? [];
  }
}

/** Whether `x` is an {@link EngineError} (by shape, so duplicated package copies still match). */
export function isEngineError(x: unknown): x is EngineError {
  return typeof x === "object" && x !== null && (x as { name?: unknown }).name === "EngineError" && typeof (x as { code?: unknown }).code === "string";
}
