import { closeSync, openSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { DEFAULT_COLUMNS, wordWrap } from "./terminal-columns.js";

/**
 * What terraform prints on stderr at start-up, before any command (its `cliconfig.LoadConfig`
 * diagnostics, shown by main.go without colour at 78 columns), when its CLI configuration file
 * cannot be opened: the file named by `TF_CLI_CONFIG_FILE` (else `TERRAFORM_CONFIG`) must
 * open; the default `~/.terraformrc` may be missing, but any other failure to open it warns too.
 * The warning says "does not exist" whatever the failure was, as terraform's does. "" when the
 * file opens (reading and parsing it are the CLI configuration's own concern).
 */
export function cliConfigFileWarning(env: Readonly<Record<string, string | undefined>>): string {
  const override = env["TF_CLI_CONFIG_FILE"] || env["TERRAFORM_CONFIG"] || "";
  const file = override !== "" ? override : join(env["HOME"] || homedir(), ".terraformrc");
  try {
    closeSync(openSync(file, "r"));
    return "";
  } catch (e) {
    if (override === "" && (e as NodeJS.ErrnoException).code === "ENOENT") return "";
  }
  const detail = wordWrap(`The CLI configuration file at ${JSON.stringify(file)} does not exist.`, DEFAULT_COLUMNS - 2);
  const lines = ["Warning: Unable to open CLI configuration file", "", ...detail.split("\n")];
  return `There are some problems with the CLI configuration:\n╷\n${lines.map((l) => (l === "" ? "│\n" : `│ ${l}\n`)).join("")}╵\n\n`;
}
