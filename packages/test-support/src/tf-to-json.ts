/**
 * A converter from Terraform's native syntax (`.tf`) to its JSON syntax (`.tf.json`), so that
 * an oracle fixture written natively also runs in the other syntax. Expressions keep their
 * source text: literals become JSON values, other expressions `"${…}"` templates, and the
 * arguments Terraform's JSON syntax reads as bare expressions (references and types:
 * `depends_on`, `provider`, `providers`, `ignore_changes`, `replace_triggered_by`, a
 * variable's `type`, `moved`/`removed`/`import`'s `from` and `to`, `configuration_aliases` in
 * `required_providers`) their bare text.
 */
import { parseNativeConfig, type Block, type Expression, type NativeBody } from "@magma/hcl";

/** Thrown (code `tf_to_json`) when the native text does not parse or uses what the converter cannot express. */
export class TfToJsonError extends Error {
  /** Stable code. */
  readonly code = "tf_to_json";
  constructor(filename: string, detail: string) {
    super(`[tf_to_json] ${filename}: ${detail}`);
    this.name = "TfToJsonError";
  }
}

/** Argument names read as bare expressions (not templates) in the JSON syntax, by block type. */
const BARE: Readonly<Record<string, readonly string[]>> = {
  resource: ["depends_on", "provider"],
  data: ["depends_on", "provider"],
  module: ["depends_on", "providers"],
  output: ["depends_on"],
  check: [],
  lifecycle: ["ignore_changes", "replace_triggered_by"],
  variable: ["type"],
  moved: ["from", "to"],
  removed: ["from"],
  import: ["to", "provider"],
};

type Json = unknown;

class Converter {
  readonly bytes: Uint8Array;
  readonly filename: string;
  constructor(text: string, filename: string) {
    this.bytes = new TextEncoder().encode(text);
    this.filename = filename;
  }
  source(e: Expression): string {
    return new TextDecoder().decode(this.bytes.slice(e.range.start.byte, e.range.end.byte));
  }
  /** A JSON value for an expression: literal data as JSON, anything else as a template. */
  value(e: Expression): Json {
    const literal = this.literal(e);
    if (literal !== undefined) return literal.v;
    if (e.kind === "templateWrap") return `\${${this.source(e.expr)}}`;
    if (e.kind === "template" && e.parts.every((p) => p.kind === "lit" || p.kind === "interp")) {
      // A template (quoted or heredoc) of text and interpolations: the same template in JSON,
      // its text escaped as a template's.
      return e.parts.map((p) => (p.kind === "lit" ? p.value.replace(/\$\{/g, () => "$${").replace(/%\{/g, "%%{") : `\${${this.source(p.expr)}}`)).join("");
    }
    return `\${${this.source(e)}}`;
  }
  /** Literal data (no references, calls or templates with interpolations), as JSON. */
  literal(e: Expression): { v: Json } | undefined {
    switch (e.kind) {
      case "literal": {
        const src = this.source(e);
        if (src === "null") return { v: null };
        if (src === "true" || src === "false") return { v: src === "true" };
        if (/^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(src)) {
          const n = Number(src);
          return Number.isSafeInteger(n) || !Number.isInteger(n) ? { v: n } : undefined;
        }
        return undefined;
      }
      case "template":
        // Text only: a JSON string (escaped as a template's, since JSON strings are templates).
        return e.parts.every((p) => p.kind === "lit") ? { v: e.parts.map((p) => (p.kind === "lit" ? p.value.replace(/\$\{/g, () => "$${").replace(/%\{/g, "%%{") : "")).join("") } : undefined;
      case "unary":
        return e.op === "-" && e.operand.kind === "literal" ? { v: Number(this.source(e)) } : undefined;
      case "tuple": {
        const items = e.items.map((i) => this.literal(i));
        return items.every((i) => i !== undefined) ? { v: items.map((i) => i!.v) } : undefined;
      }
      case "object": {
        const out: Record<string, Json> = {};
        for (const item of e.items) {
          const key = item.keyIsIdent ? this.source(item.key) : this.literal(item.key)?.v;
          const value = this.literal(item.value);
          if (typeof key !== "string" || value === undefined) return undefined;
          out[key] = value.v;
        }
        return { v: out };
      }
      default:
        return undefined;
    }
  }
  /** A bare expression's JSON: its text, a list of texts, or an object of texts. */
  bare(e: Expression): Json {
    if (e.kind === "tuple") return e.items.map((i) => this.source(i));
    if (e.kind === "object") return Object.fromEntries(e.items.map((i) => [i.keyIsIdent ? this.source(i.key) : String(this.literal(i.key)?.v ?? this.source(i.key)), this.source(i.value)]));
    return this.source(e);
  }
  body(body: NativeBody, blockType: string | undefined): Record<string, Json> {
    const out: Record<string, Json> = {};
    const bare = BARE[blockType ?? ""] ?? [];
    for (const [name, a] of body.attributes) {
      if (blockType === "required_providers" && a.expr.kind === "object") {
        // An entry's configuration_aliases are references: bare in the JSON syntax.
        out[name] = Object.fromEntries(
          a.expr.items.map((i) => {
            const key = i.keyIsIdent ? this.source(i.key) : String(this.literal(i.key)?.v ?? this.source(i.key));
            return [key, key === "configuration_aliases" ? this.bare(i.value) : this.value(i.value)];
          }),
        );
      } else out[name] = bare.includes(name) ? this.bare(a.expr) : this.value(a.expr);
    }
    for (const b of body.blocks) this.place(out, b);
    return out;
  }
  place(target: Record<string, Json>, b: Block): void {
    if (!("attributes" in b.body)) throw new TfToJsonError(this.filename, `block ${b.type} has no native body`);
    const keys = [b.type, ...b.labels];
    let cur = target;
    for (const k of keys.slice(0, -1)) {
      if (cur[k] === undefined) cur[k] = {};
      const next = cur[k];
      if (typeof next !== "object" || next === null || Array.isArray(next)) throw new TfToJsonError(this.filename, `cannot nest ${keys.join(".")} in JSON (a block and an attribute share a name)`);
      cur = next as Record<string, Json>;
    }
    const last = keys[keys.length - 1]!;
    const value = this.body(b.body as NativeBody, b.type);
    const prev = cur[last];
    if (prev === undefined) cur[last] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else cur[last] = [prev, value];
  }
}

/**
 * Converts a native-syntax configuration file to the JSON syntax: the text of a `.tf.json` file
 * that Terraform reads as the same configuration. Comments are dropped.
 *
 * @throws TfToJsonError when the text does not parse.
 */
export function tfToJson(text: string, filename = "main.tf"): string {
  const { body, diags } = parseNativeConfig(text, filename);
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new TfToJsonError(filename, errors.map((d) => d.summary).join("; "));
  const c = new Converter(text, filename);
  const doc: Record<string, Json> = {};
  for (const [name] of body.attributes) throw new TfToJsonError(filename, `top-level attribute ${name} (a configuration file has only blocks)`);
  for (const b of body.blocks) c.place(doc, b);
  return `${JSON.stringify(doc, null, 2)}\n`;
}
