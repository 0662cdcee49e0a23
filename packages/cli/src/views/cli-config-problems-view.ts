import { DEFAULT_COLUMNS, wordWrap } from "../terminal-columns.js";

/** One problem of the CLI configuration, as terraform's `cliconfig.LoadConfig` diagnostics (no source). */
export interface CliConfigProblem {
  readonly severity: "error" | "warning";
  readonly summary: string;
  /** The detail, wrapped at terraform's 78 columns when printed. */
  readonly detail?: string;
}

/**
 * Terraform's report of CLI configuration problems (main.go, before any command runs): the
 * heading, each problem as a diagnostic without a source (uncoloured, as terraform prints them
 * before it knows whether colour is wanted, at 78 columns), and, when one is an error, the note
 * that terraform goes on anyway. Empty when there are no problems.
 */
export function cliConfigProblemsView(problems: readonly CliConfigProblem[]): string {
  if (problems.length === 0) return "";
  const diagnostic = (p: CliConfigProblem): string => {
    // (terraform's format.Diagnostic: the summary, an empty line, the detail)
    const lines = [`${p.severity === "error" ? "Error" : "Warning"}: ${p.summary}`, ""];
    if (p.detail !== undefined && p.detail !== "") lines.push(...wordWrap(p.detail, DEFAULT_COLUMNS - 2).split("\n"));
    return `╷\n${lines.map((l) => (l === "" ? "│\n" : `│ ${l}\n`)).join("")}╵\n`;
  };
  const body = problems.map((p) => `${diagnostic(p)}\n`).join("");
  const note = problems.some((p) => p.severity === "error") ? "As a result of the above problems, Terraform may not behave as intended.\n\n\n" : "";
  return `There are some problems with the CLI configuration:\n${body}${note}`;
}
