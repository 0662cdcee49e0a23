import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { parseJsonText } from "../json-text.js";
import { describeNode, readInputText } from "../read-input.js";
import type { CommandContext } from "./command-context.js";
import { commonOptions, type ResourceOptions } from "./common-options.js";

/** `magma upgrade`: upgrade a stored state. */
export function registerUpgradeCommand(program: Command, ctx: CommandContext): void {
  commonOptions(program.command("upgrade").argument("<provider>").argument("<type>", "a resource type"))
    .summary("upgrade a stored state to the current schema version")
    .description("Hands a state written with an older schema version to the provider. JSON: {type, state, warnings}.")
    .requiredOption("--version <n>", "the schema version the state was written with")
    .requiredOption("--raw-state <json>", "the stored state's attributes as JSON: inline, @FILE, a file path, or -")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      const version = Number(o.version);
      if (!/^\d+$/.test(o.version ?? "") || !Number.isSafeInteger(version)) {
        throw new CliError(CliErrorCode.Usage, `--version: expected a non-negative integer schema version, got ${JSON.stringify(o.version)}`);
      }
      const raw = readInputText("--raw-state", o.rawState!);
      const node = parseJsonText(raw, "--raw-state");
      if (node.kind !== "object") throw new CliError(CliErrorCode.BadInput, `--raw-state: expected a JSON object, got ${describeNode(node)}`);
      const [{ resourceEntry, upgradeResource }, { diagToJson, valueToJson }, { stateHuman, valuesJson }] = await Promise.all([import("../operations.js"), import("../value-json.js"), import("./resource-io.js")]);
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const result = await upgradeResource(s, type, version, raw);
        ctx.printWarnings(o, result.warnings);
        ctx.out(o, () => stateHuman(entry, result.state), () => ({ type, ...valuesJson(entry.block, { state: valueToJson(result.state, entry.type) }), warnings: result.warnings.map(diagToJson) }));
      });
    });
}
