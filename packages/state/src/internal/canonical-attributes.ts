import { appendIndented } from "./go-json.js";
import { newlineIndent } from "./json-reader.js";

// Instances whose attributesJson is known to be in Go's indented form with its closing
// bracket `base` spaces in (checked when read): the writer then copies it (same depth) or
// shifts its lines instead of re-tokenizing. Keyed by the instance object and compared with
// the current string, so a replaced string is re-indented in full.
const canonical = new WeakMap<object, { readonly json: string; readonly base: number }>();

/** Records that `json` (held by `owner`) is Go-indented with its closing bracket `base` spaces in. @internal */
export function markCanonical(owner: object, json: string, base: number): void {
  canonical.set(owner, { json, base });
}

/** Appends `json` (held by `owner`) to `out` as Go's MarshalIndent prints it `depth` levels deep. @internal */
export function appendAttributes(owner: object, json: string, depth: number, out: string[]): void {
  const c = canonical.get(owner);
  if (c === undefined || c.json !== json) {
    appendIndented(json, depth, out);
    return;
  }
  const want = depth * 2;
  if (c.base === want || !json.includes("\n")) out.push(json);
  else if (c.base > want) out.push(json.replaceAll(newlineIndent(c.base - want), "\n"));
  else out.push(json.replaceAll("\n", newlineIndent(want - c.base)));
}
