import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, loadModule } from "@magma/config";
import { CliError, CliErrorCode } from "../cli-error.js";
import { platformName } from "../workdir/platform-name.js";
import { installConfigProviders } from "../workdir/init-providers.js";
import { formatLockFile, LOCK_FILE_NAME, parseLockFile, type LockedProvider } from "../workdir/provider-lock-file.js";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import { recordBackend } from "../workdir/init-backend.js";
import { installModules } from "../workdir/init-modules.js";
import { paint } from "../colour.js";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";
import { terminalColumns } from "../terminal-columns.js";

/** The flags of `magma init`. */
export interface InitOptions extends WorkdirOptions {
  pluginDir?: string[];
  upgrade?: boolean;
  lockfile?: string;
  input?: string | boolean;
  backend?: string | boolean;
  get?: string | boolean;
  reconfigure?: boolean;
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

/** Runs the command (its registration — name, flags, help — is in init-command.ts, which loads this module on demand). */
export async function initAction(ctx: CommandContext, o: InitOptions): Promise<void> {
  if (o.lockfile !== undefined && o.lockfile !== "readonly") throw new CliError(CliErrorCode.Usage, `-lockfile: the only mode is "readonly", got ${JSON.stringify(o.lockfile)}`);
  await withWorkingDir(ctx, o, async (wd) => {
    // Colour as terraform's on a terminal (its headings and success messages), none with -no-color or when piped.
    const colour = ctx.colour.stdout;
    ctx.print(`${paint(colour, "[reset][bold]Initializing the backend...")}\n`);
    const hasBackendBlock = loadModule(wd.dir, { displayDir: "." }).module.backend !== undefined;
    const skipBackend = o.backend === false || o.backend === "false";
    const backend = skipBackend ? "none" : recordBackend(wd.dataDir, hasBackendBlock ? wd.settings : undefined, o.reconfigure === true);
    if (backend === "configured") {
      ctx.print(`${paint(colour, `[reset][green]\nSuccessfully configured the backend ${JSON.stringify(wd.settings.type)}! Terraform will automatically\nuse this backend unless the backend configuration changes.`)}\n`);
    }
    const modules = installModules(wd.dir, wd.dataDir);
    if (modules.hasCalls) {
      ctx.print(`${paint(colour, "[reset][bold]Initializing modules...")}\n`);
      for (const m of modules.modules) if (m.key !== "" && m.isNew) ctx.print(`- ${m.key} in ${m.dir}\n`);
    }
    const { config, diags } = loadConfig(wd.dir);
    const errors = diags.filter((d) => d.severity === "error");
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
  });
}
