import { formatTokens, lexWriteTokens, parseWriteBody, writeTokensText, type WriteBody, type WriteToken, type WriteTokenType } from "@magma/hcl";

const tok = (type: WriteTokenType, text: string): WriteToken => ({ type, text, spacesBefore: 0 });

/** A replacement of the token range [start, end). */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly tokens: readonly WriteToken[];
}

/**
 * A quoted label's text decoded as hclsyntax's `ParseStringLiteralToken` does; undefined
 * when an escape is malformed.
 */
function unescapeLiteral(s: string): string | undefined {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ((c === "$" || c === "%") && s[i + 1] === c && s[i + 2] === "{") {
      out += `${c}{`;
      i += 2;
      continue;
    }
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = s[++i];
    const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
    if (e !== undefined && simple[e] !== undefined) out += simple[e];
    else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      const hex = s.slice(i + 1, i + 1 + n);
      if (!new RegExp(`^[0-9A-Fa-f]{${n}}$`).test(hex)) return undefined;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) return undefined;
      out += String.fromCodePoint(cp);
      i += n;
    } else return undefined;
  }
  return out;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A string as a quoted literal's text, as hclwrite's `escapeQuotedStringLit` writes it. */
function escapeLiteral(s: string): string {
  let out = "";
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === '"') out += '\\"';
    else if (c === "\\") out += "\\\\";
    else if (c === "$" || c === "%") out += chars[i + 1] === "{" ? c + c : c;
    else if (PRINTABLE.test(c)) out += c;
    else {
      const cp = c.codePointAt(0)!;
      out += cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\U${cp.toString(16).padStart(8, "0")}`;
    }
  }
  return out;
}

/** A label's value as hclwrite's `Block.Labels` reads it; undefined for a label it cannot read (dropped). */
function labelValue(tokens: readonly WriteToken[]): string | undefined {
  if (tokens.length === 1 && tokens[0]!.type === "Ident") return tokens[0]!.text;
  if (tokens.length === 2 && tokens[0]!.type === "OQuote" && tokens[1]!.type === "CQuote") return "";
  if (tokens.length === 3 && tokens[0]!.type === "OQuote" && tokens[1]!.type === "QuotedLit" && tokens[2]!.type === "CQuote") return unescapeLiteral(tokens[1]!.text);
  return undefined;
}

function trimNewlines(tokens: readonly WriteToken[]): WriteToken[] {
  let start = 0;
  let end = tokens.length;
  while (start < end && tokens[start]!.type === "Newline") start++;
  while (end > start && tokens[end - 1]!.type === "Newline") end--;
  return tokens.slice(start, end);
}

/** Terraform fmt's `formatValueExpr`: `"${expr}"` unwrapped to `expr` (parenthesised when it spans lines). */
function formatValueExpr(tokens: readonly WriteToken[]): readonly WriteToken[] {
  if (tokens.length < 5) return tokens;
  if (tokens[0]!.type !== "OQuote" || tokens[1]!.type !== "TemplateInterp" || tokens[tokens.length - 2]!.type !== "TemplateSeqEnd" || tokens[tokens.length - 1]!.type !== "CQuote") return tokens;
  const inside = tokens.slice(2, tokens.length - 2);
  let quotes = 0;
  for (const t of inside) {
    if (t.type === "OQuote") {
      quotes++;
      continue;
    }
    if (t.type === "CQuote") {
      quotes--;
      continue;
    }
    if (quotes > 0) continue;
    if (t.type === "TemplateInterp" || t.type === "TemplateSeqEnd" || t.type === "QuotedLit") return tokens;
  }
  const trimmed = trimNewlines(inside);
  let multiLine = false;
  let leadingParen = false;
  let trailingParen = false;
  trimmed.forEach((t, i) => {
    if (i === 0 && t.type === "OParen") leadingParen = true;
    else if (t.type === "Newline") multiLine = true;
    else if (i === trimmed.length - 1 && t.type === "CParen") trailingParen = true;
  });
  if (multiLine && !(leadingParen && trailingParen)) return [tok("OParen", "("), ...trimmed, tok("CParen", ")")];
  return trimmed;
}

/** Terraform fmt's `formatTypeExpr`: `list` → `list(any)`, legacy `"string"`/`"list"`/`"map"` → type expressions. */
function formatTypeExpr(tokens: readonly WriteToken[]): readonly WriteToken[] {
  if (tokens.length === 1) {
    const kw = tokens[0]!;
    if (kw.type === "Ident" && (kw.text === "list" || kw.text === "map" || kw.text === "set")) return [kw, tok("OParen", "("), tok("Ident", "any"), tok("CParen", ")")];
    return tokens;
  }
  if (tokens.length === 3 && tokens[0]!.type === "OQuote" && tokens[1]!.type === "QuotedLit" && tokens[2]!.type === "CQuote") {
    const s = tokens[1]!.text;
    if (s === "string") return [tok("Ident", "string")];
    if (s === "list" || s === "map") return [tok("Ident", s), tok("OParen", "("), tok("Ident", "string"), tok("CParen", ")")];
  }
  return tokens;
}

function collectEdits(tokens: readonly WriteToken[], body: WriteBody, inBlocks: readonly string[], edits: Edit[]): void {
  for (const item of body.items) {
    if (item.kind === "attribute") {
      const expr = tokens.slice(item.exprStart, item.exprEnd);
      const typeExpr = inBlocks.length === 1 && inBlocks[0] === "variable" && item.name === "type";
      const cleaned = typeExpr ? formatTypeExpr(expr) : formatValueExpr(expr);
      if (cleaned !== expr) edits.push({ start: item.exprStart, end: item.exprEnd, tokens: cleaned });
      continue;
    }
    const labels: WriteToken[] = [];
    for (const l of item.labels) {
      const v = labelValue(l);
      if (v === undefined) continue;
      labels.push(tok("OQuote", '"'));
      if (v !== "") labels.push(tok("QuotedLit", escapeLiteral(v)));
      labels.push(tok("CQuote", '"'));
    }
    edits.push({ start: item.labelsStart, end: item.labelsEnd, tokens: labels });
    collectEdits(tokens, item.body, [...inBlocks, item.type], edits);
  }
}

/**
 * A Terraform configuration file (`.tf`, `.tfvars`, `.tftest.hcl`) in canonical form, as
 * `terraform fmt` writes it: block labels quoted, `"${expr}"` attribute values unwrapped,
 * legacy variable type names replaced, then hclwrite's layout (indentation, spacing and
 * alignment; comments and blank lines kept). The text must parse as HCL native syntax (the
 * caller checks; for other text the result is unspecified).
 */
export function formatTerraformSource(src: string): string {
  const tokens = lexWriteTokens(src);
  const edits: Edit[] = [];
  collectEdits(tokens, parseWriteBody(tokens), [], edits);
  edits.sort((a, b) => a.start - b.start);
  const out: WriteToken[] = [];
  let i = 0;
  for (const e of edits) {
    out.push(...tokens.slice(i, e.start), ...e.tokens);
    i = e.end;
  }
  out.push(...tokens.slice(i));
  formatTokens(out);
  return writeTokensText(out);
}
