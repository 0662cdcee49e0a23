import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import { operationOptions, runWorkdirOperation, type OperationFlags } from "./workdir-operation.js";
import { commonOptions, stateOptions, type ResourceOptions } from "./common-options.js";

/** `magma plan`: plan one resource. */
export function registerPlanCommand(program: Command, ctx: CommandContext): void {
  operationOptions(stateOptions(commonOptions(program.command("plan").argument("[provider]", "a provider (single-resource form; omit to plan the working directory)").argument("[type]", "a resource type"))), "plan")
    .summary("show the changes a working directory's configuration needs (or plan one resource)")
    .description(
      "Without arguments: terraform plan on the working directory (the current workspace's state from the backend, under its lock; -out FILE saves the plan for `magma apply FILE`).\nWith <provider> <type>: plans like terraform plan for one resource: create without --state, update or replace with it, destroy with --destroy.\nThe human form is Terraform's diff; the JSON form has planned_state (unknowns as null) with an after_unknown companion, requires_replace and planned_private, and feeds `magma apply --plan`.",
    )
    .option("--config <json>", "the resource configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .option("--destroy", "plan the destruction of the object in --state")
    .option("--name <name>", "the resource name shown in the diff", "this")
    .action(async (ref: string | undefined, type: string | undefined, o: ResourceOptions & OperationFlags) => {
      if (ref === undefined) return runWorkdirOperation(ctx, "plan", o);
      if (type === undefined) throw new CliError(CliErrorCode.Usage, "missing required argument 'type': magma plan takes either no argument (the working directory) or <provider> <type> (one resource)");
      const [{ planResource, resourceEntry }, { renderPlanDiff }, { configInput, planJson, priorInput }] = await Promise.all([import("../operations.js"), import("../plan-diff.js"), import("./resource-io.js")]);
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry);
        const config = o.destroy === true ? null : configInput(o, entry);
        const plan = await planResource(s, type, { config, ...prior });
        ctx.printWarnings(o, plan.change.warnings);
        ctx.out(o, () => renderPlanDiff(plan, { name: o.name ?? "this" }), () => planJson(plan));
      });
    });
}
