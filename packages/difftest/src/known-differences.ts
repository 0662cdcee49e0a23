import { Construct } from "./stack-arbitrary.js";

/**
 * The constructs whose differences between magma and terraform are found and still open
 * (each with its minimal reproduction in docs/compatibility.md). The CI batch leaves them out
 * so that it stays green while it guards everything else; `pnpm difftest --all` puts them back.
 * Remove an entry when its difference is fixed.
 */
export const KNOWN_OPEN: ReadonlyMap<Construct, string> = new Map<Construct, string>([
  [Construct.NestedAttributes, "magma requires the optional attributes of v6 nested attribute types in configuration (Incorrect attribute value type: attribute \"weight\" is required)"],
  [Construct.Legacy, "magma warns \"Provider produced inconsistent result after apply\" for a legacy-type-system provider's normalised value; terraform only logs it"],
  [Construct.DataSources, "magma stores no sensitive_attributes for a data source's sensitive attributes, and stores dependencies for data sources in modules"],
  [Construct.Import, "after an import block's apply magma says \"0 added, 1 changed\" (terraform \"1 imported\"), and its next plan fails: \"Configuration for import target does not exist\""],
  [Construct.Checks, "magma stores no check_results for check blocks"],
  [Construct.Validation, "magma stores no check_results for variable validations"],
  [Construct.Modules, "in a batch with modules called with count, magma's apply fails: \"Unknown variable: There is no variable named count\" for the module's resources (not reproduced alone yet)"],
  [Construct.ImpliedMove, "count removed (or added): terraform moves [0] to the no-key instance (\"has moved to\"); magma destroys one and creates the other"],
  [Construct.CreateBeforeDestroy, "magma stores create_before_destroy: true on instances that only depend on a create_before_destroy resource; terraform does not"],
  [Construct.ForOutputs, "an output [for k, v in R : upper(v.output)] over a for_each resource with a sensitive attribute, after another object is recreated: terraform's plan has no output change and marks it sensitive; magma shows \"Changes to Outputs\" with sensitive false"],
  [Construct.Vanish, "not yet seen differing; left out of the CI batch with the for-outputs case it came with"],
  [Construct.SensitiveOutputs, "an output whose only change is sensitive = true → false: magma prints \"Changes to Outputs:\", terraform does not (stack 13 of seed 32)"],
  [Construct.Removed, "removed { lifecycle { destroy = false } }: terraform warns \"Some objects will no longer be managed by Terraform\", magma does not (stack 44 of seed 32)"],
  [Construct.Moved, "a move only (moved block, nothing else changes): magma's apply says \"0 added, 1 changed\", terraform's \"0 added, 0 changed\""],
  [Construct.SensitiveVariable, "magma orders sensitive_attributes paths differently (input before key; terraform key before input)"],
]);
