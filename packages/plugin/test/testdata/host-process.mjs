#!/usr/bin/env node
// Fixture: a host process that launches a plugin with the compiled launch module and then
// ends in the way MODE says, to show that no plugin process or socket is left behind.
//   node host-process.mjs <compiled launch.js> <plugin binary> <mode> <tls: on|off>
// Modes: exit (process.exit(0)), throw (uncaught exception), wait (the test sends a
// signal), own-sigterm (the host has its own SIGTERM listener and exits 7 after it).
// Prints one JSON line {"pid", "address"} on stdout once the plugin is connected.
import { pathToFileURL } from "node:url";

const [launchJs, command, mode, tls] = process.argv.slice(2);
if (mode === "own-sigterm") {
  process.on("SIGTERM", () => setTimeout(() => process.exit(7), 100));
}
const { launchPlugin } = await import(pathToFileURL(launchJs).href);
const plugin = await launchPlugin({ command, tls: tls === "on" });
process.stdout.write(`${JSON.stringify({ pid: plugin.pid, address: plugin.address })}\n`);
switch (mode) {
  case "exit":
    setTimeout(() => process.exit(0), 50);
    break;
  case "throw":
    setTimeout(() => {
      throw new Error("the host crashed");
    }, 50);
    break;
  default:
    break; // wait for a signal; the open plugin keeps the event loop alive
}
