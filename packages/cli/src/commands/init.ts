import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isProvisionerDiagnostic, loadConfig, loadModule, providerConfigDiagnostics } from "@magma/config";
import { isStateError, readStateFile, StateError } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { platformName } from "../workdir/platform-name.js";
import { installConfigProviders } from "../workdir/init-providers.js";
import { formatLockFile, LOCK_FILE_NAME, parseLockFile, type LockedProvider } from "../workdir/provider-lock-file.js";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import { terraformDiagnosticOrder } from "../workdir/terraform-diagnostic-order.js";
import { parseConfig, type Diagnostic } from "@magma/hcl";
import { backendRecord, readBackendRecord, recordBackend, settingsFromRecord } from "../workdir/init-backend.js";
import { localStateExists, migrateState } from "../workdir/migrate-state.js";
import type { WorkingDir } from "../workdir/working-dir.js";
import { installModules } from "../workdir/init-modules.js";
import { moduleInstallOptions } from "../workdir/init-providers.js";
import { paint } from "../colour.js";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";
import { terminalColumns } from "../terminal-columns.js";
import { readAnswer } from "./read-answer.js";

/** The flags of `magma init`. */
export interface InitOptions extends WorkdirOptions {
  pluginDir?: string[];
  upgrade?: boolean;
  lockfile?: string;
  input?: string | boolean;
  backend?: string | boolean;
  get?: string | boolean;
  reconfigure?: boolean;
  backendConfig?: string[];
  migrateState?: boolean;
  forceCopy?: boolean;
}

const CREATED =
  "Terraform has created a lock file .terraform.lock.hcl to record the provider\nselections it made above. Include this file in your version control repository\nso that Terraform can guarantee to make the same selections by default when\nyou run \"terraform init\" in the future.\n";
const CHANGED =
  "Terraform has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.\n";
const DONE =
  'Terraform has been successfully initialized!\n\nYou may now begin working with Terraform. Try running "terraform plan" to see\nany changes that are required for your infrastructure. All Terraform commands\nshould now work.\n\nIf you ever set or change modules or backend configuration for Terraform,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.\n';

function incompleteWarning(names: readonly string[]): string {
  const p = platformName();
  return `\nWarning: Incomplete lock file information for providers\n\nDue to your customized provider installation methods, Terraform was forced to\ncalculate lock file checksums locally for the following providers:\n${names.map((n) => `  - ${n}\n`).join("")}\nThe current .terraform.lock.hcl file only includes checksums for ${p},\nso Terraform running on another platform will fail to install these\nproviders.\n\nTo calculate additional checksums for another platform, run:\n  terraform providers lock -platform=${p}\n(where ${p} is the platform to generate)\n`;
}

/** Reads one line from the CLI's stdin (undefined at end of input or without stdin). */

/**
 * Terraform's state migration at init: when the backend the states are in (the recorded one,
 * or the implicit local one holding state when a backend block is added) changed, and this is
 * the first backend configured or `-migrate-state`/`-force-copy` is given, copies every
 * workspace's state to the new backend (asking terraform's questions unless `-force-copy`).
 * Returns whether the change is settled (so that the new backend is recorded).
 */
async function migrateBackend(ctx: CommandContext, o: InitOptions, wd: WorkingDir, hasBackendBlock: boolean): Promise<boolean> {
  if (o.reconfigure === true) {
    if (o.migrateState === true || o.forceCopy === true) throw new CliError(CliErrorCode.Usage, "The -migrate-state and -force-copy options are mutually-exclusive with -reconfigure");
    return false;
  }
  const recorded = readBackendRecord(wd.dataDir);
  const next = hasBackendBlock ? backendRecord(wd.settings, wd.blockSettings) : undefined;
  const previous = recorded !== undefined ? settingsFromRecord(recorded.type, recorded.config) : hasBackendBlock && localStateExists(wd.dir) ? { type: "local", values: {} } : undefined;
  if (previous === undefined) return false;
  const changed = recorded === undefined || next === undefined || recorded.type !== next.type || recorded.hash !== next.hash || JSON.stringify(recorded.config) !== JSON.stringify(next.config);
  if (!changed || (recorded !== undefined && o.migrateState !== true && o.forceCopy !== true)) return false;
  const to = hasBackendBlock ? wd.settings : { type: "local", values: {} };
  if (previous.type === to.type && JSON.stringify(previous.values) === JSON.stringify(to.values)) return true;
  const colour = ctx.colour.stdout;
  ctx.print(`Terraform detected that the backend type changed from ${JSON.stringify(previous.type)} to ${JSON.stringify(to.type)}.\n`);
  const ask = async (query: string, description: string): Promise<string | undefined> => {
    if (o.input === false || o.input === "false") throw new CliError(CliErrorCode.BadInput, `${query}: input is disabled (-input=false); use -force-copy to answer yes`);
    ctx.print(`${paint(colour, `[reset][bold]${query}[reset]`)}\n  ${description.replace(/\n/g, "\n  ")}\n\n  ${paint(colour, "[bold]Enter a value:[reset]")} `);
    const answer = await readAnswer(ctx);
    ctx.print("\n");
    return answer;
  };
  await migrateState(wd, previous, ctx.io.env, o.forceCopy === true, ask);
  return true;
}

/** A backend's error, reworded under terraform's heading for the step of init that failed (the error is kept as the cause). */
function initStepError(heading: string, e: unknown): unknown {
  if (!isStateError(e)) return e;
  return new StateError(e.code, `${heading}: ${e.message.replace(/^\[[a-z_]+\] /, "")}`, { cause: e });
}

/**
 * What terraform's init does with a configured backend: lists its workspaces (its
 * `selectWorkspace`: a bucket that is missing, or credentials the store refuses, fail init
 * with "Failed to get existing workspaces"), then, after recording the backend, reads the
 * current workspace's state ("Error refreshing state" for a state it cannot read or parse).
 */
async function checkBackendWorkspaces(wd: WorkingDir): Promise<void> {
  try {
    await wd.backend.listWorkspaces();
  } catch (e) {
    throw initStepError("Failed to get existing workspaces", e);
  }
}

async function refreshBackendState(wd: WorkingDir): Promise<void> {
  try {
    const bytes = await wd.store().read();
    if (bytes !== undefined) readStateFile(bytes);
  } catch (e) {
    throw initStepError("Error refreshing state", e);
  }
}

/** Runs the command (its registration — name, flags, help — is in init-command.ts, which loads this module on demand). */
export async function initAction(ctx: CommandContext, o: InitOptions): Promise<void> {
  if (o.lockfile !== undefined && o.lockfile !== "readonly") throw new CliError(CliErrorCode.Usage, `-lockfile: the only mode is "readonly", got ${JSON.stringify(o.lockfile)}`);
  // A root module with errors: terraform starts on the backend, then reports them under its own error, as diagnostics.
  let files: ReadonlyMap<string, string> = new Map();
  // (magma's refusal of provisioners is not one: see isProvisionerDiagnostic)
  const early = existsSync(ctx.cwd) ? loadModule(ctx.cwd, { displayDir: ".", onFiles: (f) => (files = f) }).diags.filter((d) => !isProvisionerDiagnostic(d)) : [];
  if (early.some((d) => d.severity === "error")) {
    ctx.print(`${paint(ctx.colour.stdout, "[reset][bold]Initializing the backend...")}\n`);
    const options = { width: terminalColumns(ctx.io.stderr) };
    const header = {
      severity: "error" as const,
      // One error string in terraform: all of it the summary.
      summary:
        "Terraform encountered problems during initialisation, including problems\nwith the configuration, described below.\n\nThe Terraform configuration must be valid before initialization so that\nTerraform can determine which modules and providers need to be installed.",
      detail: "",
    };
    // Terraform loads the root module twice (for init, then for the backend): the parser
    // caches each file, so a syntax error is reported once, but every other diagnostic of the
    // files' contents (an unexpected block, a duplicate resource) once per load.
    const key = (d: Diagnostic): string => `${d.severity}|${d.summary}|${d.detail}|${d.subject?.filename ?? ""}|${d.subject?.start.byte ?? ""}|${d.subject?.end.byte ?? ""}`;
    const parsed = new Set<string>();
    for (const [name, text] of files) for (const d of parseConfig(text, name).diags) parsed.add(key(d));
    const again = early.filter((d) => !parsed.has(key(d)));
    ctx.io.stderr.write(formatDiagnostics(terraformDiagnosticOrder([...early, ...again, header]), ctx.cwd, ctx.colour.stderr, options));
    throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
  }
  await withWorkingDir(ctx, o, async (wd) => {
    // Colour as terraform's on a terminal (its headings and success messages), none with -no-color or when piped.
    const colour = ctx.colour.stdout;
    ctx.print(`${paint(colour, "[reset][bold]Initializing the backend...")}\n`);
    const hasBackendBlock = loadModule(wd.dir, { displayDir: "." }).module.backend !== undefined;
    const skipBackend = o.backend === false || o.backend === "false";
    const migrated = skipBackend ? false : await migrateBackend(ctx, o, wd, hasBackendBlock);
    if (!skipBackend && hasBackendBlock) await checkBackendWorkspaces(wd);
    const backend = skipBackend ? "none" : recordBackend(wd.dataDir, hasBackendBlock ? wd.settings : undefined, o.reconfigure === true || migrated, wd.blockSettings);
    if (backend === "configured") {
      ctx.print(`${paint(colour, `[reset][green]\nSuccessfully configured the backend ${JSON.stringify(wd.settings.type)}! Terraform will automatically\nuse this backend unless the backend configuration changes.`)}\n`);
    }
    if (!skipBackend && hasBackendBlock) await refreshBackendState(wd);
    const modulesHeading = `${paint(colour, o.upgrade === true ? "[reset][bold]Upgrading modules..." : "[reset][bold]Initializing modules...")}\n`;
    // terraform's lines as each module is done, under the heading
    let headed = false;
    const heading = (): void => {
      if (!headed) ctx.print(modulesHeading);
      headed = true;
    };
    const modules = await installModules(wd.dir, wd.dataDir, {
      ...moduleInstallOptions(ctx.io.env, o.upgrade === true),
      onLine: (line) => {
        heading();
        ctx.print(line);
      },
    });
    if (modules.hasCalls) heading();
    if (modules.errors.length > 0) {
      // terraform's diagnostics with the module blocks' lines
      ctx.io.stderr.write(formatDiagnostics(modules.errors.map((e) => e.diagnostic), wd.dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
      throw new CliError(modules.errors[0]!.code, modules.errors[0]!.message, { silent: true, cause: modules.errors[0] });
    }
    const { config, diags } = loadConfig(wd.dir);
    // terraform's init installs what a configuration with provisioners needs; magma refuses
    // them (it does not run provisioners) where it validates or plans, not here. Terraform's
    // configuration loading ends with its provider configuration checks (a configuration alias
    // a call does not pass…).
    const loadErrors = diags.filter((d) => d.severity === "error" && !isProvisionerDiagnostic(d));
    const errors = [...loadErrors, ...(loadErrors.length > 0 ? [] : providerConfigDiagnostics(config).filter((d) => d.severity === "error"))];
    if (errors.length > 0) {
      ctx.io.stderr.write(formatDiagnostics(errors, wd.dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
      throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
    }
    ctx.print(`${paint(colour, "[reset][bold]Initializing provider plugins...")}\n`);
    const lockPath = join(wd.dir, LOCK_FILE_NAME);
    const hadLock = existsSync(lockPath);
    const previous = hadLock ? parseLockFile(readFileSync(lockPath, "utf8")) : new Map<string, LockedProvider>();
    const next = new Map<string, LockedProvider>();
    const { incomplete } = await installConfigProviders(ctx, wd, config, previous, { pluginDir: o.pluginDir, upgrade: o.upgrade === true }, next);
    const text = formatLockFile(next.values());
    const changed = !hadLock ? next.size > 0 : text !== readFileSync(lockPath, "utf8");
    if (changed && o.lockfile === "readonly") {
      throw new CliError(CliErrorCode.BadInput, "Provider dependency changes detected", {
        detail: "Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"terraform init\" without the \"-lockfile=readonly\" flag.",
      });
    }
    if (changed) {
      writeFileSync(lockPath, text);
      ctx.print(hadLock ? CHANGED : `${paint(colour, CREATED.replace(" .terraform.lock.hcl ", " [bold].terraform.lock.hcl[reset] ").replace(/\n$/, ""))}\n`);
    }
    const local = incomplete;
    // Terraform's layout: the warning (which starts with a blank line) runs straight into the final message.
    // In automation (TF_IN_AUTOMATION) terraform leaves out the advice after the first line.
    const [first, ...advice] = DONE.split("\n");
    const automation = (ctx.io.env["TF_IN_AUTOMATION"] ?? "") !== "";
    const done = !colour
      ? automation
        ? `${first!}\n`
        : DONE
      : `${paint(true, `[reset][bold][green]${first!}`)}${paint(true, "[green]")}\n${automation ? "" : `${paint(true, `[reset][green]${advice.join("\n").replace(/\n$/, "")}`)}\n`}`;
    ctx.print(changed && local.length > 0 ? `\n${incompleteWarning(local)}${done}` : `\n${done}`);
  }, o.backendConfig);
}
