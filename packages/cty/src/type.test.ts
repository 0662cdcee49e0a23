import { listVal, mapVal, numberVal, objectVal, stringVal, tupleVal } from "./construction.js";
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
  typeEquals,
  type ObjectType,
  type Type,
} from "./type.js";

describe("type interning", () => {
  test("collection types of one element type are one object", () => {
    expect(listType(stringType)).toBe(listType(stringType));
    expect(setType(listType(numberType))).toBe(setType(listType(numberType)));
    expect(mapType(dynamicType)).toBe(mapType(dynamicType));
    expect(listType(stringType)).not.toBe(setType(stringType));
    expect(listType(stringType)).not.toBe(listType(numberType));
  });

  test("object types made from the same attributes in the same order are one object", () => {
    const a = objectType({ name: stringType, tags: mapType(stringType), n: numberType });
    const b = objectType(new Map<string, Type>([["name", stringType], ["tags", mapType(stringType)], ["n", numberType]]));
    expect(a).toBe(b);
    expect(a.attributeNames).toEqual(["n", "name", "tags"]);
    expect(objectType({})).toBe(emptyObjectType);
  });

  test("the same attributes in another order give the same type", () => {
    const a = objectType({ b: stringType, a: numberType });
    const b = objectType({ a: numberType, b: stringType });
    expect(a).toBe(b);
    expect(objectType({ b: stringType, a: numberType })).toBe(a);
    expect(a.attributeNames).toEqual(["a", "b"]);
    expect(b.attributeNames).toEqual(["a", "b"]);
    expect(a.attributes.a).toBe(numberType);
    expect(a.attributes.b).toBe(stringType);
  });

  test("types that differ anywhere stay apart", () => {
    const base = objectType({ a: stringType, b: stringType });
    expect(objectType({ a: stringType })).not.toBe(base);
    expect(objectType({ a: stringType, b: numberType })).not.toBe(base);
    expect(objectType({ a: stringType, c: stringType })).not.toBe(base);
    // Names that would run together if keys were mere concatenations.
    const x = objectType({ "a1:b": stringType });
    const y = objectType({ a: stringType, b: stringType });
    expect(x).not.toBe(y);
    expect(x.attributeNames).toEqual(["a1:b"]);
    expect(tupleType([stringType, numberType])).toBe(tupleType([stringType, numberType]));
    expect(tupleType([stringType, numberType])).not.toBe(tupleType([numberType, stringType]));
    expect(tupleType([listType(boolType)])).not.toBe(tupleType([setType(boolType)]));
  });

  test("optional markers are kept and not shared with the plain type", () => {
    const plain = objectType({ a: stringType, b: numberType });
    const opt = objectType({ a: stringType, b: numberType }, ["b"]);
    expect(opt).not.toBe(plain);
    expect([...opt.optional]).toEqual(["b"]);
    expect(plain.optional.size).toBe(0);
    expect(typeEquals(opt, plain)).toBe(false);
    expect(() => objectType({ a: stringType }, ["z"])).toThrow(RangeError);
  });

  test("values of one shape share their type, and attributes given in any order land by name", () => {
    const v1 = objectVal({ z: stringVal("last"), a: numberVal(1), m: listVal([stringVal("x")]) });
    const v2 = objectVal({ z: stringVal("other"), a: numberVal(2), m: listVal([stringVal("y")]) });
    expect(v1.type).toBe(v2.type);
    expect((v1.type as ObjectType).attributeNames).toEqual(["a", "m", "z"]);
    expect(v1.getAttr("z").asString()).toBe("last");
    expect(v1.getAttr("a").asNumber().toString()).toBe("1");
    expect(v1.getAttr("m").elements()[0]!.asString()).toBe("x");
    const v3 = objectVal(new Map([["a", numberVal(3)], ["z", stringVal("map")], ["m", listVal([stringVal("w")])]]));
    expect(v3.type).toBe(v1.type);
    expect(v3.getAttr("z").asString()).toBe("map");
    expect(v3.equals(objectVal({ m: listVal([stringVal("w")]), z: stringVal("map"), a: numberVal(3) })).asBool()).toBe(true);
    expect(mapVal({ k: stringVal("v") }).type).toBe(mapVal({ j: stringVal("w") }).type);
    expect(tupleVal([stringVal("a")]).type).toBe(tupleVal([stringVal("b")]).type);
  });

  test("past the table's bound, types are still made correctly and shared again", () => {
    const many: ObjectType[] = [];
    for (let i = 0; i < 60_000; i++) many.push(objectType({ [`attr${i}`]: stringType }));
    expect(many[0]!.attributeNames).toEqual(["attr0"]);
    expect(typeEquals(many[0]!, objectType({ attr0: stringType }))).toBe(true);
    const fresh = objectType({ after: listType(stringType) });
    expect(objectType({ after: listType(stringType) })).toBe(fresh);
  }, 60_000);
});
