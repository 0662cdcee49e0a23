import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { lockOptions, quietOptions, statePathOption, type WorkdirOptions } from "./workdir-options.js";

/** `magma state mv SOURCE DESTINATION`: renames objects in the state, as `terraform state mv` does. */
export function registerStateMvCommand(state: Command, ctx: CommandContext): void {
  quietOptions(lockOptions(statePathOption(state.command("mv").argument("<source>").argument("<destination>"))))
    .summary("move an item in the state")
    .description(
      "Moves a resource instance, a resource or a module to another address in the current workspace's state (under the lock; serial bumped; the previous state copied to <state>.<unix time>.backup, or -backup=PATH, -backup=- for none).",
    )
    .option("--dry-run", "only print what would be moved")
    .option("--backup <path>", "where to copy the state before the change (- for none)")
    .action(async (source: string, destination: string, o: WorkdirOptions) => (await import("./state-mv.js")).stateMvAction(ctx, source, destination, o));
}
