import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "@magma/hcl";

/**
 * Diagnostics as Terraform prints them without colour: a blank line, `Error: <summary>` (or
 * `Warning:`), the source location and its lines (`  on main.tf line 3:` then `   3: …`),
 * and the detail. File names are relative to `dir`, as the configuration loader reports them.
 */
export function formatDiagnostics(diags: readonly Diagnostic[], dir: string): string {
  const sources = new Map<string, string[] | undefined>();
  const linesOf = (file: string): string[] | undefined => {
    if (!sources.has(file)) {
      try {
        sources.set(file, readFileSync(resolve(dir, file), "utf8").split("\n"));
      } catch {
        sources.set(file, undefined);
      }
    }
    return sources.get(file);
  };
  let out = "";
  for (const d of diags) {
    out += `\n${d.severity === "error" ? "Error" : "Warning"}: ${d.summary}\n`;
    const s = d.subject;
    if (s !== undefined) {
      out += `\n  on ${s.filename} line ${s.start.line}:\n`;
      const lines = linesOf(s.filename);
      if (lines !== undefined) {
        const ctx = d.context ?? s;
        const first = Math.min(ctx.start.line, s.start.line);
        const last = Math.max(ctx.end.line, s.end.line);
        for (let n = first; n <= last && n <= lines.length; n++) out += `${String(n).padStart(4)}: ${lines[n - 1]!.replace(/\r$/, "")}\n`;
      }
    }
    if (d.detail !== "") out += `\n${d.detail}\n`;
  }
  return out;
}
