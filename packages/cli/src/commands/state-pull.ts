import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** `magma state pull`: the current workspace's state on stdout, as `terraform state pull` prints it. */
export function registerStatePullCommand(state: Command, ctx: CommandContext): void {
  state
    .command("pull")
    .summary("print the current workspace's state")
    .description("Prints the current workspace's state file (format version 4) on stdout, nothing when there is none.")
    .option("--no-color", "accepted for terraform compatibility (the state has no colour)")
    .exitOverride()
    .action(async (o: WorkdirOptions) => {
      const { loadState, writeStateFile } = await import("@magma/state");
      await withWorkingDir(ctx, o, async (wd) => {
        const st = await loadState(wd.store());
        if (st !== undefined) ctx.print(`${Buffer.from(writeStateFile(st)).toString("utf8")}\n`);
      }, undefined, "ui-absolute");
    });
}
