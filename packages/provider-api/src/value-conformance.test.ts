import { dynamicType, listType, listVal, mapType, mapVal, nullVal, numberType, numberVal, objectType, objectVal, setType, stringType, stringVal, unknownVal, type Value, type Type } from "@magma/cty";
import { valueConformance } from "./value-conformance.js";

const fits = (v: Value, t: Type): boolean => valueConformance(v, t) === undefined;

test("a value fits its own type and any type equal to it", () => {
  const v = objectVal({ name: stringVal("a"), tags: mapVal({ k: stringVal("v") }), ports: listVal([numberVal(80)]) });
  expect(fits(v, v.type)).toBe(true);
  expect(fits(v, objectType({ ports: listType(numberType), tags: mapType(stringType), name: stringType }))).toBe(true);
  expect(fits(nullVal(v.type), v.type)).toBe(true);
  expect(fits(unknownVal(v.type), v.type)).toBe(true);
});

test("dynamic places take anything", () => {
  expect(fits(stringVal("x"), dynamicType)).toBe(true);
  expect(fits(objectVal({ a: listVal([stringVal("x")]) }), objectType({ a: dynamicType }))).toBe(true);
});

test("a value of another type is refused at the first place it differs", () => {
  const v = objectVal({ name: stringVal("a"), ports: listVal([numberVal(80)]) });
  const extra = valueConformance(v, objectType({ name: stringType }));
  expect(extra?.reason).toBe('unexpected attribute "ports"');
  const missing = valueConformance(v, objectType({ name: stringType, ports: listType(numberType), id: stringType }));
  expect(missing?.reason).toBe('attribute "id" is required');
  const kind = valueConformance(v, objectType({ name: stringType, ports: setType(numberType) }));
  expect(kind?.path.toString()).toContain("ports");
  expect(kind?.reason).toBe("expected set(number), got list of number");
  const nested = valueConformance(v, objectType({ name: numberType, ports: listType(numberType) }));
  expect(nested?.reason).toBe("expected number, got string");
  expect(valueConformance(nullVal(stringType), numberType)?.reason).toBe("expected number, got string");
});
