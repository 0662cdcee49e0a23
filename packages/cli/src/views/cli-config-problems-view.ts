/**
 * Terraform's report of CLI configuration problems (main.go, before any command runs): the
 * heading, each problem as an error diagnostic without a source (uncoloured, as terraform
 * prints them before it knows whether colour is wanted), and, since every such problem is an
 * error, the note that terraform goes on anyway. Empty when there are no problems.
 */
export function cliConfigProblemsView(problems: readonly string[]): string {
  if (problems.length === 0) return "";
  const diagnostics = problems.map((p) => `╷\n│ Error: ${p}\n│\n╵\n\n`).join("");
  return `There are some problems with the CLI configuration:\n${diagnostics}As a result of the above problems, Terraform may not behave as intended.\n\n\n`;
}
