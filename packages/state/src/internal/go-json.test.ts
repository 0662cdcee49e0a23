import fc from "fast-check";
import { fromPlain, listType, numberType, objectType, stringType, typeEquals } from "@magma/cty";
import { decodeOutput, encodeOutput } from "../output-value.js";
import { appendIndented, goQuote } from "./go-json.js";
import { JsonReader } from "./json-reader.js";

const goHtml = (s: string): string => s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function indented(raw: string, depth = 0): string {
  const out: string[] = [];
  appendIndented(raw, depth, out);
  return out.join("");
}

describe("Go-compatible JSON", () => {
  it("indents any JSON as MarshalIndent does (two spaces, empty containers inline, HTML escaped)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const compact = JSON.stringify(v);
        expect(indented(compact)).toBe(goHtml(JSON.stringify(v, null, 2)));
        // Already indented input gives the same.
        expect(indented(JSON.stringify(v, null, 4))).toBe(goHtml(JSON.stringify(v, null, 2)));
      }),
      { numRuns: 300 },
    );
  });

  it("indents nested values relative to their depth", () => {
    expect(indented('{"a":[1,{}],"b":[]}', 2)).toBe('{\n      "a": [\n        1,\n        {}\n      ],\n      "b": []\n    }');
  });

  it("quotes strings as Go does", () => {
    expect(goQuote("a<b>&c\u2028\n\b\f\u0001é")).toBe('"a\\u003cb\\u003e\\u0026c\\u2028\\n\\b\\f\\u0001é"');
  });

  it("validates and keeps raw values exactly, up to Go's nesting limit of 10000", () => {
    const deep = "[".repeat(10000) + "]".repeat(10000);
    const r = new JsonReader(`${deep} `, "t");
    expect(r.raw() === deep).toBe(true);
    const deeper = "[".repeat(10001) + "]".repeat(10001);
    expect(() => new JsonReader(deeper, "t").raw()).toThrow(/\[corrupt\].*more than 10000 levels deep/);
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v, null, 1);
        const reader = new JsonReader(text, "t");
        expect(reader.raw()).toBe(text);
      }),
      { numRuns: 200 },
    );
    for (const bad of ["[1,]", '{"a" 1}', "[01]", "[1.]", '{"a":1,}', "tru", '["\\x"]', "[", '{"a":}', "-"]) {
      expect(() => new JsonReader(bad, "t").raw()).toThrow(/\[corrupt\]/);
    }
  });
});

describe("output values", () => {
  it("encode and decode through cty", () => {
    const type = objectType({ a: numberType, b: listType(stringType) });
    const o = encodeOutput(fromPlain({ a: 1.5, b: ["x"] }, type), type, true);
    expect(o).toEqual({ valueJson: '{"a":1.5,"b":["x"]}', typeJson: '["object",{"a":"number","b":["list","string"]}]', sensitive: true });
    const d = decodeOutput(o);
    expect(d.sensitive).toBe(true);
    expect(typeEquals(d.type, type)).toBe(true);
  });
});
