import type { Command } from "commander";
import { typeName } from "@magma/cty";
import { CliError, CliErrorCode } from "../cli-error.js";
import { RawJson, stringifyJson } from "../json-text.js";
import type { CommandContext } from "./command-context.js";
import { quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** JSON text without insignificant whitespace (exact numbers and key order kept), as `terraform output -json NAME` prints it. */
function compactJsonText(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|\s+/g, (m) => (m.startsWith('"') ? m : ""));
}

const notFound = (name: string): CliError =>
  new CliError(CliErrorCode.NotFound, `Output "${name}" not found`, {
    detail:
      "The output variable requested could not be found in the state file. If you\nrecently added this to your configuration, be sure to run `terraform\napply`, since the state won't be updated with new output variables until\nthat command is run.",
  });

/**
 * `magma output [-json] [-raw] [NAME]`: the root module's outputs from the current
 * workspace's state, as `terraform output` prints them: all of them with sensitive ones as
 * `<sensitive>`, one by name (shown, sensitive or not), `-json` with types, `-raw` for a
 * string, number or bool.
 */
export function registerOutputCommand(program: Command, ctx: CommandContext): void {
  quietOptions(statePathOption(program.command("output").argument("[name]", "one output")))
    .summary("show output values from the state")
    .description("Reads the root module's output values from the current workspace's state (no provider is started).")
    .option("--json", "machine-readable output: {name: {sensitive, type, value}}, or one output's value")
    .option("--raw", "print a string, number or bool output's value as it is, without quotes or a newline")
    .action(async (name: string | undefined, o: WorkdirOptions & { raw?: boolean }) => {
      const [{ decodeOutput, loadState }, { formatValue }] = await Promise.all([import("@magma/state"), import("../workdir/format-value.js")]);
      if (o.json === true && o.raw === true) throw new CliError(CliErrorCode.Usage, "The -raw and -json options are mutually-exclusive.");
      if (o.raw === true && name === undefined) throw new CliError(CliErrorCode.Usage, "You must give the name of a single output value when using the -raw option.");
      await withWorkingDir(ctx, o, async (wd) => {
        const st = await loadState(wd.store());
        const outputs = st?.outputs ?? new Map();
        if (name !== undefined) {
          const out = outputs.get(name);
          if (out === undefined) throw notFound(name);
          const d = decodeOutput(out);
          if (o.json === true) ctx.print(`${compactJsonText(out.valueJson)}\n`);
          else if (o.raw === true) {
            const k = d.type.kind;
            if (d.value.isNull()) throw new CliError(CliErrorCode.BadInput, "Unsupported value for raw output", { detail: `The value for output value "${name}" is null, so -raw mode cannot print it.` });
            if (k !== "string" && k !== "number" && k !== "bool") {
              throw new CliError(CliErrorCode.BadInput, "Unsupported value for raw output", {
                detail: `The -raw option only supports strings, numbers, and boolean values, but\noutput value "${name}" is ${typeName(d.type)}.\n\nUse the -json option for machine-readable representations of output values\nthat have complex types.`,
              });
            }
            ctx.print(k === "string" ? d.value.asString() : k === "number" ? d.value.asNumber().toString() : String(d.value.asBool()));
          } else ctx.print(`${formatValue(d.value)}\n`);
          return;
        }
        const names = [...outputs.keys()].sort();
        if (o.json === true) {
          const doc: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
          for (const n of names) {
            const out = outputs.get(n)!;
            doc[n] = { sensitive: out.sensitive, type: new RawJson(out.typeJson), value: new RawJson(out.valueJson) };
          }
          ctx.print(names.length === 0 ? "{}\n" : `${stringifyJson(doc)}\n`);
          return;
        }
        if (names.length === 0) {
          ctx.err(
            "\nWarning: No outputs found\n\nThe state file either has no outputs defined, or all the defined outputs\nare empty. Please define an output in your configuration with the `output`\nkeyword and run `terraform refresh` for it to become available. If you are\nusing interpolation, please verify the interpolated value is not empty. You\ncan use the `terraform show` command to view the current state.\n",
          );
          return;
        }
        for (const n of names) {
          const out = outputs.get(n)!;
          ctx.print(out.sensitive ? `${n} = <sensitive>\n` : `${n} = ${formatValue(decodeOutput(out).value)}\n`);
        }
      });
    });
}
