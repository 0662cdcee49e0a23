import type { Value } from "@magma/cty";

/** The token kinds a constant value's HCL text is made of (a subset of hclsyntax's). */
type TokenKind = "ident" | "number" | "oquote" | "quoted" | "cquote" | "obrack" | "cbrack" | "obrace" | "cbrace" | "comma" | "equal" | "newline" | "nil";

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  spaces: number;
}

const IDENT = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}-]*$/u;

/** Whether `s` is a valid HCL identifier (hclsyntax.ValidIdentifier). @internal */
export function isHclIdentifier(s: string): boolean {
  return IDENT.test(s);
}

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** A string's quoted-literal text as hclwrite escapes it (templates' `${`/`%{` doubled, unprintable runes as `\u`/`\U`). */
function escapeQuoted(s: string): string {
  let out = "";
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    switch (c) {
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "$":
      case "%":
        out += c;
        if (chars[i + 1] === "{") out += c;
        break;
      default:
        if (PRINTABLE.test(c)) out += c;
        else {
          const cp = c.codePointAt(0)!;
          out += cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\U${cp.toString(16).padStart(8, "0")}`;
        }
    }
  }
  return out;
}

/** Code point (UTF-8 byte) order, go-cty's order of map keys and attribute names. @internal */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The entries of a known map or object, keys in code point order. @internal */
export function sortedEntries(v: Value): [string, Value][] {
  const entries = v.type.kind === "map" ? [...v.entries()] : Object.entries(v.attributes());
  return entries.sort(([a], [b]) => compareCodePoints(a, b));
}

const tok = (kind: TokenKind, text: string): Token => ({ kind, text, spaces: 0 });

function appendString(s: string, out: Token[]): void {
  out.push(tok("oquote", '"'));
  const e = escapeQuoted(s);
  if (e !== "") out.push(tok("quoted", e));
  out.push(tok("cquote", '"'));
}

/** hclwrite's appendTokensForValue: a wholly known value's tokens, unspaced. */
function appendValue(v: Value, out: Token[]): void {
  if (!v.isKnown()) throw new Error("cannot produce tokens for unknown value");
  if (v.isNull()) {
    out.push(tok("ident", "null"));
    return;
  }
  const t = v.type;
  switch (t.kind) {
    case "bool":
      out.push(tok("ident", v.asBool() ? "true" : "false"));
      return;
    case "number":
      out.push(tok("number", v.asNumber().toString()));
      return;
    case "string":
      appendString(v.asString(), out);
      return;
    case "list":
    case "set":
    case "tuple": {
      out.push(tok("obrack", "["));
      v.elements().forEach((e, i) => {
        if (i > 0) out.push(tok("comma", ","));
        appendValue(e, out);
      });
      out.push(tok("cbrack", "]"));
      return;
    }
    case "map":
    case "object": {
      out.push(tok("obrace", "{"));
      const entries = sortedEntries(v);
      if (entries.length > 0) out.push(tok("newline", "\n"));
      for (const [k, e] of entries) {
        if (isHclIdentifier(k)) out.push(tok("ident", k));
        else appendString(k, out);
        out.push(tok("equal", "="));
        appendValue(e, out);
        out.push(tok("newline", "\n"));
      }
      out.push(tok("cbrace", "}"));
      return;
    }
    default:
      throw new Error(`cannot produce tokens for a value of type ${t.kind}`);
  }
}

function bracketChange(t: Token): number {
  return t.kind === "obrace" || t.kind === "obrack" ? 1 : t.kind === "cbrace" || t.kind === "cbrack" ? -1 : 0;
}

function spaceAfter(subject: Token, after: Token): boolean {
  if (after.kind === "newline" || after.kind === "nil") return false;
  if (after.kind === "comma") return false;
  if (subject.kind === "comma") return true;
  if (subject.kind === "quoted" || subject.kind === "oquote" || after.kind === "quoted" || after.kind === "cquote") return false;
  if (after.kind === "obrack" && (subject.kind === "ident" || subject.kind === "number" || bracketChange(subject) < 0)) return false;
  if (subject.kind === "obrace" || after.kind === "cbrace") return !(subject.kind === "obrace" && after.kind === "cbrace");
  if (bracketChange(subject) > 0) return false;
  if (bracketChange(after) < 0) return false;
  return true;
}

interface Line {
  lead: Token[];
  assign: Token[] | undefined;
}

function columns(ts: readonly Token[]): number {
  let n = 0;
  for (const t of ts) n += t.spaces + [...t.text].length;
  return n;
}

/** hclwrite's format pass (indentation, spacing, `=` alignment) over a comment-free token list, in place. */
function format(tokens: Token[]): void {
  const lines: Line[] = [];
  let start = 0;
  tokens.forEach((t, i) => {
    if (t.kind === "newline") {
      lines.push({ lead: tokens.slice(start, i + 1), assign: undefined });
      start = i + 1;
    }
  });
  lines.push({ lead: tokens.slice(start), assign: undefined });
  for (const line of lines) {
    const i = line.lead.findIndex((t, j) => j > 0 && t.kind === "equal");
    if (i > 0 && line.lead.slice(i).reduce((n, t) => n + bracketChange(t), 0) === 0) {
      line.assign = line.lead.slice(i);
      line.lead = line.lead.slice(0, i);
    }
  }
  // Indentation.
  const indents: number[] = [];
  for (const line of lines) {
    const first = line.lead[0];
    if (first === undefined) continue;
    if (first.kind === "newline") {
      first.spaces = 0;
      continue;
    }
    let net = 0;
    for (const t of line.lead) net += bracketChange(t);
    for (const t of line.assign ?? []) net += bracketChange(t);
    if (net > 0) {
      first.spaces = 2 * indents.length;
      indents.push(net);
    } else {
      let closed = -net;
      while (closed > 0 && indents.length > 0) {
        const top = indents[indents.length - 1]!;
        if (closed > top) {
          closed -= top;
          indents.pop();
        } else if (closed < top) {
          indents[indents.length - 1] = top - closed;
          closed = 0;
        } else {
          indents.pop();
          closed = 0;
        }
      }
      first.spaces = 2 * indents.length;
    }
  }
  // Spaces between tokens.
  for (const line of lines) {
    for (const cell of [line.lead, line.assign ?? []]) {
      cell.forEach((t, i) => {
        if (cell === line.assign && i === 0) t.spaces = 1;
        const after = cell[i + 1];
        if (after !== undefined) after.spaces = spaceAfter(t, after) ? 1 : 0;
      });
    }
  }
  // Align the `=` of consecutive assignment lines.
  let chainStart = -1;
  let max = 0;
  const close = (end: number): void => {
    for (const l of lines.slice(chainStart, end)) l.assign![0]!.spaces = max - columns(l.lead) + 1;
    chainStart = -1;
    max = 0;
  };
  lines.forEach((l, i) => {
    if (l.assign === undefined) {
      if (chainStart !== -1) close(i);
    } else {
      if (chainStart === -1) chainStart = i;
      max = Math.max(max, columns(l.lead));
    }
  });
  if (chainStart !== -1) close(lines.length);
}

function text(tokens: readonly Token[]): string {
  return tokens.map((t) => " ".repeat(t.spaces) + t.text).join("");
}

/**
 * A wholly known value as HCL expression syntax, as hclwrite's `TokensForValue` formats it
 * (what Terraform's `encode_expr` returns): object and map attributes sorted, one per line,
 * their `=` aligned; lists, sets and tuples on one line.
 *
 * @throws Error for a value that is not wholly known.
 * @internal
 */
export function formatHclValue(v: Value): string {
  const tokens: Token[] = [];
  appendValue(v, tokens);
  format(tokens);
  return text(tokens).trim();
}

/**
 * A `.tfvars` file's text for named values, as hclwrite writes a body of attributes set by
 * `SetAttributeValue` (what Terraform's `encode_tfvars` returns): one `name = value` line per
 * entry in the order given, aligned, the file ending in a newline.
 *
 * @internal
 */
export function formatTfvars(entries: readonly (readonly [string, Value])[]): string {
  const tokens: Token[] = [];
  for (const [name, v] of entries) {
    tokens.push(tok("ident", name), tok("equal", "="));
    appendValue(v, tokens);
    tokens.push(tok("newline", "\n"));
  }
  format(tokens);
  return text(tokens);
}
