import { CtyNumber } from "@magma/cty";
import { addNumbers, divideNumbers, moduloNumbers, multiplyNumbers, negatedText, negateNumber, NumberOpError, parseNumberLiteral, subtractNumbers } from "./number-ops.js";
import { parseExpression } from "./parse.js";

const n = (s: string): CtyNumber => CtyNumber.parse(s);

describe("go-cty's 512-bit arithmetic", () => {
  test("division rounds to 512 bits and prints the shortest decimal (terraform's 1/3)", () => {
    expect(divideNumbers(n("1"), n("3")).toString()).toBe(
      "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335",
    );
    expect(divideNumbers(n("2"), n("3")).toString()).toBe(
      "0.6666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666667",
    );
    expect(divideNumbers(n("10"), n("4")).toString()).toBe("2.5");
  });

  test("results round as in terraform: 1/3*3 is 1, 0.1+0.2 is 0.3, 10/3*3 is 10", () => {
    expect(multiplyNumbers(divideNumbers(n("1"), n("3")), n("3")).toString()).toBe("1");
    expect(addNumbers(n("0.1"), n("0.2")).toString()).toBe("0.3");
    expect(multiplyNumbers(divideNumbers(n("10"), n("3")), n("3")).toString()).toBe("10");
    // terraform 1.11.4 stores 1-0.9 as exactly this: cancellation leaves the 512-bit error visible
    expect(subtractNumbers(n("1"), n("0.9")).toString()).toBe(
      "0.10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003",
    );
  });

  test("big integers stay exact", () => {
    expect(multiplyNumbers(n("100000000000000000000"), n("3")).toString()).toBe("300000000000000000000");
    expect(addNumbers(n("9007199254740992"), n("1")).toString()).toBe("9007199254740993");
  });

  test("modulo takes the sign of the dividend; x % 0 is x", () => {
    expect(moduloNumbers(n("-7"), n("3")).toString()).toBe("-1");
    expect(moduloNumbers(n("7"), n("-3")).toString()).toBe("1");
    expect(moduloNumbers(n("5.5"), n("2")).toString()).toBe("1.5");
    expect(moduloNumbers(n("5"), n("0")).toString()).toBe("5");
  });

  test("infinities follow big.Float; invalid operations throw NumberOpError", () => {
    expect(divideNumbers(n("1"), n("0"))).toBe(CtyNumber.positiveInfinity);
    expect(divideNumbers(n("-1"), n("0"))).toBe(CtyNumber.negativeInfinity);
    expect(() => divideNumbers(n("0"), n("0"))).toThrow(NumberOpError);
    expect(() => addNumbers(CtyNumber.positiveInfinity, CtyNumber.negativeInfinity)).toThrow(NumberOpError);
    expect(() => multiplyNumbers(CtyNumber.zero, CtyNumber.positiveInfinity)).toThrow(NumberOpError);
    expect(negateNumber(CtyNumber.positiveInfinity)).toBe(CtyNumber.negativeInfinity);
  });

  test("long literals round to 512 bits, short ones are exact", () => {
    expect(parseNumberLiteral("0.1").toString()).toBe("0.1");
    const pi = "3.14159265358979323846264338327950288419716939937510";
    expect(parseNumberLiteral(pi).toString()).toBe(pi.replace(/0$/, ""));
    const long = "1." + "1".repeat(200);
    expect(parseNumberLiteral(long).toString().length).toBeLessThan(170);
  });

  test("a literal with few significant digits and a huge exponent is exact, and quick (fuzz finding)", () => {
    // terraform 1.11.4: length(tostring(1e99999)) is 100000, substr(…, 0, 20) "10000000000000000000".
    // Before: rounded through 100,000-digit bigints (about 0.3 s a literal on the loaded
    // machine: a 918-byte file of 100 of them took 34 s to load) into 999…9 (99,999 digits).
    const n = parseNumberLiteral("1e99999").toString();
    expect([n.length, n.slice(0, 20)]).toEqual([100_000, "10000000000000000000"]);
    expect(parseNumberLiteral("-1.5e99998").toString()).toBe(`-15${"0".repeat(99_997)}`);
    for (let i = 1; i < 200; i++) parseNumberLiteral(`${i % 9 + 1}.${i}e99998`);
  }, 60_000);

  test("negation keeps huge and tiny numbers exact without printing them in full (fuzz finding)", () => {
    // Before: -x was parsed back from x's plain text (100,000 digits for 1.5e-99999): 7.5 s.
    expect(negatedText(CtyNumber.parse("1.5e-99999"))).toBe("-15e-100000");
    expect(negatedText(CtyNumber.parse("-1e99999"))).toBe("1e99999");
    expect(negatedText(CtyNumber.parse("120.50"))).toBe("-1205e-1");
    expect(negatedText(CtyNumber.parse("0.001"))).toBe("-1e-3");
    for (const x of ["1.5e-99999", "1e99999", "-2.25", "7", "1e-3"]) {
      expect(negateNumber(negateNumber(CtyNumber.parse(x))).equals(CtyNumber.parse(x))).toBe(true);
    }
    const { expr, diags } = parseExpression(Array(50).fill("-1.5e-99999").join(" * 0 + "), "n.tf");
    expect(diags).toEqual([]);
    expect(expr.kind).toBe("binary");
  }, 60_000);
});

// Expected values are terraform 1.11.4's jsonencode of the same expressions (go-cty 1.16:
// big.Float arithmetic takes its operands' precision; pow returns a float64's).
describe("precision and the sign of zero, as go-cty's big.Float", () => {
  const f = (x: number): CtyNumber => CtyNumber.fromFloat64(x); // pow(...)
  const lit = (x: string): CtyNumber => parseNumberLiteral(x);
  test.each([
    ["pow(2,64) * 1", () => multiplyNumbers(f(2 ** 64), lit("1")), "18446744073709551616"],
    ["pow(2,64) + pow(2,64)", () => addNumbers(f(2 ** 64), f(2 ** 64)), "36893488147419100000"],
    ["pow(2,64) * pow(2,0)", () => multiplyNumbers(f(2 ** 64), f(1)), "18446744073709550000"],
    ["pow(2,64) / pow(2,0)", () => divideNumbers(f(2 ** 64), f(1)), "18446744073709550000"],
    ["-pow(2,64)", () => negateNumber(f(2 ** 64)), "-18446744073709550000"],
    ["pow(3,40) + 0", () => addNumbers(f(3 ** 40), lit("0")), "12157665459056928768"],
    ["pow(3,40) + pow(2,0)", () => addNumbers(f(3 ** 40), f(1)), "12157665459056929000"],
    ["pow(0.1,1) * 3", () => multiplyNumbers(f(0.1), lit("3")), "0.3000000000000000166533453693773481063544750213623046875"],
    ["0 * -1", () => multiplyNumbers(lit("0"), lit("-1")), "-0"],
    ["-0 + 0", () => addNumbers(negateNumber(lit("0")), lit("0")), "0"],
    ["-0 - 0", () => subtractNumbers(negateNumber(lit("0")), lit("0")), "-0"],
    ["-0 * 1", () => multiplyNumbers(negateNumber(lit("0")), lit("1")), "-0"],
    ["0 / -1", () => divideNumbers(lit("0"), lit("-1")), "-0"],
  ])("%s", (_expr, run, text) => {
    expect(run().toString()).toBe(text);
  });
});
