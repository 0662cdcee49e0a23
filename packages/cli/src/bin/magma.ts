#!/usr/bin/env node
// The `magma` executable: runs the command line, closing any provider on SIGINT/SIGTERM
// before exiting (a second signal exits at once).
import { ExitCode } from "../exit-code.js";
import { runCli } from "../run-cli.js";

const controller = new AbortController();
let signals = 0;
const onSignal = (): void => {
  signals++;
  if (signals > 1) {
    // Terraform's words for the second interrupt; the state was saved after every object applied.
    process.stderr.write("\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n");
    process.exit(ExitCode.Interrupted);
  }
  controller.abort(new Error("interrupted"));
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

const code = await runCli(process.argv.slice(2), undefined, controller.signal);
process.exitCode = code;
// Wait until stdout and stderr are flushed (pipes are asynchronous), then leave even if a
// stray handle (a timer of a closed provider) lingers.
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
await new Promise<void>((resolve) => process.stderr.write("", () => resolve()));
setTimeout(() => process.exit(code), 2000).unref();
