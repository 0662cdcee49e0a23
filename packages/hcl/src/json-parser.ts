import type { JsonNode, JsonProperty } from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { nameSuggestion } from "./name-suggestion.js";
import { MAX_NESTING_DEPTH } from "./parser.js";
import { utf8Length, type SourceMap, type SourceRange } from "./source-range.js";

class Stop extends Error {}

/** A token of HCL's JSON scanner (`json/scanner.go`): `start`/`end` are UTF-16 offsets. */
interface Token {
  readonly type: "{" | "}" | "[" | "]" | "," | ":" | "=" | "keyword" | "string" | "number" | "eof" | "invalid";
  readonly start: number;
  readonly end: number;
  /**
   * HCL's scanner makes an invalid token one byte and one column long whatever the character,
   * and places the end-of-file token after it one byte on: `"invalid"` for the former, `"after"`
   * for the latter.
   */
  readonly oneByte?: "invalid" | "after";
}

const PUNCTUATION = new Set(["{", "}", "[", "]", ",", ":", "="]);
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const canStartNumber = (c: number): boolean => c === 45 || c === 43 || c === 46 || (c >= 48 && c <= 57);
const inNumber = (c: number): boolean => canStartNumber(c) || c === 101 || c === 69;

/**
 * HCL's JSON scanner: punctuation, and lax keyword (letters), number (digits, signs, dots,
 * exponents) and string tokens whose validity the parser checks. A string ends at its closing
 * quote or before a control character. A byte that starts no token is an invalid token, after
 * which scanning stops.
 */
/**
 * HCL's JSON scanner, one token at a time (the parser reads forward only, so no token array
 * is kept: a large file's million tokens would each outlive the young generation). After an
 * invalid byte the scan ends: an `invalid` token, then an `eof` just after it.
 */
function scanner(text: string): () => Token {
  const n = text.length;
  let i = 0;
  let after: Token | undefined;
  let done: Token | undefined;
  return (): Token => {
    if (done !== undefined) return done;
    if (after !== undefined) {
      done = after;
      return after;
    }
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
    if (i >= n) {
      done = { type: "eof", start: n, end: n };
      return done;
    }
    const start = i;
    const ch = text[i]!;
    const c = text.charCodeAt(i);
    if (PUNCTUATION.has(ch)) return { type: ch as Token["type"], start, end: ++i };
    if (c === 34) {
      i++;
      let escaping = false;
      while (i < n) {
        const b = text.charCodeAt(i);
        if (b === 92) {
          escaping = !escaping;
          i++;
        } else if (b === 34) {
          i++;
          if (!escaping) break;
          escaping = false;
        } else if (b < 32) {
          break;
        } else {
          i += b >= 0xd800 && b <= 0xdbff ? 2 : 1;
          escaping = false;
        }
      }
      return { type: "string", start, end: i };
    }
    if (canStartNumber(c)) {
      while (i < n && inNumber(text.charCodeAt(i))) i++;
      return { type: "number", start, end: i };
    }
    if (isAlpha(c)) {
      while (i < n && (isAlpha(text.charCodeAt(i)) || text.charCodeAt(i) === 95)) i++;
      return { type: "keyword", start, end: i };
    }
    after = { type: "eof", start, end: start, oneByte: "after" };
    return { type: "invalid", start, end: start + 1, oneByte: "invalid" };
  };
}

const VALID_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * Decodes a string token as Go's `encoding/json` does, or gives the UTF-8 byte offset its
 * syntax error reports (one past the offending byte; the token's length when it ends early).
 */
function decodeString(raw: string): { value: string } | { errorAt: number } {
  let out = "";
  let i = 1;
  let seg = 1;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === 34) {
      out += raw.slice(seg, i);
      // The scanner ends a string token at its closing quote, so nothing follows it.
      return { value: out };
    }
    if (c === 92) {
      out += raw.slice(seg, i);
      const e = raw[i + 1];
      if (e === undefined) return { errorAt: utf8Length(raw, 0, raw.length) };
      if (SIMPLE_ESCAPES[e] !== undefined) {
        out += SIMPLE_ESCAPES[e];
        i += 2;
      } else if (e === "u") {
        for (let k = 2; k < 6; k++) {
          const h = raw[i + k];
          if (h === undefined) return { errorAt: utf8Length(raw, 0, raw.length) };
          if (!/[0-9a-fA-F]/.test(h)) return { errorAt: utf8Length(raw, 0, i + k) + 1 };
        }
        out += String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        return { errorAt: utf8Length(raw, 0, i + 1) + 1 };
      }
      seg = i;
      continue;
    }
    i++;
  }
  return { errorAt: utf8Length(raw, 0, raw.length) };
}

/**
 * Parses JSON text keeping the source range of every value (HCL's JSON syntax needs them
 * for diagnostics and for templates inside strings), with the error recovery of HCL's JSON
 * parser (`json/parser.go`): a value that fails to parse becomes an `invalid` node and its
 * enclosing object or array goes on from there, so that one file can report several
 * errors, each worded and placed as HCL places it. Duplicate property names are kept: in a
 * body they are several blocks. The result is `undefined` only for nesting beyond the limit.
 */
export function parseJsonNode(src: SourceMap): { node: JsonNode | undefined; diags: Diagnostic[] } {
  const text = src.text;
  const next = scanner(text);
  const diags: Diagnostic[] = [];
  let current = next();
  let depth = 0;

  const peek = (): Token => current;
  const read = (): Token => {
    const t = current;
    if (t.type !== "eof") current = next();
    return t;
  };
  const rangeOf = (t: Token): SourceRange => {
    if (t.oneByte === undefined) return src.range(t.start, t.end);
    const p = src.pos(t.start);
    const next = { line: p.line, column: p.column + 1, byte: p.byte + 1 };
    return { filename: src.filename, start: t.oneByte === "invalid" ? p : next, end: next };
  };
  const err = (summary: string, detail: string, subject: SourceRange, context?: SourceRange): void => {
    diags.push(errorDiag(summary, detail, subject, context));
  };

  const value = (): JsonNode => {
    const tok = peek();
    const node = valueOrUndefined(tok);
    return node ?? { type: "invalid", range: rangeOf(tok) };
  };
  const valueOrUndefined = (tok: Token): JsonNode | undefined => {
    switch (tok.type) {
      case "{":
        return nested(object);
      case "[":
        return nested(array);
      case "number":
        return number();
      case "string":
        return string();
      case "keyword":
        return keyword();
      case "}":
        err("Missing JSON value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", rangeOf(tok));
        return undefined;
      case "]":
        err("Missing array element value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", rangeOf(tok));
        return undefined;
      case "eof":
        err("Missing value", "The JSON data ends prematurely.", rangeOf(tok));
        return undefined;
      default:
        err("Invalid start of value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", rangeOf(tok));
        return undefined;
    }
  };
  const nested = (f: () => JsonNode | undefined): JsonNode | undefined => {
    if (++depth > MAX_NESTING_DEPTH / 2) {
      err("Nesting too deep", `The JSON value nests objects or arrays more than ${MAX_NESTING_DEPTH / 2} levels deep here.`, rangeOf(peek()));
      throw new Stop();
    }
    const r = f();
    depth--;
    return r;
  };
  /** Skips to what seems to be the end of the enclosing object or array (HCL's `recover`), from `tok` on. */
  const recover = (tok: Token, open: Token["type"], close: Token["type"]): void => {
    let level = 1;
    for (;;) {
      if (tok.type === open) level++;
      else if (tok.type === close) {
        level--;
        if (level <= 1) return;
      } else if (tok.type === "eof") return;
      tok = read();
    }
  };

  const object = (): JsonNode | undefined => {
    const open = read();
    const props: JsonProperty[] = [];
    for (;;) {
      if (peek().type === "}") break;
      const key = value();
      if (key.type !== "string") {
        err("Invalid object property name", "A JSON object property name must be a string", startRange(key));
        return undefined;
      }
      const colon = read();
      if (colon.type !== ":") {
        recover(colon, "{", "}");
        if (colon.type === "}" || colon.type === ",") {
          err("Missing object value", "A JSON object attribute must have a value, introduced by a colon.", rangeOf(colon));
        } else if (colon.type === "=") {
          err("Missing property value colon", "JSON uses a colon as its name/value delimiter, not an equals sign.", rangeOf(colon));
        } else {
          err("Missing property value colon", "A colon must appear between an object property's name and its value.", rangeOf(colon));
        }
        return undefined;
      }
      props.push({ name: key.value, nameNode: key, value: value() });
      const next = peek().type;
      if (next === ",") {
        const comma = read();
        if (peek().type === "}") {
          err("Trailing comma in object", "JSON does not permit a trailing comma after the final property in an object.", rangeOf(comma));
          return undefined;
        }
        continue;
      }
      if (next === "eof") {
        err("Unclosed object", "No closing brace was found for this JSON object.", rangeOf(open));
        return undefined;
      }
      if (next === "]") {
        read();
        err("Mismatched braces", "A JSON object must be closed with a brace, not a bracket.", rangeOf(peek()));
        return undefined;
      }
      if (next === "}") break;
      recover(read(), "{", "}");
      err("Missing attribute seperator comma", "A comma must appear between each property definition in an object.", rangeOf(peek()));
      return undefined;
    }
    const close = read();
    return { type: "object", props, range: src.range(open.start, close.end), openRange: rangeOf(open), closeRange: rangeOf(close) };
  };

  const array = (): JsonNode | undefined => {
    const open = read();
    const items: JsonNode[] = [];
    for (;;) {
      if (peek().type === "]") break;
      items.push(value());
      const next = peek().type;
      if (next === ",") {
        const comma = read();
        if (peek().type === "]") {
          err("Trailing comma in array", "JSON does not permit a trailing comma after the final value in an array.", rangeOf(comma));
          return undefined;
        }
        continue;
      }
      if (next === ":") {
        recover(read(), "[", "]");
        err("Invalid array value", "A colon is not used to introduce values in a JSON array.", rangeOf(peek()));
        return undefined;
      }
      if (next === "eof") {
        recover(read(), "[", "]");
        err("Unclosed object", "No closing bracket was found for this JSON array.", rangeOf(open));
        return undefined;
      }
      if (next === "}") {
        recover(read(), "[", "]");
        err("Mismatched brackets", "A JSON array must be closed with a bracket, not a brace.", rangeOf(peek()));
        return undefined;
      }
      if (next === "]") break;
      recover(read(), "[", "]");
      err("Missing attribute seperator comma", "A comma must appear between each value in an array.", rangeOf(peek()));
      return undefined;
    }
    const close = read();
    return { type: "array", items, range: src.range(open.start, close.end), openRange: rangeOf(open) };
  };

  const number = (): JsonNode | undefined => {
    const tok = read();
    const t = text.slice(tok.start, tok.end);
    if (!VALID_NUMBER.test(t)) {
      err("Invalid JSON number", "There is a syntax error in the given JSON number.", rangeOf(tok));
      return undefined;
    }
    return { type: "number", text: t, range: rangeOf(tok) };
  };

  const string = (): JsonNode | undefined => {
    const tok = read();
    const raw = text.slice(tok.start, tok.end);
    const d = decodeString(raw);
    if ("errorAt" in d) {
      // HCL counts the error's column in bytes from the token's start (the token is on one line).
      const r = rangeOf(tok);
      const at = { line: r.start.line, column: r.start.column + d.errorAt, byte: r.start.byte + d.errorAt };
      const subject: SourceRange = { filename: r.filename, start: at, end: { line: at.line, column: at.column + 1, byte: at.byte + 1 } };
      const same = subject.start.byte === r.start.byte && subject.end.byte === r.end.byte && subject.end.column === r.end.column && subject.end.line === r.end.line;
      err("Invalid JSON string", "There is a syntax error in the given JSON string.", subject, same ? undefined : r);
      return undefined;
    }
    // (without escapes the decoded text is the text inside the quotes: one string for both; every escape is longer than what it decodes to)
    const inner = d.value.length === raw.length - 2 ? d.value : raw.slice(1, -1);
    return { type: "string", value: d.value, raw: inner, range: rangeOf(tok), innerRange: src.range(tok.start + 1, tok.end - 1) };
  };

  const keyword = (): JsonNode | undefined => {
    const tok = read();
    const s = text.slice(tok.start, tok.end);
    const range = rangeOf(tok);
    if (s === "true" || s === "false") return { type: "bool", value: s === "true", range };
    if (s === "null") return { type: "null", range };
    if (s === "undefined" || s === "NaN" || s === "Infinity") {
      err("Invalid JSON keyword", `The JavaScript identifier "${s}" cannot be used in JSON.`, range);
      return undefined;
    }
    const suggestion = nameSuggestion(s, ["false", "true", "null"]);
    err("Invalid JSON keyword", `"${s}" is not a valid JSON keyword.${suggestion !== undefined ? ` Did you mean "${suggestion}"?` : ""}`, range);
    return undefined;
  };

  try {
    const node = value();
    if (diags.length === 0 && peek().type !== "eof") err("Extraneous data after value", "Extra characters appear after the JSON value.", rangeOf(peek()));
    return { node, diags };
  } catch (e) {
    if (e instanceof Stop) return { node: undefined, diags };
    throw e;
  }
}

/** Where a JSON value starts (HCL's `StartRange`): an object's or array's opening bracket, else the whole value. */
export function startRange(node: JsonNode): SourceRange {
  return node.type === "object" || node.type === "array" ? node.openRange : node.range;
}
