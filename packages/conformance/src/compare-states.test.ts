import { mapVal, nullVal, numberVal, objectType, objectVal, stringType, stringVal, mapType, numberType } from "@magma/cty";
import { replaceGenerated, stateDifferences, stateJson } from "./compare-states.js";

const t = objectType({ id: stringType, n: numberType, tags: mapType(stringType) });

test("stateJson is the cty JSON of the object, parsed (nulls kept)", () => {
  const v = objectVal({ id: stringVal("a"), n: numberVal(7), tags: nullVal(mapType(stringType)) });
  expect(stateJson(v, t)).toEqual({ id: "a", n: 7, tags: null });
});

test("stateDifferences lists differing and one-sided attributes, sorted", () => {
  const m = { id: "a", n: 7, tags: { k: "v" }, only_magma: 1 };
  const tf = { id: "a", n: 8, tags: { k: "v" }, only_tf: null };
  expect(stateDifferences(m, tf)).toEqual([
    { attribute: "n", magma: 7, terraform: 8 },
    { attribute: "only_magma", magma: 1, terraform: undefined },
    { attribute: "only_tf", magma: undefined, terraform: null },
  ]);
});

test("stateDifferences compares nested values deeply: key order does not matter, list order does", () => {
  expect(stateDifferences({ a: { x: 1, y: [1, 2] } }, { a: { y: [1, 2], x: 1 } })).toEqual([]);
  expect(stateDifferences({ a: [1, 2] }, { a: [2, 1] })).toHaveLength(1);
  expect(stateDifferences({ a: null }, { a: {} })).toHaveLength(1);
});

test("replaceGenerated rewrites generated ids everywhere, and only them", () => {
  const norm = replaceGenerated([[/eipalloc-[0-9a-f]{17}/g, "eipalloc-<generated>"]]);
  const m = stateJson(objectVal({ id: stringVal("eipalloc-0123456789abcdef0"), n: numberVal(1), tags: mapVal({ ref: stringVal("x/eipalloc-fedcba9876543210f") }) }), t);
  const tf = { id: "eipalloc-aaaaaaaaaaaaaaaaa", n: 1, tags: { ref: "x/eipalloc-bbbbbbbbbbbbbbbbb" } };
  expect(stateDifferences(m, tf, norm)).toEqual([]);
  expect(stateDifferences({ id: "eipalloc-short" }, { id: "eipalloc-aaaaaaaaaaaaaaaaa" }, norm)).toEqual([
    { attribute: "id", magma: "eipalloc-short", terraform: "eipalloc-<generated>" },
  ]);
});
