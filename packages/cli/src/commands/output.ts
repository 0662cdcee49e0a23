import type { Command } from "commander";
import { typeName } from "@magma/cty";
import { CliError, CliErrorCode } from "../cli-error.js";
import { RawJson, stringifyJson } from "../json-text.js";
import type { CommandContext } from "./command-context.js";
import type { Diagnostic } from "@magma/hcl";
import { terminalColumns } from "../terminal-columns.js";
import { quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** JSON text without insignificant whitespace (exact numbers and key order kept), as `terraform output -json NAME` prints it. */
function compactJsonText(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|\s+/g, (m) => (m.startsWith('"') ? m : ""));
}

/** Terraform's `missingOutputError`. */
const notFound = (name: string): Diagnostic => ({
  severity: "error",
  summary: `Output "${name}" not found`,
  detail:
    "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `terraform apply`, since the state won't be updated with new output variables until that command is run.",
});

/** Terraform's `noOutputsWarning` (printed on stdout, as its view prints warnings). */
const NO_OUTPUTS: Diagnostic = {
  severity: "warning",
  summary: "No outputs found",
  detail:
    "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `terraform refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `terraform console` command to assist.",
};

const rawError = (detail: string): Diagnostic => ({ severity: "error", summary: "Unsupported value for raw output", detail });

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
      // (loaded with the action: the diagnostics' formatting reads JSON files through @magma/hcl)
      const [{ decodeOutput, loadState }, { formatValue }, { formatDiagnostics }] = await Promise.all([import("@magma/state"), import("../workdir/format-value.js"), import("../workdir/format-diagnostic.js")]);
      // Terraform's view: diagnostics wrapped to the stream's width (errors on stderr, warnings on stdout), no blank line after.
      const show = (d: Diagnostic): void => {
        const stream = d.severity === "error" ? ctx.io.stderr : ctx.io.stdout;
        stream.write(formatDiagnostics([d], ctx.cwd, d.severity === "error" ? ctx.colour.stderr : ctx.colour.stdout, { width: terminalColumns(stream) }));
      };
      const fail = (d: Diagnostic, usage = false): never => {
        show(d);
        if (usage) ctx.io.stderr.write("\nFor more help on using this command, run:\n  terraform output -help\n");
        throw new CliError(CliErrorCode.BadInput, d.summary, { silent: true });
      };
      if (o.json === true && o.raw === true) fail({ severity: "error", summary: "Invalid output format", detail: "The -raw and -json options are mutually-exclusive." }, true);
      if (o.raw === true && name === undefined) {
        fail({ severity: "error", summary: "Output name required", detail: "You must give the name of a single output value when using the -raw option." }, true);
      }
      await withWorkingDir(ctx, o, async (wd) => {
        const st = await loadState(wd.store());
        const outputs = st?.outputs ?? new Map();
        if (outputs.size === 0 && o.json !== true) {
          show(NO_OUTPUTS);
          return;
        }
        if (name !== undefined) {
          const out = outputs.get(name);
          if (out === undefined) fail(notFound(name));
          const d = decodeOutput(out);
          if (o.json === true) ctx.print(`${compactJsonText(out.valueJson)}\n`);
          else if (o.raw === true) {
            const k = d.type.kind;
            if (k !== "string" && k !== "number" && k !== "bool") {
              fail(
                rawError(
                  `The -raw option only supports strings, numbers, and boolean values, but output value "${name}" is ${typeName(d.type)}.\n\nUse the -json option for machine-readable representations of output values that have complex types.`,
                ),
              );
            }
            if (d.value.isNull()) fail(rawError(`The value for output value "${name}" is null, so -raw mode cannot print it.`));
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
        for (const n of names) {
          const out = outputs.get(n)!;
          ctx.print(out.sensitive ? `${n} = <sensitive>\n` : `${n} = ${formatValue(decodeOutput(out).value)}\n`);
        }
      }, undefined, "view");
    });
}
