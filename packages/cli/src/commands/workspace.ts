import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { WorkingDir } from "../workdir/working-dir.js";
import type { CommandContext } from "./command-context.js";
import { lockOptions, lockSettings, quietOptions, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

const VALID_NAME = /^[A-Za-z0-9_.~-]+$/;

const plain = (message: string, detail?: string): CliError => new CliError(CliErrorCode.BadInput, message, { plain: true, ...(detail === undefined ? {} : { detail }) });

function checkName(name: string): void {
  if (!VALID_NAME.test(name)) {
    throw plain(`The workspace name ${JSON.stringify(name)} is not allowed. The name must contain only URL safe\ncharacters, and no path separators.`);
  }
}

const missing = (name: string): CliError =>
  plain(`Workspace ${JSON.stringify(name)} doesn't exist.`, 'You can create this workspace with the "new" subcommand \nor include the "-or-create" flag with the "select" subcommand.');

function notOverridden(wd: WorkingDir): void {
  if (wd.workspaceOverridden) {
    throw plain(
      "The selected workspace is currently overridden using the TF_WORKSPACE\nenvironment variable.",
      "To select a new workspace, either update this environment variable or unset\nit and then run this command again.",
    );
  }
}

const OVERRIDE_NOTE = "\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\nvariable.\n";

/** Creates workspace `name` in the backend (a directory for local, an empty state for pg) and selects it. */
async function createWorkspace(ctx: CommandContext, wd: WorkingDir, name: string, o: WorkdirOptions): Promise<void> {
  if (wd.settings.type === "local") {
    const store = wd.store(name);
    const path = (store as { path?: unknown }).path;
    if (name !== "default" && typeof path === "string") mkdirSync(join(path, ".."), { recursive: true });
  } else {
    const [{ loadState, newStateFile, saveState }, { acquireLock }] = await Promise.all([import("@magma/state"), import("../workdir/state-lock.js")]);
    const store = wd.store(name);
    const release = await acquireLock(store, { operation: "OperationTypeInvalid" }, lockSettings(o), ctx.signal);
    try {
      if ((await loadState(store)) === undefined) await saveState(store, newStateFile());
    } finally {
      await release();
    }
  }
  wd.selectWorkspace(name);
  ctx.print(
    `Created and switched to workspace ${JSON.stringify(name)}!\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run "terraform plan" Terraform will not see any existing state\nfor this configuration.\n`,
  );
}

/** `magma workspace list|show|new|select|delete`: Terraform's workspaces, laid out as Terraform lays them out in the backend. */
export function registerWorkspaceCommand(program: Command, ctx: CommandContext): void {
  const ws = program
    .command("workspace")
    .summary("manage workspaces")
    .description(
      "Terraform's workspaces: the local backend keeps the default workspace's state in terraform.tfstate and the others in terraform.tfstate.d/<name>/terraform.tfstate; the current workspace is in .terraform/environment, or TF_WORKSPACE.",
    )
    .exitOverride();

  ws.command("list")
    .summary("list workspaces, the current one marked *")
    .exitOverride()
    .action(async (o: WorkdirOptions) => {
      await withWorkingDir(ctx, o, async (wd) => {
        const current = wd.currentWorkspace();
        const names = await wd.backend.listWorkspaces();
        let text = names.map((n) => `${n === current ? "*" : " "} ${n}\n`).join("") + "\n";
        if (wd.workspaceOverridden) text += OVERRIDE_NOTE;
        ctx.print(text);
      });
    });

  ws.command("show")
    .summary("print the current workspace's name")
    .exitOverride()
    .action(async (o: WorkdirOptions) => {
      // As terraform's: the data directory alone, no configuration (an invalid one does not matter).
      const [{ currentWorkspaceName }, { resolve }] = await Promise.all([import("../workdir/working-dir.js"), import("node:path")]);
      ctx.print(`${currentWorkspaceName(resolve(ctx.cwd, ctx.io.env["TF_DATA_DIR"] || ".terraform"), ctx.io.env)}\n`);
    });

  quietOptions(lockOptions(ws.command("new").argument("<name>")))
    .summary("create a workspace and switch to it")
    .action(async (name: string, o: WorkdirOptions) => {
      checkName(name);
      await withWorkingDir(ctx, o, async (wd) => {
        notOverridden(wd);
        if ((await wd.backend.listWorkspaces()).includes(name)) throw plain(`Workspace ${JSON.stringify(name)} already exists`);
        await createWorkspace(ctx, wd, name, o);
      });
    });

  quietOptions(ws.command("select").argument("<name>"))
    .summary("switch to a workspace")
    .option("--or-create [bool]", "create the workspace when it does not exist")
    .action(async (name: string, o: WorkdirOptions & { orCreate?: string | boolean }) => {
      checkName(name);
      await withWorkingDir(ctx, o, async (wd) => {
        notOverridden(wd);
        if (!(await wd.backend.listWorkspaces()).includes(name)) {
          if (o.orCreate === undefined || o.orCreate === false || o.orCreate === "false") throw missing(name);
          await createWorkspace(ctx, wd, name, o);
          return;
        }
        wd.selectWorkspace(name);
        ctx.print(`Switched to workspace ${JSON.stringify(name)}.\n`);
      });
    });

  quietOptions(lockOptions(ws.command("delete").argument("<name>")))
    .summary("delete a workspace")
    .option("--force", "delete it even when its state still tracks resources")
    .action(async (name: string, o: WorkdirOptions) => {
      checkName(name);
      // The state code is loaded by the subcommands that use it, not when the command is registered.
      const [{ isStateError, loadState }, { acquireLock }, { stateInstances }] = await Promise.all([import("@magma/state"), import("../workdir/state-lock.js"), import("../workdir/state-objects.js")]);
      await withWorkingDir(ctx, o, async (wd) => {
        if (!(await wd.backend.listWorkspaces()).includes(name)) throw missing(name);
        if (name === wd.currentWorkspace()) {
          throw plain(`Workspace ${JSON.stringify(name)} is your active workspace.`, "You cannot delete the currently active workspace. Please switch\nto another workspace and try again.");
        }
        const store = wd.store(name);
        const release = await acquireLock(store, { operation: "OperationTypeInvalid" }, lockSettings(o), ctx.signal);
        let tracked: string[];
        try {
          const st = await loadState(store);
          tracked = st === undefined ? [] : stateInstances(st).map((i) => i.text);
        } finally {
          await release();
        }
        if (tracked.length > 0 && o.force !== true) {
          throw new CliError(CliErrorCode.BadInput, "Workspace is not empty", {
            detail: `Workspace ${JSON.stringify(name)} is currently tracking the following resource instances:\n${tracked.map((t) => `  - ${t}\n`).join("")}\nDeleting this workspace would cause Terraform to lose track of any associated\nremote objects, which would then require you to delete them manually outside\nof Terraform. You should destroy these objects with Terraform before deleting\nthe workspace.\n\nIf you want to delete this workspace anyway, and have Terraform forget about\nthese managed objects, use the -force option to disable this safety check.`,
          });
        }
        try {
          await wd.backend.deleteWorkspace(name);
        } catch (e) {
          if (isStateError(e) && e.code === "invalid_argument") throw plain(e.message.replace(/^\[[a-z_]+\] /, ""));
          throw e;
        }
        ctx.print(`Deleted workspace ${JSON.stringify(name)}!\n`);
        if (tracked.length > 0) {
          ctx.print(
            `WARNING: ${JSON.stringify(name)} was non-empty.\nThe resources managed by the deleted workspace may still exist,\nbut are no longer manageable by Terraform since the state has\nbeen deleted.\n`,
          );
        }
      });
    });
}
