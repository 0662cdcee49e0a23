import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Where terraform looks for its CLI configuration (cliconfig's `cliConfigFile` and `ConfigDir`). */
export interface CliConfigLocations {
  /** The main file: `TF_CLI_CONFIG_FILE` (or the older `TERRAFORM_CONFIG`), else `~/.terraformrc`. */
  readonly file: string;
  /** `~/.terraform.d`, whose `*.tfrc` and `*.tfrc.json` files are read too; undefined when the variable names the file (terraform then skips the directory). */
  readonly configDir: string | undefined;
}

/**
 * The places of the CLI configuration for `env` (`HOME`, `TF_CLI_CONFIG_FILE`, an empty
 * variable being an unset one, as Go's `os.Getenv`); `file` given is read instead of the main
 * file, without the directory.
 *
 * @internal
 */
export function cliConfigLocations(env: Readonly<Record<string, string | undefined>>, file?: string): CliConfigLocations {
  const override = env["TF_CLI_CONFIG_FILE"] || env["TERRAFORM_CONFIG"] || "";
  const home = env["HOME"] || homedir();
  const main = file ?? (override !== "" ? override : join(home, ".terraformrc"));
  return { file: main, configDir: file === undefined && override === "" ? join(home, ".terraform.d") : undefined };
}

/**
 * The `*.tfrc` and `*.tfrc.json` entries of the CLI configuration directory in name order (as
 * Go's `ioutil.ReadDir` lists them; directories too, which terraform then fails to read), or
 * undefined when `dir` is not a directory.
 *
 * @internal
 */
export function configDirFiles(dir: string | undefined): string[] | undefined {
  if (dir === undefined || !existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".tfrc") || name.endsWith(".tfrc.json"))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Whether `env` has any CLI configuration file to read (the main file exists, or the
 * directory has a `*.tfrc`/`*.tfrc.json` entry): a cheap test, with no parser loaded, before
 * reading the configuration for its problems at start-up.
 */
export function hasCliConfigFiles(env: Readonly<Record<string, string | undefined>>): boolean {
  const { file, configDir } = cliConfigLocations(env);
  return (file !== "" && existsSync(file)) || (configDirFiles(configDir)?.length ?? 0) > 0;
}
