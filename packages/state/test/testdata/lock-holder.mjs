// A separate process that uses @magma/state's local backend (built dist):
//   node lock-holder.mjs <dir> hold            lock, print {"id"}, hold until killed
//   node lock-holder.mjs <dir> race <goFile>   wait for <goFile>, try to lock, print the outcome;
//                                              if it won, hold until <goFile>.release exists, then unlock
//   node lock-holder.mjs <dir> write-loop <versionsDir>
//                                              write the files of <versionsDir> to the state in turn,
//                                              forever (print {"ready"} first), until killed
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalBackend } from "../../dist/index.js";

const [dir, mode, goFile] = process.argv.slice(2);
const store = createLocalBackend({ dir }).store("default");

if (mode === "hold") {
  const id = await store.lock({ operation: "magma-test-hold", info: `pid ${process.pid}` });
  process.stdout.write(JSON.stringify({ id, pid: process.pid }) + "\n");
  setInterval(() => undefined, 1000);
} else if (mode === "race") {
  while (!existsSync(goFile)) await new Promise((r) => setTimeout(r, 5));
  try {
    const id = await store.lock({ operation: "magma-test-race", info: `pid ${process.pid}` });
    process.stdout.write(JSON.stringify({ ok: true, id, pid: process.pid }) + "\n");
    while (!existsSync(`${goFile}.release`)) await new Promise((r) => setTimeout(r, 20));
    await store.unlock(id);
  } catch (e) {
    process.stdout.write(JSON.stringify({ ok: false, code: e.code, message: e.message, detail: e.detail, pid: process.pid }) + "\n");
  }
} else if (mode === "write-loop") {
  const versions = readdirSync(goFile).sort().map((f) => readFileSync(join(goFile, f)));
  const writer = createLocalBackend({ dir, onRecovery: () => undefined }).store("default");
  process.stdout.write(JSON.stringify({ ready: true, pid: process.pid }) + "\n");
  for (let i = 0; ; i = (i + 1) % versions.length) await writer.write(versions[i]);
} else {
  throw new Error(`unknown mode ${mode}`);
}
