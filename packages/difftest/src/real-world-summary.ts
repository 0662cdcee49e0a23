/** The summary table of a real-world run, one row per repository. */
import type { RealWorldResult } from "./real-world-root.js";

/**
 * A Markdown table of `results` by repository: commit (from `commitOf`), roots, identical
 * plans, failed alike, differing, timed out; a totals row last.
 */
export function renderRealWorldTable(results: readonly RealWorldResult[], commitOf: (repository: string) => string | undefined): string {
  const rows = new Map<string, number[]>();
  const col = { identical: 1, "failed-alike": 2, differ: 3, timeout: 4 } as const;
  for (const r of results) {
    const row = rows.get(r.repository) ?? [0, 0, 0, 0, 0];
    row[0]!++;
    row[col[r.outcome]]!++;
    rows.set(r.repository, row);
  }
  const total = [0, 0, 0, 0, 0];
  const lines = ["| repository | commit | roots | identical | failed alike | differ | timed out |", "|---|---|---|---|---|---|---|"];
  for (const [repo, row] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    row.forEach((n, i) => (total[i]! += n));
    lines.push(`| ${repo} | ${(commitOf(repo) ?? "").slice(0, 10)} | ${row.join(" | ")} |`);
  }
  lines.push(`| **${rows.size} repositories** | | ${total.join(" | ")} |`);
  return lines.join("\n");
}
