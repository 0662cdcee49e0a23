import { StateError } from "../state-error.js";

/** One step of an absolute HCL traversal: the root name, `.name`, or `[key]`. */
export type TraversalStep =
  | { readonly kind: "root"; readonly name: string }
  | { readonly kind: "attr"; readonly name: string }
  | { readonly kind: "index"; readonly key: string | number };

const IDENT = /[\p{ID_Start}_][\p{ID_Continue}-]*/uy;
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function fail(text: string, at: number, why: string): never {
  throw new StateError("invalid_address", `invalid address ${JSON.stringify(text)} at offset ${at}: ${why}`);
}

/**
 * Parses `text` as an absolute HCL traversal (what Terraform's `hclsyntax.ParseTraversalAbs`
 * accepts): a root identifier followed by `.name`, `.0` (legacy index) and `[key]` steps,
 * where a key is a whole number or a quoted string without template sequences.
 *
 * @throws StateError `invalid_address` naming the offset and what was expected.
 */
export function parseTraversal(text: string): TraversalStep[] {
  const steps: TraversalStep[] = [];
  IDENT.lastIndex = 0;
  const root = IDENT.exec(text);
  if (root === null) fail(text, 0, "expected a name");
  steps.push({ kind: "root", name: root[0] });
  let i = IDENT.lastIndex;
  while (i < text.length) {
    const c = text[i];
    if (c === ".") {
      i++;
      IDENT.lastIndex = i;
      const m = IDENT.exec(text);
      if (m !== null) {
        steps.push({ kind: "attr", name: m[0] });
        i = IDENT.lastIndex;
        continue;
      }
      const n = /[0-9]+/y;
      n.lastIndex = i;
      const d = n.exec(text);
      if (d === null) fail(text, i, "expected a name after \".\"");
      steps.push({ kind: "index", key: Number(d[0]) });
      i = n.lastIndex;
      continue;
    }
    if (c === "[") {
      i++;
      if (text[i] === '"') {
        const [value, end] = parseQuoted(text, i);
        steps.push({ kind: "index", key: value });
        i = end;
      } else {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (m === null) fail(text, i, "an index must be a whole number or a quoted string");
        const n = Number(m[0]);
        if (!Number.isSafeInteger(n)) fail(text, i, `the index ${m[0]} is not a whole number`);
        steps.push({ kind: "index", key: n });
        i = NUMBER.lastIndex;
      }
      if (text[i] !== "]") fail(text, i, "expected \"]\"");
      i++;
      continue;
    }
    fail(text, i, `unexpected ${JSON.stringify(c)}`);
  }
  return steps;
}

/** Parses an HCL quoted string starting at `text[start] === '"'`; returns its value and the offset after the closing quote. */
function parseQuoted(text: string, start: number): [string, number] {
  let out = "";
  let i = start + 1;
  for (;;) {
    if (i >= text.length) fail(text, start, "unterminated string");
    const c = text[i]!;
    if (c === '"') return [out, i + 1];
    if (c === "\n") fail(text, i, "a newline is not allowed in a quoted string");
    if (c === "\\") {
      const e = text[i + 1];
      switch (e) {
        case "n": out += "\n"; i += 2; continue;
        case "r": out += "\r"; i += 2; continue;
        case "t": out += "\t"; i += 2; continue;
        case '"': out += '"'; i += 2; continue;
        case "\\": out += "\\"; i += 2; continue;
        case "u":
        case "U": {
          const len = e === "u" ? 4 : 8;
          const hex = text.slice(i + 2, i + 2 + len);
          if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail(text, i, `invalid \\${e} escape`);
          const cp = parseInt(hex, 16);
          if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(text, i, `invalid code point in \\${e} escape`);
          out += String.fromCodePoint(cp);
          i += 2 + len;
          continue;
        }
        default:
          fail(text, i, "invalid escape sequence");
      }
    }
    if ((c === "$" || c === "%") && text[i + 1] === "{") fail(text, i, "template sequences are not allowed in an address");
    if ((c === "$" || c === "%") && text[i + 1] === c && text[i + 2] === "{") {
      out += c + "{";
      i += 3;
      continue;
    }
    out += c;
    i++;
  }
}
