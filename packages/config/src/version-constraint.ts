import type { SourceRange } from "@magma/hcl";

/** The Terraform version magma declares (to `required_version`, state files and providers). */
export const TERRAFORM_VERSION = "1.11.4";

/** One comparison of a version constraint string (`>= 1.2`, `~> 5.0`). */
export interface VersionConstraint {
  readonly op: "=" | "!=" | ">" | ">=" | "<" | "<=" | "~>";
  /** The version's numeric segments as written (`~> 1.2` has two). */
  readonly segments: readonly number[];
  /** A pre-release suffix (`-beta1`), if any. */
  readonly prerelease: string;
  /** The constraint string it came from. */
  readonly text: string;
  readonly range?: SourceRange;
}

const ONE = /^\s*(=|!=|>=|<=|>|<|~>)?\s*v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\s*$/;

/**
 * Parses a comma-separated constraint string (`">= 1.0, < 2.0"`) as Terraform's
 * go-version does; `undefined` when it is malformed.
 */
export function parseVersionConstraints(text: string, range?: SourceRange): VersionConstraint[] | undefined {
  const out: VersionConstraint[] = [];
  for (const part of text.split(",")) {
    const m = ONE.exec(part);
    if (m === null) return undefined;
    const segments = m[2]!.split(".").map(Number);
    if (segments.length > 3) return undefined;
    out.push({
      op: (m[1] ?? "=") as VersionConstraint["op"],
      segments,
      prerelease: m[3] ?? "",
      text: part.trim(),
      ...(range !== undefined ? { range } : {}),
    });
  }
  return out;
}

function cmp(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether `version` (`1.11.4`) satisfies every constraint. */
export function versionSatisfies(version: string, constraints: readonly VersionConstraint[]): boolean {
  const [core = "", pre = ""] = version.split("-", 2);
  const v = core.split(".").map(Number);
  for (const c of constraints) {
    // A pre-release only satisfies constraints that name one (go-version).
    if (pre !== "" && c.prerelease === "") return false;
    const d = cmp(v, c.segments);
    switch (c.op) {
      case "=":
        if (d !== 0) return false;
        break;
      case "!=":
        if (d === 0) return false;
        break;
      case ">":
        if (d <= 0) return false;
        break;
      case ">=":
        if (d < 0) return false;
        break;
      case "<":
        if (d >= 0) return false;
        break;
      case "<=":
        if (d > 0) return false;
        break;
      case "~>": {
        if (d < 0) return false;
        // All segments but the last written must match.
        const fixed = Math.max(c.segments.length - 1, 1);
        for (let i = 0; i < fixed; i++) if ((v[i] ?? 0) !== (c.segments[i] ?? 0)) return false;
        break;
      }
    }
  }
  return true;
}
