import {
  Mark,
  listType,
  listVal,
  listValEmpty,
  nullVal,
  numberType,
  numberVal,
  objectType,
  objectVal,
  setType,
  setValEmpty,
  stringType,
  stringVal,
  unknownVal,
  mapValEmpty,
  Path,
  setVal,
} from "@magma/cty";
import { normalizeLegacyObject } from "./normalize-legacy-object.js";
import { impliedType, type Block } from "./schema.js";

const rule: Block = { attributes: { port: { type: numberType, optional: true }, cidr: { type: stringType, optional: true } } };
const block: Block = {
  attributes: { name: { type: stringType, required: true } },
  blockTypes: {
    rules: { nesting: "list", block: rule },
    tags: { nesting: "set", block: rule },
    timeouts: { nesting: "single", block: { attributes: { create: { type: stringType, optional: true } } } },
    group: { nesting: "group", block: { attributes: { x: { type: stringType, optional: true } } } },
    named: { nesting: "map", block: rule },
  },
};
const t = impliedType(block);
const ruleType = impliedType(rule);

test("null block collections become empty, a null group its empty value, single stays null", () => {
  const v = objectVal({
    name: stringVal("a"),
    rules: nullVal(listType(ruleType)),
    tags: nullVal(setType(ruleType)),
    timeouts: nullVal(objectType({ create: stringType })),
    group: nullVal(objectType({ x: stringType })),
    named: mapValEmpty(ruleType),
  });
  const n = normalizeLegacyObject(block, v);
  expect(n.getAttr("rules").rawEquals(listValEmpty(ruleType))).toBe(true);
  expect(n.getAttr("tags").rawEquals(setValEmpty(ruleType))).toBe(true);
  expect(n.getAttr("timeouts").isNull()).toBe(true);
  expect(n.getAttr("group").rawEquals(objectVal({ x: nullVal(stringType) }))).toBe(true);
  expect(n.getAttr("named").rawEquals(mapValEmpty(ruleType))).toBe(true);
  expect(n.type).toEqual(t);
});

test("unknown blocks become known objects of unknown leaves", () => {
  const v = objectVal({
    name: unknownVal(stringType),
    rules: unknownVal(listType(ruleType)),
    tags: unknownVal(setType(ruleType)),
    timeouts: unknownVal(objectType({ create: stringType })),
    group: unknownVal(objectType({ x: stringType })),
    named: unknownVal(t.attributes["named"]!),
  });
  const n = normalizeLegacyObject(block, v);
  const stub = objectVal({ cidr: unknownVal(stringType), port: unknownVal(numberType) });
  expect(n.getAttr("name").isKnown()).toBe(false);
  expect(n.getAttr("rules").rawEquals(listVal([stub]))).toBe(true);
  expect(n.getAttr("tags").length()).toBe(1);
  expect(n.getAttr("timeouts").rawEquals(objectVal({ create: unknownVal(stringType) }))).toBe(true);
  expect(n.getAttr("named").isKnown()).toBe(false); // map blocks are left alone
});

test("known elements are kept (recursively normalised), marks stay at their paths, a null object stays null", () => {
  const r = objectVal({ port: numberVal(443), cidr: stringVal("0.0.0.0/0").mark(Mark.Sensitive) });
  const v = objectVal({
    name: stringVal("a"),
    rules: listVal([r]),
    tags: setVal([objectVal({ port: numberVal(1), cidr: nullVal(stringType) })]),
    timeouts: objectVal({ create: stringVal("5m") }),
    group: objectVal({ x: stringVal("y") }),
    named: mapValEmpty(ruleType),
  });
  const n = normalizeLegacyObject(block, v);
  expect(n.rawEquals(v)).toBe(true);
  expect(n.getPath(Path.root.attr("rules").index(0).attr("cidr")).isMarked(Mark.Sensitive)).toBe(true);
  expect(normalizeLegacyObject(block, nullVal(t)).rawEquals(nullVal(t))).toBe(true);
});
