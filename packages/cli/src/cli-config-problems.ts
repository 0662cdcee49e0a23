// (the subpath: the start-up test loads no more of the package than it needs)
import { hasCliConfigFiles } from "@magma/install/cli-config-files";
import type { CliIo } from "./cli-io.js";
import { cliConfigProblemsView } from "./views/cli-config-problems-view.js";

/**
 * Reads the CLI configuration at start-up, as terraform's main.go does before any command, and
 * writes its problems to stderr (a file that cannot be parsed, more than one
 * `credentials_helper` or `provider_installation` block): terraform reports them and goes
 * on. The configuration's parser is loaded only when there is a file to read.
 */
export async function reportCliConfigProblems(io: CliIo): Promise<void> {
  if (!hasCliConfigFiles(io.env)) return;
  const { readCliConfig, isInstallError } = await import("@magma/install");
  let problems: readonly string[];
  try {
    problems = readCliConfig({ env: io.env }).problems;
  } catch (e) {
    // a malformed setting is the command's own error when it reads the configuration
    if (isInstallError(e)) return;
    throw e;
  }
  io.stderr.write(cliConfigProblemsView(problems));
}
