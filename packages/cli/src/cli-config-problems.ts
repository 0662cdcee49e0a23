// (the subpath: the start-up test loads no more of the package than it needs)
import { hasCliConfigFiles } from "@magma/install/cli-config-files";
import { cliConfigFileWarning } from "./cli-config-file-warning.js";
import type { CliIo } from "./cli-io.js";
import { cliConfigProblemsView, type CliConfigProblem } from "./views/cli-config-problems-view.js";

/**
 * Reads the CLI configuration at start-up, as terraform's main.go does before any command, and
 * writes its problems to stderr, in terraform's order: the main file that cannot be opened (a
 * warning), then files that cannot be parsed and more than one `credentials_helper` or
 * `provider_installation` block (errors). Terraform reports them and goes on. The
 * configuration's parser is loaded only when there is a file to read.
 */
export async function reportCliConfigProblems(io: CliIo): Promise<void> {
  const problems: CliConfigProblem[] = [];
  const unopened = cliConfigFileWarning(io.env);
  if (unopened !== undefined) problems.push(unopened);
  if (hasCliConfigFiles(io.env)) {
    const { readCliConfig, isInstallError } = await import("@magma/install");
    try {
      problems.push(...readCliConfig({ env: io.env }).problems.map((summary): CliConfigProblem => ({ severity: "error", summary })));
    } catch (e) {
      // a malformed setting is the command's own error when it reads the configuration
      if (!isInstallError(e)) throw e;
    }
  }
  io.stderr.write(cliConfigProblemsView(problems));
}
