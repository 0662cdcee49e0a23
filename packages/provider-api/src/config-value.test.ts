import { CtyNumber, boolType, dynamicType, listType, mapType, numberType, numberVal, objectType, setType, stringType, stringVal, tupleType, unknownVal, type Value } from "@magma/cty";
import { configValue } from "./config-value.js";
import { isProviderError } from "./provider-error.js";
import type { Block } from "./schema.js";

const block: Block = {
  attributes: {
    s: { type: stringType, optional: true },
    n: { type: numberType, optional: true },
    b: { type: boolType, optional: true },
    l: { type: listType(numberType), optional: true },
    st: { type: setType(stringType), optional: true },
    m: { type: mapType(stringType), optional: true },
    o: { type: objectType({ x: stringType, y: numberType }), optional: true },
    tp: { type: tupleType([stringType, boolType]), optional: true },
    d: { type: dynamicType, optional: true },
    na: { optional: true, nestedType: { nesting: "single", attributes: { p: { type: stringType, optional: true }, q: { type: numberType, optional: true } } } },
    nl: { optional: true, nestedType: { nesting: "list", attributes: { p: { type: stringType, optional: true } } } },
  },
  blockTypes: {
    single: { nesting: "single", block: { attributes: { a: { type: stringType, optional: true } } } },
    group: { nesting: "group", block: { attributes: { a: { type: stringType, optional: true } } } },
    list: { nesting: "list", block: { attributes: { a: { type: stringType, optional: true } } } },
    set: { nesting: "set", block: { attributes: { a: { type: stringType, optional: true } } } },
    map: { nesting: "map", block: { attributes: { a: { type: stringType, optional: true } } } },
  },
};

const absent = "{b = null, d = null, group = {a = null}, l = null, list = [], m = null, map = tomap({}), n = null, na = null, nl = null, o = null, s = null, set = toset([]), single = null, st = null, tp = null}";

describe("configValue", () => {
  test("an empty configuration: attributes null, list/set/map blocks empty, group of nulls, single null", () => {
    expect(configValue(block, {}).toString()).toBe(absent);
    expect(configValue(block, { s: undefined, n: null }).toString()).toBe(absent);
  });

  test.each<[string, Record<string, unknown>, string, string]>([
    ["string", { s: "x" }, "s", '"x"'],
    ["number → string", { s: 1.5 }, "s", '"1.5"'],
    ["bool → string", { s: true }, "s", '"true"'],
    ["big number → string", { s: 10n ** 21n }, "s", '"1000000000000000000000"'],
    ["number", { n: 0.1 }, "n", "0.1"],
    ["numeric string → number", { n: "9007199254740993" }, "n", "9007199254740993"],
    ["bigint → number", { n: 2n ** 64n }, "n", "18446744073709551616"],
    ["bool", { b: false }, "b", "false"],
    ['"true" → bool', { b: "true" }, "b", "true"],
    ['"0" → bool', { b: "0" }, "b", "false"],
    ["list of numbers from strings", { l: [1, "2"] }, "l", "[1, 2]"],
    ["empty list", { l: [] }, "l", "[]"],
    ["set dedups", { st: ["b", "a", "b"] }, "st", 'toset(["a", "b"])'],
    ["map of strings from numbers", { m: { k: 1 } }, "m", 'tomap({"k" = "1"})'],
    ["map from a Map", { m: new Map([["z", "1"]]) }, "m", 'tomap({"z" = "1"})'],
    ["object", { o: { x: "a", y: "2" } }, "o", '{x = "a", y = 2}'],
    ["object with an explicit null", { o: { x: null, y: 1 } }, "o", "{x = null, y = 1}"],
    ["tuple", { tp: ["a", "false"] }, "tp", '["a", false]'],
    ["dynamic object literal", { d: { x: 1, y: ["p", "q"] } }, "d", '{x = 1, y = ["p", "q"]}'],
    ["nested attribute single: absent inner attributes null", { na: { p: "v" } }, "na", '{p = "v", q = null}'],
    ["nested attribute list", { nl: [{ p: "1" }, {}] }, "nl", '[{p = "1"}, {p = null}]'],
    ["single block", { single: { a: "x" } }, "single", '{a = "x"}'],
    ["group block", { group: { a: "x" } }, "group", '{a = "x"}'],
    ["list blocks", { list: [{ a: "1" }, {}] }, "list", '[{a = "1"}, {a = null}]'],
    ["set blocks", { set: [{ a: "1" }] }, "set", 'toset([{a = "1"}])'],
    ["map blocks", { map: { k: { a: "1" } } }, "map", 'tomap({"k" = {a = "1"}})'],
  ])("%s", (_name, plain, attr, want) => {
    expect(configValue(block, plain).getAttr(attr).toString()).toBe(want);
  });

  test("cty values pass through (unknowns, exact numbers)", () => {
    const u = unknownVal(stringType, { notNull: true });
    const v: Value = configValue(block, { s: u, n: CtyNumber.parse("0.30000000000000001"), l: [numberVal(1)] });
    expect(v.getAttr("s").rawEquals(u)).toBe(true);
    expect(v.getAttr("n").asNumber().toString()).toBe("0.30000000000000001");
    expect(v.getAttr("l").toString()).toBe("[1]");
    expect(configValue(block, { d: stringVal("x") }).getAttr("d").toString()).toBe('"x"');
  });

  test.each<[string, Record<string, unknown>, string, string]>([
    ["unknown name", { nope: 1 }, "nope", "no attribute or block type named"],
    ["object for a string", { s: {} }, "s", "a string is required"],
    ["non-numeric string for a number", { n: "ten" }, "n", "a number is required"],
    ["NaN", { n: NaN }, "n", "finite"],
    ["Infinity", { n: Infinity }, "n", "finite"],
    ["bad bool string", { b: "yes" }, "b", "a bool is required"],
    ["wrong element", { l: [1, "x"] }, "l[1]", "a number is required"],
    ["map element", { m: { k: [] } }, 'm["k"]', "a string is required"],
    ["missing object attribute", { o: { x: "a" } }, "o.y", 'attribute "y" is required'],
    ["extra object attribute", { o: { x: "a", y: 1, z: 2 } }, "o.z", "unexpected attribute"],
    ["tuple length", { tp: ["a"] }, "tp", "tuple of 2 elements"],
    ["nested attribute unknown inner name", { na: { r: 1 } }, "na.r", "no attribute named"],
    ["list block not an array", { list: { a: "x" } }, "list", "expected an array"],
    ["inner block attribute", { list: [{ a: "x" }, { a: {} }] }, "list[1].a", "a string is required"],
    ["map block element", { map: { k: { zz: 1 } } }, 'map["k"].zz', "no attribute or block type named"],
    ["value of the wrong type", { s: numberVal(1) }, "s", "does not fit string"],
  ])("rejects %s at %s", (_name, plain, path, text) => {
    try {
      configValue(block, plain);
      throw new Error("expected a ProviderError");
    } catch (e) {
      if (!isProviderError(e) || e.code !== "schema") throw e;
      expect(e.detail.path?.toString()).toBe(path);
      expect(e.message).toContain(text);
    }
  });
});

describe("configValue never quotes a sensitive attribute's value", () => {
  const secret = "S3CRET-do-not-print";
  const block = {
    attributes: {
      pin: { type: numberType, optional: true, sensitive: true },
      flag: { type: boolType, optional: true, sensitive: true },
      pins: { type: listType(numberType), optional: true, sensitive: true },
      plain: { type: numberType, optional: true },
    },
  };
  test.each([
    [{ pin: secret }, /at \.pin: a number is required, got a string \(sensitive value not shown\)/],
    [{ flag: secret }, /at \.flag: a bool is required, got a string \(sensitive value not shown\)/],
    [{ pins: [1, secret] }, /at \.pins\[1\]: a number is required, got a string \(sensitive value not shown\)/],
  ])("%j", (plain, message) => {
    let error: unknown;
    try {
      configValue(block, plain);
    } catch (e) {
      error = e;
    }
    expect(isProviderError(error) && error.code).toBe("schema");
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(secret);
    expect(String((error as Error).cause ?? "")).not.toContain(secret);
  });

  test("a non-sensitive attribute still quotes the text (it helps)", () => {
    expect(() => configValue(block, { plain: "twelve" })).toThrow(/a number is required, got the string "twelve"/);
  });
});
