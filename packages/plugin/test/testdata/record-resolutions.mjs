// Fixture: module customization hooks (registered with `module.register`) that append every
// resolved module URL, one a line, to the file given as `data.trace`. Resolution runs
// synchronously with respect to the importing thread, so lines the host appends itself
// (its markers) land in order with them.
import { appendFileSync } from "node:fs";

let trace;

export function initialize(data) {
  trace = data.trace;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(trace, `${resolved.url}\n`);
  return resolved;
}
