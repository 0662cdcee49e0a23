/**
 * The context HCL's JSON syntax gives a byte offset of a `.tf.json` file (its navigation's
 * `ContextString`, which Terraform prints as `on main.tf.json line 1, in
 * resource.terraform_data.e.lifecycle[0].postcondition[0]:`): the property names and array
 * indexes leading from the root to the innermost object or array holding the offset, joined
 * with dots and brackets; only values that are objects or arrays are stepped into (the first
 * property of a name that holds the offset, as HCL's walk). Undefined when the offset is in
 * no nested object or array, or when the text is not JSON.
 */
export function jsonContext(text: string, offset: number): string | undefined {
  let root: Node;
  try {
    root = new Scanner(Buffer.from(text, "utf8")).document();
  } catch {
    return undefined;
  }
  const steps: string[] = [];
  let cur: Node = root;
  for (;;) {
    const next = cur.kind === "object" ? cur.props.find((p) => isNested(p.value) && contains(p.value, offset)) : cur.kind === "array" ? cur.items.find((v) => isNested(v) && contains(v, offset)) : undefined;
    if (next === undefined) break;
    if (cur.kind === "object") {
      const p = next as Property;
      steps.push(`.${p.name}`);
      cur = p.value;
    } else {
      steps.push(`[${(cur as ArrayNode).items.indexOf(next as Node)}]`);
      cur = next as Node;
    }
  }
  const s = steps.join("");
  return s === "" ? undefined : s.replace(/^\./, "");
}

interface Property {
  readonly name: string;
  readonly value: Node;
}
interface ObjectNode {
  readonly kind: "object";
  readonly start: number;
  readonly end: number;
  readonly props: Property[];
}
interface ArrayNode {
  readonly kind: "array";
  readonly start: number;
  readonly end: number;
  readonly items: Node[];
}
interface ScalarNode {
  readonly kind: "scalar";
  readonly start: number;
  readonly end: number;
}
type Node = ObjectNode | ArrayNode | ScalarNode;

const isNested = (n: Node): boolean => n.kind !== "scalar";
const contains = (n: Node, offset: number): boolean => offset >= n.start && offset < n.end;

/** A JSON scanner over UTF-8 bytes that keeps each value's byte range (it throws on malformed text). */
class Scanner {
  #pos = 0;
  readonly bytes: Buffer;
  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  document(): Node {
    const v = this.#value();
    this.#space();
    if (this.#pos !== this.bytes.length) throw new SyntaxError("trailing text");
    return v;
  }

  #space(): void {
    while (this.#pos < this.bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(this.bytes[this.#pos]!)) this.#pos++;
  }

  #value(): Node {
    this.#space();
    const start = this.#pos;
    const c = this.bytes[this.#pos];
    if (c === 0x7b) {
      this.#pos++;
      const props: Property[] = [];
      this.#space();
      if (this.bytes[this.#pos] === 0x7d) this.#pos++;
      else {
        for (;;) {
          this.#space();
          const name = this.#string();
          this.#space();
          if (this.bytes[this.#pos++] !== 0x3a) throw new SyntaxError("expected ':'");
          props.push({ name, value: this.#value() });
          this.#space();
          const sep = this.bytes[this.#pos++];
          if (sep === 0x7d) break;
          if (sep !== 0x2c) throw new SyntaxError("expected ',' or '}'");
        }
      }
      return { kind: "object", start, end: this.#pos, props };
    }
    if (c === 0x5b) {
      this.#pos++;
      const items: Node[] = [];
      this.#space();
      if (this.bytes[this.#pos] === 0x5d) this.#pos++;
      else {
        for (;;) {
          items.push(this.#value());
          this.#space();
          const sep = this.bytes[this.#pos++];
          if (sep === 0x5d) break;
          if (sep !== 0x2c) throw new SyntaxError("expected ',' or ']'");
        }
      }
      return { kind: "array", start, end: this.#pos, items };
    }
    if (c === 0x22) {
      this.#string();
      return { kind: "scalar", start, end: this.#pos };
    }
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.bytes.subarray(this.#pos, this.#pos + 400).toString("latin1"));
    if (m === null) throw new SyntaxError("unexpected character");
    this.#pos += m[0].length;
    return { kind: "scalar", start, end: this.#pos };
  }

  /** A string at the position, decoded. */
  #string(): string {
    if (this.bytes[this.#pos] !== 0x22) throw new SyntaxError("expected a string");
    const start = this.#pos;
    this.#pos++;
    while (this.#pos < this.bytes.length && this.bytes[this.#pos] !== 0x22) this.#pos += this.bytes[this.#pos] === 0x5c ? 2 : 1;
    if (this.#pos >= this.bytes.length) throw new SyntaxError("unterminated string");
    this.#pos++;
    return JSON.parse(this.bytes.subarray(start, this.#pos).toString("utf8")) as string;
  }
}
