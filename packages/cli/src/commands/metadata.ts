import type { Command } from "commander";
import { ExitCode } from "../exit-code.js";
import type { CommandContext } from "./command-context.js";

const METADATA_HELP = `Usage: terraform [global options] metadata <subcommand> [options] [args]

  This command has subcommands for metadata related purposes.

Subcommands:
    functions    Show signatures and descriptions for the available functions
`;

const FUNCTIONS_HELP = `Usage: terraform [global options] metadata functions -json

  Prints out a json representation of the available function signatures.
`;

/** Text as terraform's coloured `Ui.Error` writes it: red, reset twice, then a newline. */
function uiError(text: string, colour: boolean): string {
  return colour ? `\x1b[31m${text}\x1b[0m\x1b[0m\n` : `${text}\n`;
}

/**
 * `magma metadata functions -json`: the signatures of Terraform's built-in functions (each
 * also under its `core::` name) as terraform 1.11.4's `metadata functions -json` prints them:
 * the same names, parameters, nullability and return types. The descriptions are magma's own
 * words, not terraform's documentation text. Without `-json` it refuses, as terraform does.
 */
export function registerMetadataCommand(program: Command, ctx: CommandContext): void {
  const metadata = program
    .command("metadata")
    .summary("metadata about what magma provides (functions)")
    .description("Has subcommands for metadata: `metadata functions -json` prints the built-in functions' signatures, as terraform does.")
    .argument("[args...]")
    .option("--no-color", "no colour")
    .allowUnknownOption()
    .exitOverride()
    .action(() => {
      // terraform prints the group's usage on stdout and exits 1, for no subcommand or an unknown one.
      ctx.print(METADATA_HELP);
      ctx.exitCode = ExitCode.Error;
    });
  metadata
    .command("functions")
    .summary("print the built-in functions' signatures (-json)")
    .description("Prints the signatures of the built-in functions as terraform's `metadata functions -json` document.")
    .option("--json", "print JSON (required)")
    .option("--no-color", "no colour")
    .argument("[args...]", "ignored, as terraform ignores them")
    .exitOverride()
    .action(async (_args: string[], o: { json?: boolean }) => {
      if (o.json !== true) {
        const colour = ctx.colour.stderr;
        ctx.io.stderr.write(uiError("The `terraform metadata functions` command requires the `-json` flag.\n", colour) + uiError(`\n${FUNCTIONS_HELP}`, colour));
        ctx.exitCode = ExitCode.Error;
        return;
      }
      const [{ terraformFunctions, functionSignatures }, { functionSignaturesJson }] = await Promise.all([import("@magma/hcl"), import("../workdir/provider-schemas-json.js")]);
      const signatures = new Map(
        [...functionSignatures(terraformFunctions())].map(([name, s]) => [
          name,
          {
            description: s.description,
            returnType: s.returnType,
            parameters: s.params.map((p) => ({ name: p.name, type: p.type, allowNullValue: p.isNullable })),
            ...(s.varParam !== undefined ? { variadicParameter: { name: s.varParam.name, type: s.varParam.type, allowNullValue: s.varParam.isNullable } } : {}),
          },
        ]),
      );
      ctx.print(`${functionSignaturesJson(signatures)}\n`);
    });
}
