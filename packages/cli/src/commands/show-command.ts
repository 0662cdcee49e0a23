import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { quietOptions, statePathOption, type WorkdirOptions } from "./workdir-options.js";

/**
 * `magma show [-json] [PLANFILE]`: the current workspace's state, or a plan saved by
 * `magma plan -out`, as `terraform show` prints them (`-json`: the `terraform show -json`
 * formats, state format 1.0 and plan format 1.2). The providers are started for their schemas;
 * one that cannot be started fails the command with terraform's "Failed to load plugin
 * schemas" (exit code 1).
 */
export function registerShowCommand(program: Command, ctx: CommandContext): void {
  quietOptions(statePathOption(program.command("show").argument("[planfile]", "a plan saved by `magma plan -out`")))
    .summary("show the state or a saved plan")
    .description("Prints the current workspace's state, or a saved plan, as terraform show does; -json prints terraform show -json's documents.")
    .option("--json", "machine-readable output, as terraform show -json")
    .action(async (planfile: string | undefined, o: WorkdirOptions) => (await import("./show.js")).showAction(ctx, planfile, o));
}
