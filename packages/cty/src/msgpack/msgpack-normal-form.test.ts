import fc from "fast-check";
import { listVal, mapVal, numberVal, objectVal, stringVal, tupleVal } from "../construction.js";
import { Mark } from "../marks.js";
import { CtyNumber } from "../number.js";
import { numberType } from "../type.js";
import type { Value } from "../value.js";
import { fromMsgpack, msgpackNormalForm, toMsgpack } from "./index.js";

/** A number's identity as go-cty prints and computes with it: its text and its precision. */
const ident = (n: CtyNumber): string => `${n.toString()}${n.isFloat64Precision() ? "/53" : ""}${n.isNegativeZero() ? "/-0" : ""}`;
const numberOf = (v: Value): CtyNumber => v.asNumber();

describe("msgpackNormalForm", () => {
  test.each<[string, CtyNumber, string]>([
    ["negative zero becomes 0", CtyNumber.negativeZero, "0"],
    ["pow(2, 64) becomes the number its 53-bit text denotes", CtyNumber.fromFloat64(2 ** 64), "18446744073709551616"],
    ["pow(2, 60) stays exact, as an integer", CtyNumber.fromFloat64(2 ** 60), "1152921504606846976"],
    ["a decimal that is exactly a float64 takes a float64's precision", CtyNumber.parse("0.5"), "0.5/53"],
  ])("%s", (_name, n, expected) => {
    const out = numberOf(msgpackNormalForm(numberVal(n)));
    const direct = numberOf(fromMsgpack(toMsgpack(numberVal(n), numberType), numberType));
    expect(ident(out)).toBe(ident(direct));
    if (expected === "18446744073709551616") expect(out.toString()).toBe("18446744073709550000");
    else expect(ident(out)).toBe(expected);
  });

  test("a value with no number that changes is returned as it is", () => {
    const v = objectVal({ a: numberVal(CtyNumber.parse("0.1")), b: stringVal("-0"), c: listVal([numberVal(3)]) });
    expect(msgpackNormalForm(v)).toBe(v);
  });

  test("numbers nested in collections and structures change as msgpack changes them", () => {
    const v = tupleVal([mapVal({ k: numberVal(CtyNumber.negativeZero) }), objectVal({ p: numberVal(CtyNumber.fromFloat64(2 ** 64)) })]);
    const out = msgpackNormalForm(v);
    expect(out.equals(fromMsgpack(toMsgpack(v, v.type), v.type)).asBool()).toBe(true);
    expect(ident(out.index(0).index("k").asNumber())).toBe("0");
  });

  test("a marked value is returned unchanged (msgpack carries no marks)", () => {
    const v = numberVal(CtyNumber.negativeZero).mark(Mark.Sensitive);
    expect(msgpackNormalForm(v)).toBe(v);
  });

  test("property: every number comes out as a msgpack round trip gives it back", () => {
    const numbers = fc.oneof(
      fc.double({ noNaN: true }).map((f) => CtyNumber.fromFloat64(f)),
      fc.double({ noNaN: true }).map((f) => CtyNumber.from(f)),
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((b) => CtyNumber.fromBigInt(b)),
      fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: -30, max: 30 })).map(([c, e]) => CtyNumber.parse(`${c}e${e}`)),
      fc.constantFrom(CtyNumber.negativeZero, CtyNumber.zero, CtyNumber.positiveInfinity, CtyNumber.negativeInfinity),
    );
    fc.assert(
      fc.property(numbers, (n) => {
        const v = numberVal(n);
        expect(ident(numberOf(msgpackNormalForm(v)))).toBe(ident(numberOf(fromMsgpack(toMsgpack(v, numberType), numberType))));
      }),
      { numRuns: 2000 },
    );
  });
});
