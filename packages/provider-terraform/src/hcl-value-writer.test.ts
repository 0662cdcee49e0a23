import { boolVal, emptyObjectVal, emptyTupleVal, listValEmpty, mapVal, nullVal, numberVal, objectVal, setVal, stringType, stringVal, tupleVal, CtyNumber } from "@magma/cty";
import { formatHclValue, formatTfvars, isHclIdentifier } from "./hcl-value-writer.js";

// Expected texts: terraform 1.11.4's provider::terraform::encode_expr / encode_tfvars on the same values.
const v = objectVal({
  a: tupleVal([numberVal(1), stringVal("x")]),
  b: objectVal({ c: boolVal(true), "d e": nullVal(stringType) }),
  s: stringVal('q"${x}\n\té\u0001'),
  n: numberVal(CtyNumber.parse("1.5e30")),
  m: mapVal({ z: stringVal("1"), y: stringVal("2") }),
  t: setVal([stringVal("b"), stringVal("a")]),
  e: emptyTupleVal,
  eo: emptyObjectVal,
  big: numberVal(CtyNumber.parse("12345678901234567890")),
});

describe("hclwrite's value formatting", () => {
  test("encode_expr: objects one attribute a line, aligned, keys sorted; sequences inline", () => {
    expect(formatHclValue(v)).toBe(
      '{\n  a = [1, "x"]\n  b = {\n    c     = true\n    "d e" = null\n  }\n  big = 12345678901234567890\n  e   = []\n  eo  = {}\n  m = {\n    y = "2"\n    z = "1"\n  }\n  n = 1500000000000000000000000000000\n  s = "q\\"$${x}\\n\\té\\u0001"\n  t = ["a", "b"]\n}',
    );
    expect(formatHclValue(tupleVal([objectVal({ a: emptyTupleVal }), objectVal({ b: emptyObjectVal }), listValEmpty(stringType), tupleVal([tupleVal([numberVal(1)])])]))).toBe(
      "[{\n  a = []\n  }, {\n  b = {}\n}, [], [[1]]]",
    );
    expect(formatHclValue(numberVal(CtyNumber.parse("0.1")))).toBe("0.1");
    expect(formatHclValue(numberVal(-3))).toBe("-3");
  });

  test("encode_tfvars: one attribute a line, the file ending in a newline", () => {
    expect(formatTfvars([["a", tupleVal([numberVal(1), stringVal("x")])], ["z", tupleVal([objectVal({ a: numberVal(1) }), objectVal({ a: numberVal(2) })])]])).toBe(
      'a = [1, "x"]\nz = [{\n  a = 1\n  }, {\n  a = 2\n}]\n',
    );
  });

  test("identifiers as hclsyntax.ValidIdentifier", () => {
    expect(["a", "a-b", "_x", "é1"].map(isHclIdentifier)).toEqual([true, true, true, true]); // terraform encodes {_x = 1} as `_x = 1`
    expect(["1a", "d e", ""].map(isHclIdentifier)).toEqual([false, false, false]);
  });
});
