import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";
import { readAnswer } from "./read-answer.js";

/** Reads one line from the CLI's stdin (undefined at end of input or without stdin). */

/**
 * `magma force-unlock [-force] LOCK_ID`: removes the current workspace's state lock with this
 * id whoever holds it, as `terraform force-unlock` does (asking for `yes` unless `-force`).
 */
export function registerForceUnlockCommand(program: Command, ctx: CommandContext): void {
  program
    .command("force-unlock")
    .argument("<lock-id>", "the lock's ID, as the locked-state error names it")
    .summary("release a stuck state lock")
    .description("Removes the lock on the current workspace's state. Only do this when the holder is gone (a killed process): the lock protects the state from concurrent writes.")
    .option("--force", "do not ask for confirmation")
    .exitOverride()
    .action(async (id: string, o: WorkdirOptions) => {
      const { isStateError } = await import("@magma/state");
      await withWorkingDir(ctx, o, async (wd) => {
        if (o.force !== true) {
          ctx.print(
            "Do you really want to force-unlock?\n  Terraform will remove the lock on the remote state.\n  This will allow local Terraform commands to modify this state, even though it\n  may still be in use. Only 'yes' will be accepted to confirm.\n\n  Enter a value: ",
          );
          const answer = await readAnswer(ctx);
          if (answer?.trim() !== "yes") {
            ctx.print("\n");
            throw new CliError(CliErrorCode.BadInput, "force-unlock cancelled.", { plain: true });
          }
          ctx.print("\n");
        }
        try {
          await wd.store().forceUnlock(id);
        } catch (e) {
          if (isStateError(e)) throw new CliError(CliErrorCode.BadInput, "Failed to unlock state", { detail: e.message.replace(/^\[[a-z_]+\] /, ""), cause: e });
          throw e;
        }
        ctx.print(
          "Terraform state has been successfully unlocked!\n\nThe state has been unlocked, and Terraform commands should now be able to\nobtain a new lock on the remote state.\n",
        );
      });
    });
}
