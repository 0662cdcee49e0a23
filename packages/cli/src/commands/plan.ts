import type { Command } from "commander";
import { planResource, resourceEntry } from "../operations.js";
import { renderPlanDiff } from "../plan-diff.js";
import type { CommandContext } from "./command-context.js";
import { commonOptions, stateOptions, type ResourceOptions } from "./common-options.js";
import { configInput, planJson, priorInput } from "./resource-io.js";

/** `magma plan`: plan one resource. */
export function registerPlanCommand(program: Command, ctx: CommandContext): void {
  stateOptions(commonOptions(program.command("plan").argument("<provider>").argument("<type>", "a resource type")))
    .summary("plan a create, update, replace or destroy of one resource")
    .description(
      "Plans like terraform plan for one resource: create without --state, update or replace with it, destroy with --destroy.\nThe human form is Terraform's diff; the JSON form has planned_state (unknowns as null) with an after_unknown companion, requires_replace and planned_private, and feeds `magma apply --plan`.",
    )
    .option("--config <json>", "the resource configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .option("--destroy", "plan the destruction of the object in --state")
    .option("--name <name>", "the resource name shown in the diff", "this")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
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
