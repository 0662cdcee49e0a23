import type { SourceRange } from "@magma/hcl";

/** A position as terraform's JSON diagnostics write it. */
export interface DiagnosticPosJson {
  readonly line: number;
  readonly column: number;
  readonly byte: number;
}

/** A diagnostic's range as terraform's JSON diagnostics write it. */
export interface DiagnosticRangeJson {
  readonly filename: string;
  readonly start: DiagnosticPosJson;
  readonly end: DiagnosticPosJson;
}

/**
 * A diagnostic subject's range as `validate -json` and the `-json` UI write it: an empty
 * range (a parser's end-of-file position, say) is widened by one byte and column, as
 * terraform's `views/json` does so that the highlight is never empty.
 */
export function diagnosticRangeJson(r: SourceRange): DiagnosticRangeJson {
  const start = { line: r.start.line, column: r.start.column, byte: r.start.byte };
  const empty = r.start.byte === r.end.byte;
  const end = { line: r.end.line, column: r.end.column + (empty ? 1 : 0), byte: r.end.byte + (empty ? 1 : 0) };
  return { filename: r.filename, start, end };
}
