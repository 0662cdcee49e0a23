#!/usr/bin/env node
// The `magma` executable: runs the command line, closing any provider on SIGINT/SIGTERM
// before exiting (a second signal exits at once).
import { ExitCode } from "../exit-code.js";
import { runCli } from "../run-cli.js";

const controller = new AbortController();
let signals = 0;
const onSignal = (): void => {
  signals++;
  if (signals > 1) process.exit(ExitCode.Interrupted);
  controller.abort(new Error("interrupted"));
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

const code = await runCli(process.argv.slice(2), undefined, controller.signal);
process.exitCode = code;
// Let stdout drain, then leave even if a stray handle (a timer of a closed provider) lingers.
setTimeout(() => process.exit(code), 50).unref();
