import type { Attribute, Block, NestingMode } from "@magma/provider-api";
import { CliError, CliErrorCode } from "./cli-error.js";
import { parseJsonText, RawJson, type JsonNode } from "./json-text.js";

/** The hint of every error about a redacted input. */
export const REDACTED_INPUT_HINT = "write it with --out FILE or --show-sensitive";

/**
 * Where a value (as JSON, see `valueToJson`) holds sensitive data, in the shape of
 * Terraform's `sensitive_values` / `after_sensitive`: `true` for a non-null value of an
 * attribute marked `sensitive` in the schema (also inside nested attributes and blocks);
 * for an object or map, an object with the members that are or contain sensitive values
 * (known collections kept as `{}`/`[]`, as Terraform does); for a list or set, an array
 * with an entry per element; `false` for anything else.
 */
export function sensitiveValues(block: Block, value: RawJson): unknown {
  return blockMask(block, parseJsonText(value.text, "value"));
}

/** The value's JSON with every place that `mask` marks `true` replaced by `null`. */
export function redactedJson(value: RawJson, mask: unknown): RawJson {
  return new RawJson(redact(parseJsonText(value.text, "value"), mask));
}

/** The string values at the places `mask` marks `true` (to recognise an echoed secret). */
export function sensitiveStrings(value: RawJson, mask: unknown): string[] {
  const out: string[] = [];
  const walk = (node: JsonNode, m: unknown): void => {
    if (m === true) {
      if (node.kind === "string") out.push(node.value);
    } else if (node.kind === "object" && m !== null && typeof m === "object" && !Array.isArray(m)) {
      for (const [k, v] of node.members) if (Object.hasOwn(m, k)) walk(v, (m as Record<string, unknown>)[k]);
    } else if (node.kind === "array" && Array.isArray(m)) node.items.forEach((v, i) => walk(v, m[i]));
  };
  walk(parseJsonText(value.text, "value"), mask);
  return out;
}

/**
 * A document as printed on stdout by default: each member named in its `sensitive_values`
 * (and in each of its `others`) redacted with its mask.
 */
export function redactDocument(doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...doc };
  const masks = doc["sensitive_values"];
  if (masks !== null && typeof masks === "object") {
    for (const [member, mask] of Object.entries(masks)) {
      const v = out[member];
      if (v instanceof RawJson) out[member] = redactedJson(v, mask);
    }
  }
  const others = doc["others"];
  if (Array.isArray(others)) out["others"] = others.map((o) => redactDocument(o as Record<string, unknown>));
  return out;
}

/**
 * Refuses a redacted command output given as input: when `doc` (an earlier command's JSON
 * output) has a `sensitive_values` mask marking a place in one of `members` whose value
 * is `null`, the sensitive value was left out when it was printed.
 *
 * @param what Names the input in errors (`--from`).
 * @throws {@link CliError} `bad_input` naming the first redacted place, with the hint to use `--out FILE` or `--show-sensitive`.
 */
export function assertNotRedacted(what: string, doc: JsonNode & { kind: "object" }, members: readonly string[]): void {
  const masks = doc.members.get("sensitive_values");
  if (masks === undefined || masks.kind !== "object") return;
  for (const member of members) {
    const mask = masks.members.get(member);
    const value = doc.members.get(member);
    if (mask === undefined || value === undefined) continue;
    const at = firstRedacted(value, mask, member);
    if (at !== undefined) {
      throw new CliError(CliErrorCode.BadInput, `${what}: the JSON is a redacted output: the sensitive value at ${at} was printed as null`, { hint: REDACTED_INPUT_HINT });
    }
  }
}

function firstRedacted(value: JsonNode, mask: JsonNode, path: string): string | undefined {
  if (mask.kind === "bool") return mask.value && value.kind === "null" ? path : undefined;
  if (mask.kind === "object" && value.kind === "object") {
    for (const [k, m] of mask.members) {
      const v = value.members.get(k);
      const hit = v === undefined ? undefined : firstRedacted(v, m, /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
      if (hit !== undefined) return hit;
    }
  }
  if (mask.kind === "array" && value.kind === "array") {
    for (let i = 0; i < mask.items.length; i++) {
      const v = value.items[i];
      const hit = v === undefined ? undefined : firstRedacted(v, mask.items[i]!, `${path}[${i}]`);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

function blockMask(block: Block, node: JsonNode): unknown {
  if (node.kind !== "object") return false;
  const out = nullRecord();
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    const v = node.members.get(name);
    if (v === undefined) continue;
    const m = attributeMask(a, v);
    if (m !== false) out[name] = m;
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const v = node.members.get(name);
    if (v === undefined) continue;
    const m = nestedMask(nb.nesting, v, (x) => blockMask(nb.block, x));
    if (m !== false) out[name] = m;
  }
  return out;
}

function attributeMask(a: Attribute, v: JsonNode): unknown {
  if (a.sensitive === true) return v.kind !== "null";
  if (a.nestedType !== undefined) {
    const inner: Block = { attributes: a.nestedType.attributes };
    return nestedMask(a.nestedType.nesting, v, (x) => blockMask(inner, x));
  }
  return shape(v);
}

function nestedMask(nesting: NestingMode, v: JsonNode, each: (x: JsonNode) => unknown): unknown {
  switch (nesting) {
    case "single":
    case "group":
      return each(v);
    case "list":
    case "set":
      return v.kind === "array" ? v.items.map(each) : false;
    case "map": {
      if (v.kind !== "object") return false;
      const out = nullRecord();
      for (const [k, x] of v.members) out[k] = each(x);
      return out;
    }
  }
}

/** The mask of a value without sensitive parts: known collections keep their shape. */
function shape(v: JsonNode): unknown {
  if (v.kind === "array") return v.items.map(shape);
  if (v.kind === "object") {
    const out = nullRecord();
    for (const [k, x] of v.members) {
      const m = shape(x);
      if (m !== false) out[k] = m;
    }
    return out;
  }
  return false;
}

function redact(node: JsonNode, mask: unknown): string {
  if (mask === true) return "null";
  if (node.kind === "object" && mask !== null && typeof mask === "object" && !Array.isArray(mask)) {
    const m = mask as Record<string, unknown>;
    return `{${[...node.members].map(([k, v]) => `${JSON.stringify(k)}:${Object.hasOwn(m, k) ? redact(v, m[k]) : v.raw}`).join(",")}}`;
  }
  if (node.kind === "array" && Array.isArray(mask)) {
    return `[${node.items.map((v, i) => redact(v, mask[i])).join(",")}]`;
  }
  return node.raw;
}

/**
 * An empty object without a prototype: a mask keyed by map keys must keep every key as
 * an own property (`out["__proto__"] = …` on a plain object sets its prototype instead,
 * and the sensitive value under that key would be printed).
 */
function nullRecord(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}
