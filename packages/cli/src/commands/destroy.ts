import type { Command } from "commander";
import { destroyResource, resourceEntry } from "../operations.js";
import type { CommandContext } from "./command-context.js";
import { commonOptions, stateOptions, type ResourceOptions } from "./common-options.js";
import { priorInput, stateJson } from "./resource-io.js";

/** `magma destroy`: destroy one resource. */
export function registerDestroyCommand(program: Command, ctx: CommandContext): void {
  stateOptions(commonOptions(program.command("destroy").argument("<provider>").argument("<type>", "a resource type")))
    .summary("destroy one resource")
    .description("Plans the destroy (when the provider asks to) and applies it. JSON: {type, action, state: null, private, warnings}.")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry, true);
        const result = await destroyResource(s, type, prior.prior!, prior.priorPrivate);
        ctx.printWarnings(o, result.warnings);
        ctx.out(o, () => `Destroy complete: ${type} destroyed.\n`, () => ({ type, action: "delete", ...stateJson(entry, result) }));
      });
    });
}
