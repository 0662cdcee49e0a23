// Bytes that are not UTF-8 reach the lexer as INVALID_ENCODING and are reported where they
// stand, as HCL does ("Invalid character encoding"); comments may hold them; a byte order mark
// at the start is skipped.
import { decodeSource, INVALID_ENCODING } from "./decode-source.js";
import { parseConfig } from "./parse.js";

const b = (...parts: (string | number[])[]): Uint8Array => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

describe("decodeSource", () => {
  it("decodes UTF-8 and marks each byte that is not", () => {
    expect(decodeSource(b("héllo 👍"))).toBe("héllo 👍");
    expect(decodeSource(b("a", [0xff], "b", [0xc3], "c"))).toBe(`a${INVALID_ENCODING}b${INVALID_ENCODING}c`);
    // An encoded surrogate (ED A0 80) and an overlong form (C0 AF) are not UTF-8.
    expect(decodeSource(b([0xed, 0xa0, 0x80]))).toBe(INVALID_ENCODING.repeat(3));
    expect(decodeSource(b([0xc0, 0xaf]))).toBe(INVALID_ENCODING.repeat(2));
  });

  it("gives terraform's diagnostics in strings and identifiers, none in comments", () => {
    const summaries = (text: Uint8Array): string[] => parseConfig(decodeSource(text), "main.tf").diags.map((d) => d.summary);
    expect(summaries(b('x = "a', [0xff], 'b"\n'))).toEqual(["Invalid character encoding", "Unterminated template string"]);
    expect(summaries(b("x = 1 # caf", [0xe9], "\n"))).toEqual([]);
    expect(summaries(b("x = <<EOT\na", [0xff], "\nEOT\n"))).toEqual(["Invalid character encoding"]);
    expect(summaries(b("x = a", [0xff], "\n"))[0]).toBe("Invalid character encoding");
    const d = parseConfig(decodeSource(b('x = "a', [0xff], 'b"\n')), "main.tf").diags[0]!;
    expect(d.detail).toBe("All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.");
    expect(d.subject?.start.line).toBe(1);
  });

  it("skips a byte order mark at the start of a native file", () => {
    const r = parseConfig(decodeSource(b([0xef, 0xbb, 0xbf], 'x = "bom"\n')), "main.tf");
    expect(r.diags).toEqual([]);
    expect([...r.body.justAttributes().attributes.keys()]).toEqual(["x"]);
  });
});
