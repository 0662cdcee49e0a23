// Expected values from terraform 1.11.4 (see testdata/corpus/format.json).
import { boolVal, dynamicType, listVal, nullVal, numberVal, stringVal, tupleVal, unknownVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;
const n = numberVal;
const fmt = (f: string, ...args: Parameters<typeof call>[1][]) => call("format", s(f), ...args).asString();

describe("format", () => {
  it("prints numbers as go's big.Float and big.Int do", () => {
    expect(fmt("%v %v %v %v %v", n("0.1"), n(100000), n(1000000), n("0.00001"), n("0.0001"))).toBe("0.1 100000 1e+06 1e-05 0.0001");
    expect(fmt("%e|%E|%.2e|%.0e", n("123456.789"), n("0.000123"), n("1.5"), n(25))).toBe("1.234568e+05|1.230000E-04|1.50e+00|2e+01");
    expect(fmt("%f|%.2f|%.0f|%8.3f|%-8.1f|%08.2f", n("3.14159"), n("3.14159"), n("2.5"), n("-3.14159"), n("1.25"), n("1.5"))).toBe(
      "3.141590|3.14|2|  -3.142|1.2     |00001.50",
    );
    expect(fmt("%#b %#o %#x %#X", n(10), n(10), n(255), n(255))).toBe("0b1010 012 0xff 0XFF");
    expect(fmt("%08d|%-8d|%+d|% d|%8d", n(42), n(42), n(42), n(42), n(-42))).toBe("00000042|42      |+42| 42|     -42");
  });

  it("pads strings by grapheme clusters and quotes as JSON", () => {
    expect(fmt("%.3s", s("noël 👍🏽!"))).toBe("noë");
    expect(fmt("%5s|", s("👍🏽"))).toBe("    👍🏽|");
    expect(fmt("%q", s('hello "world" <>&'))).toBe('"hello \\"world\\" \\u003c\\u003e\\u0026"');
    expect(fmt("%v", tupleVal([n(1), s("a")]))).toBe('[1,"a"]');
  });

  it("reports go-cty's errors", () => {
    expect(callError("format", s("%d"), n("1.5"))).toMatchObject({ message: 'unsupported value for "%d" at 0: an integer is required' });
    expect(callError("format", s("%s"), s("a"), s("b"))).toEqual({ name: "FunctionArgError", message: "too many arguments; only 1 used by format string", argIndex: 2 });
    expect(callError("format", s("%!"), n(1))).toMatchObject({ message: "unrecognized format character '!' at offset 1" });
    expect(callError("format", s("%"), n(1))).toMatchObject({ message: "invalid format string starting at offset 1" });
    expect(callError("format", s("%[3]s"), s("a"), s("b"))).toMatchObject({ message: 'not enough arguments for "%[3]s" at 0: need index 3 but have 2 total' });
  });

  it("is unknown for a bare null argument and for unknowns", () => {
    expect(call("format", s("%s"), nullVal(dynamicType)).isKnown()).toBe(false);
    expect(call("format", s("%s"), unknownVal({ kind: "string" })).isKnown()).toBe(false);
  });

  it("formats lists element by element", () => {
    const r = call("formatlist", s("%s=%d"), listVal([s("a"), s("b")]), listVal([n(1), n(2)]));
    expect(r.elements().map((e) => e.asString())).toEqual(["a=1", "b=2"]);
    expect(callError("formatlist", s("%s=%d"), listVal([s("a"), s("b")]), listVal([n(1), n(2), n(3)]))).toMatchObject({
      message: "argument 2 has length 3, which is inconsistent with argument 1 of length 2",
    });
    expect(fmt("%t", boolVal(true))).toBe("true");
  });
});
