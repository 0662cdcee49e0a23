import type { JsonNode, JsonProperty } from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { MAX_NESTING_DEPTH } from "./parser.js";
import type { SourceMap } from "./source-range.js";

class Stop extends Error {}

/**
 * Parses JSON text keeping the source range of every value (HCL's JSON syntax needs them
 * for diagnostics and for templates inside strings). Duplicate property names are kept:
 * in a body they are several blocks. Errors are diagnostics; the result is `undefined`
 * when the text is not valid JSON.
 */
export function parseJsonNode(src: SourceMap): { node: JsonNode | undefined; diags: Diagnostic[] } {
  const text = src.text;
  const n = text.length;
  const diags: Diagnostic[] = [];
  let i = 0;
  let depth = 0;

  const fail = (summary: string, detail: string, start: number, end = start + 1): never => {
    diags.push(errorDiag(summary, detail, src.range(Math.min(start, n), Math.min(end, n))));
    throw new Stop();
  };
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const value = (): JsonNode => {
    ws();
    if (i >= n) return fail("Missing JSON value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", n, n);
    const c = text[i]!;
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return string();
    if (c === "-" || (c >= "0" && c <= "9")) {
      const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 1000));
      if (m === null) return fail("Invalid JSON number", "There is a syntax error in the given JSON number.", i);
      const start = i;
      i += m[0].length;
      return { type: "number", text: m[0], range: src.range(start, i) };
    }
    for (const [kw, node] of [
      ["true", (s: number) => ({ type: "bool", value: true, range: src.range(s, s + 4) }) as JsonNode],
      ["false", (s: number) => ({ type: "bool", value: false, range: src.range(s, s + 5) }) as JsonNode],
      ["null", (s: number) => ({ type: "null", range: src.range(s, s + 4) }) as JsonNode],
    ] as const) {
      if (text.startsWith(kw, i) && !/[A-Za-z0-9_]/.test(text[i + kw.length] ?? "")) {
        const s = i;
        i += kw.length;
        return node(s);
      }
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 100));
    if (word !== null) {
      return fail(
        "Invalid JSON keyword",
        `The keyword "${word[0]}" is not valid. Valid JSON keywords are true, false, and null.`,
        i,
        i + word[0].length,
      );
    }
    return fail("Invalid JSON value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", i);
  };
  const enter = (at: number): void => {
    if (++depth > MAX_NESTING_DEPTH / 2) fail("Nesting too deep", `The JSON value nests objects or arrays more than ${MAX_NESTING_DEPTH / 2} levels deep here.`, at);
  };
  const object = (): JsonNode => {
    const start = i;
    enter(start);
    i++;
    const props: JsonProperty[] = [];
    ws();
    if (text[i] === "}") {
      i++;
      depth--;
      return { type: "object", props, range: src.range(start, i), openRange: src.range(start, start + 1) };
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        if (text[i] === "}") fail("Trailing comma in object", "JSON does not permit a trailing comma after the final property in an object.", i);
        fail("Invalid object property name", "A JSON object property name must be a string.", i);
      }
      const name = string() as JsonNode & { type: "string" };
      ws();
      if (text[i] !== ":") fail("Missing property value colon", "JSON requires a colon after a property name.", i);
      i++;
      const v = value();
      props.push({ name: name.value, nameNode: name, value: v });
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "}") {
        i++;
        depth--;
        return { type: "object", props, range: src.range(start, i), openRange: src.range(start, start + 1) };
      }
      if (i >= n) fail("Unclosed object", "The object has no closing brace.", start);
      fail("Missing attribute separator", "JSON requires a comma after each property in an object.", i);
    }
  };
  const array = (): JsonNode => {
    const start = i;
    enter(start);
    i++;
    const items: JsonNode[] = [];
    ws();
    if (text[i] === "]") {
      i++;
      depth--;
      return { type: "array", items, range: src.range(start, i), openRange: src.range(start, start + 1) };
    }
    for (;;) {
      ws();
      if (text[i] === "]") fail("Trailing comma in array", "JSON does not permit a trailing comma after the final value in an array.", i);
      items.push(value());
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "]") {
        i++;
        depth--;
        return { type: "array", items, range: src.range(start, i), openRange: src.range(start, start + 1) };
      }
      if (i >= n) fail("Unclosed array", "The array has no closing bracket.", start);
      fail("Missing array element separator", "JSON requires a comma after each element of an array.", i);
    }
  };
  const string = (): JsonNode => {
    const start = i;
    i++;
    let out = "";
    let segStart = i;
    for (;;) {
      if (i >= n) fail("Unterminated string", "The string has no closing quote.", start);
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 0x20) fail("Invalid JSON string", "Control characters must be escaped in JSON strings.", i);
      if (c === 92) {
        out += text.slice(segStart, i);
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          i += 2;
        } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          fail("Invalid JSON string", "The string contains an invalid escape sequence.", i, i + 2);
        }
        segStart = i;
        continue;
      }
      i++;
    }
    out += text.slice(segStart, i);
    i++;
    return { type: "string", value: out, raw: text.slice(start + 1, i - 1), range: src.range(start, i), innerRange: src.range(start + 1, i - 1) };
  };

  try {
    const node = value();
    ws();
    if (i < n) fail("Extraneous data after value", "Extra characters appear after the JSON value.", i);
    return { node, diags };
  } catch (e) {
    if (e instanceof Stop) return { node: undefined, diags };
    throw e;
  }
}
