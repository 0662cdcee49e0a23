import type { Command } from "commander";
import { ExitCode } from "../exit-code.js";
import type { CommandContext } from "./command-context.js";

/** Terraform 1.11's `fmt -help` text (printed with a flag error, as terraform prints it). */
const FMT_HELP = `Usage: terraform [global options] fmt [options] [target...]

  Rewrites all Terraform configuration files to a canonical format. All
  configuration files (.tf), variables files (.tfvars), and testing files 
  (.tftest.hcl) are updated. JSON files (.tf.json, .tfvars.json, or 
  .tftest.json) are not modified.

  By default, fmt scans the current directory for configuration files. If you
  provide a directory for the target argument, then fmt will scan that
  directory instead. If you provide a file, then fmt will process just that
  file. If you provide a single dash ("-"), then fmt will read from standard
  input (STDIN).

  The content must be in the Terraform language native syntax; JSON is not
  supported.

Options:

  -list=false    Don't list files whose formatting differs
                 (always disabled if using STDIN)

  -write=false   Don't write to source files
                 (always disabled if using STDIN or -check)

  -diff          Display diffs of formatting changes

  -check         Check if the input is formatted. Exit status will be 0 if all
                 input is properly formatted and non-zero otherwise.

  -no-color      If specified, output won't contain any color.

  -recursive     Also process files in subdirectories. By default, only the
                 given directory (or current directory) is processed.`;

/** The options of `magma fmt` (Go booleans: `-write=false`). */
interface FmtOptions {
  list?: string | boolean;
  write?: string | boolean;
  diff?: string | boolean;
  check?: string | boolean;
  recursive?: string | boolean;
}

/** A Go `flag` boolean, or the text of terraform's parse error for it. */
function goBool(name: string, v: string | boolean | undefined, dflt: boolean): boolean | string {
  if (v === undefined) return dflt;
  if (typeof v === "boolean") return v;
  if (/^(1|t|T|TRUE|true|True)$/.test(v)) return true;
  if (/^(0|f|F|FALSE|false|False)$/.test(v)) return false;
  return `invalid boolean value "${v}" for -${name}: parse error`;
}

/** Reads all of stdin as text. */
async function readStdin(ctx: CommandContext): Promise<string> {
  const input = ctx.io.stdin;
  if (input === undefined) return "";
  const chunks: Buffer[] = [];
  for await (const c of input) chunks.push(typeof c === "string" ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * `magma fmt [options] [target...]`: rewrites configuration files (`.tf`, `.tfvars`,
 * `.tftest.hcl`) to the canonical layout byte for byte as `terraform fmt` does, with its flags
 * (`-list`, `-write`, `-diff`, `-check`, `-recursive`), stdin (`-`), output and exit codes
 * (2 for errors, 3 when `-check` finds files to format).
 */
export function registerFmtCommand(program: Command, ctx: CommandContext): void {
  program
    .command("fmt")
    .summary("reformat configuration files in the canonical style (terraform fmt)")
    .description("Rewrites .tf, .tfvars and .tftest.hcl files to Terraform's canonical format, as `terraform fmt` does. A target is a file, a directory (its files; -recursive: and its subdirectories'), or - for stdin.")
    .argument("[target...]", "files or directories (default: the working directory), or - for stdin")
    .option("--list [bool]", "list files whose formatting differs (default true; off for stdin)")
    .option("--write [bool]", "write the formatted files (default true; off for stdin and -check)")
    .option("--diff [bool]", "print a diff of each change")
    .option("--check [bool]", "exit 3 when a file needs formatting, writing nothing")
    .option("--recursive [bool]", "also process subdirectories")
    .option("--no-color", "no colour")
    .allowUnknownOption(true)
    .exitOverride()
    .action(async (targets: string[], o: FmtOptions) => {
      const flagError = (msg: string): void => {
        // Terraform's Ui.Error, red unless colour is off.
        const red = (t: string): string => (ctx.colour.stderr ? `\x1b[31m${t}\x1b[0m\x1b[0m\n` : `${t}\n`);
        ctx.io.stderr.write(red(FMT_HELP) + red(`Error parsing command-line flags: ${msg}\n`));
        ctx.exitCode = ExitCode.Error;
      };
      const unknown = targets.find((t) => /^-./.test(t));
      if (unknown !== undefined) return flagError(`flag provided but not defined: -${unknown.replace(/^--?/, "").replace(/=.*$/s, "")}`);
      const values: Record<keyof FmtOptions, boolean> = { list: true, write: true, diff: false, check: false, recursive: false };
      for (const [name, dflt] of [["list", true], ["write", true], ["diff", false], ["check", false], ["recursive", false]] as const) {
        const v = goBool(name, o[name], dflt);
        if (typeof v === "string") return flagError(v);
        values[name] = v;
      }
      let paths: string[] | undefined = targets.length === 0 ? ["."] : targets;
      if (targets[0] === "-") {
        paths = undefined;
        values.list = false;
        values.write = false;
      }
      const listed = values.list;
      if (values.check) {
        values.list = true;
        values.write = false;
      }
      const { runFmt } = await import("../fmt/run-fmt.js");
      let buffered = "";
      const ui = (text: string): void => void ctx.io.stdout.write(`${text.endsWith("\n") ? text.slice(0, -1) : text}\n`);
      const sources = new Map<string, string>();
      const stdinText = paths === undefined ? await readStdin(ctx) : "";
      const diags = runFmt(paths, () => stdinText, values, {
        cwd: ctx.cwd,
        sources,
        write: values.check ? (t) => void (buffered += t) : ui,
      });
      if (diags.length > 0) {
        const { formatDiagnostics } = await import("../workdir/format-diagnostic.js");
        const { terminalColumns } = await import("../terminal-columns.js");
        // Each diagnostic on its own line (terraform's Meta.showDiagnostics: Ui.Error per diagnostic).
        for (const d of diags) ctx.io.stderr.write(`${formatDiagnostics([d], ctx.cwd, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr), sources })}\n`);
        if (diags.some((d) => d.severity === "error")) {
          ctx.exitCode = ExitCode.Usage;
          return;
        }
      }
      if (values.check) {
        if (listed && buffered.length > 0) ui(buffered);
        if (buffered.length > 0) ctx.exitCode = ExitCode.Unformatted;
      }
    });
}
