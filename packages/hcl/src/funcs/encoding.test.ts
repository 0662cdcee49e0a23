// Expected values from terraform 1.11.4 (see testdata/corpus/encoding.json).
import { listVal, mapVal, nullVal, numberVal, objectVal, stringType, stringVal, tupleVal, typeToJson } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;
const n = numberVal;

describe("encoding functions", () => {
  it("encodes JSON as Go does (HTML-safe escapes, sorted keys, exact numbers)", () => {
    expect(call("jsonencode", s("<a & b>")).asString()).toBe('"\\u003ca \\u0026 b\\u003e"');
    expect(call("jsonencode", objectVal({ b: n(1), a: n(2), "c d": tupleVal([n(1)]) })).asString()).toBe('{"a":2,"b":1,"c d":[1]}');
    expect(call("jsonencode", n("1e30")).asString()).toBe("1000000000000000000000000000000");
    expect(call("jsonencode", nullVal(stringType)).asString()).toBe("null");
  });

  it("decodes JSON into its implied type, numbers exact", () => {
    const v = call("jsondecode", s('[1, "a", true, null, {"b": [] }]'));
    expect(typeToJson(v.type)).toBe('["tuple",["number","string","bool","dynamic",["object",{"b":["tuple",[]]}]]]');
    expect(call("jsondecode", s("12345678901234567890.5")).asNumber().toString()).toBe("12345678901234567890.5");
    expect(callError("jsondecode", s("[1,"))).toMatchObject({ message: "EOF" });
    expect(callError("jsondecode", s("01"))).toMatchObject({ message: "extraneous data after JSON object" });
  });

  it("decodes CSV as Go's encoding/csv reads it", () => {
    const v = call("csvdecode", s('a,b\n"x, y","he said ""hi"""\n'));
    expect(v.elements()[0]!.getAttr("b").asString()).toBe('he said "hi"');
    expect(callError("csvdecode", s("a,b\n1,2\n3"))).toMatchObject({ message: "CSV parse error on line 3: wrong number of fields" });
    expect(callError("csvdecode", s(""))).toMatchObject({ message: "missing header line" });
  });

  it("decodes CSV columns named like Object.prototype's members (fuzz finding)", () => {
    // Before: "constructor" was a "duplicate column name" and "__proto__" was silently dropped.
    const v = call("csvdecode", s("constructor,__proto__,toString\n1,2,3\n"));
    const row = v.elements()[0]!;
    expect([row.getAttr("constructor").asString(), row.getAttr("__proto__").asString(), row.getAttr("toString").asString()]).toEqual(["1", "2", "3"]);
    expect(callError("csvdecode", s("__proto__,__proto__\n1,2\n"))).toMatchObject({ message: 'duplicate column name "__proto__"' });
  });

  it("writes YAML as go-yaml's emitter does", () => {
    expect(call("yamlencode", objectVal({ a: s("line1\nline2"), b: s("x: y"), c: tupleVal([objectVal({ d: n("1.5"), e: tupleVal([]) }), s("z")]) })).asString()).toBe(
      '"a": |-\n  line1\n  line2\n"b": "x: y"\n"c":\n- "d": 1.5\n  "e": []\n- "z"\n',
    );
    expect(call("yamlencode", n(1)).asString()).toBe("1\n...\n");
    expect(call("yamlencode", listVal([s("é"), s("👍"), s("<&>")])).asString()).toBe('- "é"\n- "\\U0001F44D"\n- "<&>"\n');
    expect(call("yamlencode", mapVal({ b: s("1"), a: s("2") })).asString()).toBe('"a": "2"\n"b": "1"\n');
  });

  it("reads YAML with go-yaml's scalar resolution", () => {
    const v = call("yamldecode", s("a: yes\nb: 0x10\nc: 1e3\nd: ~\ne: [1, two]\nf: 2001-12-14\ng: 1.5\nh: 010\ni: on\n"));
    expect(JSON.parse(typeToJson(v.type))).toEqual([
      "object",
      { a: "bool", b: "number", c: "number", d: "dynamic", e: ["tuple", ["number", "string"]], f: "string", g: "number", h: "number", i: "bool" },
    ]);
    expect(v.getAttr("f").asString()).toBe("2001-12-14T00:00:00Z");
    expect(v.getAttr("h").asNumber().toString()).toBe("10");
  });

  it("handles base64, gzip, URL and text encodings", () => {
    expect(call("base64encode", s("é👍")).asString()).toBe("w6nwn5GN");
    expect(callError("base64decode", s("SGVsbG8"))).toMatchObject({ message: 'failed to decode base64 data "SGVsbG8"' });
    expect(call("base64gzip", s("hello")).asString()).toBe("H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==");
    expect(call("urlencode", s("a+b=c&d/e?f#g")).asString()).toBe("a%2Bb%3Dc%26d%2Fe%3Ff%23g");
    expect(call("textencodebase64", s("Hello World"), s("UTF-16LE")).asString()).toBe("SABlAGwAbABvACAAVwBvAHIAbABkAA==");
    expect(callError("textencodebase64", s("hi"), s("nope"))).toEqual({
      name: "FunctionArgError",
      message: '"nope" is not a supported IANA encoding name or alias in this Terraform version',
      argIndex: 1,
    });
  });
});
