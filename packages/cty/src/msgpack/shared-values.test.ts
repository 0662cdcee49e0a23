// fromMsgpack shares the Value of a recurring short ASCII string or integer (bounded,
// direct-mapped caches): these tests check that sharing never changes what is decoded —
// under slot collisions, at the length limits, next to non-ASCII text and big integers.
import { listType, mapType, numberType, objectType, stringType } from "../type.js";
import { listVal, mapVal, numberVal, objectVal, stringVal } from "../construction.js";
import { fromMsgpack, toMsgpack } from "./index.js";

describe("fromMsgpack with recurring strings and numbers", () => {
  test("thousands of distinct short strings (slot collisions) decode to themselves, in any order, twice", () => {
    const texts: string[] = [];
    for (let i = 0; i < 6000; i++) texts.push(`s${(i * 7919) % 6000}-${i % 13}`);
    // A second pass over the same strings in another order: hits, misses and evictions mixed.
    const all = [...texts, ...[...texts].reverse(), "", "a", "a"];
    const value = listVal(all.map((s) => stringVal(s)));
    const type = listType(stringType);
    for (let round = 0; round < 2; round++) {
      const decoded = fromMsgpack(toMsgpack(value, type), type);
      expect(decoded.rawEquals(value)).toBe(true);
      expect(decoded.elements().map((v) => v.asString())).toEqual(all);
    }
  });

  test("strings at and beyond the cached length, and non-ASCII text, decode exactly", () => {
    const cases = [
      "x".repeat(31),
      "x".repeat(32),
      "x".repeat(33),
      "y".repeat(64),
      "y".repeat(65),
      "café",
      "cafe\u0301", // NFD: decoded as NFC, as go-cty's StringVal does
      "日本語",
      "x".repeat(32), // again, after the others
    ];
    const type = listType(stringType);
    const bytes = toMsgpack(listVal(cases.map((s) => stringVal(s))), type);
    const decoded = fromMsgpack(bytes, type).elements().map((v) => v.asString());
    expect(decoded).toEqual(cases.map((s) => s.normalize("NFC")));
  });

  test("a string repeated across objects and map values decodes to one shared, equal value", () => {
    const type = listType(objectType({ region: stringType, tags: mapType(stringType) }));
    const item = (i: number) =>
      objectVal({ region: stringVal("eu-west-1"), tags: mapVal({ Team: stringVal(`team-${i % 3}`), Env: stringVal("eu-west-1") }) });
    const value = listVal([item(0), item(1), item(2), item(3)]);
    const decoded = fromMsgpack(toMsgpack(value, type), type);
    expect(decoded.rawEquals(value)).toBe(true);
    const regions = decoded.elements().map((o) => o.getAttr("region"));
    expect(regions[0]).toBe(regions[3]);
    expect(regions[0]!.asString()).toBe("eu-west-1");
  });

  test("integers across the whole range, repeated, decode exactly", () => {
    const ints = [
      0, 1, -1, 127, 128, -128, -129, 1023, 1024, 8080, 8080, -8080, 65535, 65536,
      2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 40, -(2 ** 40), 2 ** 53 - 1, -(2 ** 53 - 1),
    ];
    for (let i = 0; i < 5000; i++) ints.push(1024 + ((i * 104729) % 100000) * (i % 2 === 0 ? 1 : -1));
    const value = listVal([...ints, ...ints].map((n) => numberVal(n)));
    const type = listType(numberType);
    const decoded = fromMsgpack(toMsgpack(value, type), type);
    expect(decoded.rawEquals(value)).toBe(true);
    expect(decoded.elements().map((v) => v.asNumber().toNumber())).toEqual([...ints, ...ints]);
  });
});
