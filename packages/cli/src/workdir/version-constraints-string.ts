import type { VersionConstraint } from "@magma/config";

const PRIORITY: Readonly<Record<string, number>> = { ">": 1, ">=": 2, "=": 3, "~>patch": 4, "~>minor": 5, "<=": 6, "<": 7, "!=": 8 };

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return 1;
  if (b === "") return -1;
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/**
 * The canonical constraints string Terraform writes into the lock file
 * (`getproviders.VersionConstraintsString`): deduplicated, sorted by boundary version then
 * operator, versions zero-filled to three parts (`~> 5.0` keeps two for the minor-only form),
 * `=` written without its operator.
 */
export function versionConstraintsString(constraints: readonly VersionConstraint[]): string {
  const items = new Map<string, { op: string; nums: [number, number, number]; pre: string; text: string }>();
  for (const c of constraints) {
    const nums: [number, number, number] = [c.segments[0] ?? 0, c.segments[1] ?? 0, c.segments[2] ?? 0];
    const op = c.op === "~>" ? (c.segments.length >= 3 ? "~>patch" : "~>minor") : c.op;
    const version = op === "~>minor" ? `${nums[0]}.${nums[1]}` : nums.join(".");
    const sym = op.startsWith("~>") ? "~> " : op === "=" ? "" : `${op} `;
    const text = `${sym}${version}${c.prerelease === "" ? "" : `-${c.prerelease}`}`;
    items.set(`${op} ${nums.join(".")}-${c.prerelease}`, { op, nums, pre: c.prerelease, text });
  }
  return [...items.values()]
    .sort((a, b) => {
      for (let i = 0; i < 3; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i]! - b.nums[i]!;
      const p = comparePre(a.pre, b.pre);
      if (p !== 0) return p;
      return PRIORITY[a.op]! - PRIORITY[b.op]!;
    })
    .map((i) => i.text)
    .join(", ");
}
