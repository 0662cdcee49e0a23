// Expected values from terraform 1.11.4 (see testdata/corpus/regex.json).
import { stringVal, typeToJson, unknownVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;

describe("regex and regexall (RE2 semantics)", () => {
  it("returns a string, a tuple or an object by the pattern's groups", () => {
    expect(call("regex", s("[a-z]+"), s("53453453.345345aaabbbccc23454")).asString()).toBe("aaabbbccc");
    expect(typeToJson(call("regex", s("(\\d\\d)(\\d\\d)"), s("2019-12")).type)).toBe('["tuple",["string","string"]]');
    const o = call("regex", s("(?<year>\\d{4})-(?<month>\\d{2})"), s("2019-12"));
    expect(o.getAttr("month").asString()).toBe("12");
    expect(call("regex", s("a(b)?c"), s("ac")).elements()[0]!.isNull()).toBe(true);
  });

  it("has RE2's syntax: \\z, \\pL, POSIX classes, (?U), \\Q…\\E", () => {
    expect(call("regex", s("c\\z"), s("abc")).asString()).toBe("c");
    expect(call("regex", s("\\pL+"), s("héllo123")).asString()).toBe("héllo");
    expect(call("regex", s("[[:alpha:]]+"), s("123abc456")).asString()).toBe("abc");
    expect(call("regex", s("(?U)a+"), s("aaa")).asString()).toBe("a");
    expect(call("regex", s("\\Qa.b\\E"), s("xa.by")).asString()).toBe("a.b");
    expect(call("regex", s("a|ab"), s("ab")).asString()).toBe("a");
  });

  it("finds successive matches as Go's FindAll does (no empty match right after a match)", () => {
    expect(call("regexall", s("a*"), s("baaac")).elements().map((e) => e.asString())).toEqual(["", "aaa", ""]);
    expect(call("regexall", s(""), s("abc")).elements().length).toBe(4);
  });

  it("reports errors as go-cty words them", () => {
    expect(callError("regex", s("("), s("x"))).toEqual({ name: "FunctionArgError", message: "invalid regexp pattern: missing closing ) in (", argIndex: 0 });
    expect(callError("regex", s("(a)(?P<n>b)"), s("ab"))).toMatchObject({ message: "invalid regexp pattern: cannot mix both named and unnamed capture groups" });
    expect(callError("regex", s("[a-z]+"), s("12345"))).toEqual({ name: "FunctionError", message: "pattern did not match any part of the given string" });
  });

  it("cannot type the result of an unknown pattern", () => {
    expect(call("regex", unknownVal({ kind: "string" }), s("x")).type.kind).toBe("dynamic");
  });
});
