import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { commonOptions, stateOptions, type ResourceOptions } from "./common-options.js";

/** `magma read`: refresh one resource. */
export function registerReadCommand(program: Command, ctx: CommandContext): void {
  stateOptions(commonOptions(program.command("read").argument("<provider>").argument("<type>", "a resource type")))
    .summary("refresh one resource from its state")
    .description("Reads the object's current state. JSON: {type, state, private, warnings}, state null when the object no longer exists.")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      const [{ readResource, resourceEntry }, { priorInput, stateHuman, stateJson }] = await Promise.all([import("../operations.js"), import("./resource-io.js")]);
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry, true);
        const result = await readResource(s, type, prior.prior!, prior.priorPrivate);
        ctx.printWarnings(o, result.warnings);
        ctx.out(o, () => (result.state.isNull() ? `${type} no longer exists.\n` : stateHuman(entry, result.state)), () => ({ type, ...stateJson(entry, result) }));
      });
    });
}
