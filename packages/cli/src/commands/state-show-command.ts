import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { quietOptions, statePathOption, type WorkdirOptions } from "./workdir-options.js";

/**
 * `magma state show ADDRESS`: one resource instance's attributes in Terraform's block form,
 * rendered with its provider's schema (the provider is started for it). When the provider
 * cannot be started, the command fails as terraform does ("Failed to load plugin schemas").
 */
export function registerStateShowCommand(state: Command, ctx: CommandContext): void {
  quietOptions(statePathOption(state.command("show").argument("<address>", "one resource instance")))
    .summary("show a resource instance in the state")
    .description("Prints the attributes of one resource instance of the current workspace's state; sensitive attributes are shown as (sensitive value).")
    .action(async (address: string, o: WorkdirOptions) => (await import("./state-show.js")).stateShowAction(ctx, address, o));
}
