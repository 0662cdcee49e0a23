import type { Diagnostic } from "@magma/hcl";

/**
 * Terraform's `ConsolidateWarnings(1)` for its human views: warnings with a source location and
 * the same summary become one, in the place of the first, its detail ending with "(and one
 * more similar warning elsewhere)" or "(and N more similar warnings elsewhere)". Errors,
 * warnings without a location and a `check` block's warnings (its conditions' and its data
 * sources', which terraform marks with a `CheckRuleDiagnosticExtra` saying so) are kept as they are.
 */
export function consolidateWarnings<D extends Diagnostic & { readonly fromCheckBlock?: boolean }>(diags: readonly D[]): D[] {
  const groups = new Map<string, { first: D; more: number }>();
  const order: ({ group: string } | { diag: D })[] = [];
  for (const d of diags) {
    if (d.severity !== "warning" || d.subject === undefined || d.fromCheckBlock === true) {
      order.push({ diag: d });
      continue;
    }
    const g = groups.get(d.summary);
    if (g !== undefined) {
      g.more++;
      continue;
    }
    groups.set(d.summary, { first: d, more: 0 });
    order.push({ group: d.summary });
  }
  return order.map((o) => {
    if ("diag" in o) return o.diag;
    const { first, more } = groups.get(o.group)!;
    if (more === 0) return first;
    const note = more === 1 ? "(and one more similar warning elsewhere)" : `(and ${more} more similar warnings elsewhere)`;
    return { ...first, detail: first.detail === "" ? note : `${first.detail}\n\n${note}` };
  });
}
