import { listVal, nullVal, objectType, objectVal, setVal, stringType, stringVal, unknownVal, type Path } from "@magma/cty";
import type { Block } from "@magma/provider-api";
import { schemaSensitivePaths } from "./schema-sensitive.js";

const steps = (ps: Path[]): (string | number)[][] => ps.map((p) => p.steps.map((s) => (s.kind === "attr" ? s.name : s.kind === "index" ? Number(s.index) : s.key)));

const block: Block = {
  attributes: {
    secret: { type: stringType, sensitive: true, optional: true },
    plain: { type: stringType, optional: true },
    nested: { nestedType: { nesting: "list", attributes: { key: { type: stringType, sensitive: true, optional: true }, open: { type: stringType, optional: true } } }, optional: true },
    clear: { nestedType: { nesting: "single", attributes: { open: { type: stringType, optional: true } } }, optional: true },
  },
  blockTypes: {
    rule: { nesting: "list", block: { attributes: { token: { type: stringType, sensitive: true, optional: true } } } },
    tags: { nesting: "set", block: { attributes: { pw: { type: stringType, sensitive: true, optional: true } } } },
    plainBlock: { nesting: "list", block: { attributes: { name: { type: stringType, optional: true } } } },
  },
};

test("sensitive attributes, inside nested attribute types and nested blocks; a set holding one is marked whole", () => {
  const v = objectVal({
    secret: stringVal("s"),
    plain: stringVal("p"),
    nested: listVal([objectVal({ key: stringVal("k1"), open: stringVal("o") }), objectVal({ key: stringVal("k2"), open: stringVal("o") })]),
    clear: objectVal({ open: stringVal("o") }),
    rule: listVal([objectVal({ token: stringVal("t") })]),
    tags: setVal([objectVal({ pw: stringVal("x") })]),
    plainBlock: listVal([objectVal({ name: stringVal("n") })]),
  });
  expect(steps(schemaSensitivePaths(v, block))).toEqual([["secret"], ["nested", 0, "key"], ["nested", 1, "key"], ["rule", 0, "token"], ["tags"]]);
});

test("null and unknown parts have no paths inside them", () => {
  const v = objectVal({
    secret: nullVal(stringType),
    plain: stringVal("p"),
    nested: unknownVal(listVal([objectVal({ key: stringVal("k"), open: stringVal("o") })]).type),
    clear: nullVal(objectType({ open: stringType })),
    rule: listVal([objectVal({ token: stringVal("t") })]),
  });
  expect(steps(schemaSensitivePaths(v, block))).toEqual([["secret"], ["rule", 0, "token"]]);
  expect(schemaSensitivePaths(nullVal(v.type), block)).toEqual([]);
});

test("a schema without sensitive attributes gives none, whatever the value", () => {
  const plainSchema: Block = { attributes: { a: { type: stringType, optional: true } }, blockTypes: { b: { nesting: "list", block: { attributes: { c: { type: stringType, optional: true } } } } } };
  expect(schemaSensitivePaths(objectVal({ a: stringVal("x"), b: listVal([objectVal({ c: stringVal("y") })]) }), plainSchema)).toEqual([]);
});
