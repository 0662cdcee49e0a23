import { CtyNumber } from "./number.js";
import { isPathError } from "./path-error.js";

describe("CtyNumber", () => {
  test.each([
    ["9007199254740993", "9007199254740993"],
    ["18446744073709551616", "18446744073709551616"],
    ["1e30", "1000000000000000000000000000000"],
    ["3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288"],
    ["0.1", "0.1"],
    ["-0", "-0"],
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

  // Expected texts are terraform 1.11.4's (go-cty 1.16): `pow(2, 64)` is stored as
  // 18446744073709550000, `tostring(-0)` is "-0", jsonencode(pow(2, -30)) and pow(3, 40) as below.
  test.each([
    [2 ** 64, "18446744073709550000"],
    [-(2 ** 64), "-18446744073709550000"],
    [2 ** 63, "9223372036854776000"],
    [3 ** 40, "12157665459056929000"],
    [2 ** 65, "36893488147419100000"],
    [2 ** -30, "0.0000000009313225746154785"],
    [Math.SQRT2, "1.4142135623730951"],
    [1e30, "1000000000000000000000000000000"],
    [Number.MAX_VALUE, `17976931348623157${"0".repeat(292)}`],
  ])("a float64 of 53-bit precision (%d) prints as go-cty prints it: %s", (f, text) => {
    const n = CtyNumber.fromFloat64(f);
    expect(n.isFloat64Precision()).toBe(true);
    expect(n.toString()).toBe(text);
    // Precision changes printing only: the value is still exactly the float64.
    if (Number.isInteger(f)) {
      expect(n.equals(CtyNumber.from(BigInt(f)))).toBe(true);
      expect(CtyNumber.from(BigInt(f)).isFloat64Precision()).toBe(false);
    }
  });

  test("whole numbers from integers and text print exactly", () => {
    expect(CtyNumber.from(2n ** 64n).toString()).toBe("18446744073709551616");
    expect(CtyNumber.parse("18446744073709551616").toString()).toBe("18446744073709551616");
    expect(CtyNumber.from(42).isFloat64Precision()).toBe(false);
  });

  test("a subnormal float64 prints with a 53-bit mantissa, as big.Float holds it", () => {
    // go-cty 1.12's JSON of NumberFloatVal(math.SmallestNonzeroFloat64) (testdata vectors).
    expect(CtyNumber.fromFloat64(5e-324).toString()).toBe(`0.${"0".repeat(323)}4940656458412465`);
  });

  test("negative zero: prints -0, equals zero, negates back, keeps precision out of it", () => {
    const z = CtyNumber.negativeZero;
    expect(z.toString()).toBe("-0");
    expect(CtyNumber.parse("-0")).toBe(z);
    expect(CtyNumber.parse("-0.0e5")).toBe(z);
    expect(CtyNumber.fromFloat64(-0)).toBe(z);
    expect(CtyNumber.from(-0)).toBe(CtyNumber.zero);
    expect(z.equals(CtyNumber.zero)).toBe(true);
    expect(z.compare(CtyNumber.zero)).toBe(0);
    expect(z.sign()).toBe(0);
    expect(z.isNegativeZero()).toBe(true);
    expect(CtyNumber.zero.isNegativeZero()).toBe(false);
    expect(CtyNumber.zero.negate()).toBe(z);
    expect(z.negate()).toBe(CtyNumber.zero);
    expect(z.isInt64()).toBe(true);
    expect(z.toBigInt()).toBe(0n);
  });

  test("negate keeps the precision and is exact", () => {
    const f = CtyNumber.fromFloat64(2 ** 64).negate();
    expect(f.isFloat64Precision()).toBe(true);
    expect(f.toString()).toBe("-18446744073709550000");
    expect(CtyNumber.parse("0.1").negate().toString()).toBe("-0.1");
    expect(CtyNumber.positiveInfinity.negate()).toBe(CtyNumber.negativeInfinity);
  });
});
