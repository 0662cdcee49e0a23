import { isPathError } from "./path-error.js";
import { Path } from "./path.js";
import {
  boolType,
  dynamicType,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  typeEquals,
  typeName,
  typeString,
} from "./type.js";
import { typeFromJson, typeToJson } from "./type-json.js";

describe("type JSON", () => {
  test.each([
    ['"string"', stringType],
    ['"number"', numberType],
    ['"bool"', boolType],
    ['"dynamic"', dynamicType],
    ['["list","string"]', listType(stringType)],
    ['["set",["map","number"]]', setType(mapType(numberType))],
    ['["list",["object",{"address":"string","port":"number"}]]', listType(objectType({ port: numberType, address: stringType }))],
    ['["object",{"B":"string","a":"bool","é":"number"}]', objectType({ a: boolType, "é": numberType, B: stringType })],
    ['["object",{"a":"string","b":"number"},["a","b"]]', objectType({ a: stringType, b: numberType }, ["b", "a"])],
    ['["tuple",[]]', tupleType([])],
    ['["tuple",["string",["tuple",["bool"]]]]', tupleType([stringType, tupleType([boolType])])],
    ['["object",{}]', objectType({})],
  ])("%s round trips", (json, t) => {
    expect(typeToJson(t)).toBe(json);
    expect(typeEquals(typeFromJson(json), t)).toBe(true);
    expect(typeEquals(typeFromJson(new TextEncoder().encode(json)), t)).toBe(true);
  });

  test("whitespace is accepted", () => {
    expect(typeEquals(typeFromJson(' [ "list" , "string" ] '), listType(stringType))).toBe(true);
  });

  test("optional markers make types unequal", () => {
    expect(typeEquals(objectType({ a: stringType }, ["a"]), objectType({ a: stringType }))).toBe(false);
  });

  test.each([
    '"strin"',
    '["list"]',
    '["list","string","x"]',
    '["object",["a"]]',
    '["object",{"a":"string"},["b"]]',
    '["tuple","string"]',
    '["capsule","x"]',
    "42",
    '"string" x',
    "",
    '["list",'.repeat(10000),
    '["list",'.repeat(600) + '"string"' + "]".repeat(600),
  ])("rejects %p with invalid_type", (json) => {
    let err: unknown;
    try {
      typeFromJson(json);
    } catch (e) {
      err = e;
    }
    expect(isPathError(err) && err.code === "invalid_type").toBe(true);
  });

  test("rejects invalid UTF-8", () => {
    expect(() => typeFromJson(new Uint8Array([0x22, 0xff, 0x22]))).toThrow(/UTF-8/);
  });
});

describe("type names", () => {
  test("friendly names and constraint syntax", () => {
    const t = objectType({ name: stringType, ports: listType(numberType) }, ["ports"]);
    expect(typeName(listType(setType(stringType)))).toBe("list of set of string");
    expect(typeName(t)).toBe("object");
    expect(typeString(t)).toBe("object({name=string, ports=optional(list(number))})");
    expect(typeString(tupleType([dynamicType]))).toBe("tuple([any])");
  });
});

describe("Path", () => {
  test("renders like people write paths", () => {
    expect(Path.root.attr("rules").index(2).attr("port").toString()).toBe("rules[2].port");
    expect(Path.root.attr("tags").key("Name").toString()).toBe('tags["Name"]');
    expect(Path.root.attr("odd name").toString()).toBe('["odd name"]');
    expect(Path.root.toString()).toBe("");
    expect(Path.root.attr("a").equals(Path.of([{ kind: "attr", name: "a" }]))).toBe(true);
    expect(Path.root.attr("a").equals(Path.root.key("a"))).toBe(false);
    expect(() => Path.root.index(-1)).toThrow(RangeError);
  });
});
