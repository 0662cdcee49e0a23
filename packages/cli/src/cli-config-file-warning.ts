import { closeSync, openSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CliConfigProblem } from "./views/cli-config-problems-view.js";

/**
 * Terraform's warning (its `cliconfig.LoadConfig`, reported by main.go before any command) when
 * its CLI configuration file cannot be opened: the file named by `TF_CLI_CONFIG_FILE` (else
 * `TERRAFORM_CONFIG`) must open; the default `~/.terraformrc` may be missing, but any other
 * failure to open it warns too. The warning says "does not exist" whatever the failure was, as
 * terraform's does. Undefined when the file opens (reading and parsing it are the CLI
 * configuration's own concern).
 */
export function cliConfigFileWarning(env: Readonly<Record<string, string | undefined>>): CliConfigProblem | undefined {
  const override = env["TF_CLI_CONFIG_FILE"] || env["TERRAFORM_CONFIG"] || "";
  const file = override !== "" ? override : join(env["HOME"] || homedir(), ".terraformrc");
  try {
    closeSync(openSync(file, "r"));
    return undefined;
  } catch (e) {
    if (override === "" && (e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  }
  return { severity: "warning", summary: "Unable to open CLI configuration file", detail: `The CLI configuration file at ${JSON.stringify(file)} does not exist.` };
}
