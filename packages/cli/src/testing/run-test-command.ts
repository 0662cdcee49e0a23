import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { VariableArg } from "@magma/config";
import { createEngine } from "@magma/engine";
import type { ProviderSchema } from "@magma/provider-api";
import type { CommandContext } from "../commands/command-context.js";
import { isLocalDirectory } from "../commands/test.js";
import { ExitCode } from "../exit-code.js";
import { terminalColumns } from "../terminal-columns.js";
import { workdirProviders } from "../workdir/engine-providers.js";
import { junitXmlReport } from "./junit-xml.js";
import type { MockData } from "./mock-data.js";
import { mockingProviderSource } from "./mock-provider.js";
import { loadTestSuite, TestSuiteRunner } from "./test-runner.js";
import { HumanTestView, JsonTestView, type TestView } from "./test-view.js";

/** What `magma test` was asked for on its command line. */
export interface TestCommandOptions {
  readonly testDirectory: string;
  readonly filter: readonly string[];
  readonly json: boolean;
  readonly verbose: boolean;
  readonly variableArgs: readonly VariableArg[];
  readonly junitXml?: string;
  readonly cloudRun?: string;
}

/**
 * Runs `magma test` in the command's working directory as terraform 1.11.4's `test`
 * command: the views (human or `-json`), the checks of its flags, loading the configuration
 * with its test files, the suite, and the exit code (1 unless every run passed).
 */
export async function runTestCommand(
  ctx: CommandContext,
  o: TestCommandOptions,
): Promise<ExitCode> {
  const dir = ctx.cwd;
  const out = {
    stdout: (t: string) => void ctx.io.stdout.write(t),
    stderr: (t: string) => void ctx.io.stderr.write(t),
    dir,
    color: ctx.colour.stdout,
    width: terminalColumns(ctx.io.stderr),
  };
  const view: TestView = o.json ? new JsonTestView(out) : new HumanTestView(out);
  if (o.cloudRun !== undefined) {
    view.diagnostics([
      {
        severity: "error",
        summary: "Unsupported option",
        detail: "magma test does not support -cloud-run (see the @magma/cli README).",
      },
    ]);
    return ExitCode.Error;
  }
  if (!isLocalDirectory(o.testDirectory)) {
    view.diagnostics([
      {
        severity: "error",
        summary: "Invalid testing directory",
        detail:
          "The testing directory must be a relative path pointing to a directory local to the configuration directory.",
      },
    ]);
    return ExitCode.Error;
  }
  const loaded = loadTestSuite({ dir, testDirectory: o.testDirectory });
  if (loaded.diags.some((d) => d.severity === "error")) {
    view.diagnostics(loaded.diags);
    return ExitCode.Error;
  }
  const dataDir = resolve(dir, ctx.io.env["TF_DATA_DIR"] || ".terraform");
  const providers = workdirProviders(dataDir, ctx.io.env, undefined, dir);
  const mocks = { current: new Map() as ReadonlyMap<string, MockData>, realSchemas: new Map<string, ProviderSchema>() };
  const engine = createEngine({ providers: mockingProviderSource(providers.source, () => mocks.current, mocks.realSchemas), cwd: dir });
  try {
    const setup = [...loaded.diags];
    const runner = new TestSuiteRunner(
      {
        dir,
        testDirectory: o.testDirectory,
        filter: o.filter,
        verbose: o.verbose,
        variableArgs: o.variableArgs,
        env: ctx.io.env,
        color: ctx.colour.stdout,
        mocks,
        ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
      },
      engine,
      view,
      loaded.config,
      loaded.modules,
      setup,
    );
    if (setup.some((d) => d.severity === "error")) {
      view.diagnostics(setup);
      return ExitCode.Error;
    }
    // The warnings of loading, out of the way before the tests run.
    view.diagnostics(setup);
    // The first interrupt: the run under way finishes, the rest are skipped, and every file's objects are still destroyed (terraform's stop).
    ctx.signal?.addEventListener("abort", () => view.interrupted(), { once: true });
    const suite = await runner.run(loaded.files);
    if (o.junitXml !== undefined) {
      // Terraform's TestJUnitXMLFile.Save, after the conclusion.
      const xml = junitXmlReport(suite, dir, ctx.signal?.aborted === true);
      try {
        writeFileSync(resolve(dir, o.junitXml), xml, { mode: 0o660 });
      } catch (e) {
        view.diagnostics([{ severity: "error", summary: `error saving JUnit XML to file ${JSON.stringify(o.junitXml)}`, detail: (e as Error).message }]);
        return ExitCode.Error;
      }
    }
    return suite.status === "pass" ? ExitCode.Ok : ExitCode.Error;
  } finally {
    await engine.close();
    await providers.close();
  }
}
