import { isPathError, nullVal, numberType, numberVal, objectType, objectVal, stringType, stringVal, toMsgpack, unknownVal } from "@magma/cty";
import { dynamicValueFromProto, dynamicValueToProto } from "./dynamic-value.js";

const t = objectType({ a: stringType, n: numberType });
const EMPTY = new Uint8Array(0);

describe("DynamicValue", () => {
  test("msgpack with the type, json empty; decodes back, unknowns included", () => {
    const v = objectVal({ a: stringVal("x"), n: unknownVal(numberType) });
    const dv = dynamicValueToProto(v, t);
    expect(dv.json.length).toBe(0);
    expect(dv.msgpack).toEqual(toMsgpack(v, t));
    expect(dynamicValueFromProto(dv, t).rawEquals(v)).toBe(true);
  });

  test("JSON is read when msgpack is empty; absent or empty is null", () => {
    const json = new TextEncoder().encode('{"a":"j","n":2}');
    expect(dynamicValueFromProto({ msgpack: EMPTY, json }, t).rawEquals(objectVal({ a: stringVal("j"), n: numberVal(2) }))).toBe(true);
    expect(dynamicValueFromProto(undefined, t).rawEquals(nullVal(t))).toBe(true);
    expect(dynamicValueFromProto({ msgpack: EMPTY, json: EMPTY }, t).rawEquals(nullVal(t))).toBe(true);
  });

  test("a value of another type fails with cty's path error", () => {
    let caught: unknown;
    try {
      dynamicValueToProto(objectVal({ a: numberVal(1), n: numberVal(1) }), objectType({ a: objectType({}), n: numberType }));
    } catch (e) {
      caught = e;
    }
    expect(isPathError(caught)).toBe(true);
  });
});
