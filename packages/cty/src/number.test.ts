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

describe("numbers of many digits with trailing zeros (issue 20 fuzz finding)", () => {
  it("parse and fromBigInt strip trailing zeros in linear time", () => {
    // Before: one bigint division per trailing zero, quadratic: a 100,000-digit text took
    // seconds (hcl builds such texts for exact decimals, e.g. from 1e99999), and the
    // million-digit integer below stripped about 1,000 of its zeros in 20 s (hours in all);
    // now it takes about a second. The bound is this test's timeout.
    const million = CtyNumber.fromBigInt(BigInt(`3${"0".repeat(999_999)}`));
    expect([million.isInteger(), million.sign(), million.isFloat64()]).toEqual([true, 1, false]);
    const text = `7${"0".repeat(99_999)}`;
    const a = CtyNumber.parse(text);
    expect(a.equals(CtyNumber.parse("7e99999"))).toBe(true);
    expect(a.toString()).toBe(text);
    const b = CtyNumber.fromBigInt(BigInt(`-3${"0".repeat(99_999)}`));
    expect(b.equals(CtyNumber.parse("-3e99999"))).toBe(true);
    expect(CtyNumber.parse(`1${"0".repeat(50_000)}1${"0".repeat(49_000)}`).equals(CtyNumber.parse(`1${"0".repeat(50_000)}1e49000`))).toBe(true);
    expect(CtyNumber.parse(`12.5${"0".repeat(90_000)}`).toString()).toBe("12.5");
  }, 120_000);

  it("keeps the range check on the number as written", () => {
    expect(() => CtyNumber.parse(`1${"0".repeat(100_001)}`)).toThrow(/out of the supported range/);
    expect(CtyNumber.parse(`1${"0".repeat(99_999)}`).isInteger()).toBe(true);
  });
});
