import type { Command } from "commander";
import type { SchemaEntry } from "@magma/provider-api";
import { RawJson } from "../json-text.js";
import { importResource, resourceEntry } from "../operations.js";
import { sensitiveStrings, sensitiveValues } from "../sensitive-json.js";
import { valueToJson } from "../value-json.js";
import type { CommandContext } from "./command-context.js";
import { commonOptions, type ResourceOptions } from "./common-options.js";
import { stateHuman, stateJson } from "./resource-io.js";

/** `magma import`: import one object. */
export function registerImportCommand(program: Command, ctx: CommandContext): void {
  commonOptions(program.command("import").argument("<provider>").argument("<type>", "a resource type"))
    .summary("import an existing object by id")
    .description(
      "Imports the object and reads it, as terraform import does. JSON: {type, id, state, private, warnings, sensitive_values} (plus `others` when the provider returned more objects); an id that is a sensitive value of the imported state is hidden like it.",
    )
    .requiredOption("--id <id>", "the import id")
    .option("--no-read", "skip the read after the import")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await ctx.withSession(ref, o, true, async (s) => {
        resourceEntry(s, type);
        const { objects, warnings } = await importResource(s, type, o.id!, o.read !== false);
        ctx.printWarnings(o, warnings);
        const first = objects.find((x) => x.typeName === type) ?? objects[0]!;
        const others = objects.filter((x) => x !== first);
        const entryOf = (t: string): SchemaEntry => resourceEntry(s, t);
        // An id that is a sensitive value of what was imported (random_password's id is the password) is hidden like it.
        const secretId = objects.some((x) => {
          const st = valueToJson(x.state, entryOf(x.typeName).type);
          return sensitiveStrings(st, sensitiveValues(entryOf(x.typeName).block, st)).includes(o.id!);
        });
        ctx.out(
          o,
          () => `Import successful: ${first.typeName} ${secretId ? "(sensitive value)" : JSON.stringify(o.id)}.\n${stateHuman(entryOf(first.typeName), first.state)}`,
          () => {
            const { sensitive_values, ...rest } = stateJson(entryOf(first.typeName), { ...first, warnings });
            return {
              type: first.typeName,
              id: secretId ? new RawJson(JSON.stringify(o.id)) : o.id,
              ...rest,
              others: others.length === 0 ? undefined : others.map((x) => ({ type: x.typeName, ...stateJson(entryOf(x.typeName), x) })),
              sensitive_values: secretId ? { id: true, ...(sensitive_values as object) } : sensitive_values,
            };
          },
        );
      });
    });
}
