/**
 * A small syntax tree of Terraform configuration that renders to both of Terraform's
 * syntaxes: native (`.tf`) and JSON (`.tf.json`). Each expression carries its two forms, since
 * the JSON syntax spells an expression differently by where it stands: a literal as JSON, an
 * expression as a `"${…}"` template, and the meta-arguments that take references or types
 * (`depends_on`, `provider`, `ignore_changes`, `moved`'s `from`/`to`, a variable's `type`, …)
 * as bare expression strings.
 */

/** One expression in both syntaxes. */
export interface Expr {
  /** The native form, e.g. `upper(var.x)`. */
  readonly native: string;
  /** The JSON form: a JSON value, often a `"${…}"` template or a bare expression string. */
  readonly json: unknown;
}

/** An attribute or a nested block of a body. */
export type BodyItem =
  | { readonly attr: string; readonly expr: Expr }
  | { readonly block: string; readonly labels: readonly string[]; readonly body: Body };

/** A block body: attributes and nested blocks, in order. */
export type Body = readonly BodyItem[];

/** A top-level block, e.g. `resource "testbed_value" "a" { … }`. */
export interface TopBlock {
  readonly type: string;
  readonly labels: readonly string[];
  readonly body: Body;
}

/** A JSON-able literal: strings, numbers, bools, and lists and objects of them. */
export type Literal = string | number | boolean | readonly Literal[] | { readonly [k: string]: Literal };

/** A literal in HCL native syntax (strings must not contain `${` or `%{`). */
export function nativeLiteral(v: Literal): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${(v as readonly Literal[]).map(nativeLiteral).join(", ")}]`;
  const entries = Object.entries(v as Record<string, Literal>);
  return `{ ${entries.map(([k, x]) => `${JSON.stringify(k)} = ${nativeLiteral(x)}`).join(", ")} }`;
}

/** A literal value (JSON: the value itself). */
export function lit(v: Literal): Expr {
  return { native: nativeLiteral(v), json: v };
}

/** An expression (JSON: a `"${…}"` template of it). */
export function ex(native: string): Expr {
  return { native, json: `\${${native}}` };
}

/** A reference, type or keyword taken as a bare expression in JSON (meta-arguments). */
export function bare(native: string): Expr {
  return { native, json: native };
}

/** A list of bare expressions (`depends_on`, `ignore_changes`, `replace_triggered_by`). */
export function bareList(items: readonly string[]): Expr {
  return { native: `[${items.join(", ")}]`, json: items };
}

/** An object whose values are bare expressions (a module call's `providers`). */
export function bareMap(entries: Readonly<Record<string, string>>): Expr {
  return { native: `{ ${Object.entries(entries).map(([k, v]) => `${k} = ${v}`).join(", ")} }`, json: entries };
}

/** `attr = expr`. */
export function attr(name: string, expr: Expr): BodyItem {
  return { attr: name, expr };
}

/** A nested block. */
export function block(type: string, labels: readonly string[], body: Body): BodyItem {
  return { block: type, labels, body };
}

function renderBodyNative(body: Body, indent: string): string {
  const out: string[] = [];
  for (const item of body) {
    if ("attr" in item) out.push(`${indent}${item.attr} = ${item.expr.native}`);
    else out.push(`${indent}${item.block}${item.labels.map((l) => ` ${JSON.stringify(l)}`).join("")} {\n${renderBodyNative(item.body, `${indent}  `)}${indent}}`);
  }
  return out.map((l) => `${l}\n`).join("");
}

/** Renders top-level blocks as a native `.tf` file. */
export function renderNative(blocks: readonly TopBlock[]): string {
  return blocks.map((b) => `${b.type}${b.labels.map((l) => ` ${JSON.stringify(l)}`).join("")} {\n${renderBodyNative(b.body, "  ")}}\n`).join("\n");
}

type JsonObject = Record<string, unknown>;

/** Puts `value` at `keys` under `target`, turning a repeated leaf into an array. */
function place(target: JsonObject, keys: readonly string[], value: JsonObject): void {
  let cur = target;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    if (next === undefined) cur[k] = {};
    cur = cur[k] as JsonObject;
  }
  const last = keys[keys.length - 1]!;
  const prev = cur[last];
  if (prev === undefined) cur[last] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else cur[last] = [prev, value];
}

function renderBodyJson(body: Body): JsonObject {
  const out: JsonObject = {};
  for (const item of body) {
    if ("attr" in item) out[item.attr] = item.expr.json;
    else place(out, [item.block, ...item.labels], renderBodyJson(item.body));
  }
  return out;
}

/** Renders top-level blocks as a `.tf.json` document. */
export function renderJson(blocks: readonly TopBlock[]): string {
  const doc: JsonObject = {};
  for (const b of blocks) place(doc, [b.type, ...b.labels], renderBodyJson(b.body));
  return `${JSON.stringify(doc, null, 2)}\n`;
}
