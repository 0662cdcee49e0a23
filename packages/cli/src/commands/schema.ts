import type { Command } from "commander";
import type { CommandContext, CommonOptions } from "./command-context.js";
import { commonOptions } from "./common-options.js";

/** `magma schema`: show a provider's schema. */
export function registerSchemaCommand(program: Command, ctx: CommandContext): void {
  commonOptions(program.command("schema").argument("<provider>").argument("[type]", "a resource type, data source or ephemeral resource type"), false)
    .summary("show a provider's schema")
    .description(
      "Without a type: a summary (protocol, counts of resources, data sources, ephemeral resources and functions, capabilities). With a type: its attributes and blocks as a tree (as a resource, data source and ephemeral resource, whichever it is).\nThe JSON form is exactly the object `terraform providers schema -json` prints under provider_schemas.<address> (or the one type's entry), compact on one line as terraform prints it; --pretty indents it.",
    )
    .option("--pretty", "indent the JSON output for reading (default: compact, one line)")
    .action(async (ref: string, type: string | undefined, o: CommonOptions) => {
      const [{ providerSchemaToTerraformJson }, { resourceEntry }, { renderSchemaEntry, renderSchemaSummary }] = await Promise.all([import("@magma/plugin"), import("../operations.js"), import("../schema-view.js")]);
      const compact = o.pretty !== true;
      await ctx.withSession(ref, o, false, async (s) => {
        if (type === undefined) {
          ctx.out(o, () => renderSchemaSummary(s.schema, s.origin), () => providerSchemaToTerraformJson(s.schema), compact);
          return;
        }
        const r = s.schema.resources.get(type);
        const d = s.schema.dataSources.get(type);
        const e = s.schema.ephemeralResources?.get(type);
        if (r === undefined && d === undefined && e === undefined) resourceEntry(s, type);
        const all = providerSchemaToTerraformJson(s.schema);
        ctx.out(
          o,
          () =>
            [
              r === undefined ? "" : renderSchemaEntry("resource", type, r),
              d === undefined ? "" : renderSchemaEntry("data source", type, d),
              e === undefined ? "" : renderSchemaEntry("ephemeral resource", type, e),
            ]
              .filter((x) => x !== "")
              .join("\n"),
          () => {
            const j: Record<string, unknown> = {};
            if (r !== undefined) j["resource_schema"] = all.resource_schemas?.[type];
            if (d !== undefined) j["data_source_schema"] = all.data_source_schemas?.[type];
            if (e !== undefined) j["ephemeral_resource_schema"] = all.ephemeral_resource_schemas?.[type];
            return j;
          },
          compact,
        );
      });
    });
}
