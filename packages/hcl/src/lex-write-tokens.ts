import type { WriteToken, WriteTokenType } from "./write-token.js";

const SELF: Readonly<Record<string, WriteTokenType>> = {
  "[": "OBrack",
  "]": "CBrack",
  "(": "OParen",
  ")": "CParen",
  ".": "Dot",
  ",": "Comma",
  "*": "Star",
  "/": "Slash",
  "%": "Percent",
  "+": "Plus",
  "-": "Minus",
  "=": "Equal",
  "<": "LessThan",
  ">": "GreaterThan",
  "!": "Bang",
  "?": "Question",
  ":": "Colon",
  "&": "BitwiseAnd",
  "|": "BitwiseOr",
  "~": "BitwiseNot",
  "^": "BitwiseXor",
  ";": "Semicolon",
  "`": "Backtick",
  "'": "Apostrophe",
};

const PAIRS: Readonly<Record<string, WriteTokenType>> = {
  "==": "EqualOp",
  "!=": "NotEqual",
  ">=": "GreaterThanEq",
  "<=": "LessThanEq",
  "&&": "And",
  "||": "Or",
  "::": "DoubleColon",
  "=>": "FatArrow",
};

const ID_START = /[\p{ID_Start}_]/u;
const ID_CONTINUE = /[\p{ID_Continue}-]/u;
const HEREDOC_INTRO = /<<(-?)([\p{ID_Start}_][\p{ID_Continue}-]*)(\r?\n)/uy;

/** A heredoc being scanned: its closing marker, and whether the scanner is at a line start. */
interface HeredocInProgress {
  readonly marker: string;
  startOfLine: boolean;
}

type Mode = "main" | "string" | "heredoc";

/** The code point at `i` as a string (one or two UTF-16 units). */
function charAt(text: string, i: number): string {
  const c = text.codePointAt(i);
  return c === undefined ? "" : String.fromCodePoint(c);
}

/**
 * Splits HCL native-syntax source into the writer's tokens, comments and newlines included,
 * as hclsyntax's scanner does for hclwrite (`LexConfig`): quoted and heredoc templates are
 * split into their literal pieces and `${`/`%{` sequences, a heredoc's closing marker is a
 * `CHeredoc` token holding the marker's line (its indentation included) and the newline after
 * it is a token of its own, and the last token is `EOF`, preceded by the spaces at the end of
 * the text. A leading byte-order mark is dropped. Never throws: what the scanner cannot match
 * becomes an `Invalid` token (the text does not parse, so callers check it first).
 */
export function lexWriteTokens(source: string): WriteToken[] {
  const text = source.startsWith("\uFEFF") ? source.slice(1) : source;
  const out: WriteToken[] = [];
  let p = 0;
  let lastEnd = 0;
  const modes: Mode[] = ["main"];
  let braces = 0;
  const retBraces: number[] = [];
  const heredocs: HeredocInProgress[] = [];

  const emit = (type: WriteTokenType, start: number, end: number): void => {
    out.push({ type, text: text.slice(start, end), spacesBefore: start - lastEnd });
    lastEnd = end;
  };
  const openTemplateSequence = (type: WriteTokenType, len: number): void => {
    emit(type, p, p + len);
    p += len;
    braces++;
    retBraces.push(braces);
    if (heredocs.length > 0) heredocs[heredocs.length - 1]!.startOfLine = false;
    modes.push("main");
  };
  /** `${`, `${~`, `%{` or `%{~` at `i`: its length, else 0. */
  const sequenceAt = (i: number, intro: "$" | "%"): number => (text[i] === intro && text[i + 1] === "{" ? (text[i + 2] === "~" ? 3 : 2) : 0);

  while (p < text.length) {
    const mode = modes[modes.length - 1]!;
    const c = text[p]!;
    if (mode === "main") {
      if (c === " " || c === "\t") {
        while (text[p] === " " || text[p] === "\t") p++;
        continue;
      }
      if (c >= "0" && c <= "9") {
        let i = p + 1;
        let end = i;
        for (;;) {
          const d = text[i];
          if (d !== undefined && d >= "0" && d <= "9") end = ++i;
          else if (d === ".") i++;
          else if ((d === "e" || d === "E") && /^[+-]?[0-9]/.test(text.slice(i + 1, i + 3))) {
            i += text[i + 1] === "+" || text[i + 1] === "-" ? 3 : 2;
            end = i;
          } else break;
        }
        emit("NumberLit", p, end);
        p = end;
        continue;
      }
      const ch = charAt(text, p);
      if (ID_START.test(ch)) {
        let i = p + ch.length;
        for (;;) {
          const n = charAt(text, i);
          if (n === "" || !ID_CONTINUE.test(n)) break;
          i += n.length;
        }
        emit("Ident", p, i);
        p = i;
        continue;
      }
      if (c === "#" || (c === "/" && text[p + 1] === "/")) {
        const nl = text.indexOf("\n", p);
        const end = nl < 0 ? text.length : nl + 1;
        emit("Comment", p, end);
        p = end;
        continue;
      }
      if (c === "/" && text[p + 1] === "*") {
        const close = text.indexOf("*/", p + 2);
        if (close >= 0) {
          emit("Comment", p, close + 2);
          p = close + 2;
          continue;
        }
      }
      if (c === "\n" || (c === "\r" && text[p + 1] === "\n")) {
        const len = c === "\n" ? 1 : 2;
        emit("Newline", p, p + len);
        p += len;
        continue;
      }
      if (c === "<" && text[p + 1] === "<") {
        HEREDOC_INTRO.lastIndex = p;
        const m = HEREDOC_INTRO.exec(text);
        if (m !== null) {
          emit("OHeredoc", p, p + m[0].length);
          p += m[0].length;
          heredocs.push({ marker: m[2]!, startOfLine: true });
          modes.push("heredoc");
          continue;
        }
      }
      if (text.startsWith("...", p)) {
        emit("Ellipsis", p, p + 3);
        p += 3;
        continue;
      }
      const pair = PAIRS[text.slice(p, p + 2)];
      if (pair !== undefined) {
        emit(pair, p, p + 2);
        p += 2;
        continue;
      }
      if (c === "{") {
        emit("OBrace", p, p + 1);
        p++;
        braces++;
        continue;
      }
      if (c === "}" || (c === "~" && text[p + 1] === "}")) {
        const len = c === "}" ? 1 : 2;
        if (retBraces.length > 0 && retBraces[retBraces.length - 1] === braces) {
          emit("TemplateSeqEnd", p, p + len);
          retBraces.pop();
          modes.pop();
        } else emit(c === "}" ? "CBrace" : "TemplateSeqEnd", p, p + len);
        braces--;
        p += len;
        continue;
      }
      if (c === '"') {
        emit("OQuote", p, p + 1);
        p++;
        modes.push("string");
        continue;
      }
      const self = SELF[c];
      if (self !== undefined) {
        emit(self, p, p + 1);
        p++;
        continue;
      }
      emit("Invalid", p, p + ch.length);
      p += ch.length;
      continue;
    }

    // Templates: a quoted string or a heredoc.
    const interp = sequenceAt(p, "$");
    if (interp > 0) {
      openTemplateSequence("TemplateInterp", interp);
      continue;
    }
    const control = sequenceAt(p, "%");
    if (control > 0) {
      openTemplateSequence("TemplateControl", control);
      continue;
    }
    if (c === "$" || c === "%") {
      // An escaped introducer ($${, %%{) is one literal piece; a lone $ or % another.
      const escaped = sequenceAt(p + 1, c);
      const len = escaped > 0 ? 1 + escaped : 1;
      if (mode === "heredoc") heredocs[heredocs.length - 1]!.startOfLine = false;
      emit(mode === "string" ? "QuotedLit" : "StringLit", p, p + len);
      p += len;
      continue;
    }
    if (mode === "string") {
      if (c === '"') {
        emit("CQuote", p, p + 1);
        p++;
        modes.pop();
        continue;
      }
      if (c === "\r" || c === "\n") {
        let i = p;
        while (text[i] === "\r" || text[i] === "\n") i++;
        emit("QuotedNewline", p, i);
        p = i;
        continue;
      }
      let i = p;
      for (;;) {
        const d = text[i];
        if (d === undefined || d === "$" || d === "%" || d === '"' || d === "\r" || d === "\n") break;
        if (d === "\\") {
          const e = text[i + 1];
          if (e === undefined || e === "\r" || e === "\n") break;
          i += 1 + charAt(text, i + 1).length;
        } else i++;
      }
      if (i === p) {
        emit("Invalid", p, p + 1);
        p++;
      } else {
        emit("QuotedLit", p, i);
        p = i;
      }
      continue;
    }
    // Heredoc: a literal piece up to $, % or the end of the line (the newline included).
    const doc = heredocs[heredocs.length - 1]!;
    let i = p;
    while (i < text.length && text[i] !== "$" && text[i] !== "%" && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) i++;
    const eol = text[i] === "\n" ? 1 : text[i] === "\r" ? 2 : 0;
    if (eol === 0) {
      if (i === p) {
        emit("Invalid", p, p + 1);
        p++;
        continue;
      }
      doc.startOfLine = false;
      emit("StringLit", p, i);
      p = i;
      continue;
    }
    if (doc.startOfLine && text.slice(p, i).trim() === doc.marker) {
      emit("CHeredoc", p, i);
      emit("Newline", i, i + eol);
      p = i + eol;
      heredocs.pop();
      modes.pop();
      continue;
    }
    doc.startOfLine = true;
    emit("StringLit", p, i + eol);
    p = i + eol;
  }
  emit("EOF", text.length, text.length);
  return out;
}
