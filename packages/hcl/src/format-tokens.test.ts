import { formatTokens } from "./format-tokens.js";
import { lexWriteTokens } from "./lex-write-tokens.js";
import { writeTokensText } from "./write-token.js";

/** hclwrite's Format: lex, format, write. */
function format(src: string): string {
  const tokens = lexWriteTokens(src);
  formatTokens(tokens);
  return writeTokensText(tokens);
}

// Expected texts are terraform fmt 1.11.4's output for the same inputs (none of them has the
// block labels, "${…}" values or variable types that terraform's own rewrites touch); the
// cli's fmt-terraform test compares a larger corpus with terraform live.
describe("formatTokens (hclwrite's format)", () => {
  it.each([
    ["aligns = in runs of attribute lines and trailing comments", "a=1\nlong_name   =  2 # c\nx={\nk=1\nlonger=[1,2]\n}\n", "a         = 1\nlong_name = 2 # c\nx = {\n  k      = 1\n  longer = [1, 2]\n}\n"],
    ["spaces: for expressions, negation, indexing", "x = [for v in [a]: v if !v]\ny = -1 - -2\nz = a ? -1 : b[0] [1]\n", "x = [for v in [a] : v if !v]\ny = -1 - -2\nz = a ? -1 : b[0][1]\n"],
    ["keeps heredoc text and its closing marker's indentation, spaces interpolations", "h = <<-EOT\n    ${ a }\n  EOT\nn = \"$${x} %%{y}\"\n", "h = <<-EOT\n    ${a}\n  EOT\nn = \"$${x} %%{y}\"\n"],
    ["single-line blocks and empty braces", "b { c = 1 }\ne {  }\nf = {  }\n", "b { c = 1 }\ne {}\nf = {}\n"],
    ["comments re-indented, blank lines kept, block comments verbatim", "a {\n      # one\n\n\n/* two\n   lines */\n}\n", "a {\n  # one\n\n\n  /* two\n   lines */\n}\n"],
    ["CRLF line ends kept; tabs become spaces", "a\t=\t1\r\nbb = 2\r\n", "a  = 1\r\nbb = 2\r\n"],
    ["alignment counts grapheme clusters", 'm = {\n"日本" = 1\n"e\u0301" = 2\nabc = 3\n}\n', 'm = {\n  "日本" = 1\n  "e\u0301"  = 2\n  abc  = 3\n}\n'],
    ["provider functions and splats", "a = provider :: p :: f( x [ * ] .id )\n", "a = provider::p::f(x[*].id)\n"],
    ["spaces at the end of a text without a final newline are kept", "a = 1   ", "a = 1   "],
  ])("%s", (_name, src, want) => {
    expect(format(src)).toBe(want);
  });
});

describe("lexWriteTokens", () => {
  it("splits templates as hclsyntax's scanner does: literal pieces at $ and %, escapes whole", () => {
    const types = (src: string): string[] => lexWriteTokens(src).map((t) => `${t.type}:${t.text}`);
    expect(types('"a$b$${c}"')).toEqual(["OQuote:\"", "QuotedLit:a", "QuotedLit:$", "QuotedLit:b", "QuotedLit:$${", "QuotedLit:c}", "CQuote:\"", "EOF:"]);
    expect(types("<<EOT\n  x ${y}\n  EOT\n")).toEqual(["OHeredoc:<<EOT\n", "StringLit:  x ", "TemplateInterp:${", "Ident:y", "TemplateSeqEnd:}", "StringLit:\n", "CHeredoc:  EOT", "Newline:\n", "EOF:"]);
    expect(types("# c\r\nx // d")).toEqual(["Comment:# c\r\n", "Ident:x", "Comment:// d", "EOF:"]);
    expect(types("1.5e+3.x 1..2")).toEqual(["NumberLit:1.5e+3", "Dot:.", "Ident:x", "NumberLit:1..2", "EOF:"]);
  });

  it("drops a byte-order mark and counts the spaces before each token", () => {
    const t = lexWriteTokens("\uFEFFa  =\t1  ");
    expect(t.map((x) => [x.type, x.spacesBefore])).toEqual([["Ident", 0], ["Equal", 2], ["NumberLit", 1], ["EOF", 2]]);
  });
});
