import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import { operationOptions, runWorkdirOperation, type OperationFlags } from "./workdir-operation.js";
import { commonOptions, stateOptions, type ResourceOptions } from "./common-options.js";

/** `magma destroy`: destroy one resource. */
export function registerDestroyCommand(program: Command, ctx: CommandContext): void {
  operationOptions(stateOptions(commonOptions(program.command("destroy").argument("[provider]", "a provider (single-resource form; omit to destroy the working directory's objects)").argument("[type]", "a resource type"))), "destroy")
    .summary("destroy every object of the working directory (or one resource)")
    .description("Plans the destroy (when the provider asks to) and applies it. JSON: {type, action, state: null, private, warnings}.")
    .action(async (ref: string | undefined, type: string | undefined, o: ResourceOptions & OperationFlags) => {
      if (ref === undefined) return runWorkdirOperation(ctx, "destroy", o);
      if (type === undefined) throw new CliError(CliErrorCode.Usage, "missing required argument 'type': magma destroy takes either no argument (the working directory) or <provider> <type> (one resource)");
      const [{ destroyResource, resourceEntry }, { priorInput, stateJson }] = await Promise.all([import("../operations.js"), import("./resource-io.js")]);
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry, true);
        const result = await destroyResource(s, type, prior.prior!, prior.priorPrivate);
        ctx.printWarnings(o, result.warnings);
        ctx.out(o, () => `Destroy complete: ${type} destroyed.\n`, () => ({ type, action: "delete", ...stateJson(entry, result) }));
      });
    });
}
