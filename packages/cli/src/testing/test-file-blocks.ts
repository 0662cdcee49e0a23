import type { Block, Diagnostic, SourceRange } from "@magma/hcl";

/** An error diagnostic of a test file, with its subject when it has one. */
export function testFileError(summary: string, detail: string, subject?: SourceRange): Diagnostic {
  return { severity: "error", summary, detail, ...(subject !== undefined ? { subject } : {}) };
}

/** HCL's `DefRange` of a block: its type and labels (JSON: the block's opening brace). */
export function blockDefRange(b: Block): SourceRange {
  if (b.defRange !== undefined) return b.defRange;
  const last = b.labelRanges[b.labelRanges.length - 1] ?? b.typeRange;
  return { filename: b.typeRange.filename, start: b.typeRange.start, end: last.end };
}

/** `file:line,col-col` as HCL prints a range. */
export function rangeText(r: SourceRange): string {
  return r.start.line === r.end.line
    ? `${r.filename}:${r.start.line},${r.start.column}-${r.end.column}`
    : `${r.filename}:${r.start.line},${r.start.column}-${r.end.line},${r.end.column}`;
}
