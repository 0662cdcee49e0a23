import { copyFileSync, existsSync } from "node:fs";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { ExitCode } from "../exit-code.js";
import type { CommandContext } from "./command-context.js";
import { backupPath } from "./state-backup.js";
import { lockOptions, lockSettings, quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";
import { readAnswer } from "./read-answer.js";

const HELP = `Usage: terraform [global options] state replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN

  Replace provider for resources in the Terraform state.

Options:

  -auto-approve           Skip interactive approval.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -ignore-remote-version  A rare option used for the remote backend only. See
                          the remote backend documentation for more information.

  -state, state-out, and -backup are legacy options supported for the local
  backend only. For more information, see the local backend's documentation.`;

interface ReplaceProviderOptions extends WorkdirOptions {
  autoApprove?: boolean;
}

/** Reads one line of the CLI's stdin (undefined at its end). */

/**
 * `magma state replace-provider FROM TO`: moves every resource of the state managed by the
 * provider FROM to the provider TO, as terraform's `state replace-provider` does (the plan of
 * changes, the `yes` confirmation unless `-auto-approve`, the lock, no backup by default).
 */
export function registerStateReplaceProviderCommand(state: Command, ctx: CommandContext): void {
  quietOptions(lockOptions(statePathOption(state.command("replace-provider").argument("[providers...]", "FROM_PROVIDER_FQN TO_PROVIDER_FQN"))))
    .summary("replace the provider of resources in the state")
    .description("Changes the provider of every resource in the current workspace's state managed by FROM to TO (e.g. registry.terraform.io/-/aws to hashicorp/aws), after showing what changes and asking for yes (unless -auto-approve).")
    .option("--auto-approve", "skip the confirmation")
    .option("--backup <path>", "where to copy the state before the change (default <state>.<unix time>.backup; - for none)")
    .action(async (args: string[], o: ReplaceProviderOptions) => {
      if (args.length !== 2) {
        ctx.io.stderr.write("Exactly two arguments expected.\n\n");
        ctx.print(`${HELP}\n`);
        ctx.exitCode = ExitCode.Error;
        return;
      }
      const [{ parseProviderSource, formatProviderSource, formatResource, loadState, saveState, isStateError }, { acquireLock, noStateError }, { compareInstanceAddrs }, { paint }] = await Promise.all([
        import("@magma/state"),
        import("../workdir/state-lock.js"),
        import("../workdir/state-objects.js"),
        import("../colour.js"),
      ]);
      const problems: string[] = [];
      const parse = (which: "from" | "to", text: string): string | undefined => {
        try {
          return formatProviderSource(parseProviderSource(text));
        } catch (e) {
          if (!isStateError(e)) throw e;
          problems.push(`\nError: Invalid "${which}" provider ${JSON.stringify(text)}\n\n${e.message.replace(/^\[[a-z_]+\] /, "")}\n`);
          return undefined;
        }
      };
      const from = parse("from", args[0]!);
      const to = parse("to", args[1]!);
      if (from === undefined || to === undefined) {
        ctx.io.stderr.write(problems.join("\n"));
        ctx.exitCode = ExitCode.Error;
        return;
      }
      const colour = ctx.colour.stdout;
      await withWorkingDir(ctx, o, async (wd) => {
        const store = wd.store();
        const noState = (): CliError => {
          const e = noStateError();
          return new CliError(e.code, e.message, { plain: true, ...(e.detail === undefined ? {} : { detail: e.detail }) });
        };
        // A local state file that does not exist is no state; locking it would create it (terraform's does not).
        const file = (store as { path?: unknown }).path;
        if (typeof file === "string" && !existsSync(file)) throw noState();
        const release = await acquireLock(store, { operation: "state-replace-provider" }, lockSettings(o), ctx.signal);
        try {
          const st = await loadState(store);
          if (st === undefined) throw noState();
          const matching = st.resources
            .filter((r) => formatProviderSource(r.provider.provider) === from)
            .sort((a, b) => compareInstanceAddrs({ ...a, key: undefined }, { ...b, key: undefined }));
          if (matching.length === 0) {
            ctx.print("No matching resources found.\n");
            return;
          }
          let out = "Terraform will perform the following actions:\n\n";
          out += paint(colour, "  [yellow]~[reset] Updating provider:\n");
          out += paint(colour, `    [red]-[reset] ${from}\n`);
          out += paint(colour, `    [green]+[reset] ${to}\n\n`);
          out += paint(colour, `[bold]Changing[reset] ${matching.length} resources:\n\n`);
          for (const r of matching) out += paint(colour, `  ${formatResource({ module: r.module, mode: r.mode, type: r.type, name: r.name })}\n`);
          ctx.print(out);
          if (o.autoApprove !== true) {
            ctx.print(`${paint(colour, "\n[bold]Do you want to make these changes?[reset]\nOnly 'yes' will be accepted to continue.\n")}\nEnter a value: `);
            const answer = await readAnswer(ctx);
            if (answer === undefined) throw new CliError(CliErrorCode.BadInput, "Error asking for approval: EOF", { plain: true });
            if (answer !== "yes") {
              ctx.print("Cancelled replacing providers.\n");
              return;
            }
          }
          const target = parseProviderSource(to);
          const moved = new Set(matching);
          const resources = st.resources.map((r) => (moved.has(r) ? { ...r, provider: { ...r.provider, provider: target } } : r));
          // Terraform's state commands keep a timestamped copy of the state before the change (-backup=PATH, or - for none).
          const backup = backupPath(wd, o.backup);
          if (backup !== undefined && typeof file === "string" && existsSync(file)) copyFileSync(file, backup);
          await saveState(store, { ...st, resources });
          ctx.print(`\nSuccessfully replaced provider for ${matching.length} resources.\n`);
        } finally {
          await release();
        }
      }, undefined, "ui-absolute");
    });
}
