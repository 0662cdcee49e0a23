import { Path, listVal, mapType, mapVal, nullVal, numberType, numberVal, objectType, objectVal, setVal, stringType, stringVal, tupleVal, unknownVal } from "@magma/cty";
import type { Block } from "@magma/provider-api";
import { goEscape, jsonMap } from "./go-json.js";
import { attributeValuesJson, schemaSensitivePaths, sensitiveAsBoolJson, unknownAsBoolJson, valueJson } from "./value-json.js";

describe("valueJson", () => {
  test("exact numbers, sorted keys, sets in cty order", () => {
    const v = objectVal({ z: numberVal("123456789012345678901234567890.5"), a: mapVal({ b: stringVal("1"), a: stringVal("2") }), s: setVal([stringVal("y"), stringVal("x")]) });
    expect(valueJson(v)).toBe('{"a":{"a":"2","b":"1"},"s":["x","y"],"z":123456789012345678901234567890.5}');
  });

  test("omitting unknowns: attributes and map entries left out, sequence elements null", () => {
    const v = objectVal({ a: unknownVal(stringType), l: listVal([stringVal("x"), unknownVal(stringType)]), m: mapVal({ k: unknownVal(stringType), j: stringVal("v") }) });
    expect(valueJson(v, true)).toBe('{"l":["x",null],"m":{"j":"v"}}');
    expect(() => valueJson(v)).toThrow(/unknown/);
  });

  test("attributeValuesJson leaves out null objects and empty attribute sets", () => {
    expect(attributeValuesJson(nullVal(objectType({ a: stringType })))).toBeUndefined();
    expect(attributeValuesJson(objectVal({ a: unknownVal(stringType) }))).toBeUndefined();
    expect(attributeValuesJson(objectVal({ a: stringVal("x") }))).toBe('{"a":"x"}');
  });
});

describe("unknownAsBoolJson", () => {
  test("true for unknown leaves and collections, known members omitted from objects", () => {
    const v = objectVal({ a: unknownVal(stringType), b: stringVal("x"), l: listVal([stringVal("x"), unknownVal(stringType)]), m: unknownVal(mapType(stringType)), n: nullVal(stringType) });
    expect(unknownAsBoolJson(v)).toBe('{"a":true,"l":[false,true],"m":true}');
    expect(unknownAsBoolJson(stringVal("x"))).toBe("false");
    expect(unknownAsBoolJson(unknownVal(numberType))).toBe("true");
  });
});

describe("sensitiveAsBoolJson", () => {
  test("marks at paths become true; unknown collections are empty; non-sensitive leaves are omitted", () => {
    const v = objectVal({ a: stringVal("x"), b: stringVal("y"), l: tupleVal([stringVal("1"), stringVal("2")]), m: unknownVal(mapType(stringType)), u: unknownVal(stringType) });
    expect(sensitiveAsBoolJson(v, [Path.root.attr("b"), Path.root.attr("l").index(1), Path.root.attr("u")])).toBe('{"b":true,"l":[false,true],"m":{},"u":true}');
    expect(sensitiveAsBoolJson(v, [])).toBe('{"l":[false,false],"m":{}}');
    expect(sensitiveAsBoolJson(v, [Path.root])).toBe("true");
  });
});

describe("schemaSensitivePaths", () => {
  const block: Block = {
    attributes: {
      secret: { type: stringType, sensitive: true, optional: true },
      plain: { type: stringType, optional: true },
      nested: { nestedType: { nesting: "list", attributes: { key: { type: stringType, sensitive: true, optional: true } } }, optional: true },
    },
    blockTypes: {
      rule: { nesting: "list", block: { attributes: { token: { type: stringType, sensitive: true, optional: true } } } },
      one: { nesting: "single", block: { attributes: { pw: { type: stringType, sensitive: true, optional: true } } } },
    },
  };

  test("attributes, nested attribute types per element, and nested blocks", () => {
    const v = objectVal({
      secret: stringVal("s"),
      plain: stringVal("p"),
      nested: listVal([objectVal({ key: stringVal("k1") }), objectVal({ key: stringVal("k2") })]),
      rule: listVal([objectVal({ token: stringVal("t") })]),
      one: nullVal(objectType({ pw: stringType })),
    });
    const paths = schemaSensitivePaths(block, v).map((p) => p.steps.map((s) => (s.kind === "attr" ? s.name : s.kind === "index" ? s.index : s.key)));
    expect(paths).toEqual([["secret"], ["nested", 0, "key"], ["nested", 1, "key"], ["rule", 0, "token"]]);
  });
});

describe("go-json", () => {
  test("maps sort keys by UTF-8 bytes; HTML characters are escaped as Go does", () => {
    expect(jsonMap([["b", "1"], ["a", "2"], ["\u00e9", "3"], ["Z", "4"]])).toBe('{"Z":4,"a":2,"b":1,"\u00e9":3}');
    expect(goEscape('"<a&b>\u2028"')).toBe('"\\u003ca\\u0026b\\u003e\\u2028"');
  });
});
