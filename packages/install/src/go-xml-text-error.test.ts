import { goXmlLeadingTextError } from "./go-xml-text-error.js";

const err = (s: string | Uint8Array): string | undefined => goXmlLeadingTextError(typeof s === "string" ? Buffer.from(s, "utf8") : s);

describe("goXmlLeadingTextError", () => {
  test("a tar archive: the first NUL, on the line after the last newline read before the end (Go reads the whole text, then checks it)", () => {
    const tar = Buffer.concat([Buffer.from("./"), Buffer.alloc(98), Buffer.from('output "x" {\n  value = 1\n}\n'), Buffer.alloc(20)]);
    expect(err(tar)).toBe("XML syntax error on line 4: illegal character code U+0000");
  });
  test("the text ends at the first <: newlines after it are not counted", () => {
    expect(err("a\u0001\nb<x>\n\n\n")).toBe("XML syntax error on line 2: illegal character code U+0001");
  });
  test("HTML, a tag first, or clean text: nothing to report (the document is read for its meta tag)", () => {
    expect(err('<html><head><meta name="terraform-get" content="x"></head></html>')).toBeUndefined();
    expect(err("just text\r\nand more &amp; &unknown; &#65; & < tag")).toBeUndefined();
    expect(err("")).toBeUndefined();
  });
  test("invalid UTF-8 and out-of-range characters; a character reference is checked as what it stands for", () => {
    expect(err(Uint8Array.from([0x61, 0xff, 0x00]))).toBe("XML syntax error on line 1: invalid UTF-8");
    expect(err("x&#1;y")).toBe("XML syntax error on line 1: illegal character code U+0001");
    expect(err("\uFFFE")).toBe("XML syntax error on line 1: illegal character code U+FFFE");
  });
  test("input that ends inside an entity, and ]]> outside CDATA", () => {
    expect(err("a\nb&")).toBe("XML syntax error on line 2: unexpected EOF");
    expect(err("a&#12")).toBe("XML syntax error on line 1: unexpected EOF");
    expect(err("a&name")).toBe("XML syntax error on line 1: unexpected EOF");
    expect(err("a]]>b")).toBe("XML syntax error on line 1: unescaped ]]> not in CDATA section");
  });
});
