/**
 * A JSON syntax tree that keeps number tokens as text and records syntax errors where
 * go-cty's streaming decoder would meet them. For `from-json.ts` only.
 *
 * go-cty reads the top-level value token by token, but reads each element of a top-level
 * container as one raw value that must be well-formed as a whole before it is interpreted.
 * So a syntax error inside element `i` of the top-level value is reported at element `i`
 * (after any type error in elements before it), and an error between elements at the
 * container itself. This tree mirrors that: a broken element becomes a {@link JsonBroken}
 * node, and a container carries the fault that ended it.
 *
 * @internal
 * @packageDocumentation
 */

/** A syntax error: what was wrong and the character offset where it was found. */
export interface JsonFault {
  readonly message: string;
  readonly offset: number;
}

/** A JSON string. */
export interface JsonString {
  readonly k: "string";
  readonly value: string;
}
/** A JSON number, as its exact token text. */
export interface JsonNumber {
  readonly k: "number";
  readonly text: string;
}
/** `true` or `false`. */
export interface JsonBool {
  readonly k: "bool";
  readonly value: boolean;
}
/** `null`. */
export interface JsonNull {
  readonly k: "null";
}
/** An array; `fault` is set when it did not end properly after `items`. */
export interface JsonArray {
  readonly k: "array";
  readonly items: JsonNode[];
  fault?: JsonFault;
}
/** An object, keys in input order (duplicates kept); `fault` as for arrays. */
export interface JsonObject {
  readonly k: "object";
  readonly keys: string[];
  readonly values: JsonNode[];
  fault?: JsonFault;
}
/** A value that is not well-formed JSON. */
export interface JsonBroken {
  readonly k: "broken";
  readonly fault: JsonFault;
}

/** A node of the tree. */
export type JsonNode =
  JsonString | JsonNumber | JsonBool | JsonNull | JsonArray | JsonObject | JsonBroken;

/** The parsed document: the top-level node and any data after it. */
export interface JsonDocument {
  readonly root: JsonNode;
  /** Set when non-whitespace follows the top-level value. */
  readonly trailing: JsonFault | undefined;
}

/** Deepest nesting of arrays and objects accepted. */
export const MAX_JSON_DEPTH = 1000;

class Fault extends Error {
  readonly fault: JsonFault;
  constructor(message: string, offset: number) {
    super(message);
    this.fault = { message, offset };
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f]*/y;

/**
 * Parses JSON text into a tree (see the module description for how errors are placed).
 * Never throws for bad input: syntax errors become faults in the tree.
 */
export function parseJsonTree(text: string): JsonDocument {
  const p = new Parser(text);
  const root = p.parseRoot();
  let trailing: JsonFault | undefined;
  if (!p.stopped) {
    p.skipSpace();
    if (p.pos < text.length) {
      trailing = {
        message: `invalid character ${p.describeChar()} after top-level value`,
        offset: p.pos,
      };
    }
  }
  return { root, trailing };
}

class Parser {
  readonly text: string;
  pos = 0;
  /** Set once a syntax error has been recorded: parsing stopped there. */
  stopped = false;

  constructor(text: string) {
    this.text = text;
  }

  skipSpace(): void {
    const t = this.text;
    let i = this.pos;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.pos = i;
  }

  describeChar(): string {
    const c = this.text[this.pos];
    if (c === undefined) return "end of input";
    const cp = this.text.codePointAt(this.pos)!;
    return cp < 0x20 || c === "'" || c === "\\"
      ? `'${JSON.stringify(c).slice(1, -1)}'`
      : `'${String.fromCodePoint(cp)}'`;
  }

  fail(context: string): never {
    if (this.pos >= this.text.length) throw new Fault("unexpected end of JSON input", this.pos);
    throw new Fault(`invalid character ${this.describeChar()} ${context}`, this.pos);
  }

  /** The top-level value: containers keep their well-formed elements. */
  parseRoot(): JsonNode {
    this.skipSpace();
    const c = this.text[this.pos];
    try {
      if (c === "[") return this.parseArray(1, true);
      if (c === "{") return this.parseObject(1, true);
      return this.parseValue(0);
    } catch (e) {
      if (e instanceof Fault) {
        this.stopped = true;
        return { k: "broken", fault: e.fault };
      }
      throw e;
    }
  }

  parseValue(depth: number): JsonNode {
    this.skipSpace();
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case "{":
        return this.parseObject(depth + 1, false);
      case "[":
        return this.parseArray(depth + 1, false);
      case '"':
        return { k: "string", value: this.parseString() };
      case "t":
        this.literal("true");
        return { k: "bool", value: true };
      case "f":
        this.literal("false");
        return { k: "bool", value: false };
      case "n":
        this.literal("null");
        return { k: "null" };
      default: {
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
          NUMBER.lastIndex = this.pos;
          const m = NUMBER.exec(t);
          if (m === null) {
            this.pos++;
            this.fail("in numeric literal");
          }
          this.pos += m[0].length;
          return { k: "number", text: m[0] };
        }
        return this.fail("looking for beginning of value");
      }
    }
  }

  literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.text[this.pos] !== word[i]) {
        if (i === 0) this.fail("looking for beginning of value");
        this.fail(`in literal ${word} (expecting '${word[i]}')`);
      }
      this.pos++;
    }
  }

  parseString(): string {
    const t = this.text;
    this.pos++; // opening quote
    let out = "";
    for (;;) {
      PLAIN_STRING_RUN.lastIndex = this.pos;
      const run = PLAIN_STRING_RUN.exec(t)![0];
      out += run;
      this.pos += run.length;
      const c = t[this.pos];
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === undefined) this.fail("in string literal");
      if (c !== "\\") this.fail("in string literal"); // a control character
      this.pos++;
      const e = t[this.pos];
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hi = this.hex4();
          if (hi >= 0xd800 && hi <= 0xdbff) {
            // A pair must follow immediately; otherwise Go substitutes U+FFFD.
            if (t[this.pos + 1] === "\\" && t[this.pos + 2] === "u") {
              const save = this.pos;
              this.pos += 2;
              const lo = this.hex4();
              if (lo >= 0xdc00 && lo <= 0xdfff) {
                out += String.fromCharCode(hi, lo);
                break;
              }
              this.pos = save;
            }
            out += "\ufffd";
          } else if (hi >= 0xdc00 && hi <= 0xdfff) {
            out += "\ufffd";
          } else {
            out += String.fromCharCode(hi);
          }
          break;
        }
        default:
          this.fail("in string escape code");
      }
      this.pos++;
    }
  }

  /** Reads the 4 hex digits after `\u` (pos at the `u`); leaves pos at the last digit. */
  hex4(): number {
    let v = 0;
    for (let i = 0; i < 4; i++) {
      this.pos++;
      const c = this.text.charCodeAt(this.pos);
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
      else return this.fail("in \\u hexadecimal character escape");
      v = v * 16 + d;
    }
    return v;
  }

  /**
   * An array. At the top level (`keep`), a syntax error inside an element becomes a broken
   * element and one between elements becomes the array's fault; below it, any error is
   * thrown (and the enclosing top-level element becomes broken).
   */
  parseArray(depth: number, keep: boolean): JsonArray {
    if (depth > MAX_JSON_DEPTH)
      throw new Fault(`exceeded max depth of ${MAX_JSON_DEPTH}`, this.pos);
    this.pos++; // [
    const node: JsonArray = { k: "array", items: [] };
    for (;;) {
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === "]") {
        this.pos++;
        return node;
      }
      if (c === undefined || c === "}") {
        const f = this.faultHere(
          node.items.length === 0 ? "looking for beginning of value" : "after array element",
        );
        if (keep) {
          node.fault = f;
          this.stopped = true;
          return node;
        }
        throw new Fault(f.message, f.offset);
      }
      try {
        if (node.items.length > 0) {
          if (c !== ",") this.fail("after array element");
          this.pos++;
        }
        node.items.push(this.parseValue(depth));
      } catch (e) {
        if (keep && e instanceof Fault) {
          node.items.push({ k: "broken", fault: e.fault });
          this.stopped = true;
          return node;
        }
        throw e;
      }
    }
  }

  /** An object; errors are placed as for {@link Parser.parseArray}, key errors on the object. */
  parseObject(depth: number, keep: boolean): JsonObject {
    if (depth > MAX_JSON_DEPTH)
      throw new Fault(`exceeded max depth of ${MAX_JSON_DEPTH}`, this.pos);
    this.pos++; // {
    const node: JsonObject = { k: "object", keys: [], values: [] };
    for (;;) {
      this.skipSpace();
      let c = this.text[this.pos];
      if (c === "}") {
        this.pos++;
        return node;
      }
      let key: string;
      try {
        if (c === undefined || c === "]") {
          this.fail(
            node.keys.length === 0
              ? "looking for beginning of object key string"
              : "after object key:value pair",
          );
        }
        if (node.keys.length > 0) {
          if (c !== ",") this.fail("after object key:value pair");
          this.pos++;
          this.skipSpace();
          c = this.text[this.pos];
        }
        if (c !== '"') this.fail("looking for beginning of object key string");
        key = this.parseString();
      } catch (e) {
        if (keep && e instanceof Fault) {
          node.fault = e.fault;
          this.stopped = true;
          return node;
        }
        throw e;
      }
      try {
        this.skipSpace();
        if (this.text[this.pos] !== ":") this.fail("after object key");
        this.pos++;
        const value = this.parseValue(depth);
        node.keys.push(key);
        node.values.push(value);
      } catch (e) {
        if (keep && e instanceof Fault) {
          node.keys.push(key);
          node.values.push({ k: "broken", fault: e.fault });
          this.stopped = true;
          return node;
        }
        throw e;
      }
    }
  }

  faultHere(context: string): JsonFault {
    if (this.pos >= this.text.length)
      return { message: "unexpected end of JSON input", offset: this.pos };
    return { message: `invalid character ${this.describeChar()} ${context}`, offset: this.pos };
  }
}
