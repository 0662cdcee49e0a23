// A magma process for the pg lock tests: opens the pg backend, prints "ready", waits for a
// "go" line on stdin, tries the workspace's lock, prints the outcome as one JSON line, then
// holds the lock until a "release" line (or until it is killed), unlocks and exits.
// Usage: node pg-lock-child.mjs <conn_str> <workspace> <operation>
import { createInterface } from "node:readline";
import { openPgBackend, isStateError } from "../../dist/index.js";

const [connStr, workspace, operation] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin });
const waiting = [];
const queued = [];
lines.on("line", (l) => (waiting.length > 0 ? waiting.shift()(l) : queued.push(l)));
const nextLine = () => (queued.length > 0 ? Promise.resolve(queued.shift()) : new Promise((r) => waiting.push(r)));

const backend = await openPgBackend({ connStr, env: {} });
const store = backend.store(workspace);
console.log("ready");
while ((await nextLine()) !== "go");
let id;
try {
  id = await store.lock({ operation, info: `pid ${process.pid}` });
  console.log(JSON.stringify({ ok: true, id }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, isStateError: isStateError(e), code: e.code, message: e.message, detail: e.detail }));
  await backend.close();
  process.exit(0);
}
while ((await nextLine()) !== "release");
await store.unlock(id);
await backend.close();
console.log("released");
process.exit(0);
