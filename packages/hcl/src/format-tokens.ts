import type { WriteToken } from "./write-token.js";

/**
 * One line of tokens split into hclwrite's three cells: `lead` (always), `assign` (from an
 * attribute's `=` when the rest of the line is a whole expression) and `comment` (a trailing
 * single-line comment after other tokens).
 */
interface FormatLine {
  lead: WriteToken[];
  assign: WriteToken[] | undefined;
  comment: WriteToken[] | undefined;
}

const NIL: WriteToken = { type: "Nil", text: "", spacesBefore: 0 };

/** Made on first use: a segmenter loads ICU's break data, ~25 ms that every command loading @magma/hcl paid at start-up. */
let graphemes: Intl.Segmenter | undefined;

/** The columns a token sequence occupies: spaces, plus grapheme clusters of the text. */
function columns(tokens: readonly WriteToken[]): number {
  let n = 0;
  for (const t of tokens) {
    n += t.spacesBefore;
    if (/^[\x20-\x7e]*$/.test(t.text)) n += t.text.length;
    else for (const _ of (graphemes ??= new Intl.Segmenter("en", { granularity: "grapheme" })).segment(t.text)) n++;
  }
  return n;
}

/** Whether a token ends a line (a newline, or a single-line comment, which holds its newline). */
function isNewline(t: WriteToken): boolean {
  return t.type === "Newline" || (t.type === "Comment" && t.text.endsWith("\n"));
}

/** +1 for an opening bracket (`${` and `%{` included), -1 for a closing one, else 0. */
export function tokenBracketChange(t: WriteToken): number {
  switch (t.type) {
    case "OBrace":
    case "OBrack":
    case "OParen":
    case "TemplateControl":
    case "TemplateInterp":
      return 1;
    case "CBrace":
    case "CBrack":
    case "CParen":
    case "TemplateSeqEnd":
      return -1;
    default:
      return 0;
  }
}

function linesForFormat(tokens: readonly WriteToken[]): FormatLine[] {
  const lines: FormatLine[] = [];
  let start = 0;
  let ended = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === "EOF") {
      lines.push({ lead: tokens.slice(start, i), assign: undefined, comment: undefined });
      ended = true;
      break;
    }
    if (isNewline(t)) {
      lines.push({ lead: tokens.slice(start, i + 1), assign: undefined, comment: undefined });
      start = i + 1;
    }
  }
  if (!ended) lines.push({ lead: tokens.slice(start), assign: undefined, comment: undefined });

  for (const line of lines) {
    const lead = line.lead;
    if (lead.length === 0) continue;
    if (lead.length > 1 && lead[lead.length - 1]!.type === "Comment") {
      line.comment = lead.slice(lead.length - 1);
      line.lead = lead.slice(0, lead.length - 1);
    }
    for (let i = 1; i < line.lead.length; i++) {
      if (line.lead[i]!.type !== "Equal") continue;
      let net = 0;
      for (let j = i; j < line.lead.length; j++) net += tokenBracketChange(line.lead[j]!);
      if (net === 0) {
        line.assign = line.lead.slice(i);
        line.lead = line.lead.slice(0, i);
      }
      break;
    }
  }
  return lines;
}

function formatIndent(lines: readonly FormatLine[]): void {
  const indents: number[] = [];
  for (const line of lines) {
    const first = line.lead[0];
    if (first === undefined) continue;
    if (first.type === "Newline") {
      first.spacesBefore = 0;
      continue;
    }
    let net = 0;
    for (const t of line.lead) {
      net += tokenBracketChange(t);
      if (t.type === "OHeredoc") break;
    }
    for (const t of line.assign ?? []) net += tokenBracketChange(t);
    if (net > 0) {
      first.spacesBefore = 2 * indents.length;
      indents.push(net);
    } else {
      if (net < 0) {
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
      }
      first.spacesBefore = 2 * indents.length;
    }
  }
}

const NEGATION_BEFORE = new Set([
  "Nil",
  "OParen",
  "OBrace",
  "OBrack",
  "Equal",
  "Colon",
  "Comma",
  "Question",
  "Plus",
  "Star",
  "Slash",
  "Percent",
  "Minus",
  "EqualOp",
  "NotEqual",
  "GreaterThan",
  "GreaterThanEq",
  "LessThan",
  "LessThanEq",
  "And",
  "Or",
  "Bang",
]);

/** Whether `subject` gets a space after it, between `before` and `after` (hclwrite's `spaceAfterToken`). */
function spaceAfterToken(subject: WriteToken, before: WriteToken, after: WriteToken): boolean {
  const s = subject.type;
  const a = after.type;
  if (a === "Newline" || a === "Nil") return false;
  if (s === "Ident" && a === "OParen") return false;
  if ((s === "Ident" && a === "DoubleColon") || (s === "DoubleColon" && a === "Ident")) return false;
  if (s === "Dot" || a === "Dot") return false;
  if (a === "Comma" || a === "Ellipsis") return false;
  if (s === "Comma") return true;
  if (s === "QuotedLit" || s === "StringLit" || s === "OQuote" || s === "OHeredoc" || a === "QuotedLit" || a === "StringLit" || a === "CQuote" || a === "CHeredoc") return false;
  if (s === "Ident" && subject.text === "in" && before.type === "Ident") return true;
  if (a === "OBrack" && (s === "Ident" || s === "NumberLit" || tokenBracketChange(subject) < 0)) return false;
  if (s === "Bang") return false;
  if (s === "Minus") return !NEGATION_BEFORE.has(before.type);
  if (s === "OBrace" || a === "CBrace") return !(s === "OBrace" && a === "CBrace");
  if ((s === "TemplateInterp" || s === "TemplateControl") && a === "OBrace") return true;
  if (s === "CBrace" && a === "TemplateSeqEnd") return true;
  if (s === "TemplateSeqEnd" && (a === "TemplateInterp" || a === "TemplateControl")) return false;
  if (tokenBracketChange(subject) > 0) return false;
  if (tokenBracketChange(after) < 0) return false;
  return true;
}

function formatCellSpaces(cell: readonly WriteToken[]): void {
  for (let i = 0; i < cell.length - 1; i++) {
    const t = cell[i]!;
    const after = cell[i + 1]!;
    after.spacesBefore = spaceAfterToken(t, i > 0 ? cell[i - 1]! : NIL, after) ? 1 : 0;
  }
}

function formatSpaces(lines: readonly FormatLine[]): void {
  for (const line of lines) {
    formatCellSpaces(line.lead);
    if (line.assign !== undefined) {
      line.assign[0]!.spacesBefore = 1;
      formatCellSpaces(line.assign);
    }
  }
}

function formatCells(lines: readonly FormatLine[]): void {
  const align = (cell: (l: FormatLine) => WriteToken[] | undefined, width: (l: FormatLine) => number): void => {
    let chainStart = -1;
    let max = 0;
    const close = (end: number): void => {
      for (let k = chainStart; k < end; k++) {
        const l = lines[k]!;
        cell(l)![0]!.spacesBefore = max - width(l) + 1;
      }
      chainStart = -1;
      max = 0;
    };
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (cell(l) === undefined) {
        if (chainStart !== -1) close(i);
      } else {
        if (chainStart === -1) chainStart = i;
        max = Math.max(max, width(l));
      }
    }
    if (chainStart !== -1) close(lines.length);
  };
  align(
    (l) => l.assign,
    (l) => columns(l.lead),
  );
  align(
    (l) => l.comment,
    (l) => columns(l.lead) + columns(l.assign ?? []),
  );
}

/**
 * Rewrites the spaces between tokens, in place, to HCL's canonical layout, as hclwrite's
 * `format` does: indentation by bracket nesting (two spaces a level), one space or none
 * between tokens by their kinds, and the `=` of consecutive attribute (and object key) lines
 * and their trailing comments aligned. Only `spacesBefore` changes; heredoc and template
 * text, comments and blank lines are kept.
 */
export function formatTokens(tokens: readonly WriteToken[]): void {
  const lines = linesForFormat(tokens);
  formatIndent(lines);
  formatSpaces(lines);
  formatCells(lines);
}
