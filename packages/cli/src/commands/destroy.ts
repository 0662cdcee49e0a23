import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
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
      if (type === undefined && (await isPlanFile(resolve(ctx.cwd, ref)))) {
        // terraform's words, printed as its view prints a diagnostic.
        const [{ formatDiagnostics }, { terminalColumns }] = await Promise.all([import("../workdir/format-diagnostic.js"), import("../terminal-columns.js")]);
        const detail = `If this plan was created using plan -destroy, apply it using:\n  terraform apply ${JSON.stringify(ref)}`;
        ctx.io.stderr.write(formatDiagnostics([{ severity: "error", summary: "Destroy can't be called with a plan file", detail }], ctx.cwd, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
        throw new CliError(CliErrorCode.BadInput, "Destroy can't be called with a plan file", { silent: true });
      }
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

/** Whether `path` is a file holding a saved plan (as terraform's destroy checks its argument). */
async function isPlanFile(path: string): Promise<boolean> {
  if (!existsSync(path) || !statSync(path).isFile()) return false;
  const { readPlanFile } = await import("@magma/engine");
  return readPlanFile(path).then(
    () => true,
    () => false,
  );
}
