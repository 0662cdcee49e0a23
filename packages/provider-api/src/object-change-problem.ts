import { Path, type PathStep, type Value } from "@magma/cty";
import { goQuote } from "./cty-go-string.js";
import { errorDiag, warningDiag, type Diag } from "./diagnostic.js";

/** A step of the path of a problem: a cty path step, or a set element (not addressable). */
export type ProblemStep = PathStep | { readonly kind: "set"; readonly element: Value };

/** One problem found by {@link assertPlanValid} or {@link assertObjectCompatible}, before it becomes a diagnostic. */
export interface ObjectChangeProblem {
  /** Where, as Terraform walks it. */
  readonly steps: readonly ProblemStep[];
  /** Terraform's message, e.g. `planned value cty.StringVal("b") does not match config value cty.StringVal("a")`. */
  readonly message: string;
}

/** Options of {@link assertPlanValid} and {@link assertObjectCompatible}. */
export interface ObjectChangeCheckOptions {
  /**
   * The `legacyTypeSystem` flag the provider answered with. Terraform tolerates a plan or
   * an apply result that breaks the rules from a provider on the legacy SDK type system:
   * it only logs the problems. The problems then come back as warnings, so `hasErrors`
   * is false; a caller that follows Terraform logs them rather than showing them.
   * Unknown values left after apply are an error even then.
   */
  readonly legacyTypeSystem?: boolean;
  /** The provider's address for the message, as Terraform prints it (e.g. `registry.terraform.io/hashicorp/aws`). */
  readonly provider?: string;
  /** The resource instance's address for the message (e.g. `aws_vpc.main`; default `the resource`). */
  readonly address?: string;
}

/** Terraform's `tfdiags.FormatCtyPath`: `.name`, `[0]`, `["key"]`, `[...]` for a set element. */
export function formatProblemPath(steps: readonly ProblemStep[]): string {
  let out = "";
  for (const s of steps) {
    switch (s.kind) {
      case "attr":
        out += `.${s.name}`;
        break;
      case "key":
        out += `[${goQuote(s.key)}]`;
        break;
      case "index":
        out += `[${s.index}]`;
        break;
      case "set":
        out += "[...]";
        break;
    }
  }
  return out;
}

/** The addressable part of a problem's path: up to the first set element. */
export function problemPath(steps: readonly ProblemStep[]): Path {
  let p = Path.root;
  for (const s of steps) {
    if (s.kind === "set") break;
    p = s.kind === "attr" ? p.attr(s.name) : s.kind === "key" ? p.key(s.key) : p.index(s.index);
  }
  return p;
}

/** Makes a diagnostic: an error, or a warning when the problem is tolerated. */
export function problemDiag(tolerated: boolean, summary: string, detail: string, steps: readonly ProblemStep[]): Diag {
  const path = problemPath(steps);
  const at = path.isRoot() ? undefined : path;
  return tolerated ? warningDiag(summary, detail, at) : errorDiag(summary, detail, at);
}
