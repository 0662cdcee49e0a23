import type { Command } from "commander";
import { platformName } from "../workdir/platform-name.js";
import type { CommandContext } from "./command-context.js";
import { quietOptions, type WorkdirOptions } from "./workdir-options.js";

/**
 * `magma validate [-json]`: `terraform validate` on the working directory: the
 * configuration's decoding and static checks, with resource bodies checked against the
 * installed providers' schemas, and every expression evaluated as terraform validate's walk
 * evaluates it (see the engine's `validateExpressions`). Exit 1 when there are errors.
 */
export function registerValidateCommand(program: Command, ctx: CommandContext): void {
  quietOptions(program.command("validate"))
    .summary("check the configuration")
    .description(
      `Checks the working directory's configuration as terraform validate does, with the schemas of the providers init installed (.terraform/providers/…/${platformName()}) or native ones. -json prints terraform's validate -json document.`,
    )
    .option("--json", "print terraform validate -json's document")
    .action(async (o: WorkdirOptions) => (await import("./validate.js")).validateAction(ctx, o));
}
