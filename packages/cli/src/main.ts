// What the `magma` executable does (src/bin/magma.ts calls it; the published bin is that file
// bundled, see scripts/bundle-bin.mjs): runs the command line, closing any provider on
// SIGINT/SIGTERM before exiting (a second signal exits at once).
//
// Start-up order matters for a fresh process: a working-directory plan/apply/destroy/refresh
// starts launching its locked providers (see early-launch.ts) before the rest of the CLI is
// loaded, so that the provider binary's own start-up (hundreds of ms for hashicorp/aws)
// overlaps node's module loading, the configuration and the state read. Only light modules
// are imported statically here; the CLI itself is imported after that.
import { cliConfigFileWarning } from "./cli-config-file-warning.js";
import { guardClosedOutput, outputClosed } from "./closed-output.js";
import { CRASH_EXIT_CODE, crashReport } from "./crash-report.js";
import { ExitCode } from "./exit-code.js";
import { FATAL_INTERRUPT, handleFatalInterrupt } from "./fatal-interrupt.js";
import { flushOutput } from "./flush-output.js";
import { earlyLaunchTargets, startEarlyLaunch } from "./workdir/early-launch.js";

/**
 * Runs `magma` with `argv` (the arguments after the script's) as the process's main program:
 * sets `process.exitCode` and leaves the process once stdout and stderr are flushed. The
 * bundled bin runs it; a script importing the unbundled build (`dist/main.js`) runs the same
 * program module by module (the bundle's tests compare the two).
 *
 * @internal
 */
export async function main(argv: readonly string[]): Promise<void> {
  // A reader that goes away (`magma plan | head -1`) drops the rest of the output, quietly.
  guardClosedOutput();
  // Terraform's CLI configuration file that cannot be opened: a warning on stderr before anything else.
  const configWarning = cliConfigFileWarning(process.env);
  if (configWarning !== "") process.stderr.write(configWarning);
  const targets = earlyLaunchTargets(argv, process.env, process.cwd());
  const earlyLaunch = targets === undefined ? undefined : startEarlyLaunch(targets, process.env);

  const controller = new AbortController();
  let signals = 0;
  const onSignal = (): void => {
    signals++;
    if (signals > 1) {
      // A working-directory operation cancels as terraform does (exit 1, the state lock released).
      if (handleFatalInterrupt()) return;
      // Terraform's words for the second interrupt; the state was saved after every object applied.
      process.stderr.write(FATAL_INTERRUPT);
      process.exit(ExitCode.Interrupted);
    }
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  // An internal error nothing handled (terraform's panic): the crash text, without the error's
  // message or stack unless a log is asked for (they may quote the run's values), then the
  // operation stopped as after an interrupt, so that it saves the state and closes what it
  // opened (providers, ephemeral resources); exit 11 whatever happens next, within 10 s.
  let crashed = false;
  const onCrash = (error: unknown): void => {
    if (crashed) return;
    crashed = true;
    process.stderr.write(crashReport(error, process.env));
    process.exitCode = CRASH_EXIT_CODE;
    setTimeout(() => process.exit(CRASH_EXIT_CODE), 10_000).unref();
    controller.abort(new Error("crashed"));
  };
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);

  // The launcher first (the launches then run while the CLI loads), then the CLI.
  await earlyLaunch?.started;
  const { runCli } = await import("./run-cli.js");
  let code: ExitCode;
  try {
    code = await runCli(argv, undefined, controller.signal, earlyLaunch === undefined ? {} : { earlyLaunch });
  } finally {
    // A provider launched at start-up that the command did not take over is closed (never left running).
    await earlyLaunch?.close();
  }
  // Wait until stdout and stderr are flushed, then leave even if a stray handle (a timer of a
  // closed provider) lingers.
  await flushOutput();
  const exit = crashed ? CRASH_EXIT_CODE : outputClosed() ? ExitCode.BrokenPipe : code;
  process.exitCode = exit;
  setTimeout(() => process.exit(exit), 2000).unref();
}
