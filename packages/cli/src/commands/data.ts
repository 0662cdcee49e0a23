import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { commonOptions, type ResourceOptions } from "./common-options.js";

/** `magma data`: read a data source. */
export function registerDataCommand(program: Command, ctx: CommandContext): void {
  commonOptions(program.command("data").argument("<provider>").argument("<type>", "a data source"))
    .summary("read a data source")
    .description("Reads a data source with --config. JSON: {type, state, warnings}.")
    .option("--config <json>", "the data source configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      const [{ dataSourceEntry, readData }, { diagToJson, valueToJson }, { configInput, stateHuman, valuesJson }] = await Promise.all([
        import("../operations.js"),
        import("../value-json.js"),
        import("./resource-io.js"),
      ]);
      await ctx.withSession(ref, o, true, async (s) => {
        const entry = dataSourceEntry(s, type);
        const result = await readData(s, type, configInput(o, entry));
        ctx.printWarnings(o, result.warnings);
        ctx.out(o, () => stateHuman(entry, result.state), () => ({ type, ...valuesJson(entry.block, { state: valueToJson(result.state, entry.type) }), warnings: result.warnings.map(diagToJson) }));
      });
    });
}
