// Expected values from terraform 1.11.4 (see testdata/corpus/string.json).
import { listVal, numberVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;

describe("string functions", () => {
  it("changes case per code point as Go does", () => {
    expect(call("upper", s("hello wörld ß")).asString()).toBe("HELLO WÖRLD ß");
    expect(call("lower", s("HELLO WÖRLD İ")).asString()).toBe("hello wörld i");
    expect(call("title", s("hello world-foo bar_baz 1st élan")).asString()).toBe("Hello World-Foo Bar_baz 1st Élan");
  });

  it("counts grapheme clusters in substr and strrev", () => {
    expect(call("substr", s("noël 👍🏽!"), numberVal(3), numberVal(3)).asString()).toBe("l 👍🏽");
    expect(call("substr", s("hello world"), numberVal(-5), numberVal(-1)).asString()).toBe("world");
    expect(call("strrev", s("noël 👍🏽 x")).asString()).toBe("x 👍🏽 lëon");
  });

  it("rejects a fractional offset with go-cty's message", () => {
    expect(callError("substr", s("hello"), numberVal(1.5), numberVal(2))).toEqual({
      name: "FunctionError",
      message: "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
    });
  });

  it("joins, splits and trims", () => {
    expect(call("join", s("-"), listVal([s("a")]), listVal([s("b"), s("c")])).asString()).toBe("a-b-c");
    expect(callError("join", s(","))).toMatchObject({ message: "at least one list is required" });
    expect(call("split", s(""), s("abc")).elements().map((v) => v.asString())).toEqual(["a", "b", "c"]);
    expect(call("chomp", s("hello\r\n")).asString()).toBe("hello");
    expect(call("trimspace", s("\u00a0x\u3000")).asString()).toBe("x");
    expect(call("trim", s("?!hello?!"), s("!?")).asString()).toBe("hello");
  });

  it("replaces substrings and RE2 patterns with Go's template expansion", () => {
    expect(call("replace", s("hello"), s(""), s("-")).asString()).toBe("-h-e-l-l-o-");
    expect(call("replace", s("hello world"), s("/o(.)/"), s("<$1>")).asString()).toBe("hell< >w<r>ld");
    expect(call("replace", s("hello"), s("/(l)/"), s("$1x")).asString()).toBe("heo");
    expect(call("replace", s("aaa"), s("/a*/"), s("b")).asString()).toBe("b");
    expect(callError("replace", s("abc"), s("/[/"), s("x"))).toMatchObject({ message: "error parsing regexp: missing closing ]: `[`" });
  });

  it("keeps unknowns unknown and non-null", () => {
    const r = call("upper", unknownVal(stringType));
    expect(r.isKnown()).toBe(false);
    expect(r.refinements.notNull).toBe(true);
  });
});
