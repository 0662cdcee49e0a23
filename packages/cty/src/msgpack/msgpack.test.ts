import { CtyNumber } from "../number.js";
import { isPathError, type PathError } from "../path-error.js";
import { typeFromJson } from "../type-json.js";
import {
  boolType,
  dynamicType,
  emptyObjectType,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  type Type,
} from "../type.js";
import { boolVal, dynamicVal, emptyObjectVal, listVal, listValEmpty, mapVal, mapValEmpty, nullVal, numberVal, objectVal, setVal, setValEmpty, stringVal, tupleVal, unknownVal } from "../construction.js";
import { Mark } from "../marks.js";
import type { Refinements } from "../refinements.js";
import type { Value } from "../value.js";
import { fromMsgpack as rootFrom, toMsgpack as rootTo } from "../index.js";
import { fromMsgpack, MSGPACK_MAX_DEPTH, toMsgpack } from "./index.js";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const strHex = (s: string): string => Buffer.from(s, "utf8").toString("hex");

function errorOf(f: () => unknown): PathError {
  try {
    f();
  } catch (e) {
    if (isPathError(e)) return e;
    throw e;
  }
  throw new Error("expected a PathError");
}

test("the package root exports the same functions", () => {
  expect(rootTo).toBe(toMsgpack);
  expect(rootFrom).toBe(fromMsgpack);
});

describe("protocol.md D3 goldens (terraform 1.11.4 bytes)", () => {
  test.each([
    ["0.1", `a3${strHex("0.1")}`],
    ["2.5", "cb4004000000000000"],
    ["1.5", "cb3ff8000000000000"],
    ["-3", "fd"],
    ["1", "01"],
    ["9007199254740993", "cf0020000000000001"],
    ["18446744073709551616", `b4${strHex("18446744073709551616")}`],
    ["1e30", `bf${strHex("1000000000000000000000000000000")}`],
  ])("number %s", (text, want) => {
    const v = numberVal(CtyNumber.parse(text));
    expect(hex(toMsgpack(v, numberType))).toBe(want);
    expect(fromMsgpack(bytes(want), numberType).rawEquals(v)).toBe(true);
  });

  test.each<[string, Type, Refinements, string]>([
    ['"pre-${unknown}"', stringType, { notNull: true, stringPrefix: "pre-" }, `c7090c8201c202a4${strHex("pre-")}`],
    ["length(unknown)", numberType, { notNull: true, numberLowerBound: { value: CtyNumber.zero, inclusive: true } }, "c7070c8201c2039200c3"],
    ["not-null number", numberType, { notNull: true }, "c7030c8101c2"],
  ])("refined unknown %s", (_name, type, r, want) => {
    const v = unknownVal(type, r);
    expect(hex(toMsgpack(v, type))).toBe(want);
    const back = fromMsgpack(bytes(want), type);
    expect(back.rawEquals(v)).toBe(true);
    expect(back.refinements).toEqual(v.refinements);
  });

  test("dynamic object golden: HCL object literal with a tuple", () => {
    const typeJson = '["object",{"x":"number","y":["tuple",["string","string"]]}]';
    const want = `92c43b${strHex(typeJson)}82a178 01 a179 92a170a171`.replace(/ /g, "");
    const v = objectVal({ x: numberVal(1), y: tupleVal([stringVal("p"), stringVal("q")]) });
    expect(hex(toMsgpack(v, dynamicType))).toBe(want);
    const back = fromMsgpack(bytes(want), dynamicType);
    expect(back.rawEquals(v)).toBe(true);
    expect(back.type).toEqual(typeFromJson(typeJson));
  });

  test("typed unknown and typed null in a dynamic slot are wrapped; dynamic null and unknown are not", () => {
    expect(hex(toMsgpack(unknownVal(stringType), dynamicType))).toBe(`92c408${strHex('"string"')}d40000`);
    expect(hex(toMsgpack(nullVal(stringType), dynamicType))).toBe(`92c408${strHex('"string"')}c0`);
    expect(hex(toMsgpack(nullVal(dynamicType), dynamicType))).toBe("c0");
    expect(hex(toMsgpack(dynamicVal, dynamicType))).toBe("d40000");
    expect(fromMsgpack(bytes(`92c408${strHex('"string"')}d40000`), dynamicType).rawEquals(unknownVal(stringType))).toBe(true);
  });

  test("aws_vpc-style plan: an object of 23 attributes starts with a map16 header, arn unknown", () => {
    const names = ["arn", ...Array.from({ length: 22 }, (_, i) => `attr_${String(i).padStart(2, "0")}`)];
    const t = objectType(Object.fromEntries(names.map((n) => [n, stringType])));
    const v = objectVal(Object.fromEntries(names.map((n) => [n, n === "arn" ? unknownVal(stringType) : stringVal(n)])));
    const out = hex(toMsgpack(v, t));
    expect(out.startsWith(`de0017a3${strHex("arn")}d40000`)).toBe(true);
    expect(fromMsgpack(bytes(out), t).rawEquals(v)).toBe(true);
  });
});

describe("round trips of every type x {known, null, unknown, refined unknown}", () => {
  const rule = objectType({ from: numberType, to: numberType, cidrs: listType(stringType) });
  const cases: [string, Type, Value, Refinements | undefined][] = [
    ["string", stringType, stringVal("héllo wörld ✓ 😀"), { notNull: true, stringPrefix: "hé" }],
    ["number", numberType, numberVal("3.14159265358979323846264338327950288"), { numberLowerBound: { value: CtyNumber.from(-5), inclusive: false }, numberUpperBound: { value: CtyNumber.parse("1e30"), inclusive: true } }],
    ["bool", boolType, boolVal(false), { notNull: true }],
    ["list", listType(stringType), listVal([stringVal("a"), nullVal(stringType), unknownVal(stringType)]), { lengthLowerBound: 1, lengthUpperBound: 2 }],
    ["empty list", listType(numberType), listValEmpty(numberType), { lengthUpperBound: 0 }],
    ["set", setType(numberType), setVal([numberVal(3), numberVal(-1), unknownVal(numberType), nullVal(numberType)]), { notNull: true, lengthLowerBound: 2 }],
    ["empty set", setType(stringType), setValEmpty(stringType), undefined],
    ["map", mapType(boolType), mapVal({ z: boolVal(true), a: boolVal(false), "\u00e9": nullVal(boolType) }), { lengthUpperBound: 9 }],
    ["empty map", mapType(stringType), mapValEmpty(stringType), undefined],
    ["object", rule, objectVal({ from: numberVal(80), to: unknownVal(numberType), cidrs: listVal([stringVal("10.0.0.0/8")]) }), { notNull: true }],
    ["empty object", emptyObjectType, emptyObjectVal, { notNull: true }],
    ["tuple", tupleType([stringType, boolType, numberType]), tupleVal([stringVal("x"), nullVal(boolType), numberVal(-129)]), { notNull: true }],
    ["list of objects", listType(rule), listVal([objectVal({ from: numberVal(1), to: numberVal(2), cidrs: listValEmpty(stringType) })]), undefined],
    ["map of lists", mapType(listType(numberType)), mapVal({ k: listVal([numberVal(1e300), numberVal(-(2 ** 63))]) }), undefined],
    ["dynamic (string)", dynamicType, stringVal("d"), undefined],
    ["dynamic (object with nested dynamic)", dynamicType, objectVal({ inner: stringVal("x"), n: nullVal(dynamicType) }), undefined],
    ["object with a dynamic attribute", objectType({ d: dynamicType, s: stringType }), objectVal({ d: listVal([numberVal(1)]), s: stringVal("s") }), undefined],
  ];
  const rows = cases.flatMap(([name, type, known, r]) => {
    const out: [string, Type, Value][] = [
      [`${name} known`, type, known],
      [`${name} null`, type, nullVal(type)],
      [`${name} unknown`, type, unknownVal(type)],
    ];
    if (r !== undefined) out.push([`${name} refined unknown`, type, unknownVal(type, r)]);
    return out;
  });
  test.each(rows)("%s", (_name, type, v) => {
    const encoded = toMsgpack(v, type);
    const back = fromMsgpack(encoded, type);
    expect(back.rawEquals(v)).toBe(true);
    // Encoding is canonical: the decoded value encodes to the same bytes.
    expect(hex(toMsgpack(back, type))).toBe(hex(encoded));
  });

  test.each(["9007199254740993", "18446744073709551616", "1e30", "3.14159265358979323846264338327950288", "-9223372036854775808", "-9223372036854775809", "1e-400"])(
    "exact number %s survives",
    (text) => {
      const v = numberVal(CtyNumber.parse(text));
      const back = fromMsgpack(toMsgpack(v, numberType), numberType);
      expect(back.asNumber().equals(v.asNumber())).toBe(true);
      expect(back.asNumber().toString()).toBe(v.asNumber().toString());
    },
  );
});

describe("encoding forms", () => {
  test.each([
    [0, "00"],
    [127, "7f"],
    [128, "cc80"],
    [255, "ccff"],
    [256, "cd0100"],
    [65535, "cdffff"],
    [65536, "ce00010000"],
    [4294967295, "ceffffffff"],
    [4294967296, "cf0000000100000000"],
    [-1, "ff"],
    [-32, "e0"],
    [-33, "d0df"],
    [-128, "d080"],
    [-129, "d1ff7f"],
    [-32768, "d18000"],
    [-32769, "d2ffff7fff"],
    [-2147483648, "d280000000"],
    [-2147483649, "d3ffffffff7fffffff"],
  ])("integer %d -> %s", (n, want) => {
    expect(hex(toMsgpack(numberVal(n), numberType))).toBe(want);
    expect(fromMsgpack(bytes(want), numberType).asNumber().toNumber()).toBe(n);
  });

  test("int64 extremes and beyond", () => {
    expect(hex(toMsgpack(numberVal(CtyNumber.parse("9223372036854775807")), numberType))).toBe("cf7fffffffffffffff");
    expect(hex(toMsgpack(numberVal(CtyNumber.parse("-9223372036854775808")), numberType))).toBe("d38000000000000000");
    expect(hex(toMsgpack(numberVal(CtyNumber.parse("9223372036854775808")), numberType))).toBe(`b3${strHex("9223372036854775808")}`);
    expect(hex(toMsgpack(numberVal(Infinity), numberType))).toBe("cb7ff0000000000000");
    expect(hex(toMsgpack(numberVal(-Infinity), numberType))).toBe("cbfff0000000000000");
  });

  test("strings: fixstr below 32 bytes, str8 up to 255, str16, str32", () => {
    expect(hex(toMsgpack(stringVal("a".repeat(31)), stringType)).slice(0, 2)).toBe("bf");
    expect(hex(toMsgpack(stringVal("a".repeat(32)), stringType)).slice(0, 4)).toBe("d920");
    expect(hex(toMsgpack(stringVal("é".repeat(16)), stringType)).slice(0, 4)).toBe("d920"); // 32 bytes
    expect(hex(toMsgpack(stringVal("a".repeat(255)), stringType)).slice(0, 4)).toBe("d9ff");
    expect(hex(toMsgpack(stringVal("a".repeat(256)), stringType)).slice(0, 6)).toBe("da0100");
    expect(hex(toMsgpack(stringVal("a".repeat(65536)), stringType)).slice(0, 10)).toBe("db00010000");
    const long = "ü".repeat(40000);
    expect(fromMsgpack(toMsgpack(stringVal(long), stringType), stringType).asString()).toBe(long);
  });

  test("collections: fixarray/array16/array32 and fixmap/map16", () => {
    const list = (n: number): Value => listVal(Array.from({ length: n }, () => numberVal(0)));
    expect(hex(toMsgpack(list(15), listType(numberType))).slice(0, 2)).toBe("9f");
    expect(hex(toMsgpack(list(16), listType(numberType))).slice(0, 6)).toBe("dc0010");
    expect(hex(toMsgpack(list(65536), listType(numberType))).slice(0, 10)).toBe("dd00010000");
    const m = mapVal(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, boolVal(true)])));
    expect(hex(toMsgpack(m, mapType(boolType))).slice(0, 6)).toBe("de0010");
  });

  test("map keys and object attributes go out in UTF-8 byte order", () => {
    const m = mapVal({ "\u{1F600}": numberVal(1), "\uFFFD": numberVal(2), b: numberVal(3) });
    expect(hex(toMsgpack(m, mapType(numberType)))).toBe(`83a162 03 a3${strHex("\uFFFD")}02 a4${strHex("\u{1F600}")}01`.replace(/ /g, ""));
  });

  test("ext headers for refinement payloads follow vmihailenco's sizes", () => {
    // 2-byte payload would be fixext2, but the smallest refinement map is 3 bytes: ext8.
    expect(hex(toMsgpack(unknownVal(listType(stringType), { lengthLowerBound: 1, lengthUpperBound: 2 }), listType(stringType)))).toBe("c7050c8205010602");
    // A 4-byte payload is fixext4 (d6), a 16-byte one fixext16 (d8).
    expect(hex(toMsgpack(unknownVal(stringType, { stringPrefix: "x" }), stringType))).toBe(`d60c8102a1${strHex("x")}`);
    expect(hex(toMsgpack(unknownVal(stringType, { stringPrefix: "xy" }), stringType))).toBe(`c7050c8102a2${strHex("xy")}`);
    expect(hex(toMsgpack(unknownVal(stringType, { stringPrefix: "abcdefghijklm" }), stringType))).toBe(`d80c8102ad${strHex("abcdefghijklm")}`);
    const long = "p".repeat(256);
    const out = hex(toMsgpack(unknownVal(stringType, { stringPrefix: long }), stringType));
    expect(out.slice(0, 8)).toBe("c801050c"); // 261-byte payload: ext16
  });

  test("marks are not written", () => {
    const v = objectVal({ secret: stringVal("s").mark(Mark.Sensitive) }).mark(Mark.Sensitive);
    const t = objectType({ secret: stringType });
    expect(hex(toMsgpack(v, t))).toBe(`81a6${strHex("secret")}a173`);
  });

  test("sets are written in the value's order", () => {
    const s = setVal([stringVal("z"), stringVal("a"), unknownVal(stringType), nullVal(stringType), stringVal("m")]);
    expect(hex(toMsgpack(s, setType(stringType)))).toBe("95a161a16da17ad40000c0");
  });
});

describe("encoding errors", () => {
  const rule = objectType({ from: numberType, to: numberType });
  const t = objectType({ rules: tupleType([rule, rule]) });
  test("a value of the wrong type fails with the path", () => {
    const v = objectVal({
      rules: tupleVal([
        objectVal({ from: numberVal(1), to: numberVal(2) }),
        objectVal({ from: stringVal("x"), to: numberVal(2) }),
      ]),
    });
    const e = errorOf(() => toMsgpack(v, t));
    expect(e.code).toBe("type_mismatch");
    expect(e.message).toBe(".rules[1].from: expected number, got string");
  });
  test("a missing or extra attribute is named", () => {
    expect(errorOf(() => toMsgpack(objectVal({ a: numberVal(1) }), objectType({ a: numberType, b: numberType }))).message).toBe('.b: attribute "b" is required');
    expect(errorOf(() => toMsgpack(objectVal({ a: numberVal(1), c: numberVal(1) }), objectType({ a: numberType }))).path.toString()).toBe("c");
  });
  test("nulls, unknowns and empty collections of another type are rejected; dynamic fits anything", () => {
    expect(errorOf(() => toMsgpack(nullVal(numberType), stringType)).code).toBe("type_mismatch");
    expect(errorOf(() => toMsgpack(unknownVal(listType(numberType)), listType(stringType))).code).toBe("type_mismatch");
    expect(errorOf(() => toMsgpack(listValEmpty(numberType), listType(stringType))).code).toBe("type_mismatch");
    expect(hex(toMsgpack(nullVal(dynamicType), stringType))).toBe("c0");
    expect(hex(toMsgpack(dynamicVal, listType(stringType)))).toBe("d40000");
  });
  test("not a Value", () => {
    expect(errorOf(() => toMsgpack("x" as unknown as Value, stringType)).code).toBe("type_mismatch");
  });
});

describe("decoding accepted forms", () => {
  test.each([
    ["short", "\ufeffab"],
    ["short, not ASCII", "\ufeffé"],
    ["long (TextDecoder)", "\ufeff" + "x".repeat(100)],
  ])("a leading U+FEFF is kept (%s)", (_n, s) => {
    expect(fromMsgpack(toMsgpack(stringVal(s), stringType), stringType).asString()).toBe(s);
  });
  test("every int width, uint64 beyond 2^53 exactly", () => {
    expect(fromMsgpack(bytes("cfffffffffffffffff"), numberType).asNumber().toString()).toBe("18446744073709551615");
    expect(fromMsgpack(bytes("cf0020000000000001"), numberType).asNumber().toString()).toBe("9007199254740993");
    expect(fromMsgpack(bytes("d38000000000000000"), numberType).asNumber().toString()).toBe("-9223372036854775808");
    expect(fromMsgpack(bytes("d3ffdfffffffffffff"), numberType).asNumber().toString()).toBe("-9007199254740993");
    expect(fromMsgpack(bytes("d1ff7f"), numberType).asNumber().toString()).toBe("-129");
    expect(fromMsgpack(bytes("ce00010000"), numberType).asNumber().toString()).toBe("65536");
  });
  test("float32 and float64", () => {
    expect(fromMsgpack(bytes("ca3fc00000"), numberType).asNumber().toString()).toBe("1.5");
    expect(fromMsgpack(bytes("ca3dcccccd"), numberType).asNumber().equals(CtyNumber.fromFloat64(Math.fround(0.1)))).toBe(true);
    expect(fromMsgpack(bytes("cb3fb999999999999a"), numberType).asNumber().equals(CtyNumber.fromFloat64(0.1))).toBe(true);
  });
  test("numbers as str or bin text", () => {
    expect(fromMsgpack(bytes(`a3${strHex("0.1")}`), numberType).asNumber().equals(CtyNumber.parse("0.1"))).toBe(true);
    expect(fromMsgpack(bytes(`c402${strHex("12")}`), numberType).asNumber().toString()).toBe("12");
    expect(errorOf(() => fromMsgpack(bytes(`a3${strHex("abc")}`), numberType)).message).toBe("expected number, got string");
    expect(errorOf(() => fromMsgpack(bytes(`a3${strHex("1e+")}`), numberType)).code).toBe("invalid_value");
  });
  test("strings from str and bin; NFC-normalised; invalid UTF-8 rejected", () => {
    expect(fromMsgpack(bytes(`c405${strHex("hello")}`), stringType).asString()).toBe("hello");
    expect(fromMsgpack(bytes("a365cc81"), stringType).asString()).toBe("\u00e9");
    expect(errorOf(() => fromMsgpack(bytes("a2c328"), stringType)).code).toBe("invalid_value");
    expect(errorOf(() => fromMsgpack(bytes("a3eda080"), stringType)).code).toBe("invalid_value"); // surrogate
    const longBad = `d950${"61".repeat(79)}ff`;
    expect(errorOf(() => fromMsgpack(bytes(longBad), stringType)).code).toBe("invalid_value");
  });
  test("nil is null for any type", () => {
    for (const t of [stringType, numberType, listType(boolType), objectType({ a: stringType }), dynamicType]) {
      expect(fromMsgpack(bytes("c0"), t).rawEquals(nullVal(t))).toBe(true);
    }
  });
  test("any ext is unknown; ext 12 carries refinements; oversize or other codes are plain unknowns", () => {
    expect(fromMsgpack(bytes("d5050000"), stringType).rawEquals(unknownVal(stringType))).toBe(true);
    expect(fromMsgpack(bytes("c70303010203"), numberType).rawEquals(unknownVal(numberType))).toBe(true);
    const big = `c80401 0c 81 02 da 03fc ${"61".repeat(1020)}`.replace(/ /g, "");
    expect(fromMsgpack(bytes(big), stringType).rawEquals(unknownVal(stringType))).toBe(true);
    // Unknown refinement keys are skipped, nullness true collapses to null.
    expect(fromMsgpack(bytes("c7070c8209920102 01c2"), stringType).refinements).toEqual({ notNull: true });
    expect(fromMsgpack(bytes("c7030c8101c3"), stringType).rawEquals(nullVal(stringType))).toBe(true);
    expect(errorOf(() => fromMsgpack(bytes("c7040c8102a178"), numberType)).code).toBe("invalid_value");
    expect(fromMsgpack(bytes("c7030c8101c2"), dynamicType).rawEquals(dynamicVal)).toBe(true);
  });
  test("objects: keys in any order, bin keys; a 0-length map is the empty object (go-cty quirk)", () => {
    const t = objectType({ a: stringType, b: numberType });
    const want = objectVal({ a: stringVal("x"), b: numberVal(1) });
    expect(fromMsgpack(bytes("82a16201a161a178"), t).rawEquals(want)).toBe(true);
    expect(fromMsgpack(bytes("82c40161a178a16201"), t).rawEquals(want)).toBe(true);
    expect(fromMsgpack(bytes("80"), t).rawEquals(emptyObjectVal)).toBe(true);
  });
  test("maps: unsorted keys are sorted, the last duplicate wins", () => {
    const m = fromMsgpack(bytes("83a162 01 a161 02 a162 03".replace(/ /g, "")), mapType(numberType));
    expect([...m.entries().keys()]).toEqual(["a", "b"]);
    expect(m.entries().get("b")!.asNumber().toString()).toBe("3");
  });
  test("sets are de-duplicated and ordered", () => {
    const s = fromMsgpack(bytes("9401cb3ff0000000000000a131a130"), setType(numberType));
    expect(s.elements().map((e) => e.asNumber().toString())).toEqual(["0", "1"]);
  });
  test("dynamic with str type JSON; dynamic elements of one type make a typed list", () => {
    expect(fromMsgpack(bytes(`92a8${strHex('"string"')}a26869`), dynamicType).rawEquals(stringVal("hi"))).toBe(true);
    const l = fromMsgpack(bytes(`92 92c408${strHex('"string"')}a161 92c408${strHex('"string"')}a162`.replace(/ /g, "")), listType(dynamicType));
    expect(l.type).toEqual(listType(stringType));
  });
});

describe("decoding errors", () => {
  const t = objectType({ rules: listType(objectType({ from: numberType, to: numberType })) });
  test("the path of the failure is reported", () => {
    const input = `81a5${strHex("rules")}92 82a4${strHex("from")}01a2${strHex("to")}02 82a4${strHex("from")}a178a2${strHex("to")}03`.replace(/ /g, "");
    const e = errorOf(() => fromMsgpack(bytes(input), t));
    expect(e.code).toBe("type_mismatch");
    expect(e.message).toBe(".rules[1].from: expected number, got string");
  });
  test("missing, unknown and repeated attributes", () => {
    const o = objectType({ a: stringType, b: numberType });
    expect(errorOf(() => fromMsgpack(bytes("81a161a178"), o)).message).toBe('.b: attribute "b" is required');
    expect(errorOf(() => fromMsgpack(bytes("82a161a178a17a01"), o)).message).toBe('.z: unsupported attribute "z"');
    expect(errorOf(() => fromMsgpack(bytes("82a161a178a161a179"), o)).path.toString()).toBe("a");
    expect(errorOf(() => fromMsgpack(bytes("8201a178a16201"), o)).code).toBe("type_mismatch");
  });
  test("malformed input", () => {
    for (const [h, ty] of [
      ["", stringType],
      ["c1", stringType],
      ["c1", dynamicType],
      ["a56865", stringType],
      ["cd01", numberType],
      ["0102", numberType],
      ["d400", stringType],
      ["930102", listType(numberType)],
      ["81a161", mapType(numberType)],
    ] as const) {
      const e = errorOf(() => fromMsgpack(bytes(h), ty));
      expect([h, e.code]).toEqual([h, "malformed_msgpack"]);
    }
  });
  test("type mismatches, NaN and mixed dynamic element types", () => {
    expect(errorOf(() => fromMsgpack(bytes("c3"), numberType)).message).toBe("expected number, got bool");
    expect(errorOf(() => fromMsgpack(bytes("cb7ff8000000000000"), numberType)).code).toBe("invalid_value");
    expect(errorOf(() => fromMsgpack(bytes("91a161"), tupleType([stringType, numberType]))).code).toBe("type_mismatch");
    const mixed = `92 92c408${strHex('"string"')}a161 92c408${strHex('"number"')}01`.replace(/ /g, "");
    expect(errorOf(() => fromMsgpack(bytes(mixed), listType(dynamicType))).code).toBe("type_mismatch");
    expect(errorOf(() => fromMsgpack(bytes("92c403666f6fa161"), dynamicType)).code).toBe("invalid_type");
    expect(errorOf(() => fromMsgpack("c0" as unknown as Uint8Array, stringType)).code).toBe("type_mismatch");
  });
  test.each([
    ["array32", "dd80000000", listType(numberType)],
    ["map32", "df80000000", mapType(numberType)],
    ["str32", "db80000000", stringType],
    ["bin32", "c680000000", stringType],
    ["ext32", "c9800000000c", stringType],
  ])("a declared %s length of 2^31 with a tiny input fails fast without allocating", (_n, h, ty) => {
    const e = errorOf(() => fromMsgpack(bytes(`${h}0102`), ty));
    expect(e.code).toBe("malformed_msgpack");
  });
  test(`nesting deeper than ${MSGPACK_MAX_DEPTH} levels is a typed error, not a stack overflow`, () => {
    let deep: Type = numberType;
    for (let i = 0; i < MSGPACK_MAX_DEPTH + 5; i++) deep = listType(deep);
    const input = new Uint8Array(MSGPACK_MAX_DEPTH + 6).fill(0x91);
    input[input.length - 1] = 0x01;
    expect(errorOf(() => fromMsgpack(input, deep)).code).toBe("malformed_msgpack");
    // A chain of dynamic wrappers of the dynamic type.
    const wrapper = `92c409${strHex('"dynamic"')}`;
    expect(errorOf(() => fromMsgpack(bytes(wrapper.repeat(5000) + "01"), dynamicType)).code).toBe("malformed_msgpack");
    // Within the bound it works.
    let ok: Type = numberType;
    for (let i = 0; i < 500; i++) ok = listType(ok);
    const okInput = new Uint8Array(501).fill(0x91);
    okInput[500] = 0x07;
    expect(hex(toMsgpack(fromMsgpack(okInput, ok), ok))).toBe(hex(okInput));
  });
});
