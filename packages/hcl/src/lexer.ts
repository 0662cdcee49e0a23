import { errorDiag, type Diagnostic } from "./diagnostic.js";
import type { SourceMap } from "./source-range.js";
import { INVALID_ENCODING } from "./decode-source.js";

/** Token kinds of HCL's native syntax (hclsyntax's `TokenType`). */
export type TokenType =
  | "ident"
  | "number"
  | "oquote"
  | "cquote"
  | "oheredoc"
  | "cheredoc"
  | "lit" // a literal piece of a template (value decoded)
  | "interp" // ${
  | "control" // %{
  | "seqend" // } closing ${ or %{
  | "{"
  | "}"
  | "["
  | "]"
  | "("
  | ")"
  | ","
  | "."
  | "..."
  | ":"
  | "::"
  | "?"
  | "="
  | "=>"
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "&&"
  | "||"
  | "!"
  | "=="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "newline"
  | "invalid"
  | "eof";

/** One token; `start`/`end` are UTF-16 offsets into the source text. */
export interface Token {
  readonly type: TokenType;
  readonly start: number;
  readonly end: number;
  /** Decoded text of a `lit` token; the marker of a heredoc token. */
  readonly value: string | undefined;
  /** A `~` strip marker: after `${`/`%{` (interp/control) or before `}` (seqend). */
  readonly strip: boolean | undefined;
  /** `oheredoc`: the heredoc is the flush (`<<-`) form. */
  readonly flush: boolean | undefined;
}

const TYPES: readonly TokenType[] = [
  "ident", "number", "oquote", "cquote", "oheredoc", "cheredoc", "lit", "interp", "control", "seqend", "{", "}", "[", "]", "(", ")", ",", ".",
  "...", ":", "::", "?", "=", "=>", "+", "-", "*", "/", "%", "&&", "||", "!", "==", "!=", "<", "<=", ">", ">=", "newline", "invalid", "eof",
];
const TYPE_CODE = Object.fromEntries(TYPES.map((t, i) => [t, i])) as Record<TokenType, number>;

/**
 * The tokens of a text, kept in typed arrays (a large file has hundreds of thousands of
 * tokens; as objects they would cost the garbage collector more than the parse). `get`
 * makes a short-lived {@link Token} view.
 */
export class TokenList {
  private types = new Uint8Array(1024);
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private flags = new Uint8Array(1024);
  private readonly values: (string | undefined)[] = [];
  /** The number of tokens (the last is `eof`). */
  count = 0;
  private cacheIndex = -1;
  private cacheToken: Token | undefined;
  private cacheIndex2 = -1;
  private cacheToken2: Token | undefined;

  /** @internal */
  push(type: TokenType, start: number, end: number, value?: string, strip?: boolean, flush?: boolean): void {
    const i = this.count;
    if (i === this.types.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.types = grow(this.types);
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
      this.flags = grow(this.flags);
    }
    this.types[i] = TYPE_CODE[type];
    this.starts[i] = start;
    this.ends[i] = end;
    this.flags[i] = (strip === true ? 1 : 0) | (flush === true ? 2 : 0);
    if (value !== undefined) this.values[i] = value;
    this.count++;
  }

  /** The type of token `i` (`eof` past the end). */
  type(i: number): TokenType {
    return TYPES[this.types[Math.min(i, this.count - 1)]!]!;
  }

  /** Token `i` (the final `eof` past the end, `undefined` before the start). */
  get(i: number): Token {
    if (i >= this.count) i = this.count - 1;
    if (i === this.cacheIndex) return this.cacheToken!;
    if (i === this.cacheIndex2) return this.cacheToken2!;
    const f = this.flags[i]!;
    const t: Token = {
      type: TYPES[this.types[i]!]!,
      start: this.starts[i]!,
      end: this.ends[i]!,
      value: this.values[i],
      strip: (f & 1) !== 0 ? true : undefined,
      flush: (f & 2) !== 0 ? true : undefined,
    };
    this.cacheIndex2 = this.cacheIndex;
    this.cacheToken2 = this.cacheToken;
    this.cacheIndex = i;
    this.cacheToken = t;
    return t;
  }
}

/** Where the lexer starts: in an expression/config body, or inside a bare template. */
export type LexMode = "normal" | "template";

type Frame =
  | { kind: "normal"; braces: number }
  | { kind: "interp"; braces: number }
  | { kind: "quoted" }
  | { kind: "heredoc"; marker: string }
  | { kind: "template" };

const IDENT_START = /[\p{ID_Start}_]/u;
const IDENT_CONT = /[\p{ID_Continue}\-]/u;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Scans source text into tokens (the whole file at once, as hclsyntax does). Invalid input
 * gives `invalid` tokens and diagnostics, never an exception.
 */
export function lex(src: SourceMap, mode: LexMode): { tokens: TokenList; diags: Diagnostic[] } {
  const text = src.text;
  const n = text.length;
  const tokens = new TokenList();
  const diags: Diagnostic[] = [];
  const stack: Frame[] = [mode === "normal" ? { kind: "normal", braces: 0 } : { kind: "template" }];
  // A UTF-8 byte order mark at the start of a file is skipped, as HCL does.
  let i = mode === "normal" && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Every token has the same shape (one hidden class for the engine).
  const push = (type: TokenType, start: number, end: number, value?: string, strip?: boolean, flush?: boolean): void => {
    tokens.push(type, start, end, value, strip, flush);
  };

  while (i < n) {
    const top = stack[stack.length - 1]!;
    if (top.kind === "quoted" || top.kind === "heredoc" || top.kind === "template") {
      i = lexTemplateText(top);
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === INVALID_ENCODING_CODE) {
      diags.push(invalidEncodingDiag(src, i));
      push("invalid", i, i + 1);
      i++;
      continue;
    }
    // Whitespace
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    if (c === 13 && text.charCodeAt(i + 1) === 10) {
      push("newline", i, i + 2);
      i += 2;
      continue;
    }
    if (c === 10) {
      push("newline", i, i + 1);
      i++;
      continue;
    }
    // Comments
    if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      let j = i;
      while (j < n && text.charCodeAt(j) !== 10) j++;
      if (j < n) {
        const nlStart = text.charCodeAt(j - 1) === 13 ? j - 1 : j;
        push("newline", nlStart, j + 1);
        j++;
      }
      i = j;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) {
        diags.push(errorDiag("Unterminated comment", "There is no closing marker for this multi-line comment.", src.range(i, i + 2)));
        i = n;
      } else {
        i = close + 2;
      }
      continue;
    }
    if (isDigit(c)) {
      let j = i;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === 46 && isDigit(text.charCodeAt(j + 1))) {
        j++;
        while (j < n && isDigit(text.charCodeAt(j))) j++;
      }
      const e = text.charCodeAt(j);
      if (e === 101 || e === 69) {
        let k = j + 1;
        const s = text.charCodeAt(k);
        if (s === 43 || s === 45) k++;
        if (isDigit(text.charCodeAt(k))) {
          while (k < n && isDigit(text.charCodeAt(k))) k++;
          j = k;
        }
      }
      push("number", i, j);
      i = j;
      continue;
    }
    const ch = c < 128 ? "" : String.fromCodePoint(text.codePointAt(i)!);
    if (c < 128 ? (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 : IDENT_START.test(ch)) {
      let j = i + (c < 128 ? 1 : ch.length);
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 65 && d <= 90) || (d >= 97 && d <= 122) || d === 95 || d === 45 || isDigit(d)) {
          j++;
          continue;
        }
        if (d < 128) break;
        const dc = String.fromCodePoint(text.codePointAt(j)!);
        if (!IDENT_CONT.test(dc)) break;
        j += dc.length;
      }
      push("ident", i, j);
      i = j;
      continue;
    }
    const c2 = text.charCodeAt(i + 1);
    switch (c) {
      case 34: // "
        push("oquote", i, i + 1);
        stack.push({ kind: "quoted" });
        i++;
        continue;
      case 60: // <
        if (c2 === 60) {
          const m = /^<<(-?)([\p{ID_Start}_][\p{ID_Continue}-]*)(\r?\n)/u.exec(text.slice(i, i + 300));
          if (m !== null) {
            push("oheredoc", i, i + m[0].length, m[2]!, false, m[1] === "-");
            stack.push({ kind: "heredoc", marker: m[2]! });
            i += m[0].length;
            continue;
          }
          push("invalid", i, i + 2);
          diags.push(
            errorDiag(
              "Invalid character",
              'This character is not used within the language. A heredoc must begin with "<<" or "<<-" followed by an identifier and a newline.',
              src.range(i, i + 2),
            ),
          );
          i += 2;
          continue;
        }
        if (c2 === 61) {
          push("<=", i, i + 2);
          i += 2;
        } else {
          push("<", i, i + 1);
          i++;
        }
        continue;
      case 62: // >
        if (c2 === 61) {
          push(">=", i, i + 2);
          i += 2;
        } else {
          push(">", i, i + 1);
          i++;
        }
        continue;
      case 61: // =
        if (c2 === 61) {
          push("==", i, i + 2);
          i += 2;
        } else if (c2 === 62) {
          push("=>", i, i + 2);
          i += 2;
        } else {
          push("=", i, i + 1);
          i++;
        }
        continue;
      case 33: // !
        if (c2 === 61) {
          push("!=", i, i + 2);
          i += 2;
        } else {
          push("!", i, i + 1);
          i++;
        }
        continue;
      case 38: // &
        if (c2 === 38) {
          push("&&", i, i + 2);
          i += 2;
          continue;
        }
        unsupported(i, 1, 'Bitwise operators are not supported. Did you mean boolean AND ("&&")?');
        continue;
      case 124: // |
        if (c2 === 124) {
          push("||", i, i + 2);
          i += 2;
          continue;
        }
        unsupported(i, 1, 'Bitwise operators are not supported. Did you mean boolean OR ("||")?');
        continue;
      case 94: // ^
        unsupported(i, 1, "Bitwise operators are not supported.");
        continue;
      case 46: // .
        if (c2 === 46 && text.charCodeAt(i + 2) === 46) {
          push("...", i, i + 3);
          i += 3;
        } else {
          push(".", i, i + 1);
          i++;
        }
        continue;
      case 58: // :
        if (c2 === 58) {
          push("::", i, i + 2);
          i += 2;
        } else {
          push(":", i, i + 1);
          i++;
        }
        continue;
      case 123: // {
        (top as { braces: number }).braces++;
        push("{", i, i + 1);
        i++;
        continue;
      case 125: // }
        if (top.kind === "interp" && top.braces === 0) {
          push("seqend", i, i + 1);
          stack.pop();
          i++;
          continue;
        }
        if (top.braces > 0) top.braces--;
        push("}", i, i + 1);
        i++;
        continue;
      case 126: // ~
        if (c2 === 125 && top.kind === "interp" && top.braces === 0) {
          push("seqend", i, i + 2, undefined, true);
          stack.pop();
          i += 2;
          continue;
        }
        unsupported(i, 1, 'Bitwise operators are not supported. Did you mean boolean NOT ("!")?');
        continue;
      case 42: // * (terraform 1.11's HCL has no "**" token: "1 ** 2" is a missing operand)
        push("*", i, i + 1);
        i++;
        continue;
      case 91:
      case 93:
      case 40:
      case 41:
      case 44:
      case 63:
      case 43:
      case 45:
      case 47:
      case 37:
        push(String.fromCharCode(c) as TokenType, i, i + 1);
        i++;
        continue;
      default:
        break;
    }
    // Anything else is not part of the language.
    const len = c < 128 ? 1 : ch.length;
    push("invalid", i, i + len);
    diags.push(invalidCharDiag(src, i, i + len, c));
    i += len;
  }
  // Unclosed strings and heredocs are reported by the parser, which finds the end of file inside them.
  push("eof", n, n);
  return { tokens, diags };

  function unsupported(at: number, len: number, detail: string): void {
    push("invalid", at, at + len);
    diags.push(errorDiag("Unsupported operator", detail, src.range(at, at + len)));
    i = at + len;
  }

  /** Scans literal text and template sequence starts until the frame ends or changes. */
  function lexTemplateText(top: Frame & { kind: "quoted" | "heredoc" | "template" }): number {
    let j = i;
    let buf = "";
    let litStart = i;
    // Text since the last escape is added to `buf` as one slice, not character by character.
    let seg = i;
    const take = (): void => {
      if (j > seg) buf += text.slice(seg, j);
    };
    const flush = (end: number): void => {
      take();
      if (end > litStart || buf !== "") push("lit", litStart, end, buf);
      buf = "";
      seg = end;
    };
    if (top.kind === "heredoc" && atLineStart(j)) {
      const close = closingMarker(j, top.marker);
      if (close !== undefined) {
        push("cheredoc", j, close);
        stack.pop();
        return close;
      }
    }
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 36 /* $ */ || c === 37 /* % */) {
        const next = text.charCodeAt(j + 1);
        if (next === c && text.charCodeAt(j + 2) === 123) {
          // $${ or %%{: a literal ${ or %{
          take();
          buf += c === 36 ? "${" : "%{";
          j += 3;
          seg = j;
          continue;
        }
        if (next === 123) {
          flush(j);
          const strip = text.charCodeAt(j + 2) === 126;
          const end = j + (strip ? 3 : 2);
          push(c === 36 ? "interp" : "control", j, end, undefined, strip);
          stack.push({ kind: "interp", braces: 0 });
          return end;
        }
        j++;
        continue;
      }
      if (c === INVALID_ENCODING_CODE) {
        diags.push(invalidEncodingDiag(src, j));
        if (top.kind === "quoted") {
          // HCL ends the quoted string at a byte that is not UTF-8: the string is then
          // unterminated. The rest of the line up to a closing quote is skipped.
          flush(j);
          diags.push(errorDiag("Unterminated template string", "No closing marker was found for the string.", src.range(j, j + 1)));
          let k = j + 1;
          while (k < n && text.charCodeAt(k) !== 34 && text.charCodeAt(k) !== 10) k++;
          stack.pop();
          if (k < n && text.charCodeAt(k) === 34) {
            push("cquote", k, k + 1);
            return k + 1;
          }
          push("cquote", k, k);
          return k;
        }
        take();
        j++;
        seg = j;
        continue;
      }
      if (top.kind === "quoted") {
        if (c === 34) {
          flush(j);
          push("cquote", j, j + 1);
          stack.pop();
          return j + 1;
        }
        if (c === 10 || (c === 13 && text.charCodeAt(j + 1) === 10)) {
          // A newline ends the quoted string with an error.
          flush(j);
          diags.push(
            errorDiag(
              "Invalid multi-line string",
              'Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the "heredoc" multi-line template syntax.',
              src.range(j, j + (c === 13 ? 2 : 1)),
            ),
          );
          stack.pop();
          return j;
        }
        if (c === 92 /* \ */) {
          take();
          const r = escape(j);
          buf += r.text;
          j = r.end;
          seg = j;
          continue;
        }
        j++;
        continue;
      }
      j++;
      if (c === 10 && top.kind !== "template") {
        // Heredoc literals are split at line ends (for `<<-` indentation and closing markers).
        flush(j);
        litStart = j;
        if (top.kind === "heredoc") {
          const close = closingMarker(j, top.marker);
          if (close !== undefined) {
            push("cheredoc", j, close);
            stack.pop();
            return close;
          }
        }
      }
    }
    flush(j);
    return j;
  }

  function atLineStart(j: number): boolean {
    return j === 0 || text.charCodeAt(j - 1) === 10;
  }

  /** If a heredoc closing marker line starts at `j`, its end (before the newline). */
  function closingMarker(j: number, marker: string): number | undefined {
    let k = j;
    while (k < n && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
    if (!text.startsWith(marker, k)) return undefined;
    const e = k + marker.length;
    if (e === n || text.charCodeAt(e) === 10 || (text.charCodeAt(e) === 13 && text.charCodeAt(e + 1) === 10)) return e;
    return undefined;
  }

  function escape(j: number): { text: string; end: number } {
    const e = text[j + 1];
    switch (e) {
      case "n":
        return { text: "\n", end: j + 2 };
      case "r":
        return { text: "\r", end: j + 2 };
      case "t":
        return { text: "\t", end: j + 2 };
      case '"':
        return { text: '"', end: j + 2 };
      case "\\":
        return { text: "\\", end: j + 2 };
      case "u":
      case "U": {
        const len = e === "u" ? 4 : 8;
        const hex = text.slice(j + 2, j + 2 + len);
        if (hex.length === len && /^[0-9a-fA-F]+$/.test(hex)) {
          const code = parseInt(hex, 16);
          if (code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) return { text: String.fromCodePoint(code), end: j + 2 + len };
        }
        let k = j + 2;
        while (k < j + 2 + len && /[0-9a-fA-F]/.test(text[k] ?? "")) k++;
        diags.push(
          errorDiag(
            "Invalid escape sequence",
            `The \\${e} escape sequence must be followed by ${len === 4 ? "four" : "eight"} hexadecimal digits.`,
            src.range(j, k),
          ),
        );
        return { text: "", end: k };
      }
      default: {
        if (e === undefined || e === "\n" || e === "\r") {
          return { text: "\\", end: j + 1 };
        }
        const len = String.fromCodePoint(text.codePointAt(j + 1)!).length;
        diags.push(
          errorDiag(
            "Invalid escape sequence",
            `The symbol ${JSON.stringify(text.slice(j + 1, j + 1 + len))} is not a valid escape sequence selector.`,
            src.range(j, j + 1 + len),
          ),
        );
        return { text: text.slice(j + 1, j + 1 + len), end: j + 1 + len };
      }
    }
  }
}

/** The code unit {@link decodeSource} puts in place of a byte that is not UTF-8. */
const INVALID_ENCODING_CODE = INVALID_ENCODING.charCodeAt(0);

function invalidEncodingDiag(src: SourceMap, at: number): Diagnostic {
  return errorDiag("Invalid character encoding", "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.", src.range(at, at + 1));
}

function invalidCharDiag(src: SourceMap, start: number, end: number, c: number): Diagnostic {
  let detail = "This character is not used within the language.";
  if (c === 39) detail = 'Single quotes are not valid. Use double quotes (") to enclose strings.';
  else if (c === 96) detail = 'The "`" character is not valid. To create a multi-line string, use the "heredoc" syntax, like "<<EOT".';
  else if (c === 59) detail = 'The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.';
  return errorDiag("Invalid character", detail, src.range(start, end));
}
