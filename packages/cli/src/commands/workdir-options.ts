import type { Command } from "commander";
import type { WorkingDir } from "../workdir/working-dir.js";
import type { LockSettings } from "../workdir/state-lock.js";
import type { ConfigurationDiagnosticsStyle } from "../workdir/invalid-configuration.js";
import { CliError, CliErrorCode } from "../cli-error.js";
import { parseBoolFlag, parseDuration } from "../workdir/flag-values.js";
import type { CommandContext } from "./command-context.js";

/** The flags of the working-directory commands (spelled `-lock=false` or `--lock=false`). */
export interface WorkdirOptions {
  state?: string;
  lock?: string | boolean;
  lockTimeout?: string;
  backup?: string;
  noColor?: boolean;
  json?: boolean;
  force?: boolean;
  dryRun?: boolean;
  ignoreRemoteVersion?: boolean;
}

/** Adds Terraform's `-lock[=false]` and `-lock-timeout=DURATION`. */
export function lockOptions(c: Command): Command {
  return c
    .option("--lock [bool]", "take the state lock (default true; -lock=false turns it off, which is not recommended)")
    .option("--lock-timeout <duration>", "how long to retry a held state lock, e.g. 10s (default 0s)");
}

/** Adds `-state=PATH` (the local backend's state file, Terraform's legacy flag). */
export function statePathOption(c: Command): Command {
  return c.option("--state <path>", "the local state file to use instead of the backend's (legacy; local backend only)");
}

/** Adds the options Terraform accepts everywhere: `-no-color` (read once per run, see `decideColour`) and `-ignore-remote-version` (no effect with magma's single backend version). */
export function quietOptions(c: Command): Command {
  return c.option("--no-color", "no colour (also NO_COLOR; FORCE_COLOR colours a pipe)").option("--ignore-remote-version", "accepted for terraform compatibility (no effect)").exitOverride();
}

/** The lock settings of the flags. */
export function lockSettings(o: WorkdirOptions): LockSettings {
  return { lock: parseBoolFlag("-lock", o.lock, true), timeoutMs: o.lockTimeout === undefined ? 0 : parseDuration("-lock-timeout", o.lockTimeout) };
}

/**
 * Opens the working directory (`-chdir`, or the current directory) for the command, runs `fn`,
 * and closes it. A root module that does not load is reported as terraform's commands report
 * it (`style`: its older commands' `ui` by default; see ConfigurationDiagnosticsStyle), exit 1.
 */
export async function withWorkingDir<T>(ctx: CommandContext, o: WorkdirOptions, fn: (wd: WorkingDir) => Promise<T>, backendConfig?: readonly string[], style: ConfigurationDiagnosticsStyle = "ui"): Promise<T> {
  // Loaded here, not with the command's registration (the backends, @magma/state; see run-cli.ts).
  const { openWorkingDir } = await import("../workdir/working-dir.js");
  let wd: WorkingDir;
  try {
    wd = await openWorkingDir({ dir: ctx.cwd, env: ctx.io.env, ...(o.state !== undefined ? { statePath: o.state } : {}), ...(backendConfig !== undefined ? { backendConfig } : {}) });
  } catch (e) {
    const { isInvalidConfigurationError, writeConfigurationDiagnostics } = await import("../workdir/invalid-configuration.js");
    if (!isInvalidConfigurationError(e)) throw e;
    writeConfigurationDiagnostics(ctx, ctx.cwd, e.diagnostics, style);
    throw new CliError(CliErrorCode.BadInput, e.message, { silent: true, cause: e });
  }
  try {
    return await fn(wd);
  } finally {
    await wd.close();
  }
}
