import { StateError } from "../state-error.js";

const WS = /[ \t\n\r]*/y;
const STRING = /"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// A string as Go writes it: no raw <, >, &, U+2028, U+2029 (Go escapes them).
const CANON_STRING = /"[^"\\\u0000-\u001f<>&\u2028\u2029]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f<>&\u2028\u2029]*)*"/y;
const CANON_KEY = new RegExp(`${CANON_STRING.source}: `, "y");
const CANON_SCALAR = new RegExp(`(?:${CANON_STRING.source}|${NUMBER.source}|true|false|null|\\{\\}|\\[\\])`, "y");
const INDENTS: string[] = [];
/**
 * The deepest nesting of objects and arrays Go's encoding/json accepts (`maxNestingDepth`),
 * counted from the top of the document: Terraform refuses a deeper state ("exceeded max
 * depth"), and so does this reader. @internal
 */
export const MAX_JSON_DEPTH = 10000;

/** "\n" followed by `n` spaces (cached). @internal */
export function newlineIndent(n: number): string {
  return (INDENTS[n] ??= "\n" + " ".repeat(n));
}

/**
 * A strict, schema-directed JSON reader over one text: the state file reader walks the
 * structure it knows and keeps the spans it does not interpret (attributes, output values)
 * as raw text, validating them on the way. Errors are `StateError` `corrupt` with the offset.
 *
 * @internal
 */
export class JsonReader {
  pos = 0;
  /** The objects and arrays open around the reader (the callbacks of object/array). */
  private depth = 0;
  readonly text: string;
  readonly what: string;

  constructor(text: string, what: string) {
    this.text = text;
    this.what = what;
  }

  fail(why: string, at = this.pos): never {
    throw new StateError("corrupt", `${this.what} is not valid: ${why} at offset ${at}`);
  }

  ws(): void {
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    WS.lastIndex = this.pos;
    WS.test(this.text);
    this.pos = WS.lastIndex;
  }

  /** The next non-space character (not consumed), or "" at the end. */
  peek(): string {
    this.ws();
    return this.text[this.pos] ?? "";
  }

  end(): void {
    this.ws();
    if (this.pos !== this.text.length) this.fail("unexpected data after the top-level value");
  }

  isNull(): boolean {
    if (this.peek() === "n") {
      this.literal("null");
      return true;
    }
    return false;
  }

  private literal(word: string): void {
    if (!this.text.startsWith(word, this.pos)) this.fail("invalid literal");
    this.pos += word.length;
  }

  string(field: string): string {
    if (this.peek() !== '"') this.fail(`${field} must be a string`);
    STRING.lastIndex = this.pos;
    if (!STRING.test(this.text)) this.fail("invalid string");
    const start = this.pos;
    this.pos = STRING.lastIndex;
    const raw = this.text.slice(start + 1, this.pos - 1);
    return raw.includes("\\") ? (JSON.parse(this.text.slice(start, this.pos)) as string) : raw;
  }

  /** A string, or "" for null (Go's zero value). */
  optString(field: string): string {
    return this.isNull() ? "" : this.string(field);
  }

  numberText(field: string): string {
    this.ws();
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (m === null) this.fail(`${field} must be a number`);
    this.pos = NUMBER.lastIndex;
    return m[0];
  }

  /** A whole non-negative number that fits exactly (Go's uint64, limited to 2^53). */
  uint(field: string): number {
    if (this.isNull()) return 0;
    const at = this.pos;
    const t = this.numberText(field);
    const n = Number(t);
    if (!Number.isSafeInteger(n) || n < 0 || /[.eE]/.test(t)) this.fail(`${field} must be a whole number from 0 to 2^53-1, not ${t}`, at);
    return n;
  }

  bool(field: string): boolean {
    const c = this.peek();
    if (c === "t") {
      this.literal("true");
      return true;
    }
    if (c === "f") {
      this.literal("false");
      return false;
    }
    if (c === "n") {
      this.literal("null");
      return false;
    }
    this.fail(`${field} must be a boolean`);
  }

  /** Reads an object, calling `onKey` with the reader positioned at each value. Returns false for null. */
  object(field: string, onKey: (key: string) => void): boolean {
    const c = this.peek();
    if (c === "n") {
      this.literal("null");
      return false;
    }
    if (c !== "{") this.fail(`${field} must be an object`);
    this.open();
    this.pos++;
    if (this.peek() === "}") {
      this.pos++;
      this.depth--;
      return true;
    }
    for (;;) {
      const key = this.string("an object key");
      if (this.peek() !== ":") this.fail('expected ":"');
      this.pos++;
      onKey(key);
      const d = this.peek();
      this.pos++;
      if (d === "}") {
        this.depth--;
        return true;
      }
      if (d !== ",") this.fail('expected "," or "}"', this.pos - 1);
    }
  }

  /** Enters an object or array of the document (failing beyond Go's depth limit). */
  private open(): void {
    if (++this.depth > MAX_JSON_DEPTH) this.tooDeep();
  }

  private tooDeep(): never {
    this.fail(`the JSON nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (Go's and so Terraform's limit: "exceeded max depth")`);
  }

  /** Reads an array, calling `onItem` with the reader positioned at each item. Returns false for null. */
  array(field: string, onItem: (index: number) => void): boolean {
    const c = this.peek();
    if (c === "n") {
      this.literal("null");
      return false;
    }
    if (c !== "[") this.fail(`${field} must be an array`);
    this.open();
    this.pos++;
    if (this.peek() === "]") {
      this.pos++;
      this.depth--;
      return true;
    }
    for (let i = 0; ; i++) {
      onItem(i);
      const d = this.peek();
      this.pos++;
      if (d === "]") {
        this.depth--;
        return true;
      }
      if (d !== ",") this.fail('expected "," or "]"', this.pos - 1);
    }
  }

  /**
   * Validates one JSON value and returns its text and the indentation (in spaces) of its
   * closing bracket when the file holds it exactly as Go's MarshalIndent prints it (two-space
   * indentation, HTML characters escaped), else undefined (then use {@link raw} on the same span).
   */
  canonicalRaw(): { readonly json: string; readonly base: number } | undefined {
    this.ws();
    const start = this.pos;
    const text = this.text;
    const open = text.charCodeAt(start);
    if (open !== 0x7b && open !== 0x5b) return undefined;
    // The indentation of the first member tells the depth the value was printed at.
    let base = -1;
    if (text.charCodeAt(start + 1) === 0x0a) {
      let j = start + 2;
      while (text.charCodeAt(j) === 0x20) j++;
      base = j - (start + 2) - 2;
    }
    if (base < 0 || base % 2 !== 0) {
      this.skip();
      const span = text.slice(start, this.pos);
      if (span === "{}" || span === "[]") return { json: span, base: 0 };
      this.pos = start;
      return undefined;
    }
    if (!this.skipCanonical(base)) {
      this.pos = start;
      return undefined;
    }
    return { json: text.slice(start, this.pos), base };
  }

  /**
   * Like skip, but line by line, and succeeds only when the value is exactly as Go's
   * MarshalIndent prints it with its closing bracket `base` spaces in. The value starts with an
   * opening bracket followed by a newline.
   */
  private skipCanonical(base: number): boolean {
    const text = this.text;
    let pos = this.pos;
    if (this.depth + 1 > MAX_JSON_DEPTH) return false;
    const closers: number[] = [text.charCodeAt(pos) === 0x7b ? 0x7d : 0x5d];
    pos++;
    for (;;) {
      // A member line.
      const depth = closers.length;
      const ind = newlineIndent(base + depth * 2);
      if (!text.startsWith(ind, pos)) return false;
      pos += ind.length;
      if (closers[depth - 1] === 0x7d) {
        CANON_KEY.lastIndex = pos;
        if (!CANON_KEY.test(text)) return false;
        pos = CANON_KEY.lastIndex;
      }
      const c = text.charCodeAt(pos);
      if ((c === 0x7b || c === 0x5b) && text.charCodeAt(pos + 1) === 0x0a) {
        // Too deep: not canonical here; skip() then fails with the error.
        if (this.depth + closers.length + 1 > MAX_JSON_DEPTH) return false;
        closers.push(c === 0x7b ? 0x7d : 0x5d);
        pos++;
        continue;
      }
      CANON_SCALAR.lastIndex = pos;
      if (!CANON_SCALAR.test(text)) return false;
      pos = CANON_SCALAR.lastIndex;
      // After a value: a comma and the next member, or closing lines.
      for (;;) {
        if (text.charCodeAt(pos) === 0x2c) {
          pos++;
          break;
        }
        const n = closers.length;
        const ci = newlineIndent(base + (n - 1) * 2);
        if (!text.startsWith(ci, pos)) return false;
        pos += ci.length;
        if (text.charCodeAt(pos) !== closers[n - 1]) return false;
        pos++;
        closers.pop();
        if (closers.length === 0) {
          this.pos = pos;
          return true;
        }
      }
    }
  }

  /** Validates one JSON value of any kind and returns its raw text. */
  raw(): string {
    this.ws();
    const start = this.pos;
    this.skip();
    return this.text.slice(start, this.pos);
  }

  private skip(): void {
    const text = this.text;
    // An explicit stack instead of recursion: attribute values may nest deeply.
    const stack: number[] = [];
    let expectValue = true;
    for (;;) {
      if (expectValue) {
        this.ws();
        const c = text.charCodeAt(this.pos);
        if (c === 0x22) {
          STRING.lastIndex = this.pos;
          if (!STRING.test(text)) this.fail("invalid string");
          this.pos = STRING.lastIndex;
        } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
          if (this.depth + stack.length + 1 > MAX_JSON_DEPTH) this.tooDeep();
          this.pos++;
          this.ws();
          const close = c === 0x7b ? 0x7d : 0x5d;
          if (text.charCodeAt(this.pos) === close) {
            this.pos++;
          } else {
            stack.push(c);
            if (c === 0x7b) {
              this.key();
            }
            continue;
          }
        } else if (c === 0x74) this.literal("true");
        else if (c === 0x66) this.literal("false");
        else if (c === 0x6e) this.literal("null");
        else {
          NUMBER.lastIndex = this.pos;
          if (!NUMBER.test(text)) this.fail(Number.isNaN(c) ? "unexpected end of data" : "invalid value");
          this.pos = NUMBER.lastIndex;
        }
      }
      // After a value: close containers or move to the next item.
      if (stack.length === 0) return;
      this.ws();
      const d = text.charCodeAt(this.pos);
      const top = stack[stack.length - 1]!;
      if (d === 0x2c /* , */) {
        this.pos++;
        if (top === 0x7b) this.key();
        expectValue = true;
        continue;
      }
      if ((top === 0x7b && d === 0x7d) || (top === 0x5b && d === 0x5d)) {
        this.pos++;
        stack.pop();
        expectValue = false;
        continue;
      }
      this.fail(top === 0x7b ? 'expected "," or "}"' : 'expected "," or "]"');
    }
  }

  private key(): void {
    this.ws();
    STRING.lastIndex = this.pos;
    if (this.text.charCodeAt(this.pos) !== 0x22 || !STRING.test(this.text)) this.fail("expected an object key");
    this.pos = STRING.lastIndex;
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail('expected ":"');
    this.pos++;
  }
}
