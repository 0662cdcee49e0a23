import type { SourceRange } from "@magma/hcl";
import { consolidateWarnings } from "./consolidate-warnings.js";
import { formatDiagnostics } from "./format-diagnostic.js";

const at = (line: number): SourceRange => ({ filename: "main.tf", start: { line, column: 1, byte: line * 10 }, end: { line, column: 5, byte: line * 10 + 4 } });

describe("consolidateWarnings (terraform's ConsolidateWarnings(1))", () => {
  test("warnings with a location and one summary become the first, with a note of the others; others stay in place", () => {
    const out = consolidateWarnings([
      { severity: "warning", summary: "A", detail: "first", subject: at(1) },
      { severity: "error", summary: "A", detail: "an error", subject: at(2) },
      { severity: "warning", summary: "B", detail: "", subject: at(3) },
      { severity: "warning", summary: "A", detail: "second", subject: at(4) },
      { severity: "warning", summary: "A", detail: "no location" },
      { severity: "warning", summary: "B", detail: "", subject: at(5) },
      { severity: "warning", summary: "A", detail: "third", subject: at(6) },
    ]);
    expect(out.map((d) => [d.severity, d.summary, d.detail])).toEqual([
      ["warning", "A", "first\n\n(and 2 more similar warnings elsewhere)"],
      ["error", "A", "an error"],
      ["warning", "B", "(and one more similar warning elsewhere)"],
      ["warning", "A", "no location"],
    ]);
  });

  test("a check block's warnings (its conditions', its data sources') are never consolidated", () => {
    const out = consolidateWarnings([
      { severity: "warning", summary: "Check block assertion failed", detail: "x", subject: at(1), fromCheckBlock: true },
      { severity: "warning", summary: "Check block assertion failed", detail: "y", subject: at(2), fromCheckBlock: true },
      { severity: "warning", summary: "Read failed", detail: "z", subject: at(3), fromCheckBlock: true },
      { severity: "warning", summary: "Read failed", detail: "z", subject: at(4), fromCheckBlock: true },
    ]);
    expect(out.map((d) => d.detail)).toEqual(["x", "y", "z", "z"]);
  });

  test("formatDiagnostics prints the consolidated warnings, the note as its own paragraph", () => {
    const text = formatDiagnostics(
      [
        { severity: "warning", summary: "A", detail: "first" },
        { severity: "warning", summary: "A", detail: "first", subject: at(1) },
        { severity: "warning", summary: "A", detail: "again", subject: at(2) },
      ],
      "/nonexistent",
    );
    expect(text).toBe("\nWarning: A\n\nfirst\n\nWarning: A\n\n  on main.tf line 1:\n  (source code not available)\n\nfirst\n\n(and one more similar warning elsewhere)\n");
  });
});
