// A wall-clock timeline of one magma process, for start-up work (issue 21):
//   node --import ./startup-trace.mjs <magma.js or magma-worker.mjs> …
// writes <MAGMA_TRACE_DIR or the temp dir>/magma-trace-<pid>.txt, one event per line with the
// milliseconds since the process started (performance.timeOrigin): the preload itself (node's
// own start), every module loaded (MAGMA_TRACE_MODULES=0 leaves them out: the hook slows
// loading), each child process spawned (the provider), its first stdout line (the go-plugin
// handshake), reads of the schema cache and validation memory, state file writes, the
// process's first stdout write (the plan or apply output), each child's exit, and the exit.
// The directory is the only setting, and it should stay the same from run to run: every
// variable of the environment is part of the provider validation memory's key, so a value
// that changes per run makes hashicorp/aws validate its configuration again (~2 s).
import { appendFileSync, writeFileSync } from "node:fs";
import { createRequire, register, syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const out = join(process.env.MAGMA_TRACE_DIR ?? tmpdir(), `magma-trace-${process.pid}.txt`);
const origin = performance.timeOrigin;
const event = (what) =>
  appendFileSync(out, `${(performance.timeOrigin + performance.now() - origin).toFixed(1)} ${what}\n`);
writeFileSync(out, "");
event(`preload ${process.argv.slice(1).join(" ")}`);
if (process.env.MAGMA_TRACE_MODULES !== "0")
  register(new URL("./startup-trace-hooks.mjs", import.meta.url), { data: { out, origin } });

const require = createRequire(import.meta.url);
const childProcess = require("node:child_process");
const spawn = childProcess.spawn;
childProcess.spawn = function (command, ...rest) {
  event(`spawn ${String(command).split("/").pop()}`);
  const child = spawn.call(this, command, ...rest);
  child.stdout?.once("data", () => event(`child-first-stdout ${child.pid}`));
  child.once("exit", (code, signal) => event(`child-exit ${child.pid} ${code ?? signal}`));
  return child;
};
const fs = require("node:fs");
const renameSync = fs.renameSync;
fs.renameSync = function (from, to, ...rest) {
  const r = renameSync.call(this, from, to, ...rest);
  if (/tfstate/.test(String(to))) event(`state-write ${String(to).split("/").pop()}`);
  return r;
};
const fsp = require("node:fs/promises");
const open = fsp.open;
fsp.open = async function (path, ...rest) {
  const r = await open.call(this, path, ...rest);
  if (/\/schemas\//.test(String(path))) event(`schema-cache-read ${String(path).split("/").pop()}`);
  return r;
};
syncBuiltinESMExports();
const write = process.stdout.write.bind(process.stdout);
let first = true;
process.stdout.write = (...args) => {
  if (first) {
    first = false;
    event("first-stdout");
  }
  return write(...args);
};
process.on("beforeExit", () => event("beforeExit"));
process.on("exit", (code) => event(`exit ${code}`));
