import { tokenBracketChange } from "./format-tokens.js";
import type { WriteToken } from "./write-token.js";

/** An attribute of a {@link WriteBody}: its name and its expression's tokens as an index range. */
export interface WriteAttribute {
  readonly kind: "attribute";
  readonly name: string;
  /** Index of the expression's first token. */
  readonly exprStart: number;
  /** Index after the expression's last token (trailing comments are not part of it). */
  readonly exprEnd: number;
}

/** A block of a {@link WriteBody}: its type, its labels' tokens and its body. */
export interface WriteBlock {
  readonly kind: "block";
  readonly type: string;
  /** Index of the token after the type name: where the labels begin. */
  readonly labelsStart: number;
  /** Index after the last label's last token (`labelsStart` when there are none). */
  readonly labelsEnd: number;
  /** Each label's tokens (an `Ident`, or a quoted string from `OQuote` to `CQuote`). */
  readonly labels: readonly (readonly WriteToken[])[];
  readonly body: WriteBody;
}

/** The attributes and blocks of a body, in source order, over a token list (hclwrite's `Body`). */
export interface WriteBody {
  readonly items: readonly (WriteAttribute | WriteBlock)[];
}

function isLineEnd(t: WriteToken): boolean {
  return t.type === "Newline" || t.type === "EOF" || (t.type === "Comment" && t.text.endsWith("\n"));
}

/**
 * The structure of a token list from `lexWriteTokens` (of a text that parses): which token
 * ranges are attributes' expressions and blocks' labels, block by block, so that a writer can
 * replace them (as hclwrite's `SetAttributeRaw` and `SetLabels` do) and format the result.
 */
export function parseWriteBody(tokens: readonly WriteToken[]): WriteBody {
  return parseBody(tokens, 0).body;
}

function parseBody(tokens: readonly WriteToken[], start: number): { body: WriteBody; end: number } {
  const items: (WriteAttribute | WriteBlock)[] = [];
  let i = start;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.type === "Newline" || t.type === "Comment") {
      i++;
      continue;
    }
    if (t.type !== "Ident") break; // the closing brace of the block (or EOF)
    if (tokens[i + 1]?.type === "Equal") {
      const exprStart = i + 2;
      let depth = 0;
      let k = exprStart;
      for (; k < tokens.length; k++) {
        const e = tokens[k]!;
        if (depth === 0 && isLineEnd(e)) break;
        depth += tokenBracketChange(e);
        if (depth < 0) break;
      }
      let exprEnd = k;
      while (exprEnd > exprStart && tokens[exprEnd - 1]!.type === "Comment") exprEnd--;
      items.push({ kind: "attribute", name: t.text, exprStart, exprEnd });
      i = k;
      continue;
    }
    const labels: WriteToken[][] = [];
    let k = i + 1;
    let labelsEnd = k;
    while (k < tokens.length && tokens[k]!.type !== "OBrace") {
      const l = tokens[k]!;
      if (l.type === "Ident") {
        labels.push([l]);
        labelsEnd = ++k;
      } else if (l.type === "OQuote") {
        let q = k + 1;
        while (q < tokens.length && tokens[q]!.type !== "CQuote") q++;
        labels.push(tokens.slice(k, q + 1));
        labelsEnd = k = q + 1;
      } else k++;
    }
    const inner = parseBody(tokens, k + 1);
    items.push({ kind: "block", type: t.text, labelsStart: i + 1, labelsEnd, labels, body: inner.body });
    i = inner.end + 1;
  }
  return { body: { items }, end: i };
}
