import type { Block, Diagnostic, SourceRange } from "@magma/hcl";
import { formatRange } from "@magma/hcl";

/** An error diagnostic in HCL's shape. @internal */
export function errorDiag(summary: string, detail: string, subject?: SourceRange, context?: SourceRange): Diagnostic {
  return {
    severity: "error",
    summary,
    detail,
    ...(subject !== undefined ? { subject } : {}),
    ...(context !== undefined ? { context } : {}),
  };
}

/** A warning diagnostic in HCL's shape. @internal */
export function warningDiag(summary: string, detail: string, subject?: SourceRange): Diagnostic {
  return { severity: "warning", summary, detail, ...(subject !== undefined ? { subject } : {}) };
}

/** The smallest range covering `a` and `b` (HCL's `RangeBetween`). @internal */
export function rangeBetween(a: SourceRange, b: SourceRange): SourceRange {
  return { filename: a.filename, start: a.start.byte <= b.start.byte ? a.start : b.start, end: a.end.byte >= b.end.byte ? a.end : b.end };
}

/** A block's "definition" range (HCL's `Block.DefRange`): its type and labels, or a JSON block's opening brace. @internal */
export function defRange(b: Block): SourceRange {
  if (b.defRange !== undefined) return b.defRange;
  const last = b.labelRanges[b.labelRanges.length - 1];
  return last === undefined ? b.typeRange : rangeBetween(b.typeRange, last);
}

/** `file:line,col-col` as Terraform prints a declaration's place in messages. @internal */
export function at(r: SourceRange): string {
  return formatRange(r);
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/**
 * The suggestion Terraform's `didyoumean.NameSuggestion` makes: the first candidate within
 * edit distance 2 of `given` (the closest wins), or `undefined`, for "Did you mean" details.
 */
export function nameSuggestion(given: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = 3;
  for (const c of candidates) {
    const d = distance(given, c);
    if (d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  return best;
}

/** HCL's identifier rule (`hclsyntax.ValidIdentifier`). @internal */
export function validIdentifier(s: string): boolean {
  return /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u.test(s);
}

/** Terraform's detail for an invalid name. @internal */
export const BAD_IDENTIFIER_DETAIL = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";
