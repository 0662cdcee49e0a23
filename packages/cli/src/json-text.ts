import { CtyNumber } from "@magma/cty";
import { CliError, CliErrorCode } from "./cli-error.js";

/**
 * A parsed JSON value that keeps its source text, so that a part of a document (the
 * `state` of an earlier command's output) can be handed to cty's exact decoder as is.
 */
export type JsonNode =
  | { readonly kind: "null"; readonly raw: string }
  | { readonly kind: "bool"; readonly raw: string; readonly value: boolean }
  | { readonly kind: "number"; readonly raw: string }
  | { readonly kind: "string"; readonly raw: string; readonly value: string }
  | { readonly kind: "array"; readonly raw: string; readonly items: readonly JsonNode[] }
  | { readonly kind: "object"; readonly raw: string; readonly members: ReadonlyMap<string, JsonNode> };

/**
 * Parses JSON text (RFC 8259), keeping each node's source text.
 *
 * A syntax error names the line and column and what was found there by kind only (`found
 * a letter`, `found a digit`; JSON punctuation is shown as itself), never quoting the
 * input: every JSON input of the CLI (`--provider-config`, `--config`, states and plans)
 * may hold secrets.
 *
 * @param what Names the input in errors (`--config`).
 * @throws {@link CliError} `bad_input` naming the input, the line and column, and what was expected.
 */
export function parseJsonText(text: string, what: string): JsonNode {
  let i = 0;
  const fail = (msg: string): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    const col = i - before.lastIndexOf("\n");
    const near = i >= text.length ? "at end of input" : `(found ${describeChar(text.codePointAt(i)!)})`;
    throw new CliError(CliErrorCode.BadInput, `${what}: invalid JSON at line ${line} column ${col} ${near}: ${msg}`, {
      hint: `give ${what} inline JSON ('{"key": "value"}'), @FILE, a file path, or - for standard input`,
    });
  };
  const ws = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  const value = (depth: number): JsonNode => {
    if (depth > 1000) fail("nested too deeply");
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const members = new Map<string, JsonNode>();
      ws();
      if (text[i] === "}") {
        i++;
        return { kind: "object", raw: text.slice(start, i), members };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a string key");
        const keyAt = i;
        const key = str();
        if (members.has(key)) {
          i = keyAt;
          fail("duplicate key (the key is written twice in one object)");
        }
        ws();
        if (text[i] !== ":") fail('expected ":"');
        i++;
        members.set(key, value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return { kind: "object", raw: text.slice(start, i), members };
        }
        fail('expected "," or "}"');
      }
    }
    if (c === "[") {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return { kind: "array", raw: text.slice(start, i), items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return { kind: "array", raw: text.slice(start, i), items };
        }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') {
      const s = str();
      return { kind: "string", raw: text.slice(start, i), value: s };
    }
    for (const [word, node] of [
      ["true", { kind: "bool", raw: "true", value: true }],
      ["false", { kind: "bool", raw: "false", value: false }],
      ["null", { kind: "null", raw: "null" }],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return node;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 4096));
    if (m === null || m[0] === "") return fail("expected a value");
    i += m[0].length;
    return { kind: "number", raw: m[0] };
  };
  const str = (): string => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const ch = text.charCodeAt(i);
      if (ch === 0x22) break;
      if (ch < 0x20) fail("control character in string");
      if (ch === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail("bad escape");
      } else i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const root = value(0);
  ws();
  if (i < text.length) fail("unexpected data after the value");
  return root;
}

/**
 * What a character is, for syntax errors that must not quote the input: JSON's
 * punctuation as itself, anything else by its kind.
 */
function describeChar(c: number): string {
  const ch = String.fromCodePoint(c);
  if ("{}[],:\"".includes(ch)) return `'${ch}'`;
  if (c >= 0x30 && c <= 0x39) return "a digit";
  if (/\p{L}/u.test(ch)) return "a letter";
  if (c < 0x20 || c === 0x7f) return "a control character";
  if (/\s/u.test(ch)) return "white space";
  return "a symbol";
}

/**
 * Plain data for a node: objects, arrays, strings, booleans and null as usual; a number
 * is a JS number when that is exact, else a {@link CtyNumber} (so `configValue` keeps
 * `18446744073709551616` exact). Objects have a null prototype, so that every key —
 * `__proto__` and `constructor` included — is an own property as it was written.
 */
export function jsonNodeToPlain(node: JsonNode): unknown {
  switch (node.kind) {
    case "null":
      return null;
    case "bool":
    case "string":
      return node.value;
    case "number": {
      const n = Number(node.raw);
      return Number.isFinite(n) && CtyNumber.from(n).equals(CtyNumber.parse(node.raw)) ? n : CtyNumber.parse(node.raw);
    }
    case "array":
      return node.items.map(jsonNodeToPlain);
    case "object": {
      const o = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of node.members) o[k] = jsonNodeToPlain(v);
      return o;
    }
  }
}

/** A piece of JSON text to embed verbatim by {@link stringifyJson}. */
export class RawJson {
  /** The JSON text. */
  readonly text: string;
  /** Wraps JSON text (trusted to be valid). */
  constructor(text: string) {
    this.text = text;
  }
}

/**
 * JSON text of plain data in which {@link RawJson} pieces (exact cty values) are embedded
 * verbatim, indented by two spaces. Keys with `undefined` values are left out.
 */
export function stringifyJson(data: unknown): string {
  return indentJson(compact(data));
}

/**
 * {@link stringifyJson} without indentation: one line, as `JSON.stringify(data)` would
 * write it but with {@link RawJson} pieces embedded verbatim (how `magma schema --json`
 * prints, like terraform, unless `--pretty`).
 */
export function compactJson(data: unknown): string {
  return compact(data);
}

function compact(data: unknown): string {
  if (data instanceof RawJson) return data.text;
  if (Array.isArray(data)) return `[${data.map(compact).join(",")}]`;
  if (data !== null && typeof data === "object") {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(data)) if (v !== undefined) parts.push(`${JSON.stringify(k)}:${compact(v)}`);
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(data ?? null);
}

/** Re-indents compact or pretty JSON text with two spaces (empty objects and arrays stay `{}`, `[]`). */
export function indentJson(text: string): string {
  let out = "";
  let depth = 0;
  let i = 0;
  const nl = (): string => "\n" + "  ".repeat(depth);
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (" \t\r\n".includes(c)) {
      i++;
      continue;
    }
    if (c === "{" || c === "[") {
      let j = i + 1;
      while (" \t\r\n".includes(text[j] ?? "")) j++;
      const close = c === "{" ? "}" : "]";
      if (text[j] === close) {
        out += c + close;
        i = j + 1;
        continue;
      }
      depth++;
      out += c + nl();
    } else if (c === "}" || c === "]") {
      depth--;
      out += nl() + c;
    } else if (c === ",") out += "," + nl();
    else if (c === ":") out += ": ";
    else out += c;
    i++;
  }
  return out;
}
