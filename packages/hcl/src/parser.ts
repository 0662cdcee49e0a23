import { boolVal, dynamicType, nullVal, numberVal, stringVal, type Value } from "@magma/cty";
import type { BinaryOperator, Expression, ObjectItem, TemplatePart, Traversal, TraversalStep } from "./ast.js";
import type { Attribute, Block } from "./body.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { lex, type LexMode, type Token, type TokenList, type TokenType } from "./lexer.js";
import { nameSuggestion } from "./name-suggestion.js";
import { NativeBody } from "./native-body.js";
import { negatedText, parseNumberLiteral } from "./number-ops.js";
import { formatRange, rangeBetween, type SourceMap, type SourcePos, type SourceRange } from "./source-range.js";

/**
 * The deepest nesting the parsers accept, in nesting steps: a parenthesis, bracket, brace,
 * call, interpolation or template directive takes two steps per level (the construct and
 * the expression inside it), a unary operator or conditional one, so about 400 levels of
 * most constructs (terraform accepts deeper; magma's recursive parser, evaluator and value
 * codecs stay well within the JavaScript stack up to here, and deeper input is the
 * diagnostic "Nesting too deep", never a stack overflow).
 */
export const MAX_NESTING_DEPTH = 800;

/**
 * How many directly nested parentheses (`((((x))))`) one nesting step of
 * {@link MAX_NESTING_DEPTH} admits: a run longer than this nests again.
 */
export const MAX_PARENTHESES_RUN = 100_000;

const BINARY_LEVEL: Partial<Record<TokenType, number>> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "%": 6,
};

class TooDeep extends Error {}

/** The state of one chain of postfix operators (see `Parser.parsePostfix`). */
interface PostfixChain {
  /** Whether the expression so far was made by `addStep` in this chain (its steps array is the chain's to extend). */
  owned: boolean;
  /**
   * Splats and computed indexes nest the tree one level each (`a[*][*]…`, `a[b][c]…`): they
   * count towards the nesting limit, like brackets; undone when the chain ends.
   */
  nested: number;
}

/** Flat template items before the if/for tree is built. */
type FlatItem =
  | { kind: "lit"; value: string; range: SourceRange; start: number; lineStart: boolean }
  | { kind: "interp"; expr: Expression; range: SourceRange; stripL: boolean; stripR: boolean }
  | {
      kind: "dir";
      word: "if" | "else" | "endif" | "for" | "endfor";
      cond?: Expression;
      keyVar?: string;
      valueVar?: string;
      coll?: Expression;
      range: SourceRange;
      stripL: boolean;
      stripR: boolean;
    };

/** Options of native-syntax parsing. */
export interface NativeParseOptions {
  /**
   * A single-line block may hold one nested block instead of one argument
   * (`provider_installation { direct {} }`), as HCL 1 (terraform's CLI configuration) allows.
   */
  readonly nestedSingleLineBlocks?: boolean;
}

/** Parses native-syntax text. One instance per text. @internal */
export class Parser {
  private readonly src: SourceMap;
  private readonly toks: TokenList;
  readonly diags: Diagnostic[];
  private pos = 0;
  private depth = 0;
  private readonly newlineStack: boolean[] = [true];
  /**
   * Set (for good) once an expression met a token that is not one, or an argument was not
   * followed by a newline (HCL's `recovery`): an argument whose expression then has errors is
   * skipped to the end of its line, a later argument's missing newline is not reported, and a
   * standalone expression gets no "Extra characters after expression".
   */
  private recovering = false;
  /** See {@link NativeParseOptions.nestedSingleLineBlocks}. */
  private readonly nestedSingleLineBlocks: boolean;

  constructor(src: SourceMap, mode: LexMode, options: NativeParseOptions = {}) {
    this.src = src;
    this.nestedSingleLineBlocks = options.nestedSingleLineBlocks ?? false;
    const { tokens, diags } = lex(src, mode);
    this.toks = tokens;
    this.diags = diags;
  }

  // ----- token helpers -------------------------------------------------------------

  private get includeNewlines(): boolean {
    return this.newlineStack[this.newlineStack.length - 1]!;
  }

  private peek(): Token {
    if (!this.includeNewlines) {
      while (this.toks.type(this.pos) === "newline") this.pos++;
    }
    return this.toks.get(this.pos);
  }

  /** The next token after any newlines (skipping them), whatever the current newline mode. */
  private peekSkippingNewlines(): Token {
    while (this.toks.type(this.pos) === "newline") this.pos++;
    return this.toks.get(this.pos);
  }

  private peekRaw(offset = 0): Token {
    return this.toks.get(this.pos + offset);
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== "eof") this.pos++;
    return t;
  }

  private r(t: Token): SourceRange {
    return this.src.range(t.start, t.end);
  }

  private rr(start: number, end: number): SourceRange {
    return this.src.range(start, end);
  }

  private err(summary: string, detail: string, subject: SourceRange, context?: SourceRange): void {
    this.diags.push(errorDiag(summary, detail, subject, context));
  }

  private withNewlines<T>(include: boolean, f: () => T): T {
    this.newlineStack.push(include);
    try {
      return f();
    } finally {
      this.newlineStack.pop();
    }
  }

  private enter(at: Token): void {
    if (++this.depth > MAX_NESTING_DEPTH) {
      this.err("Nesting too deep", `The configuration nests expressions, blocks or templates more than ${MAX_NESTING_DEPTH / 2} levels deep here.`, this.r(at));
      throw new TooDeep();
    }
  }

  /** Runs a top-level parse, turning a nesting overflow into the diagnostic already recorded. */
  guard<T>(f: () => T, fallback: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof TooDeep) return fallback();
      throw e;
    }
  }

  private text(t: Token): string {
    return this.src.text.slice(t.start, t.end);
  }

  /** Skips tokens up to the end of the current line at this nesting level (error recovery). */
  private recover(): void {
    let nest = 0;
    for (;;) {
      const t = this.toks.get(this.pos);
      if (t.type === "eof") return;
      if (t.type === "{" || t.type === "[" || t.type === "(" || t.type === "oquote" || t.type === "oheredoc" || t.type === "interp" || t.type === "control") nest++;
      else if (t.type === "}" || t.type === "]" || t.type === ")" || t.type === "cquote" || t.type === "cheredoc" || t.type === "seqend") {
        if (nest === 0) return;
        nest--;
      } else if (t.type === "newline" && nest === 0) return;
      this.pos++;
    }
  }

  // ----- bodies --------------------------------------------------------------------

  /** A whole configuration file. */
  parseFile(): NativeBody {
    const body = this.guard(
      () => this.parseBody("eof", this.peekRaw()),
      () => new NativeBody(new Map(), [], this.rr(0, this.src.text.length), this.src.filename),
    );
    return body;
  }

  private parseBody(end: "eof" | "}", open: Token): NativeBody {
    this.enter(open);
    const attrs = new Map<string, Attribute>();
    const blocks: Block[] = [];
    const startTok = this.peekRaw();
    let last: Token = startTok;
    for (;;) {
      let t = this.toks.get(this.pos);
      while (t.type === "newline") t = this.toks.get(++this.pos);
      if (t.type === end) break;
      if (t.type === "eof") {
        if (!this.recovering) {
          this.err(
            "Unclosed configuration block",
            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
            this.r(open),
          );
        }
        break;
      }
      if (t.type !== "ident") {
        if (t.type === "}") {
          this.err("Argument or block definition required", "An argument or block definition is required here.", this.r(t));
          this.pos++;
          continue;
        }
        this.err(
          "Argument or block definition required",
          t.type === "oquote" || t.type === "number"
            ? 'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.'
            : "An argument or block definition is required here.",
          this.r(t),
        );
        this.pos++;
        this.recover();
        continue;
      }
      const item = this.parseBodyItem(t);
      if (item === undefined) continue;
      last = this.toks.get(Math.max(this.pos - 1, 0));
      if ("expr" in item) {
        const prev = attrs.get(item.name);
        if (prev !== undefined) {
          this.err(
            "Attribute redefined",
            `The argument "${item.name}" was already set at ${prev.nameRange.filename}:${prev.nameRange.start.line},${prev.nameRange.start.column}-${prev.nameRange.end.column}. Each argument may be set only once.`,
            item.nameRange,
          );
        } else {
          attrs.set(item.name, item);
        }
      } else {
        blocks.push(item);
      }
    }
    this.depth--;
    const endTok = this.toks.get(this.pos);
    void last;
    return new NativeBody(attrs, blocks, this.rr(end === "eof" ? 0 : open.start, endTok.end), this.src.filename);
  }

  private parseBodyItem(ident: Token, singleLine = false): Attribute | Block | undefined {
    this.pos++;
    const name = this.text(ident);
    const after = this.toks.get(this.pos);
    if (after.type === "=") {
      this.pos++;
      const before = this.diags.length;
      const expr = this.withNewlines(true, () => this.parseExpression());
      const end = this.toks.get(this.pos);
      if (this.recovering && this.diags.slice(before).some((d) => d.severity === "error") && end.type !== "newline" && end.type !== "eof") this.recover();
      else if (end.type === "newline") this.pos++;
      else if (end.type !== "eof" && !(singleLine && end.type === "}")) {
        // As HCL: not reported once the parser is recovering (from an earlier one too).
        if (this.recovering) {
          // Nothing more to say.
        } else if (end.type === ",") {
          this.err(
            "Unexpected comma after argument",
            "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
            this.r(end),
            rangeBetween(this.r(ident), this.r(end)),
          );
        } else {
          this.err("Missing newline after argument", "An argument definition must end with a newline.", this.r(end), rangeBetween(this.r(ident), this.r(end)));
        }
        this.recovering = true;
        this.recover();
      }
      return { name, expr, range: rangeBetween(this.r(ident), expr.range), nameRange: this.r(ident) };
    }
    // Block: labels then "{".
    const labels: string[] = [];
    const labelRanges: SourceRange[] = [];
    for (;;) {
      const t = this.toks.get(this.pos);
      if (t.type === "{") break;
      if (t.type === "ident") {
        labels.push(this.text(t));
        labelRanges.push(this.r(t));
        this.pos++;
        continue;
      }
      if (t.type === "oquote") {
        const lit = this.toks.get(this.pos + 1);
        if (lit.type === "cquote") {
          labels.push("");
          labelRanges.push(this.rr(t.start, lit.end));
          this.pos += 2;
          continue;
        }
        const close = this.toks.get(this.pos + 2);
        if (lit.type === "lit" && close.type === "cquote") {
          labels.push(lit.value ?? "");
          labelRanges.push(this.rr(t.start, close.end));
          this.pos += 3;
          continue;
        }
        this.err("Invalid block label", "Template sequences are not allowed in block labels; a block label must be a literal string.", this.r(t));
        this.recover();
        return undefined;
      }
      if (t.type === "newline" || t.type === "eof") {
        this.err(
          "Invalid block definition",
          'A block definition must have block content delimited by "{" and "}", starting on the same line as the block header.',
          this.r(t),
          rangeBetween(this.r(ident), this.r(t)),
        );
      } else if (labels.length === 0) {
        this.err(
          "Argument or block definition required",
          'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
          this.r(t),
        );
      } else {
        this.err("Invalid block definition", 'Either a quoted string block label or an opening brace ("{") is expected here.', this.r(t), rangeBetween(this.r(ident), this.r(t)));
      }
      this.recover();
      return undefined;
    }
    const open = this.toks.get(this.pos);
    this.pos++;
    let body: NativeBody;
    const afterOpen = this.toks.get(this.pos);
    if (afterOpen.type === "newline" || afterOpen.type === "}") {
      body = this.parseBody("}", open);
    } else {
      // Single-line block: at most one argument (or, as HCL 1, one nested block), then "}".
      this.enter(open);
      const attrs = new Map<string, Attribute>();
      const nested: Block[] = [];
      if (afterOpen.type === "ident" && this.toks.get(this.pos + 1).type === "=") {
        const a = this.parseBodyItem(afterOpen, true);
        if (a !== undefined && "expr" in a) attrs.set(a.name, a);
      } else if (this.nestedSingleLineBlocks && afterOpen.type === "ident") {
        const b = this.parseBodyItem(afterOpen, true);
        if (b !== undefined && !("expr" in b)) nested.push(b);
      } else {
        this.err("Invalid single-argument block definition", "A single-line block definition can contain only a single argument.", this.r(afterOpen));
        this.recover();
      }
      const closeTok = this.toks.get(this.pos);
      // As HCL's parseBlock after a single-line body.
      if (closeTok.type === ",") {
        this.err(
          "Invalid single-argument block definition",
          "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
          this.r(closeTok),
        );
        this.recover();
      } else if (closeTok.type === "newline") {
        this.err(
          "Invalid single-argument block definition",
          "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
          this.r(closeTok),
        );
        this.recover();
      } else if (closeTok.type !== "}") {
        if (this.recovering) {
          // Nothing more to say.
        } else if (closeTok.type === "eof") {
          this.err(
            "Unclosed configuration block",
            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
            this.r(open),
            this.rr(ident.start, open.end),
          );
        } else {
          this.err(
            "Invalid single-argument block definition",
            "A single-line block definition must end with a closing brace immediately after its single argument definition.",
            this.r(closeTok),
          );
        }
        this.recover();
      }
      this.depth--;
      body = new NativeBody(attrs, nested, this.rr(open.start, closeTok.end), this.src.filename);
    }
    const close = this.toks.get(this.pos);
    if (close.type === "}") this.pos++;
    const end = this.toks.get(this.pos);
    if (end.type === "newline") this.pos++;
    else if (end.type !== "eof" && end.type !== "}") {
      this.err("Missing newline after block definition", "A block definition must end with a newline.", this.r(end));
      this.recover();
    }
    return {
      type: name,
      labels,
      body,
      typeRange: this.r(ident),
      labelRanges,
      range: this.rr(ident.start, close.end),
    };
  }

  // ----- expressions ---------------------------------------------------------------

  /** A whole standalone expression; anything after it is an error. */
  parseStandaloneExpression(): Expression {
    return this.guard(
      () => {
        const e = this.withNewlines(false, () => this.parseExpression());
        const t = this.peekSkippingNewlines();
        if (t.type !== "eof" && !this.recovering) {
          this.err("Extra characters after expression", "An expression was successfully parsed, but extra characters were found after it.", this.r(t));
        }
        return e;
      },
      () => this.invalidExpr(0, this.src.text.length),
    );
  }

  private invalidExpr(start: number, end: number): Expression {
    return { kind: "literal", value: nullVal(dynamicType), range: this.rr(start, end) };
  }

  /**
   * An expression; with `left`, one whose first term (before its postfix operators) is
   * `left`, already parsed: what follows a parenthesised term inside a run of parentheses.
   */
  parseExpression(left?: Expression): Expression {
    const first = this.peek();
    this.enter(first);
    try {
      const cond = this.parseBinary(1, left);
      const q = this.peek();
      if (q.type !== "?") return cond;
      this.next();
      const then = this.parseExpression();
      const colon = this.peek();
      if (colon.type !== ":") {
        this.err(
          "Missing false expression in conditional",
          "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
          this.r(colon),
          rangeBetween(cond.range, this.r(colon)),
        );
        return { kind: "conditional", cond, then, else: this.invalidExpr(colon.start, colon.start), range: rangeBetween(cond.range, then.range) };
      }
      this.next();
      const els = this.parseExpression();
      return { kind: "conditional", cond, then, else: els, range: rangeBetween(cond.range, els.range) };
    } finally {
      this.depth--;
    }
  }

  private parseBinary(minLevel: number, first?: Expression): Expression {
    let left = first === undefined ? this.parseUnary() : this.parsePostfix(first);
    // Each operator of a chain (`a + b + c …`) nests the tree one level deeper on the left:
    // it counts towards the nesting limit, so that no walk over the tree overflows the stack.
    let chain = 0;
    try {
      for (;;) {
        const t = this.peek();
        const level = BINARY_LEVEL[t.type];
        if (level === undefined || level < minLevel) return left;
        this.next();
        this.enter(t);
        chain++;
        const right = this.parseBinary(level + 1);
        left = { kind: "binary", op: t.type as BinaryOperator, left, right, range: rangeBetween(left.range, right.range) };
      }
    } finally {
      this.depth -= chain;
    }
  }

  private parseUnary(): Expression {
    const t = this.peek();
    if (t.type === "-" || t.type === "!") {
      this.next();
      this.enter(t);
      try {
        const operand = this.parseUnary();
        if (t.type === "-" && operand.kind === "literal" && operand.value.type.kind === "number" && operand.value.isKnown() && !operand.value.isNull()) {
          const n = operand.value.asNumber();
          const neg = n.sign() === 0 ? n.negate() : parseNumberLiteral(negatedText(n));
          return { kind: "literal", value: numberVal(neg), range: rangeBetween(this.r(t), operand.range) };
        }
        return { kind: "unary", op: t.type, operand, range: rangeBetween(this.r(t), operand.range) };
      } finally {
        this.depth--;
      }
    }
    return this.parsePostfix(this.parseTerm());
  }

  /** Attribute access, indexes and splats after a term. */
  private parsePostfix(from: Expression, attrOnly = false): Expression {
    const chain: PostfixChain = { owned: false, nested: 0 };
    try {
      return this.postfixLoop(from, attrOnly, chain);
    } finally {
      this.depth -= chain.nested;
    }
  }

  private postfixLoop(from: Expression, attrOnly: boolean, chain: PostfixChain): Expression {
    let e = from;
    for (;;) {
      const t = this.peek();
      if (t.type === ".") {
        const nt = this.peekRaw(1);
        if (nt.type === "ident") {
          this.next();
          this.next();
          e = this.addStep(e, { kind: "attr", name: this.text(nt), range: this.rr(t.start, nt.end) }, nt.end, chain.owned);
          chain.owned = true;
          continue;
        }
        if (nt.type === "number") {
          if (attrOnly) return e;
          this.next();
          this.next();
          const txt = this.text(nt);
          if (!/^\d+$/.test(txt)) {
            const parts = txt.split(/[.eE+-]+/).filter((p) => p !== "");
            this.err(
              "Invalid legacy index syntax",
              `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [${parts.join("][")}].`,
              this.r(nt),
            );
            continue;
          }
          e = this.addStep(e, { kind: "index", key: numberVal(parseNumberLiteral(txt)), range: this.rr(t.start, nt.end) }, nt.end, chain.owned);
          chain.owned = true;
          continue;
        }
        if (nt.type === "*") {
          if (attrOnly) return e;
          this.next();
          this.next();
          this.enter(nt);
          chain.nested++;
          chain.owned = false;
          const item: Expression = { kind: "splatItem", range: this.rr(t.start, nt.end) };
          const each = this.parsePostfix(item, true);
          e = { kind: "splat", source: e, each, range: rangeBetween(e.range, each.range), markerRange: this.rr(t.start, nt.end) };
          continue;
        }
        this.next();
        this.err("Invalid attribute name", "An attribute name is required after a dot.", this.r(nt), rangeBetween(e.range, this.r(nt)));
        // As HCL's: the tokens that follow are probably misparsed, so say nothing more about them.
        this.recovering = true;
        return e;
      }
      if (t.type === "[" && !attrOnly) {
        this.next();
        const star = this.peek();
        if (star.type === "*") {
          this.next();
          const close = this.peek();
          if (close.type !== "]") {
            this.err("Missing close bracket on splat index", 'The star for a full splat operator must be immediately followed by a closing bracket ("]").', this.r(close));
            this.recoverTo("]");
            return e;
          }
          this.next();
          this.enter(close);
          chain.nested++;
          chain.owned = false;
          const item: Expression = { kind: "splatItem", range: this.rr(t.start, close.end) };
          const each = this.parsePostfix(item, false);
          e = { kind: "splat", source: e, each, range: rangeBetween(e.range, each.range), markerRange: this.rr(t.start, close.end) };
          continue;
        }
        const key = this.withNewlines(false, () => this.parseExpression());
        const close = this.peekSkippingNewlines();
        if (close.type !== "]") {
          this.err("Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").", this.r(close), rangeBetween(this.r(t), this.r(close)));
          this.recoverTo("]");
        } else {
          this.peekSkippingNewlines();
          this.next();
        }
        const lit = staticKey(key);
        if (lit !== undefined) {
          e = this.addStep(e, { kind: "index", key: lit, range: this.rr(t.start, close.end) }, close.end, chain.owned);
          chain.owned = true;
        } else {
          this.enter(t);
          chain.nested++;
          chain.owned = false;
          e = { kind: "index", collection: e, key, range: rangeBetween(e.range, this.r(close)), bracketRange: this.rr(t.start, close.end) };
        }
        continue;
      }
      return e;
    }
  }

  private recoverTo(type: TokenType): void {
    // HCL's `recover`: only the bracket's own pair nests; anything else (another bracket, a
    // template's end, a newline) is skipped, up to the end of the file.
    const start = type === ")" ? "(" : type === "]" ? "[" : type === "}" ? "{" : undefined;
    this.recovering = true;
    let nest = 0;
    for (;;) {
      const t = this.toks.get(this.pos);
      if (t.type === "eof") return;
      this.pos++;
      if (t.type === start) nest++;
      else if (t.type === type) {
        if (nest < 1) return;
        nest--;
      }
    }
  }

  /**
   * Appends a step to a traversal. `owned` says that `e` came from an earlier addStep of the
   * same postfix chain and is referenced nowhere else: its steps array is then extended in
   * place, so that a chain of n steps costs O(n), not O(n²).
   */
  private addStep(e: Expression, step: TraversalStep, end: number, owned: boolean): Expression {
    const range: SourceRange = rangeBetween(e.range, this.rr(end, end));
    if (e.kind === "traversal") {
      const steps = owned ? (e.traversal.steps as TraversalStep[]) : [...e.traversal.steps];
      steps.push(step);
      const traversal: Traversal = { ...e.traversal, steps, range };
      return { kind: "traversal", traversal, range };
    }
    if (e.kind === "relative") {
      const steps = owned ? (e.steps as TraversalStep[]) : [...e.steps];
      steps.push(step);
      return { kind: "relative", source: e.source, steps, range };
    }
    return { kind: "relative", source: e, steps: [step], range };
  }

  private parseTerm(): Expression {
    const t = this.peek();
    switch (t.type) {
      case "number": {
        this.next();
        let value: Value;
        try {
          value = numberVal(parseNumberLiteral(this.text(t)));
        } catch {
          this.err("Invalid number literal", `Failed to recognize the value of this number literal.`, this.r(t));
          value = nullVal(dynamicType);
        }
        return { kind: "literal", value, range: this.r(t) };
      }
      case "ident": {
        this.next();
        const name = this.text(t);
        const after = this.peekRaw();
        if (after.type === "(" || after.type === "::") return this.parseCall(t);
        if (name === "true" || name === "false") return { kind: "literal", value: boolVal(name === "true"), range: this.r(t) };
        if (name === "null") return { kind: "literal", value: nullVal(dynamicType), range: this.r(t) };
        const traversal: Traversal = { root: name, rootRange: this.r(t), steps: [], range: this.r(t) };
        return { kind: "traversal", traversal, range: this.r(t) };
      }
      case "(":
        return this.parseParentheses(t);
      case "[":
        return this.parseTuple();
      case "{":
        return this.parseObject();
      case "oquote":
        return this.parseQuotedTemplate();
      case "oheredoc":
        return this.parseHeredoc();
      default: {
        const range = this.r(t);
        // As HCL's parseExpressionTerm: reported unless already recovering, and recovering after.
        if (this.recovering) {
          // Nothing more to say.
        } else if (t.type === "eof") {
          this.err("Missing expression", "Expected the start of an expression, but found the end of the file.", range);
        } else {
          // An invalid token too (after the lexer's "Invalid character"), as HCL's parser.
          this.err("Invalid expression", "Expected the start of an expression, but found an invalid expression token.", range);
        }
        this.recovering = true;
        if (t.type !== "eof" && t.type !== "newline" && t.type !== "}" && t.type !== "]" && t.type !== ")" && t.type !== "seqend" && t.type !== "cquote") this.next();
        return this.invalidExpr(t.start, t.end);
      }
    }
  }

  /**
   * Parentheses. A run of opening parentheses (`((((x))))`, which terraform accepts 10,000
   * deep) is read in a loop, not by recursion: it takes one nesting step of
   * `MAX_NESTING_DEPTH` whatever its length (up to `MAX_PARENTHESES_RUN`), and directly
   * nested parentheses become one `paren` node with the outermost range (every reader of
   * the tree takes `((x))` as `(x)`), so no walk over the tree recurses per parenthesis.
   * Between two parentheses of the run an expression may continue (`((a).b + 1)`), parsed
   * as the enclosing parenthesis's content, as recursion would.
   */
  private parseParentheses(t: Token): Expression {
    this.next();
    this.enter(t);
    // Each continuation nests the tree once more (its left operand holds what came before):
    // it takes a nesting step until the run ends, as the recursion it replaces would.
    let held = 0;
    try {
      const opens: Token[] = [t];
      while (opens.length < MAX_PARENTHESES_RUN && this.withNewlines(false, () => this.peek()).type === "(") opens.push(this.withNewlines(false, () => this.next()));
      let e = this.withNewlines(false, () => this.parseExpression());
      for (let i = opens.length - 1; i >= 0; i--) {
        const open = opens[i]!;
        const after = this.peekSkippingNewlines();
        if (i < opens.length - 1 && after.type !== ")") {
          this.enter(after);
          held++;
          const left = e;
          e = this.withNewlines(false, () => this.parseExpression(left));
        }
        const close = this.peekSkippingNewlines();
        if (close.type !== ")") {
          if (!this.recovering) this.err("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", this.r(close), rangeBetween(this.r(open), this.r(close)));
          this.recoverTo(")");
          e = { kind: "paren", expr: e, range: rangeBetween(this.r(open), e.range) };
          continue;
        }
        this.next();
        e = { kind: "paren", expr: e.kind === "paren" ? e.expr : e, range: this.rr(open.start, close.end) };
      }
      return e;
    } finally {
      this.depth -= 1 + held;
    }
  }

  private parseCall(nameTok: Token): Expression {
    let name = this.text(nameTok);
    let last = nameTok;
    while (this.peekRaw().type === "::") {
      const sep = this.toks.get(this.pos++);
      const part = this.peekRaw();
      if (part.type !== "ident") {
        this.err("Missing function name", "Function scope resolution symbol :: must be followed by a function name in this scope.", this.r(part), this.rr(nameTok.start, sep.end));
        return this.invalidExpr(nameTok.start, sep.end);
      }
      this.pos++;
      name += `::${this.text(part)}`;
      last = part;
    }
    const nameRange = this.rr(nameTok.start, last.end);
    const open = this.peekRaw();
    if (open.type !== "(") {
      this.err("Function call expected", `"${name}" looks like a namespaced function name, which must be followed by an argument list in parentheses.`, this.r(open), nameRange);
      return this.invalidExpr(nameTok.start, last.end);
    }
    this.pos++;
    this.enter(open);
    try {
      return this.withNewlines(false, () => {
        const args: Expression[] = [];
        let expandFinal = false;
        let close: Token;
        for (;;) {
          const t = this.peek();
          if (t.type === ")") {
            close = this.next();
            break;
          }
          const before = this.diags.length;
          const arg = this.parseExpression();
          args.push(arg);
          if (this.recovering && this.diags.slice(before).some((d) => d.severity === "error")) {
            // As HCL: a broken argument leaves the tokens in a weird place; skip to the call's ")".
            const at = this.pos;
            this.recoverTo(")");
            close = this.toks.get(Math.max(this.pos - 1, at));
            break;
          }
          const sep = this.peek();
          if (sep.type === "...") {
            this.next();
            expandFinal = true;
            const c = this.peek();
            if (c.type !== ")") {
              this.err("Missing closing parenthesis", "An expanded function argument (with ...) must be immediately followed by closing parentheses.", this.r(c), this.rr(open.start, c.end));
              this.recoverTo(")");
              close = c;
              break;
            }
            close = this.next();
            break;
          }
          if (sep.type === ")") {
            close = this.next();
            break;
          }
          if (sep.type === ",") {
            this.next();
            continue;
          }
          if (sep.type === "eof") {
            this.err(
              "Unterminated function call",
              "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
              this.rr(nameTok.start, open.end),
            );
          } else {
            this.err("Missing argument separator", "A comma is required to separate each function argument from the next.", this.r(sep), this.rr(nameTok.start, sep.end));
          }
          this.recoverTo(")");
          close = sep;
          break;
        }
        return {
          kind: "call",
          name,
          nameRange,
          args,
          expandFinal,
          range: this.rr(nameTok.start, close.end),
          openParenRange: this.r(open),
          closeParenRange: this.r(close),
        } satisfies Expression;
      });
    } finally {
      this.depth--;
    }
  }

  /** HCL takes `for` right after `[` or `{` as the start of a for expression, whatever follows. */
  private isForStart(): boolean {
    const t = this.peek();
    return t.type === "ident" && this.text(t) === "for";
  }

  private parseTuple(): Expression {
    const open = this.next();
    this.enter(open);
    try {
      return this.withNewlines(false, () => {
        if (this.isForStart()) return this.parseFor(open, false);
        const items: Expression[] = [];
        for (;;) {
          const t = this.peek();
          if (t.type === "]") {
            this.next();
            return { kind: "tuple", items, range: this.rr(open.start, t.end) } satisfies Expression;
          }
          if (t.type === "eof") {
            this.err(
              "Unterminated tuple constructor expression",
              "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
              this.r(open),
            );
            return { kind: "tuple", items, range: this.rr(open.start, t.end) } satisfies Expression;
          }
          items.push(this.parseExpression());
          const sep = this.peek();
          if (sep.type === ",") {
            this.next();
            continue;
          }
          if (sep.type === "]") continue;
          if (sep.type === "eof") {
            this.err(
              "Unterminated tuple constructor expression",
              "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
              this.r(open),
            );
            return { kind: "tuple", items, range: this.rr(open.start, sep.end) } satisfies Expression;
          }
          this.err("Missing item separator", "Expected a comma to mark the beginning of the next item.", this.r(sep), this.rr(open.start, sep.end));
          this.recoverTo("]");
          return { kind: "tuple", items, range: this.rr(open.start, sep.end) } satisfies Expression;
        }
      });
    } finally {
      this.depth--;
    }
  }

  private parseObject(): Expression {
    const open = this.next();
    this.enter(open);
    try {
      if (this.withNewlines(false, () => this.isForStart())) return this.withNewlines(false, () => this.parseFor(open, true));
      return this.withNewlines(true, () => {
        const items: ObjectItem[] = [];
        for (;;) {
          let t = this.peek();
          while (t.type === "newline") {
            this.next();
            t = this.peek();
          }
          if (t.type === "}") {
            this.next();
            return { kind: "object", items, range: this.rr(open.start, t.end) } satisfies Expression;
          }
          if (t.type === "eof") {
            this.err(
              "Unterminated object constructor expression",
              "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
              this.r(open),
            );
            return { kind: "object", items, range: this.rr(open.start, t.end) } satisfies Expression;
          }
          const key = this.withNewlines(false, () => this.parseObjectKey());
          const eq = this.peek();
          if (eq.type !== "=" && eq.type !== ":") {
            if (eq.type === "," || eq.type === "newline") {
              this.err("Missing attribute value", 'Expected an attribute value, introduced by an equals sign ("=").', this.r(eq), this.rr(open.start, eq.end));
            } else if (eq.type === "ident") {
              this.err(
                "Missing key/value separator",
                'Expected an equals sign ("=") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.',
                this.r(eq),
                this.rr(open.start, eq.end),
              );
            } else if (eq.type === "eof") {
              this.err(
                "Unterminated object constructor expression",
                "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                this.r(open),
              );
            } else {
              this.err("Missing key/value separator", 'Expected an equals sign ("=") to mark the beginning of the attribute value.', this.r(eq), rangeBetween(key.expr.range, this.r(eq)));
            }
            this.recoverTo("}");
            return { kind: "object", items, range: this.rr(open.start, eq.end) } satisfies Expression;
          }
          this.next();
          const value = this.withNewlines(true, () => this.parseExpression());
          items.push({ key: key.expr, keyIsIdent: key.isIdent, value });
          const sep = this.peek();
          if (sep.type === "," || sep.type === "newline") {
            this.next();
            continue;
          }
          if (sep.type === "}") continue;
          if (sep.type === "eof") {
            this.err(
              "Unterminated object constructor expression",
              "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
              this.r(open),
            );
            return { kind: "object", items, range: this.rr(open.start, sep.end) } satisfies Expression;
          }
          this.err("Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", this.r(sep), this.rr(open.start, sep.end));
          this.recoverTo("}");
          return { kind: "object", items, range: this.rr(open.start, sep.end) } satisfies Expression;
        }
      });
    } finally {
      this.depth--;
    }
  }

  /** An object key: a bare name is a literal string; anything else (or a name in parentheses) is an expression. */
  private parseObjectKey(): { expr: Expression; isIdent: boolean } {
    const first = this.peek();
    const startPos = this.pos;
    const expr = this.parseExpression();
    if (expr.kind === "traversal" && expr.traversal.steps.length === 0) return { expr, isIdent: true };
    // The keywords true, false and null are names here too, as HCL takes them.
    if (first.type === "ident" && this.pos === startPos + 1 && expr.kind === "literal") {
      const name = this.text(first);
      const traversal: Traversal = { root: name, rootRange: this.r(first), steps: [], range: this.r(first) };
      return { expr: { kind: "traversal", traversal, range: this.r(first) }, isIdent: true };
    }
    return { expr, isIdent: false };
  }

  private parseFor(open: Token, isObject: boolean): Expression {
    this.next(); // "for"
    const closeType: TokenType = isObject ? "}" : "]";
    const fail = (t: Token, summary: string, detail: string): Expression => {
      this.err(summary, detail, this.r(t), this.rr(open.start, t.end));
      this.recoverTo(closeType);
      return this.invalidExpr(open.start, t.end);
    };
    const v1 = this.next();
    if (v1.type !== "ident") return fail(v1, "Invalid 'for' expression", "For expression requires variable name after 'for'.");
    let keyVar: string | undefined;
    let valueVar = this.text(v1);
    if (this.peek().type === ",") {
      this.next();
      const v2 = this.next();
      if (v2.type !== "ident") return fail(v2, "Invalid 'for' expression", "For expression requires value variable name after comma.");
      keyVar = valueVar;
      valueVar = this.text(v2);
    }
    const inTok = this.next();
    if (inTok.type !== "ident" || this.text(inTok) !== "in") return fail(inTok, "Invalid 'for' expression", "For expression requires the 'in' keyword after its name declarations.");
    const coll = this.parseExpression();
    const colon = this.next();
    if (colon.type !== ":") return fail(colon, "Invalid 'for' expression", "For expression requires a colon after the collection expression.");
    let keyExpr: Expression | undefined;
    let valueExpr = this.parseExpression();
    let group = false;
    if (isObject) {
      const arrow = this.next();
      if (arrow.type !== "=>") return fail(arrow, "Invalid 'for' expression", "Key expression is required when building an object.");
      keyExpr = valueExpr;
      valueExpr = this.parseExpression();
      if (this.peek().type === "...") {
        this.next();
        group = true;
      }
    }
    let cond: Expression | undefined;
    const t = this.peek();
    if (t.type === "ident" && this.text(t) === "if") {
      this.next();
      cond = this.parseExpression();
    }
    const close = this.next();
    if (close.type !== closeType) {
      if (!isObject && close.type === "=>") return fail(close, "Invalid 'for' expression", "Key expression is not valid when building a tuple.");
      if (!isObject && close.type === "...") return fail(close, "Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.");
      return fail(close, "Invalid 'for' expression", `Extra characters after the end of the 'for' expression.`);
    }
    return {
      kind: "for",
      keyVar,
      valueVar,
      coll,
      keyExpr,
      valueExpr,
      cond,
      group,
      range: this.rr(open.start, close.end),
      openRange: this.r(open),
    };
  }

  // ----- templates -----------------------------------------------------------------

  private parseQuotedTemplate(): Expression {
    const open = this.next();
    return this.withNewlines(true, () => {
      const { items, end, unwrap } = this.parseTemplateItems(["cquote"]);
      let close = end;
      if (end.type !== "cquote") {
        // As HCL: reported unless recovering, and recovering after.
        if (!this.recovering) this.err("Unterminated template string", "No closing marker was found for the string.", this.r(end), this.rr(open.start, end.end));
        this.recovering = true;
        close = end;
      } else {
        this.pos++;
      }
      const range = this.rr(open.start, close.end);
      return this.buildTemplate(items, range, unwrap, close.start, close.end);
    });
  }

  private parseHeredoc(): Expression {
    const open = this.next();
    return this.withNewlines(true, () => {
      const { items, end } = this.parseTemplateItems(["cheredoc"]);
      if (end.type === "cheredoc") this.pos++;
      else {
        if (!this.recovering) this.err("Unterminated template string", "No closing marker was found for the string.", this.r(end), this.rr(open.start, end.end));
        this.recovering = true;
      }
      if (open.flush === true) flushHeredoc(items);
      return this.buildTemplate(items, this.rr(open.start, end.end), false, end.start, end.end);
    });
  }

  /** A whole bare template (templatefile, JSON strings). */
  parseWholeTemplate(): Expression {
    return this.guard(
      () =>
        this.withNewlines(true, () => {
          const { items, end, unwrap } = this.parseTemplateItems(["eof"]);
          return this.buildTemplate(items, this.rr(0, end.end), unwrap, end.start);
        }),
      () => this.invalidExpr(0, this.src.text.length),
    );
  }

  private parseTemplateItems(ends: TokenType[]): { items: FlatItem[]; end: Token; unwrap: boolean } {
    const items: FlatItem[] = [];
    let end: Token;
    for (;;) {
      const t = this.toks.get(this.pos);
      if (ends.includes(t.type)) {
        end = t;
        break;
      }
      if (t.type === "lit") {
        this.pos++;
        const prev = this.pos >= 2 ? this.toks.get(this.pos - 2) : undefined;
        const lineStart = prev === undefined || prev.type === "oheredoc" || (prev.type === "lit" && (prev.value ?? "").endsWith("\n"));
        items.push({ kind: "lit", value: t.value ?? "", range: this.r(t), start: t.start, lineStart });
        continue;
      }
      if (t.type === "interp") {
        this.pos++;
        this.enter(t);
        const expr = this.withNewlines(false, () => this.parseExpression());
        const close = this.peekSkippingNewlines();
        let stripR = false;
        if (close.type !== "seqend") {
          // As HCL: nothing more is said once the parser is recovering.
          if (this.recovering) {
            // Nothing more to say.
          } else if (close.type === "eof") {
            this.err(
              "Unclosed template interpolation sequence",
              "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
              this.r(t),
            );
          } else if (close.type === ":") {
            this.err(
              "Extra characters after interpolation expression",
              'Template interpolation doesn\'t expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with "$${" instead of just "${".',
              this.r(close),
              this.rr(t.start, close.end),
            );
          } else if ((close.type === "cquote" || close.type === "oquote") && ends.includes("cquote")) {
            this.err(
              "Unclosed template interpolation sequence",
              "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
              this.r(t),
            );
          } else {
            this.err(
              "Extra characters after interpolation expression",
              'Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${".',
              this.r(close),
              this.rr(t.start, close.end),
            );
          }
          this.recovering = true;
          this.recoverToSeqEnd();
        } else {
          stripR = close.strip === true;
          this.pos++;
        }
        this.depth--;
        items.push({ kind: "interp", expr, range: this.rr(t.start, close.end), stripL: t.strip === true, stripR });
        continue;
      }
      if (t.type === "control") {
        this.pos++;
        this.enter(t);
        const item = this.withNewlines(false, () => this.parseDirective(t));
        this.depth--;
        if (item !== undefined) items.push(item);
        continue;
      }
      // Anything else ends the template (an unterminated string, or an unexpected token).
      end = t;
      break;
    }
    applyStrip(items);
    const unwrap = items.length === 1 && items[0]!.kind === "interp";
    return { items, end, unwrap };
  }

  private recoverToSeqEnd(): void {
    for (;;) {
      const t = this.toks.get(this.pos);
      if (t.type === "eof" || t.type === "cquote" || t.type === "cheredoc") return;
      this.pos++;
      if (t.type === "seqend") return;
    }
  }

  private parseDirective(open: Token): FlatItem | undefined {
    const kw = this.peek();
    if (kw.type !== "ident") {
      this.err(
        "Invalid template directive",
        'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.',
        this.r(kw),
        this.rr(open.start, kw.end),
      );
      this.recoverToSeqEnd();
      return undefined;
    }
    this.next();
    const word = this.text(kw);
    const finish = (): { stripR: boolean; end: Token } | undefined => {
      const close = this.peek();
      if (close.type !== "seqend") {
        this.err(`Extra characters in ${word} marker`, "Expected a closing brace to end the sequence, but found extra characters.", this.r(close), this.rr(open.start, close.end));
        this.recoverToSeqEnd();
        return undefined;
      }
      this.next();
      return { stripR: close.strip === true, end: close };
    };
    const stripL = open.strip === true;
    switch (word) {
      case "if": {
        const cond = this.parseExpression();
        const f = finish();
        if (f === undefined) return undefined;
        return { kind: "dir", word, cond, range: this.rr(open.start, f.end.end), stripL, stripR: f.stripR };
      }
      case "else":
      case "endif":
      case "endfor": {
        const f = finish();
        if (f === undefined) return undefined;
        return { kind: "dir", word, range: this.rr(open.start, f.end.end), stripL, stripR: f.stripR };
      }
      case "for": {
        const v1 = this.next();
        if (v1.type !== "ident") {
          this.err("Invalid 'for' directive", "For directive requires variable name after 'for'.", this.r(v1));
          this.recoverToSeqEnd();
          return undefined;
        }
        let keyVar: string | undefined;
        let valueVar = this.text(v1);
        if (this.peek().type === ",") {
          this.next();
          const v2 = this.next();
          if (v2.type !== "ident") {
            this.err("Invalid 'for' directive", "For directive requires value variable name after comma.", this.r(v2));
            this.recoverToSeqEnd();
            return undefined;
          }
          keyVar = valueVar;
          valueVar = this.text(v2);
        }
        const inTok = this.next();
        if (inTok.type !== "ident" || this.text(inTok) !== "in") {
          this.err("Invalid 'for' directive", "For directive requires 'in' keyword after names.", this.r(inTok));
          this.recoverToSeqEnd();
          return undefined;
        }
        const coll = this.parseExpression();
        const f = finish();
        if (f === undefined) return undefined;
        return { kind: "dir", word, coll, valueVar, ...(keyVar !== undefined ? { keyVar } : {}), range: this.rr(open.start, f.end.end), stripL, stripR: f.stripR };
      }
      default: {
        const suggestion = nameSuggestion(word, ["if", "for", "else", "endif", "endfor"]);
        this.err(
          "Invalid template control keyword",
          `"${word}" is not a valid template control keyword.${suggestion === undefined ? "" : ` Did you mean "${suggestion}"?`}`,
          this.r(kw),
          this.rr(open.start, kw.end),
        );
        this.recoverToSeqEnd();
        return undefined;
      }
    }
  }

  private buildTemplate(items: FlatItem[], range: SourceRange, unwrap: boolean, endOffset: number, endEnd = endOffset): Expression {
    if (unwrap && items[0]!.kind === "interp") return { kind: "templateWrap", expr: items[0]!.expr, range };
    // HCL's templateEndToken: the range of the template's closing marker.
    const endRange: SourceRange = this.rr(endOffset, endEnd);
    let i = 0;
    const build = (stopAt: readonly string[], nesting: number): { parts: TemplatePart[]; stop: FlatItem | undefined } => {
      const parts: TemplatePart[] = [];
      while (i < items.length) {
        const it = items[i]!;
        if (it.kind === "lit") {
          if (it.value !== "") parts.push({ kind: "lit", value: it.value, range: it.range });
          i++;
          continue;
        }
        if (it.kind === "interp") {
          parts.push({ kind: "interp", expr: it.expr, range: it.range });
          i++;
          continue;
        }
        if (stopAt.includes(it.word)) return { parts, stop: it };
        i++;
        // Directives nest in the tree as deep as they are written: they count towards the
        // nesting limit like brackets do (the flat items were parsed one level deep each).
        if ((it.word === "if" || it.word === "for") && this.depth + 2 * nesting >= MAX_NESTING_DEPTH) {
          this.err("Nesting too deep", `The configuration nests expressions, blocks or templates more than ${MAX_NESTING_DEPTH / 2} levels deep here.`, it.range);
          throw new TooDeep();
        }
        if (it.word === "if") {
          const thenR = build(["else", "endif", "endfor"], nesting + 1);
          let elseParts: TemplatePart[] = [];
          let endItem = thenR.stop;
          if (thenR.stop?.kind === "dir" && thenR.stop.word === "else") {
            i++;
            const elseR = build(["else", "endif", "endfor"], nesting + 1);
            elseParts = elseR.parts;
            endItem = elseR.stop;
            if (endItem?.kind === "dir" && endItem.word === "else") {
              this.err("Unexpected else directive", `Already in the else clause for the if started at ${formatRange(it.range)}.`, endItem.range);
            }
          }
          if (endItem === undefined) {
            this.err("Unexpected end of template", `The if directive at ${formatRange(it.range)} is missing its corresponding endif directive.`, endRange);
          } else {
            if (endItem.kind === "dir" && endItem.word === "endfor") {
              this.err("Unexpected endfor directive", `Expecting an endif directive for the if started at ${formatRange(it.range)}.`, endItem.range);
            }
            i++;
          }
          parts.push({ kind: "if", cond: it.cond!, then: thenR.parts, else: elseParts, range: endItem === undefined ? it.range : rangeBetween(it.range, endItem.range) });
          continue;
        }
        if (it.word === "for") {
          const bodyR = build(["endfor", "else", "endif"], nesting + 1);
          if (bodyR.stop === undefined) {
            this.err("Unexpected end of template", `The for directive at ${formatRange(it.range)} is missing its corresponding endfor directive.`, endRange);
          } else {
            if (bodyR.stop.kind === "dir" && bodyR.stop.word === "else") {
              this.err("Unexpected else directive", "An else clause is not expected for a for directive.", bodyR.stop.range);
            } else if (bodyR.stop.kind === "dir" && bodyR.stop.word === "endif") {
              this.err("Unexpected endif directive", `Expecting an endfor directive corresponding to the for directive at ${formatRange(it.range)}.`, bodyR.stop.range);
            }
            i++;
          }
          parts.push({
            kind: "for",
            keyVar: it.keyVar,
            valueVar: it.valueVar!,
            coll: it.coll!,
            body: bodyR.parts,
            range: bodyR.stop === undefined ? it.range : rangeBetween(it.range, bodyR.stop.range),
          });
          continue;
        }
        // else/endif/endfor with no opener here
        this.err(`Unexpected ${it.word} directive`, "The control directives within this template are unbalanced.", it.range);
      }
      return { parts, stop: undefined };
    };
    const { parts } = build([], 0);
    return { kind: "template", parts, range };
  }
}

/** The literal key of an index expression, when it is a literal (`[0]`, `["k"]`). */
function staticKey(e: Expression): Value | undefined {
  if (e.kind === "literal") return e.value.isNull() ? undefined : e.value;
  if (e.kind === "template" && e.parts.every((p) => p.kind === "lit")) return stringVal(e.parts.map((p) => (p as { value: string }).value).join(""));
  return undefined;
}

function isSpace(c: string): boolean {
  return /\s/u.test(c);
}

function trimRight(s: string): string {
  let e = s.length;
  while (e > 0 && isSpace(s[e - 1]!)) e--;
  return s.slice(0, e);
}

function trimLeft(s: string): string {
  let b = 0;
  while (b < s.length && isSpace(s[b]!)) b++;
  return s.slice(b);
}

/** Applies `~` strip markers to the literals beside them. */
function applyStrip(items: FlatItem[]): void {
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.kind === "lit") continue;
    if (it.stripL) {
      const prev = items[k - 1];
      if (prev?.kind === "lit") prev.value = trimRight(prev.value);
    }
    if (it.stripR) {
      const next = items[k + 1];
      if (next?.kind === "lit") next.value = trimLeft(next.value);
    }
  }
}

/** Removes the common leading whitespace of a `<<-` heredoc's lines. */
function flushHeredoc(items: FlatItem[]): void {
  let min = Infinity;
  let newline = true;
  const adjust: (FlatItem & { kind: "lit" })[] = [];
  for (const it of items) {
    if (newline) {
      newline = false;
      let spaces: number;
      if (it.kind === "lit") {
        const trimmed = trimLeft(it.value);
        if (trimmed.length === 0 && it.value.endsWith("\n")) {
          spaces = Infinity;
        } else {
          // Whitespace characters are single UTF-16 units, so the prefix length counts them.
          spaces = it.value.length - trimmed.length;
          adjust.push(it);
        }
      } else {
        spaces = 0;
      }
      if (spaces < min) min = spaces;
    }
    if (it.kind === "lit" && it.value.endsWith("\n")) newline = true;
  }
  if (!Number.isFinite(min)) return;
  for (const it of adjust) it.value = it.value.slice(min);
}

export type { SourcePos };
