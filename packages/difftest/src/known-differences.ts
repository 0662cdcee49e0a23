import { Construct } from "./stack-arbitrary.js";

/**
 * The constructs whose differences between magma and terraform are found and still open
 * (each with its minimal reproduction in docs/compatibility.md). The CI batch leaves them out
 * so that it stays green while it guards everything else; `pnpm difftest --all` puts them back.
 * Remove an entry when its difference is fixed.
 */
export const KNOWN_OPEN: ReadonlyMap<Construct, string> = new Map<Construct, string>([
  [Construct.ImpliedMove, "difference 10: count removed (or added): terraform moves [0] to the no-key instance (\"has moved to\"); magma destroys one and creates the other"],
  [Construct.DataSources, "difference 19: a module call whose instances change (count = 2 to for_each) and whose module reads a data source: magma keeps the data source's objects of the module instances that are gone in state; terraform drops them"],
]);
