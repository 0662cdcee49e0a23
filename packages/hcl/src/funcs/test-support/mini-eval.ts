/**
 * A small evaluator for the function corpus, for the function library's own tests only:
 * literals, tuples, objects, unary minus, `path.module`, plain strings with `${…}` of these,
 * and function calls (with `...` expansion), converting arguments to parameter types as
 * HCL does and turning function errors into Terraform's diagnostic summary and detail. The
 * package's real evaluator is elsewhere; expressions outside this subset are reported as
 * unsupported so the test can skip them.
 *
 * @internal
 * @packageDocumentation
 */

import {
  CtyNumber,
  boolVal,
  convert,
  dynamicType,
  emptyObjectVal,
  emptyTupleVal,
  isPathError,
  nullVal,
  numberVal,
  objectVal,
  stringVal,
  tupleVal,
  type Value,
} from "@magma/cty";
import { callFunction } from "../../call-function.js";
import { isFunctionArgError, isFunctionError, type HclFunction } from "../../function.js";

/** The expression is outside the subset. */
export class Unsupported extends Error {}

/** A diagnostic as Terraform words it. */
export class Diagnostic extends Error {
  readonly summary: string;
  readonly detail: string;
  constructor(summary: string, detail: string) {
    super(`${summary}: ${detail}`);
    this.summary = summary;
    this.detail = detail;
  }
}

class Parser {
  pos = 0;
  readonly src: string;
  readonly funcs: ReadonlyMap<string, HclFunction>;
  constructor(src: string, funcs: ReadonlyMap<string, HclFunction>) {
    this.src = src;
    this.funcs = funcs;
  }

  ws(): void {
    for (;;) {
      const m = /^(?:\s+|#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(this.src.slice(this.pos));
      if (m === null || m[0] === "") return;
      this.pos += m[0].length;
    }
  }

  peek(s: string): boolean {
    this.ws();
    return this.src.startsWith(s, this.pos);
  }

  eat(s: string): void {
    if (!this.peek(s)) throw new Unsupported(`expected ${s} at ${this.pos}`);
    this.pos += s.length;
  }

  expr(): Value {
    this.ws();
    if (this.peek("-")) {
      this.pos++;
      const v = this.expr();
      if (v.type.kind !== "number") throw new Unsupported("unary minus on non-number");
      return numberVal(CtyNumber.parse(v.asNumber().toString().startsWith("-") ? v.asNumber().toString().slice(1) : `-${v.asNumber().toString()}`));
    }
    const c = this.src[this.pos];
    if (c === '"') return stringVal(this.template());
    if (c === "[") return this.tuple();
    if (c === "{") return this.object();
    const num = /^\d+(\.\d+)?([eE][-+]?\d+)?/.exec(this.src.slice(this.pos));
    if (num !== null) {
      this.pos += num[0].length;
      return numberVal(CtyNumber.parse(num[0]));
    }
    const id = /^[A-Za-z_][A-Za-z0-9_-]*(::[A-Za-z_][A-Za-z0-9_-]*)*/.exec(this.src.slice(this.pos));
    if (id === null) throw new Unsupported(`unexpected ${c ?? "end"} at ${this.pos}`);
    this.pos += id[0].length;
    const name = id[0];
    if (name === "true") return boolVal(true);
    if (name === "false") return boolVal(false);
    if (name === "null") return nullVal(dynamicType);
    if (name === "path" && this.peek(".module")) {
      this.pos += ".module".length;
      return stringVal(".");
    }
    if (!this.peek("(")) throw new Unsupported(`variable ${name}`);
    this.eat("(");
    const args: Value[] = [];
    let expand = false;
    while (!this.peek(")")) {
      args.push(this.expr());
      if (this.peek("...")) {
        this.pos += 3;
        expand = true;
      }
      if (this.peek(",")) this.pos++;
      else break;
    }
    this.eat(")");
    return this.call(name.replace(/^core::/, ""), args, expand);
  }

  call(name: string, given: Value[], expand: boolean): Value {
    if (name === "try" || name === "can" || name === "templatefile" || name === "templatestring" || name.startsWith("provider::")) {
      throw new Unsupported(name);
    }
    const fn = this.funcs.get(name);
    if (fn === undefined) throw new Unsupported(`no function ${name}`);
    let args = given;
    if (expand) {
      const last = args[args.length - 1]!;
      if (last.type.kind !== "list" && last.type.kind !== "tuple" && last.type.kind !== "set") throw new Unsupported("expansion of non-sequence");
      args = [...args.slice(0, -1), ...last.elements()];
    }
    const n = fn.params.length;
    if (args.length < n) {
      const missing = fn.params[args.length]!;
      throw new Diagnostic("Not enough function arguments", `Function "${name}" expects ${n} argument(s). Missing value for "${missing.name}".`);
    }
    if (args.length > n && fn.varParam === undefined) {
      throw new Diagnostic("Too many function arguments", `Function "${name}" expects only ${n} argument(s).`);
    }
    const converted = args.map((a, i) => {
      const p = fn.params[i] ?? fn.varParam!;
      try {
        return convert(a, p.type);
      } catch (e) {
        if (!isPathError(e)) throw e;
        const path = e.path.toString();
        throw new Diagnostic("Invalid function argument", `Invalid value for "${p.name}" parameter: ${path !== "" ? `${path}: ` : ""}${e.reason}.`);
      }
    });
    try {
      return callFunction(fn, converted);
    } catch (e) {
      if (isFunctionArgError(e)) {
        const p = fn.params[e.argIndex] ?? fn.varParam!;
        throw new Diagnostic("Invalid function argument", `Invalid value for "${p.name}" parameter: ${e.message}.`);
      }
      if (isFunctionError(e)) throw new Diagnostic("Error in function call", `Call to function "${name}" failed: ${e.message}.`);
      throw e;
    }
  }

  template(): string {
    this.pos++;
    let out = "";
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) throw new Unsupported("unterminated string");
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === "\\") {
        const e = this.src[this.pos + 1]!;
        const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
        if (simple[e] !== undefined) {
          out += simple[e];
          this.pos += 2;
          continue;
        }
        if (e === "u" || e === "U") {
          const len = e === "u" ? 4 : 8;
          out += String.fromCodePoint(parseInt(this.src.slice(this.pos + 2, this.pos + 2 + len), 16));
          this.pos += 2 + len;
          continue;
        }
        throw new Unsupported(`escape \\${e}`);
      }
      if (c === "$" && this.src[this.pos + 1] === "$" && this.src[this.pos + 2] === "{") {
        out += "${";
        this.pos += 3;
        continue;
      }
      if (c === "%" && this.src[this.pos + 1] === "%" && this.src[this.pos + 2] === "{") {
        out += "%{";
        this.pos += 3;
        continue;
      }
      if (c === "%" && this.src[this.pos + 1] === "{") throw new Unsupported("template directive");
      if (c === "$" && this.src[this.pos + 1] === "{") {
        this.pos += 2;
        const v = this.expr();
        this.eat("}");
        out += convert(v, { kind: "string" }).asString();
        continue;
      }
      out += c;
      this.pos++;
    }
  }

  tuple(): Value {
    this.pos++;
    const items: Value[] = [];
    while (!this.peek("]")) {
      items.push(this.expr());
      if (this.peek(",")) this.pos++;
      else break;
    }
    this.eat("]");
    return items.length === 0 ? emptyTupleVal : tupleVal(items);
  }

  object(): Value {
    this.pos++;
    const attrs = new Map<string, Value>();
    while (!this.peek("}")) {
      this.ws();
      let key: string;
      if (this.src[this.pos] === '"') key = this.template();
      else {
        const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(this.src.slice(this.pos));
        if (m === null) throw new Unsupported("object key");
        key = m[0];
        this.pos += key.length;
      }
      if (this.peek("=")) this.pos++;
      else this.eat(":");
      attrs.set(key, this.expr());
      if (this.peek(",")) this.pos++;
    }
    this.eat("}");
    return attrs.size === 0 ? emptyObjectVal : objectVal(attrs);
  }
}

/** Evaluates one corpus expression; throws {@link Unsupported} or {@link Diagnostic}. */
export function miniEval(src: string, funcs: ReadonlyMap<string, HclFunction>): Value {
  const p = new Parser(src, funcs);
  const v = p.expr();
  p.ws();
  if (p.pos !== src.length) throw new Unsupported(`trailing text at ${p.pos}`);
  return v;
}
