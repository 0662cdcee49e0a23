import type { Command } from "commander";
import type { SchemaEntry } from "@magma/provider-api";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import { variableArgs } from "./workdir-operation.js";
import { lockSettings, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";
import { commonOptions, type ResourceOptions } from "./common-options.js";

/** `magma import`: import one object. */
export function registerImportCommand(program: Command, ctx: CommandContext): void {
  commonOptions(program.command("import").argument("<provider>", "a provider, or (working directory, without --id) the resource address ADDR").argument("<type>", "a resource type, or (working directory) the import ID"))
    .summary("import an existing object: ADDR ID into the working directory's state (or one resource by --id)")
    .description(
      "magma import ADDR ID: terraform import on the working directory (the resource's configured provider; the object is written to the current workspace's state).\nmagma import <provider> <type> --id ID: imports the object and reads it, as terraform import does. JSON: {type, id, state, private, warnings, sensitive_values} (plus `others` when the provider returned more objects); an id that is a sensitive value of the imported state is hidden like it.",
    )
    .option("--id <id>", "the import id (single-resource form)")
    .option("--var <name=value>", "set a root module variable (working directory; repeatable)", (v: string, p: string[] = []) => [...p, v])
    .option("--var-file <file>", "load variable values from a file (working directory; repeatable)", (v: string, p: string[] = []) => [...p, v])
    .option("--lock [bool]", "take the state lock (working directory; default true)")
    .option("--lock-timeout <duration>", "how long to retry a held state lock (working directory)")
    .option("--no-read", "skip the read after the import")
    .option("--no-color", "no colour (working directory; also NO_COLOR; FORCE_COLOR colours a pipe)")
    .option("--input [bool]", "accepted for terraform compatibility (working directory; magma import never asks)")
    .action(async (ref: string, type: string, o: ResourceOptions & WorkdirOptions) => {
      if (o.id === undefined) {
        if (!ref.includes(".")) throw new CliError(CliErrorCode.Usage, "required option '--id <id>' not specified");
        // terraform import ADDR ID on the working directory.
        const { runImport } = await import("../workdir/run-import.js");
        await withWorkingDir(ctx, o, (wd) => runImport(ctx, wd, { address: ref, id: type, variableArgs: variableArgs(ctx.argv), lock: lockSettings(o) }));
        return;
      }
      const [{ RawJson }, { importResource, resourceEntry }, { sensitiveStrings, sensitiveValues }, { valueToJson }, { stateHuman, stateJson }] = await Promise.all([
        import("../json-text.js"),
        import("../operations.js"),
        import("../sensitive-json.js"),
        import("../value-json.js"),
        import("./resource-io.js"),
      ]);
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
