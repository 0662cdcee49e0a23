import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { operationOptions, runWorkdirOperation, type OperationFlags } from "./workdir-operation.js";
import { commonOptions, stateOptions, type ResourceOptions } from "./common-options.js";

/** `magma apply`: apply one resource. */
export function registerApplyCommand(program: Command, ctx: CommandContext): void {
  operationOptions(stateOptions(commonOptions(program.command("apply").argument("[provider]", "a saved plan file, or a provider (single-resource form); omit to apply the working directory").argument("[type]", "a resource type"))), "apply")
    .summary("apply a working directory's configuration or saved plan (or one resource)")
    .description(
      "Without <type>: terraform apply on the working directory: plans, asks \"Do you want to perform these actions?\" (-auto-approve skips it) and applies with live progress, saving the state after every object; `magma apply FILE` applies a plan saved by `magma plan -out FILE`.\nWith <provider> <type>: plans from --config and --state (like terraform apply) and applies the plan; or applies a saved `magma plan` output with --plan.\nA replacement is destroy-then-create. The JSON form is {type, action, state, private, warnings}; its state feeds --state / --from of the next command.",
    )
    .option("--config <json>", "the resource configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .option("--plan <file>", "apply this saved `magma plan` JSON output instead of planning again")
    .option("--name <name>", "the resource name shown in the diff", "this")
    .action(async (ref: string | undefined, type: string | undefined, o: ResourceOptions & OperationFlags) => {
      if (type === undefined || ref === undefined) return runWorkdirOperation(ctx, "apply", o, ref);
      const [{ applyPlan, planResource, resourceEntry }, { renderPlanDiff }, { configInput, pastTense, priorInput, savedPlan, stateHuman, stateJson }] = await Promise.all([
        import("../operations.js"),
        import("../plan-diff.js"),
        import("./resource-io.js"),
      ]);
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const plan = o.plan !== undefined ? savedPlan(o.plan, type, entry) : await planResource(s, type, { config: configInput(o, entry), ...priorInput(o, entry) });
        const result = await applyPlan(s, plan);
        ctx.printWarnings(o, result.warnings);
        ctx.out(
          o,
          () => `${renderPlanDiff(plan, { name: o.name ?? "this" })}\nApply complete: ${type}.${o.name ?? "this"} ${pastTense(plan.action)}.\n${stateHuman(entry, result.state)}`,
          () => ({ type, action: plan.action, ...stateJson(entry, result) }),
        );
      });
    });
}
