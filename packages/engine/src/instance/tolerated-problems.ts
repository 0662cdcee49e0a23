import { formatProblemPath, type ObjectChangeProblem } from "@magma/provider-api";

/**
 * What a provider on the legacy SDK type system got away with (Terraform's
 * `resp.LegacyTypeSystem` tolerance): an invalid plan, or an apply result that does not
 * match its plan. Terraform neither fails nor warns about these: it writes one `[WARN]` line
 * to its log (`TF_LOG`) per call, listing the problems. The engine hands them out as `log`
 * events ({@link toleratedLogMessage}) rather than as diagnostics.
 */
export interface ToleratedProblems {
  /** `invalid_plan`: a PlanResourceChange answer (at plan, or the apply's final plan); `unexpected_new_value`: an ApplyResourceChange answer. */
  readonly kind: "invalid_plan" | "unexpected_new_value";
  /** The instance address. */
  readonly address: string;
  /** Each problem as `tfdiags.FormatError` prints it (`.path: message`). */
  readonly problems: readonly string[];
}

/** The tolerated problems of one call, or undefined when there are none. */
export function toleratedProblems(kind: ToleratedProblems["kind"], address: string, problems: readonly ObjectChangeProblem[]): ToleratedProblems | undefined {
  if (problems.length === 0) return undefined;
  return {
    kind,
    address,
    problems: problems.map((p) => {
      const at = formatProblemPath(p.steps);
      return at === "" ? p.message : `${at}: ${p.message}`;
    }),
  };
}

/**
 * Terraform's log line for tolerated problems (without the `[WARN]` level), as
 * `node_resource_abstract_instance.go` writes it. `provider` is what Terraform names there:
 * the provider's source address for a plan (`registry.terraform.io/hashicorp/aws`), the
 * provider configuration's address for an apply result (`provider["registry.terraform.io/hashicorp/aws"]`).
 */
export function toleratedLogMessage(t: ToleratedProblems, provider: string): string {
  const what = t.kind === "invalid_plan" ? "an invalid plan" : "an unexpected new value";
  const head = `Provider ${goQuoted(provider)} produced ${what} for ${t.address}, but we are tolerating it because it is using the legacy plugin SDK.\n    The following problems may be the cause of any confusing errors from downstream operations:`;
  return head + t.problems.map((p) => `\n      - ${p}`).join("");
}

/** Go's `%q` of an ASCII string (provider addresses are). */
function goQuoted(s: string): string {
  return JSON.stringify(s);
}
