/**
 * The token kinds of the token-preserving writer: hclsyntax's `TokenType` names, comments,
 * newlines and template pieces included (hclwrite works on these). `Nil` stands for "no token"
 * at the start of a sequence.
 */
export type WriteTokenType =
  | "OBrace"
  | "CBrace"
  | "OBrack"
  | "CBrack"
  | "OParen"
  | "CParen"
  | "OQuote"
  | "CQuote"
  | "OHeredoc"
  | "CHeredoc"
  | "Star"
  | "Slash"
  | "Plus"
  | "Minus"
  | "Percent"
  | "Equal"
  | "EqualOp"
  | "NotEqual"
  | "LessThan"
  | "LessThanEq"
  | "GreaterThan"
  | "GreaterThanEq"
  | "And"
  | "Or"
  | "Bang"
  | "Dot"
  | "Comma"
  | "DoubleColon"
  | "Ellipsis"
  | "FatArrow"
  | "Question"
  | "Colon"
  | "TemplateInterp"
  | "TemplateControl"
  | "TemplateSeqEnd"
  | "QuotedLit"
  | "StringLit"
  | "NumberLit"
  | "Ident"
  | "Comment"
  | "Newline"
  | "EOF"
  | "BitwiseAnd"
  | "BitwiseOr"
  | "BitwiseNot"
  | "BitwiseXor"
  | "Semicolon"
  | "Backtick"
  | "Apostrophe"
  | "QuotedNewline"
  | "Invalid"
  | "Nil";

/**
 * One token of the writer (hclwrite's `Token`): its kind, its exact text, and the number of
 * spaces written before it. Formatting changes only `spacesBefore`.
 */
export interface WriteToken {
  readonly type: WriteTokenType;
  /** The token's text exactly as in the source (a comment's text includes its newline). */
  text: string;
  /** Spaces written before the token (tabs in the source count one each, as hclwrite's). */
  spacesBefore: number;
}

/** The text of a token sequence: each token's spaces, then its text (hclwrite's `Tokens.WriteTo`). */
export function writeTokensText(tokens: readonly WriteToken[]): string {
  let out = "";
  for (const t of tokens) out += " ".repeat(Math.max(0, t.spacesBefore)) + t.text;
  return out;
}
