import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { operationOptions, runWorkdirOperation, type OperationFlags } from "./workdir-operation.js";
import { statePathOption } from "./workdir-options.js";

/** `magma refresh`: `terraform refresh` (an `apply -refresh-only -auto-approve`) on the working directory. */
export function registerRefreshCommand(program: Command, ctx: CommandContext): void {
  operationOptions(statePathOption(program.command("refresh")), "refresh")
    .summary("update the state from the real objects")
    .description("terraform refresh: reads every object in the current workspace's state and saves what the providers report (an apply -refresh-only -auto-approve). A refresh that magma's guard judges suspect is refused unless -allow-mass-loss.")
    .action(async (o: OperationFlags) => runWorkdirOperation(ctx, "refresh", o));
}
