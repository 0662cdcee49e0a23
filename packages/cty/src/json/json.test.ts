import { CtyNumber } from "../number.js";
import { isPathError, type PathError } from "../path-error.js";
import {
  boolType,
  dynamicType,
  emptyObjectType,
  emptyTupleType,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  type Type,
} from "../type.js";
import { boolVal, emptyObjectVal, emptyTupleVal, listVal, listValEmpty, mapVal, nullVal, numberVal, objectVal, setVal, stringVal, tupleVal, unknownVal } from "../construction.js";
import { Mark } from "../marks.js";
import type { Value } from "../value.js";
import { fromJson, toJson } from "./index.js";

function thrown(f: () => unknown): PathError {
  try {
    f();
  } catch (e) {
    if (isPathError(e)) return e;
    throw e;
  }
  throw new Error("expected a PathError");
}

const objT = objectType({ name: stringType, port: numberType });

/** [type, a known value of it, its JSON] for every kind of type. */
const KNOWN: [string, Type, Value, string][] = [
  ["string", stringType, stringVal('a"b<'), '"a\\"b\\u003c"'],
  ["number", numberType, numberVal("12.5"), "12.5"],
  ["bool", boolType, boolVal(true), "true"],
  ["list", listType(stringType), listVal([stringVal("x"), stringVal("y")]), '["x","y"]'],
  ["empty list", listType(numberType), listValEmpty(numberType), "[]"],
  ["set", setType(numberType), setVal([numberVal(3), numberVal(1)]), "[1,3]"],
  [
    "map",
    mapType(boolType),
    mapVal({ b: boolVal(false), a: boolVal(true) }),
    '{"a":true,"b":false}',
  ],
  [
    "object",
    objT,
    objectVal({ port: numberVal(80), name: stringVal("web") }),
    '{"name":"web","port":80}',
  ],
  ["empty object", emptyObjectType, emptyObjectVal, "{}"],
  [
    "tuple",
    tupleType([stringType, numberType]),
    tupleVal([stringVal("a"), numberVal(1)]),
    '["a",1]',
  ],
  ["empty tuple", emptyTupleType, emptyTupleVal, "[]"],
  ["dynamic", dynamicType, stringVal("s"), '{"value":"s","type":"string"}'],
];

describe("every type × known, null, unknown", () => {
  test.each(KNOWN)("%s known round-trips", (_n, type, value, json) => {
    expect(toJson(value, type)).toBe(json);
    expect(fromJson(json, type).rawEquals(value)).toBe(true);
  });
  test.each(KNOWN)("%s null is null", (_n, type) => {
    expect(toJson(nullVal(type), type)).toBe("null");
    const back = fromJson("null", type);
    expect(back.isNull()).toBe(true);
    expect(back.type).toEqual(type);
  });
  test.each(KNOWN)("%s unknown is an unknown_value error", (_n, type) => {
    const e = thrown(() => toJson(unknownVal(type), type));
    expect(e.code).toBe("unknown_value");
    expect(e.message).toBe("value is not known");
  });
  test("a null of a concrete type in a dynamic slot keeps its type", () => {
    expect(toJson(nullVal(stringType), dynamicType)).toBe('{"value":null,"type":"string"}');
    expect(
      fromJson('{"value":null,"type":"string"}', dynamicType).rawEquals(nullVal(stringType)),
    ).toBe(true);
  });
});

describe("exact numbers", () => {
  test.each([
    "9007199254740993",
    "18446744073709551616",
    "1000000000000000000000000000000",
    "3.14159265358979323846264338327950288",
    "-0.000000000000000000000000000001",
    "123456789012345678901234567890.123456789",
  ])("%s survives decode and encode", (text) => {
    const v = fromJson(text, numberType);
    expect(v.asNumber().equals(CtyNumber.parse(text))).toBe(true);
    expect(toJson(v, numberType)).toBe(text);
    expect(fromJson(`"${text}"`, numberType).asNumber().equals(CtyNumber.parse(text))).toBe(true);
  });
  test("exponents are written out in full", () => {
    expect(toJson(fromJson("1e30", numberType), numberType)).toBe(
      "1000000000000000000000000000000",
    );
    expect(toJson(fromJson("1.5E-3", numberType), numberType)).toBe("0.0015");
    expect(toJson(numberVal(2n ** 64n), numberType)).toBe("18446744073709551616");
  });
  test("numbers inside structures stay exact", () => {
    const t = objectType({ n: listType(numberType) });
    const json = '{"n":[9007199254740993,18446744073709551616]}';
    expect(toJson(fromJson(json, t), t)).toBe(json);
  });
  test("infinity cannot be written", () => {
    const e = thrown(() => toJson(numberVal(CtyNumber.positiveInfinity), numberType));
    expect(e.code).toBe("invalid_value");
    const e2 = thrown(() =>
      toJson(listVal([numberVal(CtyNumber.negativeInfinity)]), listType(numberType)),
    );
    expect(e2.message).toBe("[0]: cannot serialize infinity as JSON");
  });
  test("a number beyond the supported exponent is invalid_value", () => {
    const e = thrown(() => fromJson('{"a":1e999999}', objectType({ a: numberType })));
    expect(e.code).toBe("invalid_value");
    expect(e.path.toString()).toBe("a");
  });
});

describe("dynamic", () => {
  const t = objectType({ dyn: dynamicType });
  test("an object in a dynamic slot", () => {
    const json = '{"dyn":{"value":{"x":1},"type":["object",{"x":"number"}]}}';
    const v = fromJson(json, t);
    expect(v.getAttr("dyn").getAttr("x").asNumber().toString()).toBe("1");
    expect(toJson(v, t)).toBe(json);
  });
  test("type may come before value", () => {
    expect(fromJson('{"type":"number","value":"7"}', dynamicType).asNumber().toString()).toBe("7");
  });
  test.each([
    ['{"dyn":{"value":1}}', ".dyn: missing type in dynamically-typed value"],
    ['{"dyn":{"type":"number"}}', ".dyn: missing value in dynamically-typed value"],
    [
      '{"dyn":{"value":1,"type":"number","x":2}}',
      '.dyn: invalid key "x" in dynamically-typed value',
    ],
    ['{"dyn":"x"}', ".dyn: missing expected {"],
  ])("%s is a type_mismatch", (json, message) => {
    const e = thrown(() => fromJson(json, t));
    expect(e.code).toBe("type_mismatch");
    expect(e.message).toBe(message);
  });
  test("a bad type is invalid_type at the slot", () => {
    const e = thrown(() => fromJson('{"dyn":{"value":1,"type":"strin"}}', t));
    expect(e.code).toBe("invalid_type");
    expect(e.path.toString()).toBe("dyn");
  });
  test("an unknown in a dynamic slot is an error (not go-cty 1.12's invalid JSON)", () => {
    expect(thrown(() => toJson(objectVal({ dyn: unknownVal(stringType) }), t)).message).toBe(
      ".dyn: value is not known",
    );
  });
});

describe("lenient decoding, as go-cty", () => {
  test("a missing attribute is null", () => {
    const v = fromJson('{"name":"x"}', objT);
    expect(v.getAttr("port").isNull()).toBe(true);
    expect(v.getAttr("port").type).toBe(numberType);
  });
  test("numbers may be strings", () => {
    expect(fromJson('"1e3"', numberType).asNumber().toString()).toBe("1000");
    expect(fromJson('"Inf"', numberType).asNumber().isInfinite()).toBe(true);
    expect(fromJson('"1p4"', numberType).asNumber().toString()).toBe("16");
  });
  test("strings accept number and bool tokens as their text", () => {
    expect(fromJson("1.50", stringType).asString()).toBe("1.50");
    expect(fromJson("-0", stringType).asString()).toBe("-0");
    expect(fromJson("false", stringType).asString()).toBe("false");
  });
  test.each([
    ['"true"', true],
    ['"false"', false],
    ['"1"', true],
    ['"0"', false],
  ])("bool from %s", (json, b) => {
    expect(fromJson(json, boolType).asBool()).toBe(b);
  });
  test("duplicate keys: the last one wins", () => {
    expect(fromJson('{"name":"a","name":"b"}', objT).getAttr("name").asString()).toBe("b");
    expect(fromJson('{"k":1,"k":2}', mapType(numberType)).index("k").asNumber().toString()).toBe(
      "2",
    );
  });
  test("sets de-duplicate and order", () => {
    expect(toJson(fromJson('["b","a","b"]', setType(stringType)), setType(stringType))).toBe(
      '["a","b"]',
    );
  });
  test("input as UTF-8 bytes", () => {
    expect(fromJson(new TextEncoder().encode('"h\u00e9"'), stringType).asString()).toBe("h\u00e9");
  });
  test("marks are not written", () => {
    const v = objectVal({ name: stringVal("x").mark(Mark.Sensitive), port: numberVal(1) }).mark(
      "m",
    );
    expect(toJson(v, objT)).toBe('{"name":"x","port":1}');
  });
  test("a value of another type is converted first", () => {
    expect(toJson(tupleVal([stringVal("a"), numberVal(1)]), listType(stringType))).toBe(
      '["a","1"]',
    );
    expect(thrown(() => toJson(stringVal("x"), numberType)).message).toBe("a number is required");
  });
});

describe("errors carry a code and the path", () => {
  const rules = objectType({ rules: listType(objectType({ from: numberType, to: numberType })) });
  test.each([
    [
      rules,
      '{"rules":[{"from":1,"to":2},{"from":"x","to":3}]}',
      "type_mismatch",
      ".rules[1].from: a number is required",
    ],
    [rules, '{"rules":[{"from":true}]}', "type_mismatch", ".rules[0].from: number is required"],
    [
      rules,
      '{"rules":[{"from":1,"extra":2}]}',
      "type_mismatch",
      '.rules[0]: unsupported attribute "extra"',
    ],
    [rules, '{"rules":{"from":1}}', "type_mismatch", ".rules: missing expected ["],
    [objT, '{"name":["x"]}', "type_mismatch", ".name: string is required"],
    [boolType, '"yes"', "type_mismatch", "a bool is required"],
    [
      boolType,
      '"TRUE"',
      "type_mismatch",
      'a bool is required; to convert from string, use lowercase "true"',
    ],
    [boolType, "1", "type_mismatch", "bool is required"],
    [
      mapType(numberType),
      '{"ok":1,"bad key":"x"}',
      "type_mismatch",
      '["bad key"]: a number is required',
    ],
    [tupleType([stringType]), '["a",1]', "type_mismatch", "too many tuple elements (need 1)"],
    [
      tupleType([stringType, numberType]),
      '["a"]',
      "type_mismatch",
      "not enough tuple elements (need 2)",
    ],
    [
      listType(stringType),
      '["a",',
      "malformed_json",
      "[1]: failed to read list value: unexpected end of JSON input (at offset 5)",
    ],
    [
      listType(numberType),
      "[1,]",
      "malformed_json",
      "[1]: failed to read list value: invalid character ']' looking for beginning of value (at offset 3)",
    ],
    [
      numberType,
      "1 2",
      "malformed_json",
      "invalid character '2' after top-level value (at offset 2)",
    ],
    [numberType, "", "malformed_json", "unexpected end of JSON input (at offset 0)"],
    [numberType, "nul", "malformed_json", "unexpected end of JSON input (at offset 3)"],
    [
      stringType,
      "'a'",
      "malformed_json",
      "invalid character ''' looking for beginning of value (at offset 0)",
    ],
    [
      stringType,
      '"a\u0001"',
      "malformed_json",
      "invalid character '\\u0001' in string literal (at offset 2)",
    ],
    [
      stringType,
      '"\\x"',
      "malformed_json",
      "invalid character 'x' in string escape code (at offset 2)",
    ],
    [
      numberType,
      "01",
      "malformed_json",
      "invalid character '1' after top-level value (at offset 1)",
    ],
    [
      stringType,
      '\ufeff"a"',
      "malformed_json",
      "invalid character '\ufeff' looking for beginning of value (at offset 0)",
    ],
    [stringType, '"\ud800"', "malformed_json", "invalid UTF-8: lone surrogate at offset 1"],
    [setType(stringType), '["a",{}]', "type_mismatch", "set element 1: string is required"],
  ] as [Type, string, string, string][])("%#: %s", (type, json, code, message) => {
    const e = thrown(() => fromJson(json, type));
    expect(e.code).toBe(code);
    expect(e.message).toBe(message);
  });
  test("invalid UTF-8 bytes", () => {
    const e = thrown(() => fromJson(new Uint8Array([0x22, 0xff, 0x22]), stringType));
    expect(e.code).toBe("malformed_json");
  });
  test("escaped lone surrogates become U+FFFD, as in Go", () => {
    expect(fromJson('"\\ud800x"', stringType).asString()).toBe("\ufffdx");
    expect(fromJson('"\\ud83d\\ude00"', stringType).asString()).toBe("\u{1f600}");
  });
  test("deep nesting is a typed error, not a stack overflow", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const e = thrown(() => fromJson(deep, listType(dynamicType)));
    expect(e.code).toBe("malformed_json");
    expect(e.message).toContain("exceeded max depth");
    let t: Type = stringType;
    for (let i = 0; i < 50; i++) t = listType(t);
    const ok = "[".repeat(50) + '"x"' + "]".repeat(50);
    expect(toJson(fromJson(ok, t), t)).toBe(ok);
  });
  test("unknown paths through collections", () => {
    const t = mapType(listType(stringType));
    const v = mapVal({ k: listVal([stringVal("a"), unknownVal(stringType)]) });
    expect(thrown(() => toJson(v, t)).message).toBe('["k"][1]: value is not known');
  });
});
