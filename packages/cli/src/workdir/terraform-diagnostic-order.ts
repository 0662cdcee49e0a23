import type { AddressedDiagnostic } from "./format-diagnostic.js";

/**
 * Diagnostics in the order Terraform's views print them (a stable sort): warnings before
 * errors, then those without a source location, then by file (fewer path segments first,
 * then by name) and position.
 */
export function terraformDiagnosticOrder(diags: readonly AddressedDiagnostic[]): AddressedDiagnostic[] {
  const segments = (f: string): number => f.split("/").length;
  return diags
    .map((d, i) => ({ d, i }))
    .sort((x, y) => {
      const a = x.d;
      const b = y.d;
      if (a.severity !== b.severity) return a.severity === "warning" ? -1 : 1;
      if ((a.subject === undefined) !== (b.subject === undefined)) return a.subject === undefined ? -1 : 1;
      if (a.subject !== undefined && b.subject !== undefined) {
        const [p, q] = [a.subject, b.subject];
        if (p.filename !== q.filename) return segments(p.filename) !== segments(q.filename) ? segments(p.filename) - segments(q.filename) : p.filename < q.filename ? -1 : 1;
        if (p.start.byte !== q.start.byte) return p.start.byte - q.start.byte;
        if (p.end.byte !== q.end.byte) return p.end.byte - q.end.byte;
      }
      return x.i - y.i;
    })
    .map((x) => x.d);
}
