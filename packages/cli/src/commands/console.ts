import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { variableArgs } from "./workdir-operation.js";
import { lockOptions, lockSettings, quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/**
 * `magma console`: evaluates expressions against the configuration and the current
 * workspace's state, as `terraform console` does — piped stdin (each line in turn, the last
 * result printed, the first error exits 1) or a prompt on a terminal (line editing, history,
 * multi-line entries). `-plan` evaluates against a plan of the configuration (planned objects,
 * with unknowns where providers compute values) instead of the state.
 */
export function registerConsoleCommand(program: Command, ctx: CommandContext): void {
  lockOptions(quietOptions(statePathOption(program.command("console"))))
    .summary("try expressions against the configuration and state")
    .description("Evaluates expressions read from stdin (a prompt on a terminal) in the root module: variables, locals, module outputs, and resources and data sources from the state, as terraform console does.")
    .option("--var <name=value>", "set a root module variable (repeatable)", (v: string, p: string[] = []) => [...p, v])
    .option("--var-file <file>", "load variable values from a file (repeatable)", (v: string, p: string[] = []) => [...p, v])
    .option("--plan", "evaluate against a plan of the configuration (its planned objects) instead of the state")
    .action(async (o: WorkdirOptions & { plan?: boolean }) => {
      const { runConsole } = await import("../workdir/run-console.js");
      await withWorkingDir(ctx, o, (wd) => runConsole(ctx, wd, { variableArgs: variableArgs(ctx.argv), lock: lockSettings(o), plan: o.plan === true }));
    });
}
