import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { variableArgs } from "./workdir-operation.js";
import { ExitCode } from "../exit-code.js";

/** The flags of `magma test`. */
interface TestFlags {
  filter?: string[];
  testDirectory?: string;
  json?: boolean;
  verbose?: boolean;
  var?: string[];
  varFile?: string[];
  junitXml?: string;
  cloudRun?: string;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** Go's `filepath.IsLocal`: relative, not empty, not escaping the directory. */
export function isLocalDirectory(p: string): boolean {
  if (p === "" || p.startsWith("/")) return false;
  let depth = 0;
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      depth--;
      if (depth < 0) return false;
    } else depth++;
  }
  return true;
}

/**
 * `magma test`: `terraform test` on the working directory — the `.tftest.hcl` and
 * `.tftest.json` files of the directory and of its test directory, each run block planned
 * (and applied) by the engine with the test's variables, its assertions and expected failures
 * checked, and everything a file created destroyed at its end; terraform's output, `-json`
 * messages and exit codes.
 */
export function registerTestCommand(program: Command, ctx: CommandContext): void {
  program
    .command("test")
    .summary("run the module's .tftest.hcl tests (terraform test)")
    .description(
      "Executes the .tftest.hcl and .tftest.json files of the working directory and of its test directory as terraform test does: each run block plans (command = plan) or applies the module under test (or its module block's), checks its assertions and expect_failures, and every file's infrastructure is destroyed when the file is done. Mock providers and overrides are not run yet (see the README).",
    )
    .option("--filter <testfile>", "only run this test file (repeatable)", collect)
    .option("--test-directory <path>", 'the test directory (default "tests")')
    .option("--json", "terraform's machine-readable output")
    .option("--verbose", "print the plan or state of each run block")
    .option("--var <name=value>", "set a root module variable (repeatable)", collect)
    .option("--var-file <file>", "load variable values from a file (repeatable)", collect)
    .option("--junit-xml <file>", "write the results as JUnit XML to this file")
    .option("--cloud-run <source>", "not supported by magma")
    .option("--no-color", "no colour")
    .argument("[args...]", "ignored (terraform test takes no arguments)")
    .allowUnknownOption(true)
    .exitOverride()
    .action(async (args: string[], o: TestFlags) => {
      const unknown = args.find((a) => /^-./.test(a));
      if (unknown !== undefined) {
        // As terraform: its flag parser's error, then the help prompt.
        const { formatDiagnostics } = await import("../workdir/format-diagnostic.js");
        const { terminalColumns } = await import("../terminal-columns.js");
        const d = { severity: "error" as const, summary: "Failed to parse command-line flags", detail: `flag provided but not defined: -${unknown.replace(/^--?/, "").replace(/=.*$/s, "")}` };
        ctx.io.stderr.write(formatDiagnostics([d], ctx.cwd, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
        ctx.io.stderr.write("\nFor more help on using this command, run:\n  terraform test -help\n");
        ctx.exitCode = ExitCode.Error;
        return;
      }
      const { runTestCommand } = await import("../testing/run-test-command.js");
      const code = await runTestCommand(ctx, {
        testDirectory: o.testDirectory ?? "tests",
        filter: o.filter ?? [],
        json: o.json === true,
        verbose: o.verbose === true,
        variableArgs: variableArgs(ctx.argv),
        ...(o.junitXml !== undefined ? { junitXml: o.junitXml } : {}),
        ...(o.cloudRun !== undefined ? { cloudRun: o.cloudRun } : {}),
      });
      if (code !== ExitCode.Ok) ctx.exitCode = code;
    });
}
