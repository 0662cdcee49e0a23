import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { CliError, CliErrorCode } from "./cli-error.js";
import { reportCliConfigProblems } from "./cli-config-problems.js";
import { processIo, type CliIo } from "./cli-io.js";
import { decideColour } from "./decide-colour.js";
import { commandName } from "./command-name.js";
import { createCommandContext, type RegisterCommand } from "./commands/command-context.js";
import { ExitCode } from "./exit-code.js";
import { createTerraformLog, registerTerraformLog, type TerraformLog } from "./logging/terraform-log.js";
import { Spinner } from "./spinner.js";
import { mergeTerraformEnvArgs } from "./terraform-env-args.js";
import { normalizeTerraformFlags } from "./terraform-flags.js";
import type { EarlyLaunch } from "./workdir/early-launch.js";

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /**
   * Providers already launched for this command line (see `startEarlyLaunch`): a
   * working-directory plan, apply, destroy or refresh takes each over instead of launching
   * it again, when it is the binary it would launch; the caller closes the rest.
   */
  readonly earlyLaunch?: EarlyLaunch;
}

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/**
 * The commands, in the order `magma --help` lists them, each module imported only when its
 * command is registered: a command line naming one command loads that command alone (a fresh
 * `magma apply` does not load the other eighteen and what they import); help, an unknown
 * command or none registers them all.
 */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<RegisterCommand>])[] = [
  ["schema", async () => (await import("./commands/schema.js")).registerSchemaCommand],
  ["plan", async () => (await import("./commands/plan.js")).registerPlanCommand],
  ["apply", async () => (await import("./commands/apply.js")).registerApplyCommand],
  ["destroy", async () => (await import("./commands/destroy.js")).registerDestroyCommand],
  ["refresh", async () => (await import("./commands/refresh.js")).registerRefreshCommand],
  ["read", async () => (await import("./commands/read.js")).registerReadCommand],
  ["data", async () => (await import("./commands/data.js")).registerDataCommand],
  ["import", async () => (await import("./commands/import.js")).registerImportCommand],
  ["upgrade", async () => (await import("./commands/upgrade.js")).registerUpgradeCommand],
  ["reap", async () => (await import("./commands/reap.js")).registerReapCommand],
  ["demo", async () => (await import("./commands/demo.js")).registerDemoCommand],
  ["init", async () => (await import("./commands/init-command.js")).registerInitCommand],
  ["validate", async () => (await import("./commands/validate-command.js")).registerValidateCommand],
  ["output", async () => (await import("./commands/output.js")).registerOutputCommand],
  ["show", async () => (await import("./commands/show-command.js")).registerShowCommand],
  ["graph", async () => (await import("./commands/graph-command.js")).registerGraphCommand],
  ["state", async () => (await import("./commands/state.js")).registerStateCommand],
  ["workspace", async () => (await import("./commands/workspace.js")).registerWorkspaceCommand],
  ["force-unlock", async () => (await import("./commands/force-unlock.js")).registerForceUnlockCommand],
  ["fmt", async () => (await import("./commands/fmt.js")).registerFmtCommand],
  ["version", async () => (await import("./commands/version.js")).registerVersionCommand],
  ["taint", async () => (await import("./commands/taint.js")).registerTaintCommand],
  ["untaint", async () => (await import("./commands/taint.js")).registerUntaintCommand],
  // The providers command group first; the installation subcommands (lock, mirror) join it.
  ["providers", async () => (await import("./commands/providers.js")).registerProvidersCommand],
  ["providers", async () => (await import("./commands/providers-install-command.js")).registerProvidersInstallCommands],
  ["get", async () => (await import("./commands/get-command.js")).registerGetCommand],
  ["logout", async () => (await import("./commands/logout.js")).registerLogoutCommand],
  ["login", async () => (await import("./commands/login.js")).registerLoginCommand],
  ["metadata", async () => (await import("./commands/metadata.js")).registerMetadataCommand],
  ["console", async () => (await import("./commands/console.js")).registerConsoleCommand],
  ["test", async () => (await import("./commands/test.js")).registerTestCommand],
];

/** The flags that print the version (`-version` is Terraform's spelling, see `normalizeTerraformFlags`). */
const VERSION_FLAGS = new Set(["-V", "--version", "-version"]);

/** Why `dir` cannot be the working directory, in the C library's words as Go prints them (`not a directory`); undefined when it can. */
function chdirProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : "not a directory";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "no such file or directory";
    if (code === "ENOTDIR") return "not a directory";
    if (code === "EACCES") return "permission denied";
    if (code === "ELOOP") return "too many levels of symbolic links";
    if (code === "ENAMETOOLONG") return "file name too long";
    return (e as Error).message;
  }
}

/** Whether a command line of flags alone has a version flag (a `-chdir`/`--chdir` value is not a flag). */
function asksVersion(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (/^--?chdir$/.test(argv[i]!)) i++;
    else if (VERSION_FLAGS.has(argv[i]!)) return true;
  }
  return false;
}

/**
 * The commands to register for a command line: the one it names, none when it names none and
 * asks for the version (the version flag acts as soon as it is parsed, so no command is looked
 * at: `magma --version` loads no command module), else all of them. @internal
 */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const name = commandName(argv);
  if (name === undefined && asksVersion(argv)) return [];
  const one = COMMANDS.filter(([n]) => n === name);
  const out: RegisterCommand[] = [];
  for (const [, load] of one.length > 0 ? one : COMMANDS) out.push(await load());
  return out;
}

/**
 * Runs the `magma` command line (without the `node` and script arguments) and resolves to
 * the exit code: 0 success, 1 error, 2 usage error, 130 interrupted. Every provider it
 * opens is closed before it resolves, also on errors and when `signal` fires. Long flags
 * may be spelled as Terraform spells them (`-json`, `-lock-timeout=10s`) or with two dashes.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo(), signal?: AbortSignal, options: RunCliOptions = {}): Promise<ExitCode> {
  const log = createTerraformLog(io.env, io.stderr);
  registerTerraformLog(io.env, log);
  logStartup(log, argv, io);
  try {
    return await runProgram(argv, io, signal, options);
  } finally {
    log.close();
  }
}

/** Terraform's first log lines (its `main.go`): versions, the command line, which streams are terminals. */
function logStartup(log: TerraformLog, argv: readonly string[], io: CliIo): void {
  if (log.coreLevel === "off") return;
  const goStrings = (a: readonly string[]): string => `[]string{${a.map((x) => JSON.stringify(x)).join(", ")}}`;
  log.log("info", "Terraform version: 1.11.4");
  log.log("debug", `using magma ${VERSION}`);
  log.log("info", `Node.js runtime version: ${process.version}`);
  log.log("info", `CLI args: ${goStrings(["magma", ...argv])}`);
  for (const [name, stream] of [["Stdout", io.stdout], ["Stderr", io.stderr]] as const) log.log("trace", `${name} is ${stream.isTTY === true ? "a terminal" : "not a terminal"}`);
  log.log("trace", `Stdin is ${(io.stdin as { isTTY?: boolean } | undefined)?.isTTY === true ? "a terminal" : "not a terminal"}`);
  log.log("info", `CLI command args: ${goStrings(argv)}`);
}

async function runProgram(argv: readonly string[], io: CliIo, signal: AbortSignal | undefined, options: RunCliOptions): Promise<ExitCode> {
  const spinner = new Spinner(io.stderr);
  const ctx = createCommandContext(io, spinner, signal);
  if (options.earlyLaunch !== undefined) ctx.earlyLaunch = options.earlyLaunch;

  const program = new Command("magma");
  program
    .description(
      "Run Terraform's workflow on a working directory (init, validate, plan, apply, destroy, refresh, import, show, graph, output, state, workspace, force-unlock); and drive Terraform providers (and native TypeScript providers) one operation at a time, JSON in and out.",
    )
    .version(VERSION, "-V, --version", "print the magma version")
    .option("--chdir <dir>", "run the working-directory commands in DIR (terraform's -chdir=DIR, given before the command)")
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(`${s.trim()}\nhint: run \`magma --help\` or \`magma <command> --help\`\n`),
    })
    .addHelpText(
      "after",
      `
A <provider> is a source address resolved like Terraform (hashicorp/aws, found in --plugin-dir
DIRs, then MAGMA_PLUGIN_DIRS (colon-separated), TF_PLUGIN_CACHE_DIR, the CLI config's
plugin_cache_dir and filesystem mirrors, terraform.d/plugins, ~/.terraform.d/plugins and the
XDG data dirs), a path to a provider binary, or a native provider's name (random).

Output is human-readable on a terminal and JSON when stdout is piped; --output or --json chooses.
JSON on stdout has sensitive values replaced by null (marked true in "sensitive_values")
unless --show-sensitive; --out FILE writes the full JSON (mode 0600) for --from and --plan.
Flags may be spelled as Terraform spells them, with one dash (-json, -lock-timeout=10s).
Exit codes: 0 ok, 1 error, 2 usage error, 130 interrupted, 141 output reader went away.`,
    );
  for (const register of await commandsFor(argv)) register(program, ctx);
  program.hook("preAction", () => {
    const chdir = program.opts<{ chdir?: string }>().chdir;
    if (chdir === undefined) return;
    const dir = resolve(ctx.cwd, chdir);
    const problem = chdirProblem(dir);
    // Terraform's words (its error from chdir(2), with the path as given), before any command runs.
    if (problem !== undefined) throw new CliError(CliErrorCode.BadInput, `Error handling -chdir option: chdir ${chdir}: ${problem}`, { plain: true });
    ctx.cwd = dir;
  });

  try {
    // terraform's CLI configuration problems, before any command (and its output)
    await reportCliConfigProblems(io);
    ctx.argv = normalizeTerraformFlags(mergeTerraformEnvArgs(argv, io.env), program);
    ctx.colour = decideColour(io, ctx.argv);
    await program.parseAsync(ctx.argv, { from: "user" });
    return ctx.exitCode ?? ExitCode.Ok;
  } catch (e) {
    spinner.stop();
    if (e instanceof CommanderError) {
      // --help and --version exit 0; everything else (including help shown for a missing command) is a usage error.
      return e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    if (signal?.aborted === true) {
      ctx.err("error: interrupted; the provider was closed");
      return ExitCode.Interrupted;
    }
    // Loaded only here: it knows every package's errors (engine, state, provider-api, cty).
    const { reportError } = await import("./report-error.js");
    const r = reportError(e, ctx.schema, ctx.argv.find((a) => !a.startsWith("-")));
    for (const l of r.lines) ctx.err(l);
    if (r.hint !== undefined) ctx.err(`hint: ${r.hint}`);
    return r.exitCode;
  }
}
