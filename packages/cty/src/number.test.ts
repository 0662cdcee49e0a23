import { CtyNumber } from "./number.js";
import { isPathError } from "./path-error.js";

describe("CtyNumber", () => {
  test.each([
    ["9007199254740993", "9007199254740993"],
    ["18446744073709551616", "18446744073709551616"],
    ["1e30", "1000000000000000000000000000000"],
    ["3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288"],
    ["0.1", "0.1"],
    ["-0", "0"],
    ["2.50", "2.5"],
    ["1E-7", "0.0000001"],
    [".5", "0.5"],
    ["+12", "12"],
    ["1152921504606846976", "1152921504606846976"],
  ])("parse(%s) prints %s", (input, text) => {
    expect(CtyNumber.parse(input).toString()).toBe(text);
  });

  test("float64 origin prints shortest, decimal origin prints exactly", () => {
    expect(CtyNumber.fromFloat64(0.1).toString()).toBe("0.1");
    expect(CtyNumber.fromFloat64(1e-7).toString()).toBe("0.0000001");
    expect(CtyNumber.fromFloat64(1e21).toString()).toBe("1000000000000000000000");
    expect(CtyNumber.fromFloat64(0.1).equals(CtyNumber.parse("0.1"))).toBe(false);
    expect(
      CtyNumber.fromFloat64(0.1).equals(CtyNumber.parse("0.1000000000000000055511151231257827021181583404541015625")),
    ).toBe(true);
  });

  test("float64 exactness", () => {
    expect(CtyNumber.parse("2.5").isFloat64()).toBe(true);
    expect(CtyNumber.parse("0.1").isFloat64()).toBe(false);
    expect(CtyNumber.parse("18446744073709551616").isFloat64()).toBe(true);
    expect(CtyNumber.parse("9007199254740993").isFloat64()).toBe(false);
    expect(CtyNumber.parse("1e30").isFloat64()).toBe(false);
    expect(CtyNumber.parse("5e-324").isFloat64()).toBe(false);
    expect(CtyNumber.fromFloat64(5e-324).isFloat64()).toBe(true);
  });

  test("int64 range", () => {
    expect(CtyNumber.parse("9223372036854775807").isInt64()).toBe(true);
    expect(CtyNumber.parse("9223372036854775808").isInt64()).toBe(false);
    expect(CtyNumber.parse("-9223372036854775808").isInt64()).toBe(true);
    expect(CtyNumber.parse("-9223372036854775809").isInt64()).toBe(false);
    expect(CtyNumber.parse("1.5").isInt64()).toBe(false);
  });

  test("compare", () => {
    const n = (s: string) => CtyNumber.parse(s);
    expect(n("1").compare(n("2"))).toBe(-1);
    expect(n("-1").compare(n("-2"))).toBe(1);
    expect(n("0.1").compare(n("0.10"))).toBe(0);
    expect(n("1e30").compare(CtyNumber.fromFloat64(1e30))).not.toBe(0);
    expect(n("123.456").compare(n("123.4561"))).toBe(-1);
    expect(CtyNumber.positiveInfinity.compare(n("1e300"))).toBe(1);
  });

  test.each(["", "abc", "1e", "--1", "0x10", "1e9999999999", "NaN"])("rejects %p with a typed error", (s) => {
    let err: unknown;
    try {
      CtyNumber.parse(s);
    } catch (e) {
      err = e;
    }
    expect(isPathError(err)).toBe(true);
  });
});
