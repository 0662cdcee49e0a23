// Module-loading hook of startup-trace.mjs (runs on node's hooks thread): one line per module
// loaded, with the time since the traced process started.
import { appendFileSync } from "node:fs";

let out;
let origin;
let count = 0;

export async function initialize(data) {
  out = data.out;
  origin = data.origin;
}

export async function load(url, context, next) {
  const r = await next(url, context);
  count++;
  appendFileSync(out, `${(performance.timeOrigin + performance.now() - origin).toFixed(1)} module ${count} ${url}\n`);
  return r;
}
