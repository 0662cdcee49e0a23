#!/usr/bin/env node
// Fixture: a host process that dials several providers at once with @magma/plugin's
// dialProvider and then ends the way MODE says.
//   node multi-host.mjs <mode> <record-dir> <binary>...
// Modes: exit (process.exit(0)), throw (uncaught exception), reject (unhandled rejection),
// wait (the test sends a signal). Each binary gets FAULT_RECORD=<record-dir>/<i>.jsonl.
// Prints one JSON line {"pids": [...]} once every provider is connected.
import { join } from "node:path";
import { dialProvider } from "@magma/plugin";

const [mode, recordDir, ...binaries] = process.argv.slice(2);
const lives = await Promise.all(
  binaries.map((binary, i) =>
    dialProvider({ binary, schemaCacheDir: false, env: { ...process.env, FAULT_MODE: "normal", FAULT_RECORD: join(recordDir, `${i}.jsonl`) } }),
  ),
);
process.stdout.write(`${JSON.stringify({ pids: lives.map((l) => l.pid) })}\n`);
switch (mode) {
  case "exit":
    setTimeout(() => process.exit(0), 50);
    break;
  case "throw":
    setTimeout(() => {
      throw new Error("the host crashed");
    }, 50);
    break;
  case "reject":
    setTimeout(() => void Promise.reject(new Error("the host rejected")), 50);
    break;
  default:
    break; // wait for a signal; the open providers keep the event loop alive
}
