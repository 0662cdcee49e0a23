import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as cty from "@magma/cty";
import {
  listVal,
  listValEmpty,
  mapVal,
  nullVal,
  numberType,
  numberVal,
  objectVal,
  setVal,
  stringType,
  stringVal,
  typeFromJsonValue,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import { configValue } from "./config-value.js";
import { proposedNewState } from "./proposed-new-state.js";
import { impliedType, type Attribute, type Block } from "./schema.js";

const here = dirname(fileURLToPath(import.meta.url));
const s = (x: string): Value => stringVal(x);

const block: Block = {
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    oc: { type: stringType, optional: true, computed: true },
    opt: { type: stringType, optional: true },
    nested_oc: { optional: true, computed: true, nestedType: { nesting: "single", attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    nested_list: { optional: true, nestedType: { nesting: "list", attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
  },
  blockTypes: {
    single: { nesting: "single", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    group: { nesting: "group", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    lst: { nesting: "list", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    st: { nesting: "set", block: { attributes: { a: { type: stringType, optional: true }, n: { type: numberType, optional: true }, c: { type: stringType, computed: true } } } },
    mp: { nesting: "map", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
  },
};
const t = impliedType(block);
const cfg = (plain: Record<string, unknown>): Value => configValue(block, plain);

/** A prior state: the config with computed values filled in. */
function state(plain: Record<string, unknown>): Value {
  return configValue(block, plain);
}

describe("proposedNewState (hand-built cases)", () => {
  test("both null → null; null config (destroy) → null", () => {
    expect(proposedNewState(block, nullVal(t), nullVal(t)).rawEquals(nullVal(t))).toBe(true);
    const prior = state({ id: "i", name: "n" });
    expect(proposedNewState(block, prior, nullVal(t)).rawEquals(nullVal(t))).toBe(true);
  });

  test("create: the proposal equals the config (computed attributes stay null)", () => {
    const c = cfg({ name: "n", single: { a: "x" }, lst: [{ a: "1" }], st: [{ a: "s" }], mp: { k: { a: "m" } } });
    expect(proposedNewState(block, nullVal(t), c).rawEquals(c)).toBe(true);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>, (v: Value) => void]>([
    [
      "computed attribute null in config takes the prior value; optional takes config even when null",
      { id: "i1", name: "n", oc: "computed-before", opt: "o" },
      { name: "n2" },
      (v) => {
        expect(v.getAttr("id").rawEquals(s("i1"))).toBe(true);
        expect(v.getAttr("oc").rawEquals(s("computed-before"))).toBe(true);
        expect(v.getAttr("opt").isNull()).toBe(true);
        expect(v.getAttr("name").rawEquals(s("n2"))).toBe(true);
      },
    ],
    [
      "optional+computed set in config takes config",
      { id: "i1", name: "n", oc: "old" },
      { name: "n", oc: "new" },
      (v) => expect(v.getAttr("oc").rawEquals(s("new"))).toBe(true),
    ],
    [
      "optional+computed nested attribute removed from config: prior with a non-computed leaf → null",
      { id: "i", name: "n", nested_oc: { a: "user", c: "gen" } },
      { name: "n" },
      (v) => expect(v.getAttr("nested_oc").isNull()).toBe(true),
    ],
    [
      "optional+computed nested attribute whose prior has only computed leaves keeps the prior",
      { id: "i", name: "n", nested_oc: { c: "gen" } },
      { name: "n" },
      (v) => expect(v.getAttr("nested_oc").getAttr("c").rawEquals(s("gen"))).toBe(true),
    ],
    [
      "nested list attribute pairs by index and carries computed values",
      { id: "i", name: "n", nested_list: [{ a: "1", c: "c1" }] },
      { name: "n", nested_list: [{ a: "1x" }, { a: "2" }] },
      (v) => {
        const l = v.getAttr("nested_list");
        expect(l.index(0).getAttr("c").rawEquals(s("c1"))).toBe(true);
        expect(l.index(0).getAttr("a").rawEquals(s("1x"))).toBe(true);
        expect(l.index(1).getAttr("c").isNull()).toBe(true);
      },
    ],
    [
      "single block: null in config stays null; present recurses",
      { id: "i", name: "n", single: { a: "x", c: "cs" } },
      { name: "n", single: { a: "y" } },
      (v) => expect(v.getAttr("single").getAttr("c").rawEquals(s("cs"))).toBe(true),
    ],
    [
      "single block removed from config → null",
      { id: "i", name: "n", single: { a: "x", c: "cs" } },
      { name: "n" },
      (v) => expect(v.getAttr("single").isNull()).toBe(true),
    ],
    [
      "group block always recurses",
      { id: "i", name: "n", group: { a: "x", c: "cg" } },
      { name: "n" },
      (v) => {
        expect(v.getAttr("group").getAttr("c").rawEquals(s("cg"))).toBe(true);
        expect(v.getAttr("group").getAttr("a").isNull()).toBe(true);
      },
    ],
    [
      "list block pairs by index; extra config elements are taken as is",
      { id: "i", name: "n", lst: [{ a: "1", c: "c1" }] },
      { name: "n", lst: [{ a: "other" }, { a: "2" }] },
      (v) => {
        const l = v.getAttr("lst");
        expect(l.index(0).getAttr("c").rawEquals(s("c1"))).toBe(true);
        expect(l.index(1).getAttr("c").isNull()).toBe(true);
      },
    ],
    [
      "map block pairs by key",
      { id: "i", name: "n", mp: { k1: { a: "1", c: "c1" }, k2: { a: "2", c: "c2" } } },
      { name: "n", mp: { k2: { a: "2x" }, k3: { a: "3" } } },
      (v) => {
        const m = v.getAttr("mp");
        expect(m.index("k2").getAttr("c").rawEquals(s("c2"))).toBe(true);
        expect(m.index("k3").getAttr("c").isNull()).toBe(true);
        expect(m.length()).toBe(2);
      },
    ],
    [
      "set block: an element pairs with the prior element that differs only in computed attributes",
      { id: "i", name: "n", st: [{ a: "x", n: 1, c: "cx" }, { a: "y", n: 2, c: "cy" }] },
      { name: "n", st: [{ a: "y", n: 2 }, { a: "z", n: 3 }] },
      (v) => {
        const es = v.getAttr("st").elements();
        const y = es.find((e) => e.getAttr("a").rawEquals(s("y")))!;
        const z = es.find((e) => e.getAttr("a").rawEquals(s("z")))!;
        expect(y.getAttr("c").rawEquals(s("cy"))).toBe(true);
        expect(z.getAttr("c").isNull()).toBe(true);
      },
    ],
    [
      "set block: a change in a non-computed attribute breaks the pairing",
      { id: "i", name: "n", st: [{ a: "x", n: 1, c: "cx" }] },
      { name: "n", st: [{ a: "x", n: 2 }] },
      (v) => expect(v.getAttr("st").elements()[0]!.getAttr("c").isNull()).toBe(true),
    ],
  ])("%s", (_name, priorPlain, configPlain, check) => {
    check(proposedNewState(block, state(priorPlain), cfg(configPlain)));
  });

  test("set block: a config element with a computed attribute set does not pair", () => {
    const prior = state({ id: "i", name: "n", st: [{ a: "x", c: "cx" }] });
    const v = proposedNewState(block, prior, cfg({ name: "n", st: [{ a: "x", c: "mine" }] }));
    expect(v.getAttr("st").elements()[0]!.getAttr("c").rawEquals(s("mine"))).toBe(true);
  });

  test("set block: an unknown (refined) value in a non-computed attribute prevents pairing", () => {
    const prior = state({ id: "i", name: "n", st: [{ a: "x", c: "cx" }] });
    const refined = unknownVal(stringType, { notNull: true, stringPrefix: "x" });
    const config = objectVal({ ...cfg({ name: "n" }).attributes(), st: setVal([objectVal({ a: refined, n: nullVal(numberType), c: nullVal(stringType) })]) });
    // the unknown `a` differs from the prior's "x" and `a` is not computed: no pairing, c stays null
    const v = proposedNewState(block, prior, config);
    expect(v.getAttr("st").elements()[0]!.getAttr("c").isNull()).toBe(true);
  });

  test("unknown block collection in config is taken as is", () => {
    const prior = state({ id: "i", name: "n", lst: [{ a: "1", c: "c1" }] });
    const unknownList = unknownVal(t.attributes["lst"]!);
    const config = objectVal({ ...cfg({ name: "n" }).attributes(), lst: unknownList });
    expect(proposedNewState(block, prior, config).getAttr("lst").rawEquals(unknownList)).toBe(true);
  });

  test("unknown attribute in config is taken as is", () => {
    const prior = state({ id: "i", name: "n", opt: "o" });
    const config = cfg({ name: "n", opt: unknownVal(stringType) });
    expect(proposedNewState(block, prior, config).getAttr("opt").isKnown()).toBe(false);
  });

  test("the result has the block's implied type", () => {
    const prior = state({ id: "i", name: "n", lst: [{ a: "1", c: "c1" }], mp: { k: { a: "a" } } });
    const v = proposedNewState(block, prior, cfg({ name: "n", lst: [] }));
    expect(cty.typeEquals(v.type, t)).toBe(true);
    expect(v.getAttr("lst").rawEquals(listValEmpty(impliedType(block.blockTypes!["lst"]!.block)))).toBe(true);
    expect(mapVal({ x: numberVal(1) }).type.kind).toBe("map");
    expect(listVal([s("a")]).length()).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------
// Proposals captured from terraform 1.11.4 (testdata/capture, see capture.mjs)

type JsonAttribute = { type?: unknown; nestedType?: { nesting: string; attributes: Record<string, JsonAttribute> } } & Record<string, unknown>;
type JsonBlock = { attributes?: Record<string, JsonAttribute>; blockTypes?: Record<string, { nesting: string; block: JsonBlock }> };

function attributeFromJson(a: JsonAttribute): Attribute {
  const { type, nestedType, ...rest } = a;
  const out: Record<string, unknown> = { ...rest };
  if (type !== undefined) out["type"] = typeFromJsonValue(type) as Type;
  if (nestedType !== undefined) {
    out["nestedType"] = { nesting: nestedType.nesting, attributes: Object.fromEntries(Object.entries(nestedType.attributes).map(([n, x]) => [n, attributeFromJson(x)])) };
  }
  return out as Attribute;
}

function blockFromJson(b: JsonBlock): Block {
  return {
    attributes: Object.fromEntries(Object.entries(b.attributes ?? {}).map(([n, a]) => [n, attributeFromJson(a)])),
    blockTypes: Object.fromEntries(Object.entries(b.blockTypes ?? {}).map(([n, nb]) => [n, { nesting: nb.nesting, block: blockFromJson(nb.block) } as Block["blockTypes"] extends infer R ? R extends Record<string, infer V> ? V : never : never])),
  };
}

const schemaJson = JSON.parse(readFileSync(join(here, "../testdata/capture/schema.json"), "utf8")) as { block: JsonBlock };
const captured = JSON.parse(readFileSync(join(here, "../testdata/capture/proposals.json"), "utf8")) as {
  terraform: string;
  proposals: { phase: string; typeName: string; prior: string; config: string; proposed: string }[];
};
const fromMsgpack = (cty as unknown as { fromMsgpack?: (bytes: Uint8Array, type: Type) => Value }).fromMsgpack;
const withCodec = fromMsgpack === undefined ? describe.skip : describe;

withCodec(`proposedNewState matches ${captured.terraform}`, () => {
  const capturedBlock = blockFromJson(schemaJson.block);
  const ct = impliedType(capturedBlock);
  const decode = (hex: string): Value => fromMsgpack!(Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)), ct);

  test("the fixtures cover creates, updates and destroys", () => {
    expect(new Set(captured.proposals.map((p) => p.phase))).toEqual(new Set(["create", "update1", "update2", "destroy"]));
    expect(captured.proposals.length).toBeGreaterThanOrEqual(10);
  });

  test.each(captured.proposals.map((p, i) => [`${i} ${p.phase} ${p.typeName}`, p] as const))("%s", (_name, p) => {
    const prior = decode(p.prior);
    const config = decode(p.config);
    const want = decode(p.proposed);
    const got = proposedNewState(capturedBlock, prior, config);
    if (!got.rawEquals(want)) expect(got.toString()).toBe(want.toString());
    expect(got.rawEquals(want)).toBe(true);
  });

  test("configValue builds the config terraform sent on create", () => {
    const first = captured.proposals.find((p) => p.phase === "create" && decode(p.config).getAttr("name").rawEquals(s("one")))!;
    const built = configValue(capturedBlock, {
      name: "one",
      opt: "o1",
      oc: "set-by-user",
      num: "0.1",
      tags: { a: "1", b: "2" },
      labels: ["z", "a", "m"],
      nested_single: { a: "s1" },
      nested_oc: { a: "noc" },
      nested_list: [{ a: "l1" }, { a: "l2" }],
      nested_set: [{ a: "s1" }, { a: "s2" }],
      nested_map: { k1: { a: "m1" }, k2: { a: "m2" } },
      single_blk: { a: "sb" },
      group_blk: { a: "gb" },
      list_blk: [{ a: "lb1" }, { a: "lb2", oc: "user" }],
      set_blk: [{ a: "sb1", n: 1, inner: [{ x: "i1" }] }, { a: "sb2", n: 2 }],
      map_blk: { k1: { a: "mb1" }, k2: { a: "mb2" } },
    });
    const want = decode(first.config);
    if (!built.rawEquals(want)) expect(built.toString()).toBe(want.toString());
    expect(built.rawEquals(want)).toBe(true);
  });
});
