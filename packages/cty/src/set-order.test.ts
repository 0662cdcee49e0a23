import { numberVal, objectVal, setVal, stringVal } from "./construction.js";
import { CtyNumber } from "./number.js";



// Orders observed from terraform 1.11.4 (go-cty 1.16) for `toset([...])` of the same elements,
// in the same input order.
describe("set order of elements that are not primitive: go-cty's hash string", () => {
  test("numbers as big.Float.String() writes them (ten digits, exponent form)", () => {
    const inputs = ["100", "1e20", "2", "0.00001", "12345678901", "1.5", "-3", "1234567"];
    const set = setVal(inputs.map((n) => objectVal({ a: numberVal(CtyNumber.parse(n)) })));
    expect([...set.elements()].map((e) => e.getAttr("a").asNumber().toString())).toEqual([
      "-3",
      "12345678901",
      "1.5",
      "100",
      "1234567",
      "100000000000000000000",
      "0.00001",
      "2",
    ]);
  });

  test("numbers equal to ten digits keep their input order", () => {
    const inputs = ["1.00000000001", "1.00000000002", "1.000000000015"];
    const set = setVal(inputs.map((n) => objectVal({ a: numberVal(CtyNumber.parse(n)) })));
    expect([...set.elements()].map((e) => e.getAttr("a").asNumber().toString())).toEqual(inputs);
  });

  test("strings as Go's %q writes them", () => {
    const set = setVal(["é", "\t", "z", "\u00a0", "A"].map((s) => objectVal({ a: stringVal(s) })));
    expect([...set.elements()].map((e) => e.getAttr("a").asString())).toEqual(["A", "\t", "\u00a0", "z", "é"]);
  });

  test("-0 and 0 are two elements, -0 first", () => {
    const set = setVal([numberVal(CtyNumber.zero), numberVal(CtyNumber.negativeZero)]);
    expect([...set.elements()].map((e) => e.asNumber().toString())).toEqual(["-0", "0"]);
  });
});
