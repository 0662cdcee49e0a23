import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { quietOptions, statePathOption, type WorkdirOptions } from "./workdir-options.js";

/** `magma graph`: the resource dependency graph, or an operation's graph with -type, in DOT, as `terraform graph` prints them. */
export function registerGraphCommand(program: Command, ctx: CommandContext): void {
  quietOptions(statePathOption(program.command("graph")))
    .summary("print the dependency graph in DOT")
    .description(
      "Without -type: the resources and their dependencies, clustered by module, as terraform graph prints them.\nWith -type=plan|plan-refresh-only|plan-destroy|apply: the operation's whole graph as terraform graph -type prints it (from the configuration and the current workspace's state; no provider is started).\nWith -plan=FILE: the apply graph of a saved plan.",
    )
    .option("--type <type>", "the operation's graph: plan, plan-refresh-only, plan-destroy or apply")
    .option("--plan <file>", "the apply graph of a plan saved by magma plan -out (implies -type=apply): a node per changed instance")
    .option("--draw-cycles [bool]", "with -type: draw the graph even when it has cycles, their edges in red (terraform's -draw-cycles)")
    .option("--verbose [bool]", "with -type: declare the provider closes too, as terraform graph -verbose does")
    .option("--module-depth <n>", "accepted for terraform compatibility (deprecated there; no effect)")
    .action(async (o: WorkdirOptions & { type?: string; plan?: string; drawCycles?: string | boolean; verbose?: string | boolean; moduleDepth?: string }) => (await import("./graph.js")).graphAction(ctx, o));
}
